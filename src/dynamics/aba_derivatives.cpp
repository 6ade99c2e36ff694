// Analytical derivatives of forward dynamics, ∂q̈/∂q (tangent space), ∂q̈/∂v, ∂q̈/∂τ.
//
// Source: Carpentier & Mansard, RSS 2018, §IV-C (Pinocchio's computeABADerivatives).
// Forward dynamics q̈ = FD(q, v, τ) solves M(q) q̈ + h(q, v) = τ, i.e. ID(q, v, q̈) = τ;
// differentiating this identity at q̈ = FD(q, v, τ) (docs/derivatives.md eq. D10):
//   ∂ID/∂q + M ∂q̈/∂q = 0   →  ∂q̈/∂q = −M⁻¹ ∂τ/∂q |_{a = q̈}
//   ∂ID/∂v + M ∂q̈/∂v = 0   →  ∂q̈/∂v = −M⁻¹ ∂τ/∂v |_{a = q̈}
//   M ∂q̈/∂τ = 1             →  ∂q̈/∂τ = M⁻¹
// Steps (no ABA run for q̈): the kinematics stage at q̈ = 0 and the inverse-dynamics pass on
// it (rnea_derivatives.cpp: transmitted forces, so τ_k = s_kᵀ F = h_k, the bias forces with
// gravity; the composites and the rows f_l = I^c s_l, none of which depends on q̈); M from
// those rows (M_kl = s_kᵀ I^c_{body(l)} s_l = s_k·f_l for k on the path from l to the root,
// CRBA's column forces — Featherstone §6.2 — without a second composite pass); q̈ =
// M⁻¹ (τ − h); the stage and the forces moved to q̈ in O(n) (`accelerate`: ΔA_i = ΔA_λ +
// S_i q̈_i, ΔF_i = I^c_i ΔA_λ + Σ_{k below} f_k q̈_k); the columns of ∂τ/∂q, ∂τ/∂v at a = q̈;
// and M⁻¹ applied to the 3 nv right-hand sides [−∂τ/∂q, −∂τ/∂v, 1]. Two ways to apply M⁻¹,
// the shorter for the Model chosen once (DerivativeData::articulated_solve,
// detail::articulated_solve_pays): on shallow trees (mean depth of the coordinates below
// ~7: arms, the five-axis tree, wide trees) the branch-sparse factors M = Lᵀ D L
// (dynamics/sparse_cholesky.hpp, Featherstone §6.5), O(Σ depth) a right-hand side, row by
// row over all 3 nv columns at once (`solve_rows`: one pass over the factor, contiguous
// vectorised rows); on deep trees (long chains) the articulated-body recursion, O(nv) a
// right-hand side (articulated_solve.cpp, docs/derivatives.md eqs. D23–D25; Carpentier &
// Mansard §IV compute M⁻¹ in the same way), which also yields M's factor in O(Σ depth)
// instead of the factorisation's O(Σ depth²). Running ABA for q̈ first (until branch
// derivs-arm) cost a third of the call and formed the articulated inertias nothing else
// read then.
// Cost: O(n) (stage, forces, update) + O(nv · depth) (∂τ, M) + on shallow trees
// O(Σ depth²) (factor) + O(nv Σ depth) (the solve), on deep trees O(n) (articulated
// inertias) + O(Σ depth) (factor) + O(nv²) (the solve): O(nv²) in all on a chain, where the
// factors took O(nv³).
// Reads: Model, q, v, τ. Writes: the kinematics stage (at q, v, q̈), data.ddq,
// data.mass_matrix, data.mass_matrix_factor; work.tau (= τ), work.dtau_dq, work.dtau_dv (at
// a = q̈), work.da_dq, work.da_dv, work.da_dtau and the derivative scratch (work.solve_rows,
// or work.articulated_*). A singular M throws SolverError naming the coordinate. Allocates
// nothing (after the first call on a Data made without MassMatrix or MassMatrixFactor).
#include "mechdyn/dynamics/aba_derivatives.hpp"


#include "../kinematics/kinematics_stage.hpp"
#include "articulated_solve.hpp"
#include "derivative_stages.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

