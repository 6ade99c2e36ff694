// Explicit joint-space inertia matrix (JSIM) of a tree.
//
// Source: explicit-jsim-tree-chains (EJ) §4, eqs. (30)–(37); explicit-canonical-dynamics-
// joint-friction (EC) eqs. (18)–(19). Element (u, k), k an ancestor of u or u itself:
//   R–R: M[u][k] = n_uᵀ Σ_{l∈uL} (J_l − m_l r̃^{u}_{lI} r̃^{k}_{lI}) n_k     eq. (30)/(32)
//   R–P: M[u][k] = n_uᵀ Σ_{l∈uL} m_l r̃^{u}_{lI} n_k                         eq. (31)/(33)
//   P–R: M[u][k] = −n_uᵀ Σ_{l∈uL} m_l r̃^{k}_{lI} n_k                        eq. (34)/(36)
//   P–P: M[u][k] = n_uᵀ Σ_{l∈uL} m_l n_k                                     eq. (35)/(37)
// and 0 when neither joint is an ancestor of the other. Multi-DoF joints: docs/joints.md.
//
// Two names, one algorithm, said plainly: each sum above is affine in the body
// quantities, so it needs only the subtree aggregates S_u = Σ_{l∈uL} (m_l, m_l c_l,
// J_l − m_l c̃_l c̃_l) — the composite spatial inertia I^c_u about the world origin — and
// then M[i][j] = s_iᵀ (I^c_u s_j) for every coordinate pair on an ancestor chain
// (docs/dynamics.md derives it). Accumulating I^c_u backward and contracting it with the
// world motion axes IS the world-frame composite-rigid-body algorithm (Featherstone 2008
// §6.2, Table 6.2, absolute coordinates), so explicit_mass_matrix runs crba. The paper's
// literal element formulas stay as explicit_mass_matrix_direct: the independent reference
// crba is tested against (tests/properties/test_explicit_vs_recursive.cpp,
// tests/reference/test_explicit_jsim_closed_form.cpp) and the subject of EJ §6's count.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// M(q) into data.mass_matrix by the subtree aggregates of EJ eqs. (30)–(37): the
/// world-frame CRBA, O(n·depth) (dynamics/crba.hpp; reads and writes what crba does).
/// Allocates nothing.
const MatX& explicit_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The same M(q) by the literal element sums of eqs. (30)–(37) (O(n³)); the reference
/// for tests and for the cost claim of EJ §6. Runs forward_kinematics(q); reads the
/// position stage; writes data.mass_matrix. Allocates nothing.
const MatX& explicit_mass_matrix_direct(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

}  // namespace mechdyn
