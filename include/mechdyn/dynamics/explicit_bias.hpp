// Explicit canonical bias forces h(q, q̇) of a tree.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eqs. (17), (20)–(22)
// (explicit-jsim-tree-chains eqs. (13)–(14)): for joint u,
//   h_R[u] = Σ_{k∈uL} [ m_k r̃^{u}_{kI} (centripetal + Coriolis acceleration of k's com)
//                      + J_k (ϕ̃̇ ϕ̇ terms) + ϕ̃̇_k J_k ϕ̇_k − m_k r̃^{u}_{kI} g ]
//   h_P[u] = Σ_{k∈uL} [ m_k (centripetal + Coriolis acceleration of k's com) − m_k g ]
// projected on the joint axis: h_u = n_uᵀ h_R[u] (revolute), n_uᵀ h_P[u] (prismatic).
//
// Said plainly: these sums are the resultant-force backward iteration of the joint
// reactions (EC §3.1, eq. 17; dynamics/joint_reactions.hpp) evaluated at q̈ = 0 — every
// body's acceleration is its velocity-product part a⁰ — and projected on the motion
// axes; in Featherstone's terms the world-frame RNEA at a = 0 (§5.3). The code runs that
// iteration (subtree_wrenches) on data.bias_acceleration.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// h(q, q̇) into data.bias_force and its gravity part into data.gravity_force.
/// Runs forward_kinematics(q, v), then explicit_bias_force_from_kinematics.
/// Allocates nothing.
const VecX& explicit_bias_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v);

/// On the velocity stage in Data (forward_kinematics(q, v) or (q, v, a)). Reads
/// data.velocity, data.joint_bias, data.com_position, data.inertia_world,
/// data.motion_axis. Writes data.bias_acceleration (a⁰), data.subtree_force (W_u at
/// q̈ = 0), data.subtree_inertia (mass and first moment), data.bias_force,
/// data.gravity_force.
const VecX& explicit_bias_force_from_kinematics(const Model& model, Data& data);

/// Only the gravity part g(q) (the h of q̇ = 0) into data.gravity_force; runs
/// forward_kinematics(q). Writes data.subtree_inertia (mass and first moment).
const VecX& explicit_gravity_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

}  // namespace mechdyn
