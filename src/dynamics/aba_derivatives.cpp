// Analytical derivatives of forward dynamics, ∂q̈/∂q (tangent space), ∂q̈/∂v, ∂q̈/∂τ.
//
// Source: Carpentier & Mansard, RSS 2018, §IV-C (Pinocchio's computeABADerivatives).
// Forward dynamics q̈ = FD(q, v, τ) solves M(q) q̈ + h(q, v) = τ, i.e. ID(q, v, q̈) = τ;
// differentiating this identity at q̈ = FD(q, v, τ) (docs/derivatives.md eq. D10):
//   ∂ID/∂q + M ∂q̈/∂q = 0   →  ∂q̈/∂q = −M⁻¹ ∂τ/∂q |_{a = q̈}
//   ∂ID/∂v + M ∂q̈/∂v = 0   →  ∂q̈/∂v = −M⁻¹ ∂τ/∂v |_{a = q̈}
//   M ∂q̈/∂τ = 1             →  ∂q̈/∂τ = M⁻¹
// Steps: ABA for q̈ (its kinematics stage then holds the accelerations of q̈), the inverse
// dynamics derivatives on that stage (dynamics/rnea_derivatives.hpp), CRBA's M on the same
// stage, M = Lᵀ D L by the branch-sparse factorisation (dynamics/sparse_cholesky.hpp,
// Featherstone §6.5), and 3 nv solves with that one factor.
// Cost: O(n) (ABA) + O(nv · depth) (derivatives, M) + O(Σ depth²) (factor) + 3 nv solves
// of O(Σ depth) each.
// Reads: Model, q, v, τ. Writes: the kinematics stage, data.ddq, data.mass_matrix,
// data.mass_matrix_factor, the ABA scratch; work.dtau_dq, work.dtau_dv (at a = q̈),
// work.da_dq, work.da_dv, work.da_dtau and the derivative scratch. Allocates nothing
// (after the first call on a Data made without MassMatrix or MassMatrixFactor).
#include "mechdyn/dynamics/aba_derivatives.hpp"

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void aba_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "aba_derivatives");
  check_derivative_data(model, work, "aba_derivatives");
  check_state(model, q, &v, &tau, "tau");
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor);
  aba(model, data, q, v, tau);  // q̈ into data.ddq; SolverError naming the joint at a singular D_i
  rnea_derivatives_from_kinematics(model, data, work, v, data.ddq);  // ∂τ/∂q, ∂τ/∂v at a = q̈
  crba_from_kinematics(model, data);                           // M on the same poses
  factor_mass_matrix(model, data);  // M = Lᵀ D L; SolverError naming the coordinate when M is singular
  const Eigen::Index nv = model.nv;
  work.da_dq = -work.dtau_dq;
  work.da_dv = -work.dtau_dv;
  work.da_dtau.setIdentity();
  for (Eigen::Index c = 0; c < nv; ++c) {  // eq. (D10), one column at a time with the one factor
    solve_mass_matrix(model, data, work.da_dq.col(c));
    solve_mass_matrix(model, data, work.da_dv.col(c));
    solve_mass_matrix(model, data, work.da_dtau.col(c));
  }
}

}  // namespace mechdyn
