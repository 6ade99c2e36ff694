// Closed-chain forward dynamics by the augmented-Lagrangian iteration (Bayo, García de
// Jalón & Serna 1988). See the header.
#include "mechdyn/constraints/augmented_lagrangian_dynamics.hpp"

#include <cmath>

#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "loop_stages.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

AugmentedLagrangianDynamics::AugmentedLagrangianDynamics(const Model& model)
    : system_(model),
      rhs_(VecX::Zero(model.nv)),
      previous_(VecX::Zero(model.nv)),
      constraint_(VecX::Zero(model.num_loop_rows)),
      multiplier_(VecX::Zero(model.num_loop_rows)) {}

const VecX& AugmentedLagrangianDynamics::evaluate(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                                                  const AugmentedLagrangianOptions& options) {
  check_data(model, data, "augmented_lagrangian_dynamics");
  check_state(model, q, &v, &tau, "tau");
  detail::kinematics_stage(model, data, q.data(), v.data(), data.zeros.data());
  detail::reactions_from_stage(model, data);  // data.tau = h(q, v): the world-frame Newton–Euler pass (EC eq. 17)
  rhs_ = tau - data.tau;                      // Q = τ − h
  system_.mass_matrix_from_stage(model, data);
  if (model.num_loop_rows == 0) {
    system_.factor_augmented(0.0);
    system_.solve_augmented(rhs_);
    data.ddq = rhs_;
    iterations_ = 1;
    return data.ddq;
  }
  detail::loop_bias_from_stage(model, data);  // Φ, unit wrenches, J̇ v (loop_rows.hpp)
  system_.jacobian_from_rows(data);
  // c = J̇ v + 2ξ J v + ω² Φ: the closure acceleration J a + c = 0 (EC eq. 24, differentiated)
  constraint_ = data.loop_bias;
  if (options.baumgarte_alpha != 0.0) {
    system_.jacobian_product(v, multiplier_);
    constraint_ += (2.0 * options.baumgarte_alpha) * multiplier_;
  }
  if (options.baumgarte_beta != 0.0)
    constraint_ += (options.baumgarte_beta * options.baumgarte_beta) * data.loop_residual;
  const double column = system_.max_jacobian_column_norm2();
  penalty_ = options.penalty_ratio * system_.max_mass_diagonal() / (column > 0.0 ? column : 1.0);
  system_.factor_augmented(penalty_);  // T = M + α JᵀJ
  // The iteration in residual form (iterative refinement of the augmented system): with
  // r = J a + c, ρ = Q − M a − Jᵀ(λ* + α r), a ← a + T⁻¹ ρ, then λ* ← λ* + α (J a + c).
  // From a = 0, λ* = 0 the first step is a₀ = T⁻¹(Q − α Jᵀ c); each later one equals
  // a_{i+1} = T⁻¹(M a_i − α Jᵀ c) in exact arithmetic, but its round-off scales with the
  // residual, not with α ‖Jᵀ c‖ (the product form loses ε·p of a in the free directions).
  previous_ = rhs_;  // Q
  data.ddq.setZero();
  multiplier_.setZero();
  data.loop_multiplier = constraint_;  // r = J a + c at a = 0
  iterations_ = 0;
  double previous_change = 0.0;
  for (;;) {
    ++iterations_;
    system_.mass_product(data.ddq, rhs_);
    rhs_ = previous_ - rhs_;  // Q − M a
    data.loop_multiplier = multiplier_ + penalty_ * data.loop_multiplier;
    system_.add_jacobian_transpose_product(data.loop_multiplier, -1.0, rhs_);  // − Jᵀ(λ* + α r)
    system_.solve_augmented(rhs_);
    data.ddq += rhs_;
    system_.jacobian_product(data.ddq, data.loop_multiplier);
    data.loop_multiplier += constraint_;               // r = J a + c
    multiplier_ += penalty_ * data.loop_multiplier;    // λ*_{i+1} = λ*_i + α (J a_{i+1} + c)
    const double change = rhs_.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(change))
      throw SolverError("augmented-Lagrangian forward dynamics: the accelerations became non-finite");
    const double size = 1.0 + data.ddq.lpNorm<Eigen::Infinity>();
    // Converged, or at the round-off floor (the change stops shrinking while tiny).
    if (change <= options.tolerance * size) break;
    if (iterations_ >= 3 && change > 0.5 * previous_change && change <= 1e-9 * size) break;
    if (iterations_ >= options.max_iterations) break;
    previous_change = change;
  }
  data.loop_multiplier = -multiplier_;          // mechdyn's λ: M a + h = τ + Jᵀ λ (EC eq. 25)
  detail::cut_wrenches_from_rows(model, data);  // Σ λ_r W_r (EC eqs. 25–26)
  return data.ddq;
}

}  // namespace mechdyn
