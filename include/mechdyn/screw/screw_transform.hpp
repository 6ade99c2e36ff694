// Change of reference point and of frame of twists and wrenches (the adjoint action).
//
// A frame B placed in frame A by x_A = R x_B + t (rotation R, translation t: B's origin
// in A). Coordinates about B's origin in B's axes → about A's origin in A's axes:
//   twist  (ω; v):  ω_A = R ω_B,   v_A = R v_B + t × (R ω_B)     ($_A = Ad_T $_B)
//   wrench (f; m):  f_A = R f_B,   m_A = R m_B + t × (R f_B)
// (Murray, Li & Sastry, "A Mathematical Introduction to Robotic Manipulation" (1994),
// §2.4.3 eq. 2.58 with our line-part-first order; the wrench rule is the same matrix
// because both screws keep the line part first.) Moving only the reference point to a
// point p (same axes) is the case R = 1, t = p read backwards:
//   twist  v_p = v + ω × p;          wrench  m_p = m − p × f.
// These maps preserve the reciprocal product (power does not depend on the observer).
// Inline, fixed-size, no allocation.
#pragma once

#include "mechdyn/math/skew.hpp"
#include "mechdyn/screw/twist_wrench.hpp"

namespace mechdyn {

/// Placement of a frame B in a frame A: x_A = rotation · x_B + translation.
struct RigidTransform {
  Mat3 rotation = Mat3::Identity();     // R: B's axes in A's coordinates
  Vec3 translation = Vec3::Zero();      // t: B's origin in A (m)

  /// The placement of A in B (x_B = Rᵀ x_A − Rᵀ t).
  RigidTransform inverse() const {
    RigidTransform out;
    out.rotation = rotation.transpose();
    out.translation = -(out.rotation * translation);
    return out;
  }
};

/// Twist coordinates with the reference point moved to `point` (same axes): (ω; v + ω × p).
inline Twist shift_reference_point(const Twist& twist, const Vec3& point) {
  return Twist(twist.angular(), twist.velocity_at(point));
}

/// Wrench coordinates with the reference point moved to `point` (same axes): (f; m − p × f).
inline Wrench shift_reference_point(const Wrench& wrench, const Vec3& point) {
  return Wrench(wrench.force(), wrench.moment_about(point));
}

/// Twist given in B (about B's origin) → the same twist in A (about A's origin): Ad_T $.
inline Twist transform(const RigidTransform& a_from_b, const Twist& twist_in_b) {
  const Vec3 angular = a_from_b.rotation * twist_in_b.angular();
  return Twist(angular, a_from_b.rotation * twist_in_b.linear() + a_from_b.translation.cross(angular));
}

/// Wrench given in B (about B's origin) → the same wrench in A (about A's origin).
inline Wrench transform(const RigidTransform& a_from_b, const Wrench& wrench_in_b) {
  const Vec3 force = a_from_b.rotation * wrench_in_b.force();
  return Wrench(force, a_from_b.rotation * wrench_in_b.moment() + a_from_b.translation.cross(force));
}

/// Twist given in A → the same twist in B: Ad_T⁻¹ $ (the inverse of transform).
inline Twist inverse_transform(const RigidTransform& a_from_b, const Twist& twist_in_a) {
  const Vec3 linear_at_b = twist_in_a.velocity_at(a_from_b.translation);
  return Twist(Vec3(a_from_b.rotation.transpose() * twist_in_a.angular()),
               Vec3(a_from_b.rotation.transpose() * linear_at_b));
}

/// Wrench given in A → the same wrench in B (the inverse of transform).
inline Wrench inverse_transform(const RigidTransform& a_from_b, const Wrench& wrench_in_a) {
  const Vec3 moment_at_b = wrench_in_a.moment_about(a_from_b.translation);
  return Wrench(Vec3(a_from_b.rotation.transpose() * wrench_in_a.force()),
                Vec3(a_from_b.rotation.transpose() * moment_at_b));
}

/// The 6 × 6 matrix Ad_T = [R 0; t̃ R R] acting on Plücker coordinates (line part first):
/// transform(T, $).plucker == adjoint_matrix(T) * $.plucker for twists and wrenches alike.
inline Mat6 adjoint_matrix(const RigidTransform& a_from_b) {
  Mat6 out = Mat6::Zero();
  out.topLeftCorner<3, 3>() = a_from_b.rotation;
  out.bottomRightCorner<3, 3>() = a_from_b.rotation;
  out.bottomLeftCorner<3, 3>() = skew(a_from_b.translation) * a_from_b.rotation;
  return out;
}

}  // namespace mechdyn
