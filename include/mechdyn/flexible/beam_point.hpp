// Kinematics of a point attached to a deformed beam, relative to the body (floating) frame.
//
// Contract (../shared/spec/flexible-bodies.md): a point on the neutral axis (within
// kBeamPointTolerance) at arclength s follows the deformed beam there; a point off the axis
// is carried rigidly by the section through its foot s = d · p on the axis.
//
//   position   p̄(e) = s d + N(s) e + Λ(θ) o,   θ = N_θ(s) e,  Λ = exp(θ̃)      (eqs. 1, 3)
//   o = p − s d: the offset from the foot (zero on the axis)
//   velocity   ṗ̄ = J_p ė,    J_p = N(s) − (Λ o)~ J(θ) N_θ(s)
//   section angular velocity relative to the frame: ω_rel = J_θ ė,  J_θ = J(θ) N_θ(s)
//   acceleration p̈̄ = J_p ë + b_p,  ω̇_rel = J_θ ë + b_θ  (the velocity-product terms b)
// with J(θ) the left Jacobian of exp (math/rotation_vector.hpp). All vectors in body-frame
// components; the world position is r_0 + R p̄ (eq. 1), the section's world rotation R Λ.
//
// The section rotation is exp(θ̃), a proper rotation, so frames attached to a section
// stay orthonormal (joint axes on a deformed beam). The kinetic energy uses the linear
// section angular velocity ω + θ̇ (flexible/ffr_dynamics.hpp); the two agree to first
// order in θ, which is the order of the linear elastic model.
//
// Cost: one element's shape functions and a 3 x 12 by 12 x n_e product (modal) or a
// scatter into 3 x n_e (nodal); no allocation.
#pragma once

#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {

/// Where a body-frame point sits on the beam; built once (e.g. when the model is built).
struct BeamPoint {
  int element = 0;         // 0-based element holding the foot of the point
  double xi = 0.0;         // ξ = (s − element · ℓ) / ℓ ∈ [0, 1]
  double arclength = 0.0;  // s = d · p, clamped to [0, L]
  Vec3 offset = Vec3::Zero();  // o = p − s d (body frame); zero when on the axis
  bool on_axis = true;     // |o| ≤ kBeamPointTolerance
};

/// Locates `point` (body frame, undeformed) on the beam; ModelError when beam_point_problem
/// finds it before the first node or beyond the length.
BeamPoint make_beam_point(const FlexibleBody& body, const Vec3& point);

/// Results and scratch of beam_point_kinematics, sized once for one body.
struct BeamPointKinematics {
  explicit BeamPointKinematics(const FlexibleBody& body);

  Vec3 position = Vec3::Zero();        // p̄ (body frame)
  Vec3 rotation_vector = Vec3::Zero(); // θ = N_θ(s) e (body frame)
  Mat3 rotation = Mat3::Identity();    // Λ = exp(θ̃): section orientation relative to the body frame
  Mat3X position_jacobian;             // J_p = ∂ṗ̄/∂ė (3 x n_e)
  Mat3X rotation_jacobian;             // J_θ: ω_rel = J_θ ė (3 x n_e)
  Vec3 position_bias = Vec3::Zero();   // b_p = J̇_p ė (beam_point_velocity_product)
  Vec3 rotation_bias = Vec3::Zero();   // b_θ = J̇_θ ė

  // ---- scratch ----
  Mat3x12 shape;           // N(s), body components, element columns
  Mat3x12 rotation_shape;  // N_θ(s), body components, element columns
};

/// p̄, θ, Λ, J_p and J_θ of `point` at the elastic coordinates e (n_e).
void beam_point_kinematics(const FlexibleBody& body, const BeamPoint& point, const Eigen::Ref<const VecX>& e,
                           BeamPointKinematics& out);

/// b_p and b_θ at (e, ė), after beam_point_kinematics at the same e: the point's relative
/// acceleration and the section's relative angular acceleration at ë = 0 (b_p is zero for
/// a point on the axis, whose J_p = N(s) is constant).
void beam_point_velocity_product(const FlexibleBody& body, const BeamPoint& point,
                                 const Eigen::Ref<const VecX>& elastic_velocity, BeamPointKinematics& out);

}  // namespace mechdyn
