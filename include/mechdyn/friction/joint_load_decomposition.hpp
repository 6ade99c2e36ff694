// Joint constraint forces and torques in the decomposition of explicit-canonical-
// dynamics-joint-friction (EC) §3.1–3.3, and the equivalent normal load of each joint.
//
// Input: the reaction wrench of every joint (dynamics/joint_reactions.hpp): force f and
// torque τ (about the child's frame origin o_u, a point of the joint axis) that the
// parent exerts on the child, world frame; it includes the driving effort. With the
// joint's axis-invariant n (world), the 3D force screw (EC eq. 37) splits it into the
// constraint part n̄² = −ñ² (orthogonal to n) and the part n nᵀ on the axis:
//   revolute:  τ_r = |τ − n nᵀτ|  (constraint torque, eqs. 36–39)
//              f_r = |f − n nᵀf|  (constraint force across the axis, eqs. 43–44)
//              f_m = |nᵀ f|       (constraint force along the axis, eqs. 45–46)
//              (nᵀτ is the driving effort of eq. 17, not a constraint load)
//   prismatic: f_p = |f − n nᵀf|  (eqs. 36–39), τ_p = |τ − n nᵀτ| (eq. 44), τ_m = |nᵀτ| (eq. 46)
// Equivalent normal load, with R_p pin radius, R_b bending arm, R_n friction arm (EC
// Fig. 8; eq. (47) as printed mixes units for the revolute case, so the contract of
// ../shared/spec/model-format.md, also ADAMS's joint-friction form, is used):
//   revolute:  τ_n = R_p (f_r + τ_r / R_b) + R_n f_m      (N·m)
//   prismatic: f_n = f_p + τ_p / R_b + τ_m / R_n           (N)
// Generalisation to multi-axis joints (docs/friction.md): the constraint torque is the
// part of τ orthogonal to the joint's rotation axes, the constraint force the part of f
// orthogonal to its translation axes; there is no single reference axis, so axial = 0:
//   universal: τ_c = |ê ·τ| with ê = n1 × n2 / |n1 × n2|, f_c = |f|
//   spherical: τ_c = 0, f_c = |f|;  free: all 0;  fixed: τ_c = |τ|, f_c = |f|.
// Cost O(n). Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Reads data.reaction_force, data.reaction_torque and data.motion_axis (run
/// joint_reactions first); writes data.constraint_torque, data.constraint_force,
/// data.axial_load (per body) and data.normal_load (per body; 0 for joints without
/// friction.load).
void joint_load_decomposition(const Model& model, Data& data);

/// The normal load of one joint with friction.load from its decomposition (the formulas
/// above); 1 when the joint has no load block (k_c, k_s are then efforts).
double joint_normal_load(const Joint& joint, double constraint_torque, double constraint_force, double axial_load);

}  // namespace mechdyn
