// Model file writer (io/model_writer.hpp): the inverse of model_file.cpp for version 1.
#include "mechdyn/io/model_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "mechdyn/errors.hpp"

namespace mechdyn {

std::string shortest_decimal(double value) {
  // std::to_chars without a precision: the shortest text that reads back exactly.
  char buffer[40];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

namespace {

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(c));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string vec(const Vec3& v) {
  return "[" + shortest_decimal(v.x()) + ", " + shortest_decimal(v.y()) + ", " + shortest_decimal(v.z()) + "]";
}

std::string body_name(const Model& model, int body) {
  return body == kGround ? "ground" : model.bodies[static_cast<std::size_t>(body)].name;
}

const char* friction_model_name(FrictionModel model) {
  switch (model) {
    case FrictionModel::CoulombViscous: return "coulomb_viscous";
    case FrictionModel::Stribeck: return "stribeck";
    case FrictionModel::LuGre: return "lugre";
    case FrictionModel::BrownMcPhee: return "brown_mcphee";
  }
  return "coulomb_viscous";
}

void write_friction(const JointFriction& f, std::ostringstream& out) {
  const std::string pad = "        ";
  out << "      friction:\n" << pad << "model: " << friction_model_name(f.model) << "\n";
  out << pad << "coulomb: " << shortest_decimal(f.coulomb) << "\n";
  if (f.model != FrictionModel::CoulombViscous) {
    out << pad << "static: " << shortest_decimal(f.static_coefficient) << "\n";
    out << pad << "stribeck_velocity: " << shortest_decimal(f.stribeck_velocity) << "\n";
  }
  out << pad << "viscous: " << shortest_decimal(f.viscous) << "\n";
  if (f.model == FrictionModel::LuGre) {
    out << pad << "bristle_stiffness: " << shortest_decimal(f.bristle_stiffness) << "\n";
    out << pad << "bristle_damping: " << shortest_decimal(f.bristle_damping) << "\n";
  }
  if (f.load) {
    out << pad << "load:\n";
    if (f.load->pin_radius > 0.0) out << pad << "  pin_radius: " << shortest_decimal(f.load->pin_radius) << "\n";
    out << pad << "  bending_arm: " << shortest_decimal(f.load->bending_arm) << "\n";
    out << pad << "  friction_arm: " << shortest_decimal(f.load->friction_arm) << "\n";
  }
}

void write_limits(const JointLimits& l, std::ostringstream& out) {
  std::string entries;
  auto add = [&](const char* key, double value) {
    if (!std::isfinite(value)) return;
    entries += std::string(entries.empty() ? "" : ", ") + key + ": " + shortest_decimal(value);
  };
  add("lower", l.lower);
  add("upper", l.upper);
  add("effort", l.effort);
  add("velocity", l.velocity);
  if (!entries.empty()) out << "      limits: {" << entries << "}\n";
}

std::string point(const Model& model, const BodyPoint& at) {
  return "{body: " + quoted(body_name(model, at.body)) + ", point: " + vec(at.point) + "}";
}

std::string six(const Vec6& v) {
  std::string out = "[";
  for (int k = 0; k < 6; ++k) out += (k ? ", " : "") + shortest_decimal(v(k));
  return out + "]";
}

std::string expressions(const std::array<std::string, 3>& e) {
  return "[" + quoted(e[0]) + ", " + quoted(e[1]) + ", " + quoted(e[2]) + "]";
}

// Format 3 blocks (force-elements.md): every key that differs from its default.
void write_force_elements(const Model& model, std::ostringstream& out) {
  auto joint_name = [&](int j) { return quoted(model.joints[static_cast<std::size_t>(j)].name); };
  auto number = [&](const char* key, double x) { out << "    " << key << ": " << shortest_decimal(x) << "\n"; };
  if (!model.forces.empty()) out << "forces:\n";
  for (const ForceElement& e : model.forces) {
    out << "  - name: " << quoted(e.name) << "\n    type: " << force_element_type_name(e.type) << "\n";
    switch (e.type) {
      case ForceElementType::SpringDamper:
        out << "    a: " << point(model, e.a) << "\n    b: " << point(model, e.b) << "\n";
        number("stiffness", e.stiffness);
        number("free_length", e.free_length);
        if (e.damping != 0.0) number("damping", e.damping);
        if (e.preload != 0.0) number("preload", e.preload);
        break;
      case ForceElementType::Bushing:
        out << "    a: " << point(model, e.a) << "\n    b: " << point(model, e.b) << "\n";
        out << "    stiffness: " << six(e.stiffness6) << "\n";
        if (!e.damping6.isZero(0.0)) out << "    damping: " << six(e.damping6) << "\n";
        break;
      case ForceElementType::JointSpringDamper:
        out << "    joint: " << joint_name(e.joint) << "\n";
        number("stiffness", e.stiffness);
        if (e.damping != 0.0) number("damping", e.damping);
        if (e.rest != 0.0) number("rest", e.rest);
        break;
      case ForceElementType::JointStop:
        out << "    joint: " << joint_name(e.joint) << "\n";
        if (e.lower != -kUnbounded) number("lower", e.lower);
        if (e.upper != kUnbounded) number("upper", e.upper);
        number("stiffness", e.stiffness);
        if (e.damping != 0.0) number("damping", e.damping);
        break;
      case ForceElementType::JointServo:
        out << "    joint: " << joint_name(e.joint) << "\n    target: " << quoted(e.target) << "\n";
        if (!e.target_rate.empty()) out << "    target_rate: " << quoted(e.target_rate) << "\n";
        number("stiffness", e.stiffness);
        if (e.damping != 0.0) number("damping", e.damping);
        if (e.max_effort != kUnbounded) number("max_effort", e.max_effort);
        break;
      case ForceElementType::Applied:
        out << "    body: " << quoted(body_name(model, e.a.body)) << "\n    point: " << vec(e.a.point) << "\n";
        out << "    force: " << expressions(e.force) << "\n    torque: " << expressions(e.torque) << "\n";
        break;
    }
  }
  if (!model.couplings.empty()) out << "couplings:\n";
  for (const Coupling& c : model.couplings) {
    out << "  - name: " << quoted(c.name) << "\n    type: " << coupling_type_name(c.type) << "\n";
    out << "    a: " << joint_name(c.a) << "\n    b: " << joint_name(c.b) << "\n";
    number("ratio", c.ratio);
    if (c.offset != 0.0) number("offset", c.offset);
  }
}

}  // namespace

std::string write_model_yaml(const Model& model) {
  std::ostringstream out;
  // Version 3 (force-elements.md) when the model has force elements, couplings or armature.
  const int version = model.format_version() == 3 ? 3 : 1;
  out << "# written by mechdyn (model format version " << version
      << ", ../shared/spec/model-format.md" << (version == 3 ? ", force-elements.md" : "") << "): natural frames,\n"
      << "# every vector in world directions at q = 0\n";
  out << "mechdyn: " << version << "\n";
  out << "name: " << quoted(model.name) << "\n";
  out << "gravity: " << vec(model.gravity) << "\n";
  out << "bodies:\n";
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& body = model.bodies[static_cast<std::size_t>(i)];
    const Joint& joint = model.joints[static_cast<std::size_t>(i)];
    if (body.flexible)
      throw ModelError(model.name + ": body '" + body.name +
                       "': is flexible; writing model format version 2 (flexible bodies) is not supported");
    out << "  - name: " << quoted(body.name) << "\n";
    out << "    parent: " << quoted(body_name(model, body.parent)) << "\n";
    out << "    joint:\n";
    out << "      name: " << quoted(joint.name) << "\n";
    out << "      type: " << joint_type_name(joint.type) << "\n";
    // The joint model says how many axes a kind has (the reader asks the same function):
    // one is written `axis`, two `axes`.
    const int axes = joint_axis_count(joint.type);
    if (axes == 1) out << "      axis: " << vec(joint.axis) << "\n";
    if (axes == 2) out << "      axes: [" << vec(joint.axis) << ", " << vec(joint.second_axis) << "]\n";
    out << "      origin: " << vec(joint.origin) << "\n";
    if (!joint.actuated) out << "      actuated: false\n";
    if (joint.armature != 0.0) out << "      armature: " << shortest_decimal(joint.armature) << "\n";
    if (joint.friction) write_friction(*joint.friction, out);
    if (joint.limits) write_limits(*joint.limits, out);
    out << "    mass: " << shortest_decimal(body.mass) << "\n";
    out << "    com: " << vec(body.com) << "\n";
    const Mat3& J = body.inertia;
    out << "    inertia: {ixx: " << shortest_decimal(J(0, 0)) << ", iyy: " << shortest_decimal(J(1, 1))
        << ", izz: " << shortest_decimal(J(2, 2)) << ", ixy: " << shortest_decimal(J(0, 1))
        << ", ixz: " << shortest_decimal(J(0, 2)) << ", iyz: " << shortest_decimal(J(1, 2)) << "}\n";
  }
  if (!model.loops.empty()) {
    out << "loops:\n";
    for (const Loop& loop : model.loops) {
      out << "  - name: " << quoted(loop.name) << "\n";
      out << "    type: " << loop_type_name(loop.type) << "\n";
      out << "    a: {body: " << quoted(body_name(model, loop.a.body)) << ", point: " << vec(loop.a.point) << "}\n";
      out << "    b: {body: " << quoted(body_name(model, loop.b.body)) << ", point: " << vec(loop.b.point) << "}\n";
      const CutAxisKeys keys = cut_joint_facts(loop.type).axis_keys;  // the kind's keys (model/cut_joint.hpp)
      if (keys == CutAxisKeys::Axes)
        out << "    axes: [" << vec(loop.axis) << ", " << vec(loop.second_axis) << "]\n";
      else if (keys != CutAxisKeys::None)
        out << "    axis: " << vec(loop.axis) << "\n";
    }
  }
  write_force_elements(model, out);
  if (!model.markers.empty()) {
    out << "markers:\n";
    for (const Marker& marker : model.markers)
      out << "  - {name: " << quoted(marker.name) << ", body: " << quoted(body_name(model, marker.at.body))
          << ", point: " << vec(marker.at.point) << "}\n";
  }
  return out.str();
}

}  // namespace mechdyn
