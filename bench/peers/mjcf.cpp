// MJCF writer (see mjcf.hpp).
#include "mjcf.hpp"

#include <Eigen/Eigenvalues>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace mechdyn::bench {

namespace {

// Shortest decimal that reads back as the same double.
std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string vec(const Vec3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }

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
  out << pad << "  <inertial pos=\"" << vec(body.com) << "\" mass=\"" << number(body.mass) << "\" diaginertia=\""
      << vec(moments) << "\" quat=\"" << number(orientation.w()) << " " << number(orientation.x()) << " "
      << number(orientation.y()) << " " << number(orientation.z()) << "\"/>\n";
  for (int child : model.children[l]) write_body(model, child, indent + 2, out);
  out << pad << "</body>\n";
}

}  // namespace

bool mjcf_supports(const Model& model) {
  if (!model.loops.empty()) return false;
  for (const Joint& joint : model.joints)
    if (joint.type != JointType::Revolute && joint.type != JointType::Prismatic && joint.type != JointType::Fixed)
      return false;
  return true;
}

std::string mjcf_from_model(const Model& model) {
  if (!model.loops.empty()) throw std::invalid_argument("mjcf: model '" + model.name + "' has loops");
  std::ostringstream out;
  out << "<mujoco model=\"" << model.name << "\">\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" boundinertia=\"0\"/>\n"
      << "  <option gravity=\"" << vec(model.gravity) << "\" timestep=\"0.001\">\n"
      << "    <flag contact=\"disable\"/>\n"
      << "  </option>\n"
      << "  <worldbody>\n";
  for (int l = 0; l < model.num_bodies(); ++l)
    if (model.bodies[l].parent == kGround) write_body(model, l, 4, out);
  out << "  </worldbody>\n</mujoco>\n";
  return out.str();
}

}  // namespace mechdyn::bench
