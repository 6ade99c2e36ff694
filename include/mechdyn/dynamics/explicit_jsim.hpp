// Explicit joint-space inertia matrix (JSIM) of a tree.
//
// Source: explicit-jsim-tree-chains (EJ) §4, eqs. (30)–(37); explicit-canonical-dynamics-
// joint-friction (EC) eqs. (18)–(19). Element (u, k), k an ancestor of u or u itself:
//   R–R: M[u][k] = n_uᵀ Σ_{l∈uL} (J_l − m_l r̃^{u}_{lI} r̃^{k}_{lI}) n_k     eq. (30)/(32)
//   R–P: M[u][k] = n_uᵀ Σ_{l∈uL} m_l r̃^{u}_{lI} n_k                         eq. (31)/(33)
//   P–R: M[u][k] = −n_uᵀ Σ_{l∈uL} m_l r̃^{k}_{lI} n_k                        eq. (34)/(36)
//   P–P: M[u][k] = n_uᵀ Σ_{l∈uL} m_l n_k                                     eq. (35)/(37)
// and 0 when neither joint is an ancestor of the other. Only the lower triangle is
// evaluated; the upper is mirrored. Multi-DoF joints: docs/joints.md.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// M(q) into data.mass_matrix. Evaluates the subtree sums Σ_{l∈uL} once per body
/// (subtree aggregates), so the cost is O(n·depth) instead of the literal O(n³).
/// Runs the position kinematics itself. Allocates nothing.
const MatX& explicit_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The same M(q) by the literal element sums of eqs. (30)–(37) (O(n³)); the reference
/// for tests and for the cost claim of EJ §6.
const MatX& explicit_mass_matrix_direct(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

}  // namespace mechdyn
