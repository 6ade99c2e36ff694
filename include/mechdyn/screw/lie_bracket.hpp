// The Lie bracket of twists (ad) and its dual acting on wrenches (ad*).
//
// Source: screw-kinematics-3UPS-UPU-S §4, eq. (36): for twists L₁ = (ω₁; v₁), L₂ = (ω₂; v₂)
//   [L₁, L₂] = (ω₁ × ω₂;  ω₁ × v₂ − ω₂ × v₁),
// the term that makes the screw-form acceleration of a serial chain (eqs. 37, 42–44)
//   A_{0N} = Σ_k β_k $_k + Σ_{j<k} [ω_j $_j, ω_k $_k].
// It is the derivative of the adjoint action: d/dε Ad_{exp(ε L₁)} L₂ |_{ε=0} = [L₁, L₂]
// (Murray, Li & Sastry (1994) §2.4; Featherstone's crm, "Rigid Body Dynamics Algorithms"
// (2008) §2.9, in the same (ω; v) order). The dual, for a wrench W = (f; m) carried by a
// body moving with twist L = (ω; v) (d/dt of transform(T(t), W_body)),
//   L ×* W = (ω × f;  ω × m + v × f),
// satisfies ⟨[L, S], W⟩ = −⟨S, L ×* W⟩ (power is invariant). Inline, no allocation.
#pragma once

#include "mechdyn/math/skew.hpp"
#include "mechdyn/screw/twist_wrench.hpp"

namespace mechdyn {

/// [a, b] = ad_a b = (ω_a × ω_b; ω_a × v_b + v_a × ω_b)  (eq. 36).
inline Twist lie_bracket(const Twist& a, const Twist& b) {
  const Vec3 wa = a.angular(), va = a.linear(), wb = b.angular(), vb = b.linear();
  return Twist(wa.cross(wb), Vec3(wa.cross(vb) + va.cross(wb)));
}

/// a ×* W = (ω × f; ω × m + v × f): rate of a wrench fixed in a body moving with twist a.
inline Wrench dual_lie_bracket(const Twist& a, const Wrench& wrench) {
  const Vec3 w = a.angular(), v = a.linear(), f = wrench.force(), m = wrench.moment();
  return Wrench(w.cross(f), Vec3(w.cross(m) + v.cross(f)));
}

/// The matrix ad_a = [ω̃ 0; ṽ ω̃] with lie_bracket(a, b).plucker == lie_bracket_matrix(a) * b.plucker.
inline Mat6 lie_bracket_matrix(const Twist& a) {
  Mat6 out = Mat6::Zero();
  const Mat3 w = skew(a.angular());
  out.topLeftCorner<3, 3>() = w;
  out.bottomRightCorner<3, 3>() = w;
  out.bottomLeftCorner<3, 3>() = skew(a.linear());
  return out;
}

/// The matrix of the dual: dual_lie_bracket(a, W).plucker == dual_lie_bracket_matrix(a) * W.plucker.
/// In the line-part-first order of both screws it equals ad_a (ℵ ad_aᵀ ℵ = −ad_a).
inline Mat6 dual_lie_bracket_matrix(const Twist& a) { return lie_bracket_matrix(a); }

}  // namespace mechdyn
