// Explicit canonical bias forces h(q, q̇) of a tree.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eqs. (17), (20)–(22)
// (explicit-jsim-tree-chains eqs. (13)–(14)): for joint u,
//   h_R[u] = Σ_{k∈uL} [ m_k r̃^{u}_{kI} (centripetal + Coriolis acceleration of k's com)
//                      + J_k (ϕ̃̇ ϕ̇ terms) + ϕ̃̇_k J_k ϕ̇_k − m_k r̃^{u}_{kI} g ]
//   h_P[u] = Σ_{k∈uL} [ m_k (centripetal + Coriolis acceleration of k's com) − m_k g ]
// projected on the joint axis: h_u = n_uᵀ h_R[u] (revolute), n_uᵀ h_P[u] (prismatic).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// h(q, q̇) into data.bias_force and its gravity part into data.gravity_force.
/// Runs the kinematics itself. Allocates nothing.
const VecX& explicit_bias_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v);

/// Only the gravity part g(q) (the h of q̇ = 0) into data.gravity_force.
const VecX& explicit_gravity_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

}  // namespace mechdyn
