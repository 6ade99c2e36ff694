// Model rules of force elements, couplings and armature (format 3,
// ../shared/spec/force-elements.md), checked by finalize_model; and the type names.
#include <cmath>
#include <set>
#include <string>

#include "cut_joint_dispatch.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

namespace {

constexpr ForceElementType kElementTypes[] = {ForceElementType::SpringDamper,      ForceElementType::Bushing,
                                              ForceElementType::JointSpringDamper, ForceElementType::JointStop,
                                              ForceElementType::JointServo,        ForceElementType::Applied};

[[noreturn]] void fail(const std::string& source, const std::string& element, const std::string& problem) {
  throw ModelError(source + ": " + element + ": " + problem);
}

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

void check_nonnegative(double x, const std::string& source, const std::string& element, const char* key) {
  if (!std::isfinite(x)) fail(source, element, std::string(key) + " is not finite");
  if (x < 0.0) fail(source, element, std::string(key) + " must not be negative, got " + number_text(x));
}

void check_body_point(const Model& model, const BodyPoint& at, const std::string& source, const std::string& element,
                      const char* key) {
  if (at.body != kGround && (at.body < 0 || at.body >= model.num_bodies()))
    fail(source, element, std::string(key) + ": unknown body");
  if (!at.point.allFinite()) fail(source, element, std::string(key) + ".point is not finite");
}

// A joint element, armature or coupling needs a joint of exactly one coordinate.
void check_single_coordinate_joint(const Model& model, int joint, const std::string& source,
                                   const std::string& element, const char* what) {
  if (joint < 0 || joint >= static_cast<int>(model.joints.size())) fail(source, element, std::string(what) + ": unknown joint");
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  if (joint_nv(j.type) != 1)
    fail(source, element,
         std::string(what) + " '" + j.name + "' is a " + joint_type_name(j.type) + " joint with " +
             std::to_string(joint_nv(j.type)) + " coordinates; it must have exactly one (revolute or prismatic)");
}

// A time function must parse (muParser, math/time_expressions.hpp); a value that is not
// finite at t = 0 (e.g. 1/t) is a run-time matter.
void check_expression(const std::string& text, const std::string& source, const std::string& element, const char* key) {
  try {
    TimeExpressions parsed({text}, key);
  } catch (const InvalidArgument& e) {
    fail(source, element, std::string(key) + " does not parse: " + e.what());
  }
}

}  // namespace

const char* force_element_type_name(ForceElementType type) {
  switch (type) {
    case ForceElementType::SpringDamper: return "spring-damper";
    case ForceElementType::Bushing: return "bushing";
    case ForceElementType::JointSpringDamper: return "joint-spring-damper";
    case ForceElementType::JointStop: return "joint-stop";
    case ForceElementType::JointServo: return "joint-servo";
    case ForceElementType::Applied: return "applied";
  }
  return "unknown";
}

std::optional<ForceElementType> force_element_type_from_name(const std::string& name) {
  for (ForceElementType t : kElementTypes)
    if (name == force_element_type_name(t)) return t;
  return std::nullopt;
}

std::string force_element_type_names() {
  std::string out;
  constexpr int n = static_cast<int>(sizeof kElementTypes / sizeof kElementTypes[0]);
  for (int k = 0; k < n; ++k) {
    if (k > 0) out += k + 1 == n ? " or " : ", ";
    out += force_element_type_name(kElementTypes[k]);
  }
  return out;
}

bool is_joint_element(ForceElementType type) {
  return type == ForceElementType::JointSpringDamper || type == ForceElementType::JointStop ||
         type == ForceElementType::JointServo;
}

const char* coupling_type_name(CouplingType type) {
  return visit_coupling_kind(type, [](auto kind) { return decltype(kind)::type_name; });  // cut_joint_kinds/
}

int Model::format_version() const {
  bool armature_used = false;
  for (const Joint& j : joints) armature_used = armature_used || j.armature != 0.0;
  if (!forces.empty() || !couplings.empty() || armature_used) return 3;
  for (const Body& b : bodies)
    if (b.flexible) return 2;
  return 1;
}

