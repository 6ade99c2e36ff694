// Rotations parameterised by a rotation vector θ (axis × angle): the exponential map,
// its left Jacobian and the time derivative of that Jacobian along θ̇.
//
//   Λ(θ) = exp(θ̃) = 1 + c0 θ̃ + c1 θ̃²                   (Rodrigues)
//   J(θ)  = 1 + c1 θ̃ + c2 θ̃²,  Λ̇ Λᵀ = (J θ̇)~           (left Jacobian: ω = J θ̇)
//   J̇ θ̇ = ċ1 θ × θ̇ + ċ2 θ × (θ × θ̇) + c2 θ̇ × (θ × θ̇)
// with a = |θ|, c0 = sin a / a, c1 = (1 − cos a) / a², c2 = (a − sin a) / a³ and
// ċ_i = (c_i'(a) / a) (θ · θ̇). Below a = 0.1 the coefficients come from their Taylor
// series through a⁸ (the closed forms of c_i'/a lose digits to cancellation there).
//
// Used by flexible/beam_point.hpp for the rotation of a beam section (θ = N_θ e).
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// Λ = exp(θ̃), a proper rotation for every θ.
Mat3 rotation_vector_exp(const Vec3& theta);

/// The left Jacobian J(θ): the angular velocity of Λ(θ(t)) (in the frame Λ is relative
/// to) is J θ̇.
Mat3 rotation_vector_jacobian(const Vec3& theta);

/// J̇ θ̇ for a given θ̇: the part of the angular acceleration of Λ(θ(t)) that does not
/// contain θ̈ (the angular acceleration is J θ̈ + J̇ θ̇).
Vec3 rotation_vector_jacobian_rate(const Vec3& theta, const Vec3& theta_rate);

/// (∂J/∂θ · ψ) x: the change of J(θ) x when θ moves along ψ (x held), for any ψ and x —
///   ċ1 θ × x + c1 ψ × x + ċ2 θ × (θ × x) + c2 (ψ × (θ × x) + θ × (ψ × x)),  ċ_i = (c_i'/a)(θ · ψ);
/// with ψ = x it is J̇ θ̇ above. Used by the bushing's derivatives (dynamics/force_elements.hpp).
Vec3 rotation_vector_jacobian_derivative(const Vec3& theta, const Vec3& direction, const Vec3& x);

}  // namespace mechdyn
