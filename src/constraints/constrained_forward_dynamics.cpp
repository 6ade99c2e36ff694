// Constrained forward dynamics, range-space with a pseudo-inverse (EC eqs. 23–26).
// See the header.
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"

#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "loop_stages.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

const VecX& constrained_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                         const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                                         const ConstrainedDynamicsOptions& options) {
  check_data(model, data, "constrained_forward_dynamics");
  check_state(model, q, &v, &tau, "tau");
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::ClosedChains);  // only in a Data made without them
  const Eigen::Index rows = model.num_loop_rows;
  // h(q, v) = RNEA(q, v, 0) (EC eqs. 19–22).
  rnea(model, data, q, v, data.zeros);
  data.ddq = tau - data.tau;  // τ − h
  // One kinematics pass at (q, v) serves M (CRBA), Φ, J (EC eq. 24) and J̇ v.
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
  detail::composite_rigid_body(model, data);
  data.mass_llt.compute(data.mass_matrix);
  if (data.mass_llt.info() != Eigen::Success)
    throw SolverError("constrained forward dynamics: the mass matrix is not positive definite");
  data.mass_llt.solveInPlace(data.ddq);  // a_free = M⁻¹ (τ − h)
  if (rows == 0) return data.ddq;

  detail::loop_bias_from_stage(model, data);     // Φ, the rows' unit wrenches, J̇ v (loop_rows.hpp)
  detail::loop_jacobian_from_rows(model, data);  // J (EC eq. 24)
  // c − J a_free with c = −J̇v − 2α J v − β² Φ
  data.constraint_rhs = -data.loop_bias;
  if (options.baumgarte_alpha != 0.0) data.constraint_rhs.noalias() -= (2.0 * options.baumgarte_alpha) * (data.loop_jacobian * v);
  if (options.baumgarte_beta != 0.0)
    data.constraint_rhs -= (options.baumgarte_beta * options.baumgarte_beta) * data.loop_residual;
  data.constraint_rhs.noalias() -= data.loop_jacobian * data.ddq;
  // K = L⁻¹ Jᵀ, G = Kᵀ K = J M⁻¹ Jᵀ
  data.constraint_factor = data.loop_jacobian.transpose();
  data.mass_llt.matrixL().solveInPlace(data.constraint_factor);
  // λ = G⁺ (c − J a_free): by a Cholesky factor of G when it is certified well
  // conditioned (full row rank, no singular value of K near the tolerance), else from
  // the SVD of K, G⁺ = V Σ⁻² Vᵀ with σ ≤ tolerance · σ_max dropped (jacobi_svd.hpp).
  data.factor_svd.solve_gram_direct(data.constraint_factor, data.constraint_rhs, data.loop_multiplier,
                                    options.rank_tolerance);
  // a = a_free + M⁻¹ Jᵀ λ = a_free + L⁻ᵀ K λ
  data.constraint_rhs_nv.noalias() = data.constraint_factor * data.loop_multiplier;
  data.mass_llt.matrixU().solveInPlace(data.constraint_rhs_nv);
  data.ddq += data.constraint_rhs_nv;
  detail::cut_wrenches_from_rows(model, data);  // Σ λ_r W_r (EC eqs. 25–26)
  return data.ddq;
}

}  // namespace mechdyn