/// Part of finalize_model (src/model/model.cpp): the rules of force-elements.md, and the
/// derived armature vector and coupling rows. Names: unique among force elements and
/// couplings, different from every joint and loop name.
void finalize_force_elements(Model& model, const std::string& source) {
  std::set<std::string> taken;
  for (const Joint& j : model.joints) taken.insert(j.name);
  for (const Loop& l : model.loops) taken.insert(l.name);

  model.armature = VecX::Zero(model.nv);
  model.has_armature = false;
  for (const Joint& j : model.joints) {
    if (j.armature == 0.0) continue;
    const std::string element = "joint '" + j.name + "'";
    check_nonnegative(j.armature, source, element, "armature");
    check_single_coordinate_joint(model, static_cast<int>(&j - model.joints.data()), source, element, "armature on joint");
    model.armature(j.v_index) = j.armature;
    model.has_armature = true;
  }

  for (const ForceElement& e : model.forces) {
    const std::string element = "force '" + e.name + "'";
    if (e.name.empty()) fail(source, "forces", "an element has no name");
    if (!taken.insert(e.name).second)
      fail(source, element, "duplicate name (a joint, loop, force element or coupling is already called so)");
    for (double x : {e.stiffness, e.damping, e.free_length, e.preload, e.rest})
      if (!std::isfinite(x)) fail(source, element, "a parameter is not finite");
    switch (e.type) {
      case ForceElementType::SpringDamper:
        check_body_point(model, e.a, source, element, "a");
        check_body_point(model, e.b, source, element, "b");
        if (e.a.body == e.b.body) fail(source, element, "a and b are on the same body");
        check_nonnegative(e.stiffness, source, element, "stiffness");
        check_nonnegative(e.damping, source, element, "damping");
        check_nonnegative(e.free_length, source, element, "free_length");
        break;
      case ForceElementType::Bushing:
        check_body_point(model, e.a, source, element, "a");
        check_body_point(model, e.b, source, element, "b");
        if (e.a.body == e.b.body) fail(source, element, "a and b are on the same body");
        for (int k = 0; k < 6; ++k) {
          check_nonnegative(e.stiffness6(k), source, element, "stiffness");
          check_nonnegative(e.damping6(k), source, element, "damping");
        }
        break;
      case ForceElementType::JointSpringDamper:
      case ForceElementType::JointStop:
      case ForceElementType::JointServo:
        check_single_coordinate_joint(model, e.joint, source, element, "joint");
        check_nonnegative(e.stiffness, source, element, "stiffness");
        check_nonnegative(e.damping, source, element, "damping");
        if (e.type == ForceElementType::JointStop) {
          if (std::isnan(e.lower) || std::isnan(e.upper)) fail(source, element, "lower or upper is not a number");
          if (e.lower == -kUnbounded && e.upper == kUnbounded)
            fail(source, element, "a joint-stop needs lower, upper or both");
          if (e.lower > e.upper)
            fail(source, element, "lower (" + number_text(e.lower) + ") is above upper (" + number_text(e.upper) + ")");
        }
        if (e.type == ForceElementType::JointServo) {
          if (e.target.empty()) fail(source, element, "a joint-servo needs a target expression");
          check_expression(e.target, source, element, "target");
          if (!e.target_rate.empty()) check_expression(e.target_rate, source, element, "target_rate");
          if (std::isnan(e.max_effort) || e.max_effort <= 0.0)
            fail(source, element, "max_effort must be positive, got " + number_text(e.max_effort));
        }
        break;
      case ForceElementType::Applied:
        check_body_point(model, e.a, source, element, "body");
        if (e.a.body == kGround) fail(source, element, "an applied load acts on a body, not on ground");
        for (int k = 0; k < 3; ++k) {
          check_expression(e.force[static_cast<std::size_t>(k)], source, element, ("force[" + std::to_string(k) + "]").c_str());
          check_expression(e.torque[static_cast<std::size_t>(k)], source, element, ("torque[" + std::to_string(k) + "]").c_str());
        }
        break;
    }
  }

  // On flexible bodies: an element's point on a beam follows the deformed beam, the couplings
  // and the armature enter the flexible system (flexible/flexible_system.hpp; its points are
  // checked by check_points_on_flexible_bodies).

  model.num_force_expressions = 0;
  model.num_servo_targets = 0;
  for (const ForceElement& e : model.forces) {  // the Data's time functions, in data.cpp's order
    if (e.type == ForceElementType::JointServo) {
      model.num_force_expressions += e.target_rate.empty() ? 1 : 2;
      model.num_servo_targets += e.target_rate.empty() ? 1 : 0;
    }
    if (e.type == ForceElementType::Applied) model.num_force_expressions += 6;
  }
  model.coupling_row_index = model.num_loop_rows;
  for (const Coupling& c : model.couplings) {
    const std::string element = "coupling '" + c.name + "'";
    if (c.name.empty()) fail(source, "couplings", "a coupling has no name");
    if (!taken.insert(c.name).second)
      fail(source, element, "duplicate name (a joint, loop, force element or coupling is already called so)");
    check_single_coordinate_joint(model, c.a, source, element, "a");
    check_single_coordinate_joint(model, c.b, source, element, "b");
    if (c.a == c.b) fail(source, element, "couples joint '" + model.joints[static_cast<std::size_t>(c.a)].name + "' with itself");
    if (!std::isfinite(c.ratio) || !std::isfinite(c.offset)) fail(source, element, "ratio or offset is not finite");
    if (c.ratio == 0.0) fail(source, element, "ratio must not be 0");
    ++model.num_loop_rows;
  }
  model.has_force_elements = !model.forces.empty();
}

}  // namespace mechdyn
