// Force elements and couplings of a model (model format version 3,
// ../shared/spec/force-elements.md; docs/force-elements.md).
//
// The constant description only: what each element is and its parameters. What an element
// does at a state is computed by dynamics/force_elements.hpp (the generalized force Q_f,
// the body wrenches, the potential energy), and a coupling is a constraint row of the
// closure (constraints/loop_rows.hpp, after the cut joints' rows). Validated by
// finalize_model (src/model/force_element_rules.cpp).
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string>

#include "mechdyn/math/types.hpp"
#include "mechdyn/model/body_point.hpp"

namespace mechdyn {

enum class ForceElementType {
  SpringDamper,       // along the line between two points: T = k (L − L0) + c L̇ + T0
  Bushing,            // linear 6-DoF between two points' frames
  JointSpringDamper,  // on a joint of one coordinate: −k (q − rest) − c v
  JointStop,          // end stops of a joint of one coordinate: a one-sided spring–damper
  JointServo,         // position drive: kp (target(t) − q) + kd (target_rate(t) − v), clamped
  Applied,            // a force through a body point and a moment, expressions of t (world)
};

/// "spring-damper", "bushing", ...: the names of force-elements.md.
const char* force_element_type_name(ForceElementType type);
std::optional<ForceElementType> force_element_type_from_name(const std::string& name);
/// Every type name, for messages: "spring-damper, bushing, ... or applied".
std::string force_element_type_names();
/// True for the types on a joint (joint-spring-damper, joint-stop, joint-servo).
bool is_joint_element(ForceElementType type);

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// One force element. Only the fields of its type are used (the others keep their defaults).
struct ForceElement {
  std::string name;
  ForceElementType type = ForceElementType::SpringDamper;
  BodyPoint a;     // spring-damper, bushing: first point (forces on a); applied: the body and point
  BodyPoint b;     // spring-damper, bushing: second point
  int joint = -1;  // joint elements: the joint (= its body index)
  double stiffness = 0.0;    // k (N/m, N m/rad); servo kp; stop k
  double damping = 0.0;      // c (N s/m, N m s/rad); servo kd; stop c
  double free_length = 0.0;  // spring-damper L0 (m)
  double preload = 0.0;      // spring-damper T0 (N)
  double rest = 0.0;         // joint-spring-damper rest coordinate (rad or m)
  double lower = -kUnbounded, upper = kUnbounded;  // joint-stop (±∞: no stop on that side)
  double max_effort = kUnbounded;                  // joint-servo clamp (N m or N), > 0
  Vec6 stiffness6 = Vec6::Zero();  // bushing K = diag(K_t, K_r): along, about a's frame axes
  Vec6 damping6 = Vec6::Zero();    // bushing C = diag(C_t, C_r)
  std::string target;              // joint-servo: target(t), muParser
  std::string target_rate;         // joint-servo: target_rate(t); empty: central difference of target
  std::array<std::string, 3> force{"0", "0", "0"};   // applied: N, world components, expressions of t
  std::array<std::string, 3> torque{"0", "0", "0"};  // applied: N m, world components
};

enum class CouplingType { Gear };
const char* coupling_type_name(CouplingType type);

/// Joint coordinates tied together: q_b = ratio q_a + offset (a holonomic constraint row).
struct Coupling {
  std::string name;
  CouplingType type = CouplingType::Gear;
  int a = -1;  // joint (= body index) of exactly one coordinate
  int b = -1;
  double ratio = 1.0;  // ≠ 0
  double offset = 0.0;
};

}  // namespace mechdyn
