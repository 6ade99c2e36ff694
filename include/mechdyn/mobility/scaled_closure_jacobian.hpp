// The loop-closure Jacobian made dimensionless, for unit-consistent rank decisions.
//
// Row r of the closure Jacobian J (constraints/loop_closure.hpp, EC eq. 24) is the power
// of the row's unit constraint wrench W_r (constraints/cut_joint_forces.hpp,
// loop_row_wrenches) on the unit joint twists s_k: J(r, k) = ⟨s_k, W_r⟩. Rows are in m
// or rad (position or orientation closure), columns per rad/s or m/s, so "small" in J
// depends on the units. With the mechanism's characteristic point c and length L
// (mechanism_scale) every screw has a scaled norm ‖(L a; b + a × c)‖ (screw/screw_system.hpp),
// and
//   J'(r, k) = J(r, k) · γ_k · ρ_r,   γ_k = 1/‖s_k‖_L,   ρ_r = L/‖W_r‖_L,
// is the reciprocal product of a unit joint twist and a unit constraint wrench, scaled so
// that ⟨·,·⟩ becomes dimensionless (‖J'(r, ·)‖∞ ≤ 1). Scaling rows and columns does not
// change the rank or the null space directions (N = diag(γ) N'); it makes the relative
// tolerance of the singular values mean the same for a micro-mechanism and a crane, and for
// a mechanism far from the world origin.
// c is the centroid and L the largest distance from it of the body frame origins, centres
// of mass and cut points at q (L = 1 m when they all coincide).
// A diagnostic: allocates its result. Cost O(rows · nv).
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/screw/screw_system.hpp"

namespace mechdyn {

/// c and L of the mechanism at data's kinematics (run forward_kinematics or loop_closure first).
ScrewScale mechanism_scale(const Model& model, const Data& data);

struct ScaledClosureJacobian {
  ScrewScale scale;     // c, L used
  MatX matrix;          // J' = diag(ρ) J diag(γ): rows × nv, dimensionless
  VecX row_scale;       // ρ_r = L / ‖W_r‖_L (rows)
  VecX column_scale;    // γ_k = 1 / ‖s_k‖_L (nv); joint velocity = γ ∘ scaled velocity
};

/// J' at the configuration of data (call loop_closure(q) first: reads data.loop_jacobian,
/// data.motion_axis; writes data.loop_row_wrench_a/_b).
ScaledClosureJacobian scaled_closure_jacobian(const Model& model, Data& data);

}  // namespace mechdyn