/// M_kl = M_lk = s_k·f_l for k = l and every coordinate above l (model.dof_parent), 0 for
/// coordinates on different branches.
void mass_matrix_from_composites(const Model& model, Data& data, DerivativeData& work) {
  MatX& mass = data.mass_matrix;
  if (work.single_path && work.articulated_solve) {  // column l above the diagonal: Sᵀ f_l, S = [s_0 … s_l]
    const int nv = model.nv;
    double* axes = work.articulated_block.data();  // S by rows (6 × nv), read again by detail::articulated_axes
    for (int k = 0; k < nv; ++k)
      for (int r = 0; r < 6; ++r) axes[r * nv + k] = data.motion_axis[k][r];
    for (int l = 0; l < nv; ++l) {
      const Vec6 force = work.composite_axis_rows[static_cast<std::size_t>(l)].col(0).head<6>();  // f_l = I^c s_l
      detail::axis_rows_times(axes, nv, force, l + 1, &mass(0, l));
    }
    for (int l = 0; l < nv; ++l)
      for (int k = l + 1; k < nv; ++k) mass(k, l) = mass(l, k);
    if (model.has_armature) mass.diagonal() += model.armature;  // drives' reflected inertia
    return;
  }
  mass.setZero();
  for (int l = 0; l < model.nv; ++l) {
    const Vec6 force = work.composite_axis_rows[static_cast<std::size_t>(l)].col(0).head<6>();  // f_l = I^c s_l
    for (int k = l; k != -1; k = model.dof_parent[static_cast<std::size_t>(k)]) {
      const double entry = data.motion_axis[static_cast<std::size_t>(k)].dot(force);
      mass(k, l) = entry;
      mass(l, k) = entry;
    }
  }
  if (model.has_armature) mass.diagonal() += model.armature;  // drives' reflected inertia
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

/// From q̈ = 0 to q̈ = data.ddq on the stage and the transmitted forces, O(n): every body's
/// acceleration grows by ΔA_i = ΔA_λ + Σ_k s_k q̈_k (eq. D1) and its transmitted force by
/// ΔF_i = Σ_{l ∈ subtree i} I_l ΔA_l = I^c_i ΔA_λ(i) + G_i, G_i = Σ_{k in the subtree of i}
/// f_k q̈_k (since Σ_{l below the body of k} I_l s_k = I^c s_k = f_k); then τ_k = s_kᵀ F and
/// the rows' force term s_k ×* F (they were formed at q̈ = 0).
/// Scratch: work.acceleration_variation (ΔA), work.force_variation (G).
void accelerate(const Model& model, Data& data, DerivativeData& work) {
  const int n = model.num_bodies();
  const double* ddq = data.ddq.data();
  for (int i = 0; i < n; ++i) {
    const Joint& joint = model.joints[i];
    const int parent = model.bodies[i].parent;
    Vec6& change = work.acceleration_variation[i];
    Vec6& sum = work.force_variation[i];
    if (parent == kGround) change.setZero();
    else change = work.acceleration_variation[parent];
    sum.setZero();
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      change.noalias() += data.motion_axis[k] * ddq[k];
      sum.noalias() += work.composite_axis_rows[static_cast<std::size_t>(k)].col(0).head<6>() * ddq[k];  // f_k q̈_k
    }
    data.acceleration[i] += change;
  }
  for (int i = n - 1; i >= 0; --i) {
    const int parent = model.bodies[i].parent;
    Vec6& force = work.transmitted_force[i];
    if (parent == kGround) {
      force += work.force_variation[i];
    } else {
      force += work.composite_inertia[i].apply(work.acceleration_variation[parent]) + work.force_variation[i];
      work.force_variation[parent] += work.force_variation[i];
    }
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      work.tau[k] = data.motion_axis[k].dot(force);
      const Vec6 term = cross_force(data.motion_axis[k], force);  // s_k ×* F_b at q̈: rows 15–20, lane 0 (D12)
      for (int r = 0; r < 6; ++r) work.composite_axis_rows[static_cast<std::size_t>(k)](15 + r, 0) = term[r];
    }
  }
}

}  // namespace

void aba_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "aba_derivatives");
  check_derivative_data(model, work, "aba_derivatives");
  check_state(model, q, &v, &tau, "tau");
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor);
  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // A^g_0 = [0; −g]
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // poses, velocities, Ṡ q̇
  detail::stage_accelerations(model, data, nullptr);                   // accelerations at q̈ = 0
  detail::forces_and_composites(model, data, work, base_acceleration);  // F at q̈ = 0: work.tau = h; I^c, rows f_l
  mass_matrix_from_composites(model, data, work);                      // M, CRBA's column forces
  VecX& ddq = data.ddq;
  ddq = tau - work.tau;  // q̈ = M⁻¹ (τ − h)
  if (work.articulated_solve) {  // deep trees: the articulated-body recursion, eqs. (D23)–(D25)
    detail::articulated_axes(model, data, work);  // and M = Lᵀ D L (D23'); SolverError naming the coordinate when singular
    detail::solve_articulated(model, work, ddq.data());
  } else {
    detail::factor_mass_matrix(model, data);  // M = Lᵀ D L; SolverError naming the coordinate when M is singular
    detail::solve_mass_matrix(model, data, ddq.data());
  }
  accelerate(model, data, work);                                                           // the stage and F at q̈
  detail::derivative_columns(model, data, work, v.data(), ddq.data(), base_acceleration);  // ∂τ at a = q̈
  if (work.articulated_solve) {  // [−∂τ/∂q, −∂τ/∂v, 1] → M⁻¹ [·] in place, O(nv) a column, eq. (D10)
    // (stored transposed while solved: 4 right-hand sides are then 4 numbers in a row)
    work.da_dq = -work.dtau_dq.transpose();
    work.da_dv = -work.dtau_dv.transpose();
    work.da_dtau.setZero();
    work.da_dtau.diagonal().setOnes();
    detail::solve_articulated(model, work, work.da_dq, detail::SolveLayout::Rows);
    detail::solve_articulated(model, work, work.da_dv, detail::SolveLayout::Rows);
    detail::solve_articulated(model, work, work.da_dtau, detail::SolveLayout::Identity);
    work.da_dq.transposeInPlace();
    work.da_dv.transposeInPlace();
    return;
  }
  const Eigen::Index nv = model.nv;
  DerivativeData::RowMatrix& x = work.solve_rows;  // [−∂τ/∂q, −∂τ/∂v, 1] → M⁻¹ [·], O(Σ depth) a column, eq. (D10)
  x.leftCols(nv) = -work.dtau_dq;
  x.middleCols(nv, nv) = -work.dtau_dv;
  x.rightCols(nv).setIdentity();
  solve_rows(model, data, x);
  work.da_dq = x.leftCols(nv);
  work.da_dv = x.middleCols(nv, nv);
  work.da_dtau = x.rightCols(nv);
}

}  // namespace mechdyn
