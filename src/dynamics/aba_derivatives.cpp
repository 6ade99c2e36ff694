// Analytical derivatives of forward dynamics, ∂q̈/∂q (tangent space), ∂q̈/∂v, ∂q̈/∂τ.
//
// Source: Carpentier & Mansard, RSS 2018, §IV-C (Pinocchio's computeABADerivatives).
// Forward dynamics q̈ = FD(q, v, τ) solves M(q) q̈ + h(q, v) = τ, i.e. ID(q, v, q̈) = τ;
// differentiating this identity at q̈ = FD(q, v, τ) (docs/derivatives.md eq. D10):
//   ∂ID/∂q + M ∂q̈/∂q = 0   →  ∂q̈/∂q = −M⁻¹ ∂τ/∂q |_{a = q̈}
//   ∂ID/∂v + M ∂q̈/∂v = 0   →  ∂q̈/∂v = −M⁻¹ ∂τ/∂v |_{a = q̈}
//   M ∂q̈/∂τ = 1             →  ∂q̈/∂τ = M⁻¹
// Steps: ABA for q̈ (its kinematics stage then holds the accelerations of q̈), the inverse
// dynamics derivatives on that stage (dynamics/rnea_derivatives.hpp), M from the rows
// f_l = I^c s_l those derivatives formed anyway (M_kl = s_kᵀ I^c_{body(l)} s_l = s_k·f_l for k
// on the path from l to the root, CRBA's column forces — Featherstone §6.2 — without a
// second composite pass), M = Lᵀ D L by the branch-sparse factorisation
// (dynamics/sparse_cholesky.hpp, Featherstone §6.5), and one solve with the 3 nv right-hand
// sides [−∂τ/∂q, −∂τ/∂v, 1] at once, row by row (each row operation of the triangular
// solves acts on all 3 nv columns: contiguous, vectorised, one pass over the factor).
// Cost: O(n) (ABA) + O(nv · depth) (derivatives, M) + O(Σ depth²) (factor) + O(nv Σ depth)
// (the solve).
// Reads: Model, q, v, τ. Writes: the kinematics stage, data.ddq, data.mass_matrix,
// data.mass_matrix_factor, the ABA scratch; work.dtau_dq, work.dtau_dv (at a = q̈),
// work.da_dq, work.da_dv, work.da_dtau and the derivative scratch (work.solve_rows).
// Allocates nothing (after the first call on a Data made without MassMatrix or
// MassMatrixFactor).
#include "mechdyn/dynamics/aba_derivatives.hpp"

#include "dynamics_stages.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

/// M_kl = M_lk = s_k·f_l for k = l and every coordinate above l (model.dof_parent), 0 for
/// coordinates on different branches.
void mass_matrix_from_composites(const Model& model, Data& data, const DerivativeData& work) {
  MatX& mass = data.mass_matrix;
  mass.setZero();
  for (int l = 0; l < model.nv; ++l) {
    const Vec6 force = work.composite_axis_rows[static_cast<std::size_t>(l)].col(0).head<6>();  // f_l = I^c s_l
    for (int k = l; k != -1; k = model.dof_parent[static_cast<std::size_t>(k)]) {
      const double entry = data.motion_axis[static_cast<std::size_t>(k)].dot(force);
      mass(k, l) = entry;
      mass(l, k) = entry;
    }
  }
}

/// X = M⁻¹ X in place for the rows of X (nv × 3 nv, row-major), with the factor M = Lᵀ D L
/// (sparse_cholesky.cpp's solve, one row operation for all columns).
void solve_rows(const Model& model, const Data& data, DerivativeData::RowMatrix& x) {
  const MatX& l = data.mass_matrix_factor;
  const std::vector<int>& parent = model.dof_parent;
  for (int i = model.nv - 1; i >= 0; --i)  // Lᵀ y = b (descendants first)
    for (int j = parent[static_cast<std::size_t>(i)]; j != -1; j = parent[static_cast<std::size_t>(j)])
      x.row(j) -= l(j, i) * x.row(i);
  for (int i = 0; i < model.nv; ++i) x.row(i) *= 1.0 / l(i, i);  // D z = y
  for (int i = 0; i < model.nv; ++i)                              // L x = z (ancestors first)
    for (int j = parent[static_cast<std::size_t>(i)]; j != -1; j = parent[static_cast<std::size_t>(j)])
      x.row(i) -= l(j, i) * x.row(j);
}

}  // namespace

void aba_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "aba_derivatives");
  check_derivative_data(model, work, "aba_derivatives");
  check_state(model, q, &v, &tau, "tau");
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor);
  aba(model, data, q, v, tau);  // q̈ into data.ddq; SolverError naming the joint at a singular D_i
  rnea_derivatives_from_kinematics(model, data, work, v, data.ddq);  // ∂τ/∂q, ∂τ/∂v at a = q̈; f_l = I^c s_l
  mass_matrix_from_composites(model, data, work);                     // M on the same poses
  detail::factor_mass_matrix(model, data);  // M = Lᵀ D L; SolverError naming the coordinate when M is singular
  const Eigen::Index nv = model.nv;
  DerivativeData::RowMatrix& x = work.solve_rows;  // [−∂τ/∂q, −∂τ/∂v, 1] → M⁻¹ [·], eq. (D10)
  x.leftCols(nv) = -work.dtau_dq;
  x.middleCols(nv, nv) = -work.dtau_dv;
  x.rightCols(nv).setIdentity();
  solve_rows(model, data, x);
  work.da_dq = x.leftCols(nv);
  work.da_dv = x.middleCols(nv, nv);
  work.da_dtau = x.rightCols(nv);
}

}  // namespace mechdyn
