// MJCF writer (see mjcf.hpp).
#include "mjcf.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace mechdyn::bench {

namespace {

// Shortest decimal that reads back as the same double.
std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string vec(const Vec3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }

constexpr double kMinimumMoment = 1e-12;  // kg·m², see write_body

// Principal moments and the quaternion (w x y z) of the principal axes of a symmetric
// inertia J = R diag(d) Rᵀ, R a proper rotation.
void principal_inertia(const Mat3& inertia, Vec3& moments, Quat& orientation) {
  const Eigen::SelfAdjointEigenSolver<Mat3> solver(0.5 * (inertia + inertia.transpose()));
  Mat3 axes = solver.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
  moments = solver.eigenvalues();
  orientation = Quat(axes).normalized();
}

void write_body(const Model& model, int l, int indent, std::ostringstream& out) {
  const Body& body = model.bodies[l];
  const Joint& joint = model.joints[l];
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  out << pad << "<body name=\"" << body.name << "\" pos=\"" << vec(joint.origin) << "\">\n";
  switch (joint.type) {
    case JointType::Revolute:
      out << pad << "  <joint name=\"" << joint.name << "\" type=\"hinge\" axis=\"" << vec(joint.axis) << "\"/>\n";
      break;
    case JointType::Prismatic:
      out << pad << "  <joint name=\"" << joint.name << "\" type=\"slide\" axis=\"" << vec(joint.axis) << "\"/>\n";
      break;
    case JointType::Fixed:
      break;
    default:
      throw std::invalid_argument("mjcf: joint '" + joint.name + "' is " + joint_type_name(joint.type) +
                                  "; only revolute, prismatic and fixed joints are written");
  }
  Vec3 moments;
  Quat orientation;
  principal_inertia(body.inertia, moments, orientation);
  // MuJoCo refuses a moving body with a principal moment below mjMINVAL (1e-15); the
  // slender rods of four_bar.yaml have 0 about their own axis. Such moments are written
  // as kMinimumMoment: it enters the dynamics only through rotation about that
  // principal axis, which a planar mechanism never has.
  moments = moments.cwiseMax(kMinimumMoment);
  out << pad << "  <inertial pos=\"" << vec(body.com) << "\" mass=\"" << number(body.mass) << "\" diaginertia=\""
      << vec(moments) << "\" quat=\"" << number(orientation.w()) << " " << number(orientation.x()) << " "
      << number(orientation.y()) << " " << number(orientation.z()) << "\"/>\n";
  for (int child : model.children[l]) write_body(model, child, indent + 2, out);
  out << pad << "</body>\n";
}

// ---- loops -----------------------------------------------------------------------

// Length ℓ between the two connects of a revolute cut (m). Any ℓ > 0 gives the same
// constraint manifold; 0.1 m is the scale of the benchmark linkages.
constexpr double kRevoluteAxisLength = 0.1;

// World position at q = 0 of a point fixed on `body` (natural frames are all parallel
// to the world there, so the joint origins add up).
Vec3 position_at_zero(const Model& model, int body, const Vec3& point) {
  Vec3 p = point;
  for (int b = body; b != kGround; b = model.bodies[b].parent) p += model.joints[b].origin;
  return p;
}

// True when every joint from ground to `body` keeps it moving in planes normal to the
// unit vector n: revolute about an axis parallel to n, prismatic perpendicular to n, or
// fixed. (Rotations about n keep such axes parallel or perpendicular to n.)
bool moves_in_plane(const Model& model, int body, const Vec3& n) {
  constexpr double kTolerance = 1e-12;
  for (int b = body; b != kGround; b = model.bodies[b].parent) {
    const Joint& joint = model.joints[b];
    const double length = joint.axis.norm();
    switch (joint.type) {
      case JointType::Fixed:
        break;
      case JointType::Revolute:
        if (joint.axis.cross(n).norm() > kTolerance * length) return false;
        break;
      case JointType::Prismatic:
        if (std::abs(joint.axis.dot(n)) > kTolerance * length) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

// Appends the connects of loop `index` to `out` (when not null); returns why MuJoCo
// cannot express the loop, or "" when it can.
std::string loop_connects(const Model& model, int index, std::vector<MjcfConnect>* out) {
  const Loop& loop = model.loops[static_cast<std::size_t>(index)];
  // MuJoCo's body1 must be a body: a world-fixed side becomes body2 (the world).
  BodyPoint side1 = loop.a, side2 = loop.b;
  if (side1.body == kGround) std::swap(side1, side2);
  auto add = [&](const std::string& name, const Vec3& anchor1, const Vec3& anchor2) {
    if (out != nullptr) out->push_back({name, index, side1.body, side2.body, anchor1, anchor2});
  };
  switch (loop.type) {
    case LoopType::Spherical:  // p_a = p_b
      add(loop.name, side1.point, side2.point);
      return "";
    case LoopType::Revolute: {  // p_a = p_b and R_a n = R_b n (n = loop.axis in both body frames)
      const Vec3 along = kRevoluteAxisLength * loop.axis.normalized();
      add(loop.name, side1.point, side2.point);
      add(loop.name + "/2", side1.point + along, side2.point + along);
      return "";
    }
    case LoopType::PlanarRevolute: {  // the in-plane components of p_a − p_b vanish
      const Vec3 n = loop.axis.normalized();
      if (!moves_in_plane(model, loop.a.body, n) || !moves_in_plane(model, loop.b.body, n))
        return "is planar-revolute in a spatial mechanism (its bodies do not move in planes normal to its axis)";
      // In planar motion n·(p_1 − p_2) keeps its value at q = 0, and n is the same vector
      // in every frame involved: shifting anchor 2 by it makes that row hold identically.
      const double offset = n.dot(position_at_zero(model, side1.body, side1.point) -
                                  position_at_zero(model, side2.body, side2.point));
      add(loop.name, side1.point, side2.point + offset * n);
      return "";
    }
    default:
      return std::string("is ") + loop_type_name(loop.type) +
             "; only spherical, revolute and planar-revolute cut joints are written";
  }
}

}  // namespace

std::vector<MjcfConnect> mjcf_connects(const Model& model) {
  std::vector<MjcfConnect> connects;
  for (int i = 0; i < static_cast<int>(model.loops.size()); ++i) {
    const std::string problem = loop_connects(model, i, &connects);
    if (!problem.empty())
      throw std::invalid_argument("mjcf: loop '" + model.loops[static_cast<std::size_t>(i)].name + "' " + problem);
  }
  return connects;
}

bool mjcf_supports(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.type != JointType::Revolute && joint.type != JointType::Prismatic && joint.type != JointType::Fixed)
      return false;
  for (int i = 0; i < static_cast<int>(model.loops.size()); ++i)
    if (!loop_connects(model, i, nullptr).empty()) return false;
  return true;
}

std::string mjcf_from_model(const Model& model) {
  const std::vector<MjcfConnect> connects = mjcf_connects(model);
  std::ostringstream out;
  out << "<mujoco model=\"" << model.name << "\">\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" boundinertia=\"0\"/>\n"
      << "  <option gravity=\"" << vec(model.gravity) << "\" timestep=\"0.001\"";
  // With constraints: the Newton solver (exact on the quadratic problem equality
  // constraints pose), run to a relative improvement of 1e-12.
  if (!connects.empty()) out << " solver=\"Newton\" tolerance=\"1e-12\" iterations=\"100\"";
  out << ">\n"
      << "    <flag contact=\"disable\"/>\n"
      << "  </option>\n"
      << "  <worldbody>\n";
  for (int l = 0; l < model.num_bodies(); ++l)
    if (model.bodies[l].parent == kGround) write_body(model, l, 4, out);
  out << "  </worldbody>\n";
  if (!connects.empty()) {
    // As hard as MuJoCo 2.2.2 allows. solimp: impedance d = 0.9999 at every violation
    // (MuJoCo clamps d to [1e-4, 0.9999]), so the regulariser R = (1 − d)/d · diag(A)
    // (A ≈ J M⁻¹ Jᵀ, MuJoCo's diagonal approximation) is 1e-4 of A's diagonal.
    // solref: time constant 2 × timestep (the smallest the `refsafe` flag keeps),
    // critical damping; it acts only on a residual or constraint velocity, ~0 here.
    out << "  <equality>\n";
    for (const MjcfConnect& c : connects) {
      out << "    <connect name=\"" << c.name << "\" body1=\"" << model.bodies[static_cast<std::size_t>(c.body1)].name
          << "\"";
      if (c.body2 != kGround) out << " body2=\"" << model.bodies[static_cast<std::size_t>(c.body2)].name << "\"";
      out << " anchor=\"" << vec(c.anchor1) << "\" solref=\"0.002 1\" solimp=\"0.9999 0.9999 0.001 0.5 2\"/>\n";
    }
    out << "  </equality>\n";
  }
  out << "</mujoco>\n";
  return out.str();
}

}  // namespace mechdyn::bench
