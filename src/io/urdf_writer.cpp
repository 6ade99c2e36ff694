// URDF writer (io/urdf.hpp): a tree model as URDF, in natural frames.
//
// Every link frame is the mechdyn body frame (parallel to the world at q = 0), so every
// <origin> has rpy 0: joint origin xyz = r^{l̄}_{l0}, inertial origin xyz = the com, the
// inertia tensor entries as they are, joint axes in world directions. Ground is the link
// "world" (the ROS convention, which read_urdf maps back to ground), and each root body
// hangs from it by its own joint. Joints: revolute (continuous without position limits),
// prismatic, fixed, free → floating (read back as free); universal → two revolute joints
// "<joint>/1", "<joint>/2" through a massless link "<body>/universal" (the same motion);
// spherical and cylindrical are refused (URDF has neither), and so is any loop. Which
// <joint> elements a joint becomes, or why it cannot, is its kind's JointFormat
// (model/joint.hpp, joint_format): this file never tests the joint type. Markers become massless links
// on fixed joints (read back as markers). Friction: coulomb_viscous without load → the
// <dynamics friction damping> read_urdf reads; other laws are dropped with a warning.
// Format 3: joint-spring-dampers of stiffness 0 add to <dynamics damping>, a gear coupling
// becomes the <mimic> of its joint b; other force elements and armature are not written
// (warning).
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "xml_support.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/urdf.hpp"

