// A prescribed body motion given as muParser expressions of t (`mechdyn invdyn
// --motion-expr BODY=...`, docs/parallel-manipulators.md, "Prescribed motion").
//
// Text: comma-separated `key=expression` items (commas inside parentheses belong to the
// expression). Two forms, not mixed:
//  - the pose: px, py, pz (body frame origin, m) and rx, ry, rz (rad; orientation
//    R = R_z(rz) R_y(ry) R_x(rx), rotations about the fixed world axes x, then y, then z);
//    omitted keys are 0. Velocities and accelerations come from the derivatives of the
//    expressions: ω = ṙz e_z + ṙy R_z e_y + ṙx R_z R_y e_x, and ω̇ its derivative;
//  - some twist components: wx, wy, wz (angular velocity, rad/s) and vx, vy, vz (velocity
//    of the body frame origin, m/s); the others follow from the loop closure.
// Derivatives: muParser evaluates doubles only (no dual numbers, no complex step, no
// symbolic derivative), so they are computed by Ridders' method — central differences
// (first derivative (f(t+h) − f(t−h))/2h, second (f(t+h) − 2f(t) + f(t−h))/h²) at
// h = 0.05·max(1, |t|)·1.4^−i, i < 10, extrapolated to h → 0 by Richardson's tableau in h²
// (Ridders, Adv. Eng. Software 4 (1982) 75; Numerical Recipes 3rd ed. §5.7). The tableau's
// own error estimate is kept; a derivative whose estimate exceeds 1e-6 (relative to
// 1 + |value|) is refused (an expression that is not smooth there, e.g. abs(t) at 0). For
// smooth expressions the error is typically 1e-12 relative (first derivative) and 1e-9
// (second), measured in tests/unit/test_motion_expressions.cpp against analytic derivatives.
// The expressions live with the tool so that the library does not depend on muParser.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "mechdyn/parallel/body_motion.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

/// Values and first (and second) time derivatives of every expression of a TimeExpressions
/// at t, by Ridders' extrapolation as described above. Throws UsageError naming `element`,
/// the expression (1-based) and t when the error estimate exceeds 1e-6 relative. Scratch
/// sized once; evaluation allocates nothing. Used by MotionExpressions and by the
/// position-driven runs (actuated_motion.hpp).
class ExpressionDerivatives {
 public:
  ExpressionDerivatives(TimeExpressions& expressions, std::string element);
  void evaluate(double t, bool second);
  VecX value, first, second;  // per expression

 private:
  TimeExpressions* expressions_;
  std::string element_;
  VecX plus_, minus_, best_, answer_;
  std::vector<char> done_;
  std::vector<double> table_;  // per expression a kTable × kTable tableau
};

class MotionExpressions {
 public:
  /// `element` names the option in messages (e.g. "--motion-expr platform"). Throws
  /// UsageError for an unknown or repeated key, an empty or unparsable expression, or
  /// pose keys mixed with twist keys.
  MotionExpressions(const std::string& text, const std::string& element);

  bool twist_form() const { return twist_form_; }
  /// Twist form: which components are prescribed (TwistPrescription order).
  const std::array<bool, 6>& components() const { return components_; }

  /// Pose form: the sample at t (pose, velocities, accelerations).
  BodyMotionSample sample(double t);
  /// Twist form: prescribed values and their rates at t.
  void twist(double t, Vec6& values, Vec6& rates);

 private:

  std::string element_;
  bool twist_form_ = false;
  std::array<bool, 6> components_{};
  std::array<int, 6> slot_{};   // expression index of each key (−1: absent)
  std::unique_ptr<TimeExpressions> expressions_;
  std::unique_ptr<ExpressionDerivatives> derivatives_;
};

}  // namespace mechdyn::cli
