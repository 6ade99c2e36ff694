// Forward dynamics of a closed chain under given efforts: the constrained equations
// of motion with Lagrange multipliers, in range-space form.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eqs. (23)–(26):
//   M a + h = τ + Jᵀ λ,   J a = −J̇ v − 2α J v − β² Φ                 (Baumgarte)
// (τ_c = Jᵀ λ, eq. 25; the right-hand side is eq. (24) differentiated, with
// Baumgarte's stabilisation, Comput. Methods Appl. Mech. Eng. 1 (1972) 1–16; α = β = 0
// by default). Range-space solution: M = L Lᵀ (Cholesky), K = L⁻¹ Jᵀ,
//   a_free = M⁻¹ (τ − h),  (J M⁻¹ Jᵀ) λ = c − J a_free,  a = a_free + M⁻¹ Jᵀ λ.
// J M⁻¹ Jᵀ = Kᵀ K is symmetric positive semi-definite; with redundant closure rows it
// is singular, so it is applied as a pseudo-inverse through the SVD of K = U Σ Vᵀ
// (math/jacobi_svd.hpp; (KᵀK)⁺ = V Σ⁻² Vᵀ), singular values below
// rank_tolerance × the largest treated as zero: a is unique, λ the minimum-norm
// multiplier. (The SVD of K, not an eigen-decomposition of KᵀK, keeps the rank decision
// at the accuracy of K.) When KᵀK is certified well conditioned (Cholesky KᵀK = L Lᵀ
// with 1/‖L⁻¹‖²_F > 1e-6 · trace: full row rank, far from the tolerance) λ comes from
// that Cholesky factor instead, the same solution to round-off at a fraction of the
// cost (JacobiSvd::solve_gram_direct). One kinematics pass at (q, v, a = 0) serves M,
// Φ, J and J̇ v. Cut-joint wrenches follow from λ (constraints/cut_joint_forces.hpp).
// Cost O(nv³ + rows³). Writes data.ddq, data.loop_multiplier, data.cut_*,
// data.mass_matrix, data.loop_residual/jacobian/bias, Data's kinematics at (q, v, 0);
// data.factor_svd holds no decomposition after the Cholesky path. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct ConstrainedDynamicsOptions {
  double baumgarte_alpha = 0.0;   // α (1/s): damping of the velocity-level violation J v
  double baumgarte_beta = 0.0;    // β (1/s): stiffness on the position-level violation Φ
  double rank_tolerance = 1e-9;   // relative singular-value threshold of K = L⁻¹ Jᵀ
};

/// Accelerations a (into data.ddq) and multipliers λ under efforts tau (nv; passive
/// joints normally 0). Throws SolverError if M is not positive definite.
const VecX& constrained_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                         const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                                         const ConstrainedDynamicsOptions& options = {});

}  // namespace mechdyn