namespace mechdyn {
namespace {

std::string number(double x) { return shortest_decimal(x); }

std::string vec(const Vec3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }

void write_link(std::ostringstream& out, const std::string& name, double mass, const Vec3& com, const Mat3& J) {
  out << "  <link name=\"" << io::xml_escaped(name) << "\">\n";
  if (mass > 0.0 || J.cwiseAbs().maxCoeff() > 0.0)
    out << "    <inertial>\n      <origin xyz=\"" << vec(com) << "\" rpy=\"0 0 0\"/>\n      <mass value=\"" << number(mass)
        << "\"/>\n      <inertia ixx=\"" << number(J(0, 0)) << "\" ixy=\"" << number(J(0, 1)) << "\" ixz=\""
        << number(J(0, 2)) << "\" iyy=\"" << number(J(1, 1)) << "\" iyz=\"" << number(J(1, 2)) << "\" izz=\""
        << number(J(2, 2)) << "\"/>\n    </inertial>\n";
  out << "  </link>\n";
}

// Position limits are required by URDF for revolute and prismatic joints; a prismatic
// joint without them gets ±1e30 m (URDF has no "unlimited").
void write_limits(std::ostringstream& out, const Joint& joint, bool positions) {
  const JointLimits limits = joint.limits.value_or(JointLimits{});
  out << "    <limit";
  if (positions) {
    const double lower = std::isfinite(limits.lower) ? limits.lower : -1e30;
    const double upper = std::isfinite(limits.upper) ? limits.upper : 1e30;
    out << " lower=\"" << number(lower) << "\" upper=\"" << number(upper) << "\"";
  }
  // URDF requires effort and velocity; 0 is the common "not given" (read_urdf reads it so).
  out << " effort=\"" << number(std::isfinite(limits.effort) ? limits.effort : 0.0) << "\" velocity=\""
      << number(std::isfinite(limits.velocity) ? limits.velocity : 0.0) << "\"/>\n";
}

}  // namespace

std::string write_urdf(const Model& model, std::vector<std::string>* warnings) {
  auto warn = [&](const std::string& element, const std::string& text) {
    if (warnings != nullptr) warnings->push_back(model.name + ": " + element + ": " + text);
  };
  if (!model.loops.empty())
    throw ModelError(model.name + ": loop '" + model.loops[0].name +
                     "': URDF describes trees only; a model with loops is written as MJCF (.xml) or mechdyn YAML");
  if (model.gravity != Vec3(0.0, 0.0, -9.81))
    warn("gravity", "URDF has no gravity; [" + vec(model.gravity) +
                        "] is not written (a URDF is read with [0, 0, -9.81])");
  std::set<std::string> names;  // link names in the URDF
  names.insert("world");
  for (const Body& body : model.bodies) {
    if (body.name == "world")
      throw ModelError(model.name + ": body 'world': the URDF names ground 'world'; rename the body");
    if (body.flexible) throw ModelError(model.name + ": body '" + body.name + "': is flexible; URDF has rigid links only");
    names.insert(body.name);
  }
  std::set<std::string> joint_names;  // joint names in the URDF
  for (const Joint& joint : model.joints) {
    const JointFormat& format = joint_format(joint.type);
    joint_names.insert(joint.name);
    for (int k = 0; k < format.urdf_count; ++k) joint_names.insert(joint.name + format.urdf[k].suffix);
  }
  for (const Joint& joint : model.joints)
    if (joint_format(joint.type).urdf_count == 0)
      throw ModelError(model.name + ": joint '" + joint.name + "': is " + joint_type_name(joint.type) + "; " +
                       joint_format(joint.type).urdf_refusal);

  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n"
      << "<!-- written by mechdyn from model '" << io::xml_escaped(model.name)
      << "': natural frames (every link frame parallel to the world at q = 0) -->\n"
      << "<robot name=\"" << io::xml_escaped(model.name) << "\">\n"
      << "  <link name=\"world\"/>\n";
  auto link_name = [&](int body) { return body == kGround ? std::string("world") : model.bodies[static_cast<std::size_t>(body)].name; };
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Body& body = model.bodies[static_cast<std::size_t>(l)];
    const Joint& joint = model.joints[static_cast<std::size_t>(l)];
    std::string parent = link_name(body.parent);
    Vec3 origin = joint.origin;
    const std::string element = "joint '" + joint.name + "'";
    const JointFormat& format = joint_format(joint.type);
    auto axis_of = [&](const JointFormatElement& e) { return e.axis == 1 ? joint.second_axis : joint.axis; };
    // All elements but the last end in massless links; the last one carries the body.
    for (int k = 0; k + 1 < format.urdf_count; ++k) {
      const JointFormatElement& e = format.urdf[k];
      std::string middle = body.name + "/" + joint_type_name(joint.type);
      while (names.count(middle)) middle += "_";
      names.insert(middle);
      write_link(out, middle, 0.0, Vec3::Zero(), Mat3::Zero());
      out << "  <joint name=\"" << io::xml_escaped(joint.name + e.suffix) << "\" type=\"" << e.type
          << "\">\n    <parent link=\"" << io::xml_escaped(parent) << "\"/>\n    <child link=\"" << io::xml_escaped(middle)
          << "\"/>\n    <origin xyz=\"" << vec(origin) << "\" rpy=\"0 0 0\"/>\n    <axis xyz=\"" << vec(axis_of(e))
          << "\"/>\n  </joint>\n";
      const bool turns = std::string(e.type) == "continuous" && std::string(format.urdf[k + 1].type) == "continuous";
      warn(element, std::string(joint_type_name(joint.type)) + ": written as " + (turns ? "revolute " : "") +
                        "joints '" + joint.name + e.suffix + "', '" + joint.name + format.urdf[k + 1].suffix +
                        "' through the massless link '" + middle + "' (the same motion)");
      parent = middle;
      origin = Vec3::Zero();
    }
    write_link(out, body.name, body.mass, body.com, body.inertia);
    const JointFormatElement& last = format.urdf[format.urdf_count - 1];
    const bool single = format.urdf_count == 1;
    std::string type = last.type;
    bool positions = false, limited = false;
    if (type == "revolute") {  // "continuous" without position limits
      positions = joint.limits && std::isfinite(joint.limits->lower) && std::isfinite(joint.limits->upper);
      type = positions ? "revolute" : "continuous";
      limited = positions || (joint.limits && (std::isfinite(joint.limits->effort) || std::isfinite(joint.limits->velocity)));
    } else if (type == "prismatic") {  // URDF requires its position limits
      positions = limited = true;
    }
    const std::string name = joint.name + last.suffix;
    out << "  <joint name=\"" << io::xml_escaped(name) << "\" type=\"" << type << "\">\n    <parent link=\"" << io::xml_escaped(parent)
        << "\"/>\n    <child link=\"" << io::xml_escaped(body.name) << "\"/>\n    <origin xyz=\"" << vec(origin)
        << "\" rpy=\"0 0 0\"/>\n";
    if (last.axis >= 0) out << "    <axis xyz=\"" << vec(axis_of(last)) << "\"/>\n";
    if (limited) write_limits(out, joint, positions);
    // <dynamics damping friction>: damping = the damping of the joint's spring-dampers of
    // stiffness 0 (what read_urdf makes of it) plus a coulomb_viscous law's viscous term;
    // friction = that law's Coulomb effort.
    double damping = 0.0, friction = 0.0;
    bool dynamics = false;
    if (joint.friction) {
      const JointFriction& f = *joint.friction;
      if (f.model == FrictionModel::CoulombViscous && !f.load && single) {
        damping += f.viscous;
        friction = f.coulomb;
        dynamics = true;
      } else {
        warn(element, "friction is not written (URDF's <dynamics> holds Coulomb and viscous coefficients only)");
      }
    }
    for (const ForceElement& force : model.forces)
      if (is_joint_element(force.type) && force.joint == l) {
        if (force.type == ForceElementType::JointSpringDamper && force.stiffness == 0.0) {
          damping += force.damping;
          dynamics = true;
        } else {
          warn("force '" + force.name + "'",
               std::string(force_element_type_name(force.type)) +
                   (force.type == ForceElementType::JointSpringDamper ? " with stiffness" : "") +
                   " is not written (URDF's <dynamics> holds a damping and a friction only)");
        }
      }
    if (dynamics) out << "    <dynamics damping=\"" << number(damping) << "\" friction=\"" << number(friction) << "\"/>\n";
    // <mimic>: the coupling that drives this joint (b) from another (a).
    bool mimic_written = false;
    for (const Coupling& coupling : model.couplings) {
      if (coupling.b != l) continue;
      const std::string& driver = model.joints[static_cast<std::size_t>(coupling.a)].name;
      if (mimic_written || !single || joint_format(model.joints[static_cast<std::size_t>(coupling.a)].type).urdf_count != 1) {
        warn("coupling '" + coupling.name + "'", "not written (a URDF joint mimics one other joint of one coordinate)");
        continue;
      }
      out << "    <mimic joint=\"" << io::xml_escaped(driver) << "\" multiplier=\"" << number(coupling.ratio)
          << "\" offset=\"" << number(coupling.offset) << "\"/>\n";
      mimic_written = true;
    }
    out << "  </joint>\n";
  }
  for (const ForceElement& force : model.forces)
    if (!is_joint_element(force.type))
      warn("force '" + force.name + "'",
           std::string(force_element_type_name(force.type)) + " is not written (URDF has no force elements)");
  for (const Joint& joint : model.joints)
    if (joint.armature != 0.0) warn("joint '" + joint.name + "'", "armature is not written (URDF has none)");
  for (const Marker& marker : model.markers) {
    if (names.count(marker.name)) {
      warn("marker '" + marker.name + "'", "a link has its name; the marker is not written");
      continue;
    }
    names.insert(marker.name);
    std::string joint_name = marker.name;
    while (joint_names.count(joint_name)) joint_name += "_marker";
    joint_names.insert(joint_name);
    write_link(out, marker.name, 0.0, Vec3::Zero(), Mat3::Zero());
    out << "  <joint name=\"" << io::xml_escaped(joint_name) << "\" type=\"fixed\">\n    <parent link=\""
        << io::xml_escaped(link_name(marker.at.body)) << "\"/>\n    <child link=\"" << io::xml_escaped(marker.name)
        << "\"/>\n    <origin xyz=\"" << vec(marker.at.point) << "\" rpy=\"0 0 0\"/>\n  </joint>\n";
  }
  out << "</robot>\n";
  return out.str();
}

}  // namespace mechdyn
