// MJCF writer (io/mjcf.hpp). Moved here from bench/peers/mjcf.cpp, which the benchmarks
// used to compare mechdyn with MuJoCo 2.2.2; they now call this one. Cost O(bodies + loops).
// Format 3 (docs/robot-files.md): joint elements, friction and armature as joint
// attributes (joint_attributes), couplings as <equality><joint>, spring-dampers as
// two-site spatial tendons, joint-servos as <position> actuators — what read_mjcf reads back.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

#include "mechdyn/errors.hpp"
#include "xml_support.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

namespace {

// Shortest decimal that reads back as the same double (round trip through %.17g).
std::string number(double x) { return shortest_decimal(x); }

std::string vec(const Vec3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }
std::string quat(const Quat& q) {
  return number(q.w()) + " " + number(q.x()) + " " + number(q.y()) + " " + number(q.z());
}

[[noreturn]] void refuse(const Model& model, const std::string& element, const std::string& problem) {
  throw ModelError(model.name + ": " + element + ": " + problem);
}

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

void warn(const Model& model, std::vector<std::string>* warnings, const std::string& element, const std::string& text) {
  if (warnings != nullptr) warnings->push_back(model.name + ": " + element + ": " + text);
}

// The format-3 attributes of hinge/slide joint l (what read_mjcf reads back): its
// joint-spring-damper → stiffness, springref, damping; coulomb_viscous friction without
// load → frictionloss (its viscous term added to damping); armature; the position limits
// → range with limited="true"; a joint-stop → its range and solreflimit "−k −c" (MuJoCo's
// direct stiffness and damping). Warns about what has no place.
std::string joint_attributes(const Model& model, int l, std::vector<std::string>* warnings) {
  const Joint& joint = model.joints[static_cast<std::size_t>(l)];
  const std::string element = "joint '" + joint.name + "'";
  double stiffness = 0.0, damping = 0.0, springref = 0.0, frictionloss = 0.0;
  const ForceElement* spring = nullptr;
  const ForceElement* stop = nullptr;
  for (const ForceElement& force : model.forces) {
    if (!is_joint_element(force.type) || force.joint != l) continue;
    if (force.type == ForceElementType::JointSpringDamper) {
      if (spring != nullptr) {
        warn(model, warnings, "force '" + force.name + "'",
             "not written: joint '" + joint.name + "' has another joint-spring-damper ('" + spring->name +
                 "'), and an MJCF joint has one spring");
        continue;
      }
      spring = &force;
      stiffness = force.stiffness;
      damping = force.damping;
      springref = force.rest;
    } else if (force.type == ForceElementType::JointStop) {
      if (stop != nullptr || !std::isfinite(force.lower) || !std::isfinite(force.upper)) {
        warn(model, warnings, "force '" + force.name + "'",
             stop != nullptr ? "not written: the joint has another joint-stop (an MJCF joint has one range)"
                             : "not written: a one-sided stop has no MJCF range (MuJoCo limits have both bounds)");
        continue;
      }
      stop = &force;
    }
  }
  if (joint.friction) {
    const JointFriction& f = *joint.friction;
    if (f.model == FrictionModel::CoulombViscous && !f.load) {
      frictionloss = f.coulomb;
      if (f.viscous != 0.0) {
        damping += f.viscous;
        warn(model, warnings, element,
             "the friction's viscous term " + number(f.viscous) +
                 " is written as joint damping (read back as the joint-spring-damper '" + joint.name + "_spring')");
      }
    } else {
      warn(model, warnings, element,
           "friction is not written to MJCF (only coulomb_viscous without load: frictionloss and damping)");
    }
  }
  std::ostringstream out;
  if (joint.armature != 0.0) out << " armature=\"" << number(joint.armature) << "\"";
  if (stiffness != 0.0) out << " stiffness=\"" << number(stiffness) << "\"";
  if (springref != 0.0) out << " springref=\"" << number(springref) << "\"";
  if (damping != 0.0) out << " damping=\"" << number(damping) << "\"";
  if (frictionloss != 0.0) out << " frictionloss=\"" << number(frictionloss) << "\"";
  if (spring != nullptr && stiffness == 0.0 && damping == 0.0)
    warn(model, warnings, "force '" + spring->name + "'", "has no stiffness and no damping: nothing to write");
  if (spring != nullptr && spring->name != joint.name + "_spring")
    warn(model, warnings, "force '" + spring->name + "'",
         "written as the joint's stiffness/damping; read back as '" + joint.name + "_spring'");
  double lower = joint.limits ? joint.limits->lower : -kUnbounded;
  double upper = joint.limits ? joint.limits->upper : kUnbounded;
  if (stop != nullptr) {
    if ((std::isfinite(lower) || std::isfinite(upper)) && (lower != stop->lower || upper != stop->upper))
      warn(model, warnings, element, "position limits written as the range of joint-stop '" + stop->name + "'");
    lower = stop->lower;
    upper = stop->upper;
    if (stop->name != joint.name + "_stop")
      warn(model, warnings, "force '" + stop->name + "'", "read back as '" + joint.name + "_stop'");
  }
  if (std::isfinite(lower) && std::isfinite(upper)) {
    out << " limited=\"true\" range=\"" << number(lower) << " " << number(upper) << "\"";
    if (stop != nullptr)
      out << " solreflimit=\"" << number(-stop->stiffness) << " " << number(stop->damping == 0.0 ? 0.0 : -stop->damping)
          << "\"";
  } else if (std::isfinite(lower) || std::isfinite(upper)) {
    warn(model, warnings, element, "a one-sided position limit is not written (an MJCF range has both bounds)");
  }
  return out.str();
}

// Sites of the spring-dampers' ends on body `body` (kGround: the world body).
void write_sites(const Model& model, int body, const std::string& pad, std::ostringstream& out) {
  for (const ForceElement& force : model.forces) {
    if (force.type != ForceElementType::SpringDamper) continue;
    if (force.a.body == body)
      out << pad << "<site name=\"" << io::xml_escaped(force.name) << "/a\" pos=\"" << vec(force.a.point) << "\"/>\n";
    if (force.b.body == body)
      out << pad << "<site name=\"" << io::xml_escaped(force.name) << "/b\" pos=\"" << vec(force.b.point) << "\"/>\n";
  }
}

struct Pose {
  Mat3 rotation = Mat3::Identity();  // body frame in the parent frame
  Vec3 translation = Vec3::Zero();
  std::vector<double> refs;          // the joint's coordinates there (hinge/slide refs)
};

void write_body(const Model& model, int l, int indent, const std::vector<Pose>& poses, std::ostringstream& out,
                std::vector<std::string>* warnings) {
  const Body& body = model.bodies[static_cast<std::size_t>(l)];
  const Joint& joint = model.joints[static_cast<std::size_t>(l)];
  const Pose& pose = poses[static_cast<std::size_t>(l)];
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  out << pad << "<body name=\"" << io::xml_escaped(body.name) << "\" pos=\"" << vec(pose.translation) << "\"";
  if (!pose.rotation.isIdentity(0.0)) out << " quat=\"" << quat(Quat(pose.rotation).normalized()) << "\"";
  out << ">\n";
  auto ref = [&](std::size_t k) {
    return pose.refs.empty() || pose.refs[k] == 0.0 ? std::string() : " ref=\"" + number(pose.refs[k]) + "\"";
  };
  // The joint's MJCF joints (its kind's JointFormat): MuJoCo carries each axis with the
  // joints before it, so a universal joint is two hinges (the second axis turned by the
  // first) and a cylindrical one a hinge and a slide on one axis (read_mjcf joins that pair
  // back). A lone hinge or slide takes the joint's ref and attributes; a fixed joint has none.
  const JointFormat& format = joint_format(joint.type);
  for (int k = 0; k < format.mjcf_count; ++k) {
    const JointFormatElement& e = format.mjcf[k];
    const std::string name = io::xml_escaped(joint.name + e.suffix);
    if (std::string(e.type) == "free") {
      out << pad << "  <freejoint name=\"" << name << "\"/>\n";
      continue;
    }
    out << pad << "  <joint name=\"" << name << "\" type=\"" << e.type << "\"";
    if (e.axis >= 0) out << " axis=\"" << vec(e.axis == 1 ? joint.second_axis : joint.axis) << "\"";
    if (e.axis >= 0 && format.mjcf_count == 1) out << ref(0) << joint_attributes(model, l, warnings);
    out << "/>\n";
  }
  Vec3 moments;
  Quat orientation;
  principal_inertia(body.inertia, moments, orientation);
  // MuJoCo refuses a moving body with a principal moment below mjMINVAL (1e-15); the
  // slender rods of four_bar.yaml have 0 about their own axis. Such moments are written
  // as kMinimumMoment: it enters the dynamics only through rotation about that
  // principal axis, which a planar mechanism never has.
  if (moments.minCoeff() < kMinimumMoment && joint.nv != 0 && warnings != nullptr)
    warnings->push_back(model.name + ": body '" + body.name + "': principal moment " + number(moments.minCoeff()) +
                        " kg m^2 written as 1e-12 (MuJoCo refuses smaller ones for moving bodies)");
  moments = moments.cwiseMax(kMinimumMoment);
  // MuJoCo checks A + B >= C in floating point; a tensor on the boundary (a thin rod, a
  // repaired inertia) may miss it by one unit in the last place after the eigen-solver.
  while (moments[0] + moments[1] < moments[2]) moments[2] = std::nextafter(moments[2], 0.0);
  if (body.mass > 0.0 || joint.nv != 0)
    out << pad << "  <inertial pos=\"" << vec(body.com) << "\" mass=\"" << number(body.mass) << "\" diaginertia=\""
        << vec(moments) << "\" quat=\"" << quat(orientation) << "\"/>\n";
  write_sites(model, l, pad + "  ", out);
  for (int child : model.children[static_cast<std::size_t>(l)]) write_body(model, child, indent + 2, poses, out, warnings);
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
  for (int b = body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent)
    p += model.joints[static_cast<std::size_t>(b)].origin;
  return p;
}

// True when every joint from ground to `body` keeps it moving in planes normal to the
// unit vector n: revolute about an axis parallel to n, prismatic perpendicular to n, or
// fixed. (Rotations about n keep such axes parallel or perpendicular to n.)
bool moves_in_plane(const Model& model, int body, const Vec3& n) {
  constexpr double kTolerance = 1e-12;
  for (int b = body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent) {
    const Joint& joint = model.joints[static_cast<std::size_t>(b)];
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
// cannot express the loop, or "" when it can. Fixed cuts are welds: no connect.
std::string loop_connects(const Model& model, int index, std::vector<MjcfConnect>* out) {
  const Loop& loop = model.loops[static_cast<std::size_t>(index)];
  // MuJoCo's body1 must be a body: a world-fixed side becomes body2 (the world).
  BodyPoint side1 = loop.a, side2 = loop.b;
  if (side1.body == kGround) std::swap(side1, side2);
  auto add = [&](const std::string& name, const Vec3& anchor1, const Vec3& anchor2) {
    if (out != nullptr) out->push_back({name, index, side1.body, side2.body, anchor1, anchor2});
  };
  switch (cut_joint_facts(loop.type).mjcf) {  // what MuJoCo calls the kind (model/cut_joint.hpp)
    case MjcfCut::Connect:  // p_a = p_b
      add(loop.name, side1.point, side2.point);
      return "";
    case MjcfCut::AxisConnects: {  // p_a = p_b and R_a n = R_b n (n = loop.axis in both body frames)
      const Vec3 along = kRevoluteAxisLength * loop.axis.normalized();
      add(loop.name, side1.point, side2.point);
      add(loop.name + "/2", side1.point + along, side2.point + along);
      return "";
    }
    case MjcfCut::PlanarConnect: {  // the in-plane components of p_a − p_b vanish
      const Vec3 n = loop.axis.normalized();
      if (!moves_in_plane(model, loop.a.body, n) || !moves_in_plane(model, loop.b.body, n))
        return std::string("is ") + loop_type_name(loop.type) +
               " in a spatial mechanism (its bodies do not move in planes normal to its axis); "
               "MuJoCo 2.2.2 has no equality constraint for it";
      // In planar motion n·(p_1 − p_2) keeps its value at q = 0, and n is the same vector
      // in every frame involved: shifting anchor 2 by it makes that row hold identically.
      const double offset = n.dot(position_at_zero(model, side1.body, side1.point) -
                                  position_at_zero(model, side2.body, side2.point));
      add(loop.name, side1.point, side2.point + offset * n);
      return "";
    }
    case MjcfCut::Weld:  // written by the weld loop of write_mjcf
      return "";
    case MjcfCut::None:
      break;
  }
  return std::string("is a ") + loop_type_name(loop.type) +
         " cut joint; MuJoCo 2.2.2's equality constraints (connect, weld) cannot express it";
}

std::string joint_problem(const Model& model, int l) {
  const Joint& joint = model.joints[static_cast<std::size_t>(l)];
  const JointFormat& format = joint_format(joint.type);
  if (format.mjcf_count == 0 && format.mjcf_refusal[0] != '\0')
    return std::string("is ") + format.type_name + "; " + format.mjcf_refusal;
  for (int k = 0; k < format.mjcf_count; ++k)
    if (std::string(format.mjcf[k].type) == "free" && model.bodies[static_cast<std::size_t>(l)].parent != kGround)
      return "is a free joint below another body; MuJoCo 2.2.2 allows free joints only in top-level bodies";
  return "";
}

}  // namespace

std::vector<MjcfConnect> mjcf_connects(const Model& model) {
  std::vector<MjcfConnect> connects;
  for (int i = 0; i < static_cast<int>(model.loops.size()); ++i) {
    const std::string problem = loop_connects(model, i, &connects);
    if (!problem.empty()) refuse(model, "loop '" + model.loops[static_cast<std::size_t>(i)].name + "'", problem);
  }
  return connects;
}

bool mjcf_supports(const Model& model) {
  for (int l = 0; l < model.num_bodies(); ++l)
    if (!joint_problem(model, l).empty()) return false;
  for (int i = 0; i < static_cast<int>(model.loops.size()); ++i)
    if (!loop_connects(model, i, nullptr).empty()) return false;
  return true;
}

std::string write_mjcf(const Model& model, const MjcfOptions& options, std::vector<std::string>* warnings) {
  for (int l = 0; l < model.num_bodies(); ++l) {
    const std::string problem = joint_problem(model, l);
    if (!problem.empty()) refuse(model, "joint '" + model.joints[static_cast<std::size_t>(l)].name + "'", problem);
    if (model.bodies[static_cast<std::size_t>(l)].flexible)
      refuse(model, "body '" + model.bodies[static_cast<std::size_t>(l)].name + "'",
             "is flexible; MJCF export writes rigid bodies only");
  }
  const std::vector<MjcfConnect> connects = mjcf_connects(model);

  // Body poses in their parents: natural frames at q = 0, or the model posed at q*.
  std::vector<Pose> poses(static_cast<std::size_t>(model.num_bodies()));
  Data data(model);
  if (options.reference_configuration) {
    const VecX& q = *options.reference_configuration;
    check_state(model, q);
    for (const Joint& joint : model.joints)
      if (joint.nq > 1)  // a hinge or slide takes one ref (MuJoCo's qpos0)
        refuse(model, "joint '" + joint.name + "'",
               std::string("is ") + joint_type_name(joint.type) +
                   "; a model is written posed at a configuration only with revolute, prismatic and fixed joints");
    forward_kinematics(model, data, q);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Joint& joint = model.joints[static_cast<std::size_t>(l)];
      Pose& pose = poses[static_cast<std::size_t>(l)];
      // The body's pose in its parent's frame (forward_kinematics fills world poses).
      const std::size_t i = static_cast<std::size_t>(l);
      const int parent = model.bodies[i].parent;
      const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[static_cast<std::size_t>(parent)];
      const Vec3 parent_position = parent == kGround ? Vec3::Zero() : data.position[static_cast<std::size_t>(parent)];
      pose.rotation = parent_rotation.transpose() * data.rotation[i];
      pose.translation = parent_rotation.transpose() * (data.position[i] - parent_position);
      if (joint.nq == 1) pose.refs.push_back(q[joint.q_index]);
    }
  } else {
    for (int l = 0; l < model.num_bodies(); ++l)
      poses[static_cast<std::size_t>(l)].translation = model.joints[static_cast<std::size_t>(l)].origin;
  }
  // Each connect must join two points that meet in the written configuration.
  if (!options.loops_set_by_caller && !connects.empty()) {
    VecX q = options.reference_configuration ? *options.reference_configuration : model.neutral_configuration();
    forward_kinematics(model, data, q);
    auto world = [&](int body, const Vec3& point) -> Vec3 {
      if (body == kGround) return point;
      return data.position[static_cast<std::size_t>(body)] + data.rotation[static_cast<std::size_t>(body)] * point;
    };
    for (const MjcfConnect& c : connects) {
      const double gap = (world(c.body1, c.anchor1) - world(c.body2, c.anchor2)).norm();
      const double scale = std::max(1.0, world(c.body1, c.anchor1).norm());
      if (gap > 1e-9 * scale)
        refuse(model, "loop '" + model.loops[static_cast<std::size_t>(c.loop)].name + "'",
               "its two points are " + number(gap) + " m apart " +
                   (options.reference_configuration ? "at the given configuration"
                                                    : "at q = 0, where MuJoCo 2.2.2 would join them") +
                   "; write the model posed at an assembled configuration (mechdyn convert --q)");
    }
  }
  for (const Joint& joint : model.joints)
    if (!joint_format(joint.type).friction && joint.friction)
      warn(model, warnings, "joint '" + joint.name + "'", "friction is not written to MJCF (hinge and slide joints only)");
  for (const ForceElement& force : model.forces) {
    const std::string element = "force '" + force.name + "'";
    if (force.type == ForceElementType::Bushing || force.type == ForceElementType::Applied)
      warn(model, warnings, element,
           std::string(force_element_type_name(force.type)) + " is not written (MJCF has no such passive element)");
    if (force.type == ForceElementType::SpringDamper && force.preload != 0.0)
      warn(model, warnings, element, "preload " + number(force.preload) + " is not written (a MuJoCo tendon has none)");
    if (force.type == ForceElementType::JointServo && (force.target != "0" || !force.target_rate.empty()))
      warn(model, warnings, element,
           "target '" + force.target + "' is not written: MuJoCo's position actuator takes ctrl as an input (read back "
           "as target \"0\")");
    if (force.type == ForceElementType::JointServo && !model.joints[static_cast<std::size_t>(force.joint)].actuated)
      warn(model, warnings, element,
           "its joint is passive, but an MJCF actuator makes it actuated when read back");
  }
  const bool constrained = !model.loops.empty() || !model.couplings.empty();

  std::ostringstream out;
  out << "<mujoco model=\"" << io::xml_escaped(model.name) << "\">\n"
      << "  <!-- written by mechdyn: bodies in natural frames";
  if (options.reference_configuration) out << ", posed at an assembled configuration (joint ref = mechdyn's q there)";
  out << " -->\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" boundinertia=\"0\" autolimits=\"true\"/>\n"
      << "  <option gravity=\"" << vec(model.gravity) << "\" timestep=\"0.001\"";
  // With constraints: the Newton solver (exact on the quadratic problem equality
  // constraints pose), run to a relative improvement of 1e-12.
  if (constrained) out << " solver=\"Newton\" tolerance=\"1e-12\" iterations=\"100\"";
  out << ">\n"
      << "    <flag contact=\"disable\"/>\n"
      << "  </option>\n"
      << "  <worldbody>\n";
  write_sites(model, kGround, "    ", out);
  for (int l = 0; l < model.num_bodies(); ++l)
    if (model.bodies[static_cast<std::size_t>(l)].parent == kGround) write_body(model, l, 4, poses, out, warnings);
  out << "  </worldbody>\n";
  if (constrained) {
    // As hard as MuJoCo 2.2.2 allows. solimp: impedance d = 0.9999 at every violation
    // (MuJoCo clamps d to [1e-4, 0.9999]), so the regulariser R = (1 − d)/d · diag(A)
    // (A ≈ J M⁻¹ Jᵀ, MuJoCo's diagonal approximation) is 1e-4 of A's diagonal.
    // solref: time constant 2 × timestep (the smallest the `refsafe` flag keeps),
    // critical damping; it acts only on a residual or constraint velocity, ~0 here.
    const std::string soft = " solref=\"0.002 1\" solimp=\"0.9999 0.9999 0.001 0.5 2\"";
    auto body_name = [&](int b) { return io::xml_escaped(model.bodies[static_cast<std::size_t>(b)].name); };
    out << "  <equality>\n";
    for (const MjcfConnect& c : connects) {
      out << "    <connect name=\"" << io::xml_escaped(c.name) << "\" body1=\"" << body_name(c.body1) << "\"";
      if (c.body2 != kGround) out << " body2=\"" << body_name(c.body2) << "\"";
      out << " anchor=\"" << vec(c.anchor1) << "\"" << soft << "/>\n";
    }
    for (const Loop& loop : model.loops) {
      if (cut_joint_facts(loop.type).mjcf != MjcfCut::Weld) continue;
      // relpose: body2's frame in body1's when the cut is closed. mechdyn's fixed cut keeps
      // the natural frames parallel (as at q = 0) and a.point on b.point.
      BodyPoint side1 = loop.a, side2 = loop.b;
      if (side1.body == kGround) std::swap(side1, side2);
      // MuJoCo's body frames are mechdyn's natural frames in every configuration (a posed
      // file only describes them where they stand at q*), so relpose is the same either way.
      out << "    <weld name=\"" << io::xml_escaped(loop.name) << "\" body1=\"" << body_name(side1.body) << "\"";
      if (side2.body != kGround) out << " body2=\"" << body_name(side2.body) << "\"";
      const Vec3 offset = side1.point - side2.point;
      const Quat relative = Quat::Identity();
      out << " anchor=\"" << vec(side2.point) << "\" relpose=\"" << vec(offset) << " "
          << quat(relative) << "\"" << soft << "/>\n";
    }
    // Gear couplings q_b = ratio q_a + offset: MuJoCo's y − y0 = a0 + a1 (x − x0) with
    // y = q_b, x = q_a and y0, x0 their refs (qpos0): a1 = ratio, a0 = offset − y0 + ratio x0.
    for (const Coupling& coupling : model.couplings) {
      auto ref_of = [&](int joint) {
        const std::vector<double>& refs = poses[static_cast<std::size_t>(joint)].refs;
        return refs.empty() ? 0.0 : refs[0];
      };
      const double a0 = coupling.offset - ref_of(coupling.b) + coupling.ratio * ref_of(coupling.a);
      out << "    <joint name=\"" << io::xml_escaped(coupling.name) << "\" joint1=\""
          << io::xml_escaped(model.joints[static_cast<std::size_t>(coupling.b)].name) << "\" joint2=\""
          << io::xml_escaped(model.joints[static_cast<std::size_t>(coupling.a)].name) << "\" polycoef=\"" << number(a0)
          << " " << number(coupling.ratio) << " 0 0 0\"" << soft << "/>\n";
    }
    out << "  </equality>\n";
  }
  // Spring-dampers: straight spatial tendons between two sites (read back the same).
  bool tendons = false;
  for (const ForceElement& force : model.forces) {
    if (force.type != ForceElementType::SpringDamper) continue;
    if (!tendons) out << "  <tendon>\n";
    tendons = true;
    out << "    <spatial name=\"" << io::xml_escaped(force.name) << "\" stiffness=\"" << number(force.stiffness)
        << "\" damping=\"" << number(force.damping) << "\" springlength=\"" << number(force.free_length) << "\">\n"
        << "      <site site=\"" << io::xml_escaped(force.name) << "/a\"/>\n"
        << "      <site site=\"" << io::xml_escaped(force.name) << "/b\"/>\n"
        << "    </spatial>\n";
  }
  if (tendons) out << "  </tendon>\n";
  // Which joints take input efforts: when some are passive (closed chains), a motor on
  // each actuated hinge or slide (read_mjcf makes the joints without one passive).
  // Servos: <position> actuators (kp, kv, forcerange), which also mark their joints driven.
  bool some_passive = false, servos = false;
  for (const Joint& joint : model.joints) some_passive |= !joint.actuated && joint.nv > 0;
  std::vector<bool> has_servo(model.joints.size(), false);
  for (const ForceElement& force : model.forces)
    if (force.type == ForceElementType::JointServo) {
      servos = true;
      has_servo[static_cast<std::size_t>(force.joint)] = true;
    }
  if (some_passive || servos) {
    out << "  <actuator>\n";
    for (const ForceElement& force : model.forces) {
      if (force.type != ForceElementType::JointServo) continue;
      out << "    <position name=\"" << io::xml_escaped(force.name) << "\" joint=\""
          << io::xml_escaped(model.joints[static_cast<std::size_t>(force.joint)].name) << "\" kp=\""
          << number(force.stiffness) << "\"";
      if (force.damping != 0.0) out << " kv=\"" << number(force.damping) << "\"";  // MuJoCo ≥ 2.3.3 (kv)
      if (std::isfinite(force.max_effort))
        out << " forcelimited=\"true\" forcerange=\"" << number(-force.max_effort) << " " << number(force.max_effort)
            << "\"";
      out << "/>\n";
    }
    for (const Joint& joint : model.joints) {
      if (!joint.actuated || joint.nv == 0) continue;
      if (has_servo[static_cast<std::size_t>(&joint - model.joints.data())]) continue;
      // One motor per hinge or slide of the joint (a universal or cylindrical joint's two).
      const JointFormat& format = joint_format(joint.type);
      bool axes = format.mjcf_count > 0;
      for (int k = 0; k < format.mjcf_count; ++k) axes = axes && format.mjcf[k].axis >= 0;
      if (!axes) {
        if (warnings != nullptr)
          warnings->push_back(model.name + ": joint '" + joint.name + "': actuated " + joint_type_name(joint.type) +
                              " joint: no motor written (MJCF motors drive one hinge or slide)");
        continue;
      }
      for (int k = 0; k < format.mjcf_count; ++k) {
        const std::string name = io::xml_escaped(joint.name + format.mjcf[k].suffix);
        out << "    <motor name=\"" << name << "\" joint=\"" << name << "\"/>\n";
      }
    }
    out << "  </actuator>\n";
  }
  out << "</mujoco>\n";
  return out.str();
}

}  // namespace mechdyn
