// Index-3 augmented Lagrangian, trapezoidal rule, mass-orthogonal projections (ALI3-P;
// Bayo & Ledesma 1996, Cuadrado et al. 1997). See the header.
#include "mechdyn/constraints/augmented_lagrangian_trapezoidal.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "loop_stages.hpp"
#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/errors.hpp"

namespace mechdyn {

AugmentedLagrangianTrapezoidal::AugmentedLagrangianTrapezoidal(const Model& model, EffortFunction effort,
                                                               const AugmentedLagrangianTrapezoidalOptions& options)
    : model_(model),
      effort_(std::move(effort)),
      options_(options),
      data_(model, DenseWorkspace::None),
      dynamics_(model) {
  const Eigen::Index nv = model.nv, rows = model.num_loop_rows;
  for (VecX* x : {&a_, &delta_, &predictor_, &correction_, &v_start_, &a_start_, &u_start_, &du_start_, &velocity_, &force_, &tau_,
                  &scratch_})
    *x = VecX::Zero(nv);
  q_start_ = VecX::Zero(model.nq);
  for (VecX* x : {&lambda_, &lambda_start_, &rows_}) *x = VecX::Zero(rows);
  // Quaternion joints (spherical, free) under a moving parent: their velocity coordinates
  // are world components of parent-frame rates (model/joint_kinds/spherical.hpp, free.hpp).
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    if (joint.nq == joint.nv || parent == kGround) continue;
    for (int k = joint.v_index; k + 3 <= joint.v_index + joint.nv; k += 3) rotating_blocks_.push_back({k, parent});
  }
}

// World components → parent-frame components of the rotating blocks (u = R_pᵀ v), and back,
// with the parent rotations of the kinematics stage in data_.
void AugmentedLagrangianTrapezoidal::to_parent_frames(Eigen::Ref<VecX> x) const {
  for (const RotatingBlock& b : rotating_blocks_)
    x.segment<3>(b.v_index) = data_.rotation[b.parent].transpose() * Vec3(x.segment<3>(b.v_index));
}
void AugmentedLagrangianTrapezoidal::to_world(Eigen::Ref<VecX> x) const {
  for (const RotatingBlock& b : rotating_blocks_)
    x.segment<3>(b.v_index) = data_.rotation[b.parent] * Vec3(x.segment<3>(b.v_index));
}

// v and a at the iterate q from the trapezoidal rule in the tangent space. For the
// rotating blocks the rule holds for the parent-frame rates u (Δ = ∫u dt to second order),
// so v = R_p u and a = R_p u̇ + ω_p × v (v = R_p u differentiated); R_p and ω_p at q.
void AugmentedLagrangianTrapezoidal::trapezoidal_state(const Eigen::Ref<const VecX>& q, double h) {
  velocity_ = (2.0 / h) * delta_ - u_start_;                         // v_{n+1} = (2/h) Δ − v_n
  a_ = (4.0 / (h * h)) * delta_ - (4.0 / h) * u_start_ - du_start_;  // a_{n+1} = (4/h²) Δ − (4/h) v_n − a_n
  if (rotating_blocks_.empty()) return;
  detail::kinematics_stage(model_, data_, q.data(), nullptr, nullptr);
  to_world(velocity_);
  to_world(a_);
  detail::kinematics_stage(model_, data_, q.data(), velocity_.data(), nullptr);
  for (const RotatingBlock& b : rotating_blocks_)
    a_.segment<3>(b.v_index) += Vec3(data_.velocity[b.parent].head<3>()).cross(Vec3(velocity_.segment<3>(b.v_index)));
}

void AugmentedLagrangianTrapezoidal::initialize(double t, const Eigen::Ref<const VecX>& q,
                                                const Eigen::Ref<const VecX>& v) {
  tau_.setZero();
  if (effort_) effort_(t, q, v, tau_);
  a_ = dynamics_.evaluate(model_, data_, q, v, tau_);
  lambda_ = -data_.loop_multiplier;  // λ* = −λ (M a + Jᵀ λ* = τ − h)
  update_scale();
  gram_ratio_ = options_.screen_singularity ? dynamics_.system().gram_pivot_ratio() : 1.0;
}

void AugmentedLagrangianTrapezoidal::update_scale() {
  const SparseClosureSystem& system = dynamics_.system();
  const double column = system.max_jacobian_column_norm2();
  scale_ = options_.penalty_ratio * system.max_mass_diagonal() / (column > 0.0 ? column : 1.0);  // c = (h²/4) α
}

void AugmentedLagrangianTrapezoidal::tangent_at_stage() {
  SparseClosureSystem& system = dynamics_.system();
  detail::evaluate_loop_rows(model_, data_, false);  // Φ and the rows' unit wrenches
  system.jacobian_from_rows(data_);
  system.mass_matrix_from_stage(model_, data_);
  system.factor_augmented(scale_);  // T = M + (h²/4) α JᵀJ
}

bool AugmentedLagrangianTrapezoidal::try_step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  SparseClosureSystem& system = dynamics_.system();
  const double alpha = 4.0 * scale_ / (h * h);  // α from c = (h²/4) α, fixed over the step
  q_start_ = q;
  v_start_ = v;
  a_start_ = a_;
  lambda_start_ = lambda_;
  auto restore = [&] {
    q = q_start_;
    v = v_start_;
    a_ = a_start_;
    lambda_ = lambda_start_;
    return false;
  };
  u_start_ = v_start_;
  du_start_ = a_start_;
  if (!rotating_blocks_.empty()) {  // u_n = R_pᵀ v_n, u̇_n = R_pᵀ (a_n − ω_p × v_n) at q_n
    detail::kinematics_stage(model_, data_, q.data(), v_start_.data(), nullptr);
    for (const RotatingBlock& b : rotating_blocks_)
      du_start_.segment<3>(b.v_index) -=
          Vec3(data_.velocity[b.parent].head<3>()).cross(Vec3(v_start_.segment<3>(b.v_index)));
    to_parent_frames(u_start_);
    to_parent_frames(du_start_);
  }
  delta_ = h * u_start_ + (0.5 * h * h) * du_start_;  // predictor Δ⁰ = h v_n + h²/2 a_n
  predictor_ = delta_;
  detail::kinematics_stage(model_, data_, q.data(), nullptr, nullptr);
  correction_ = delta_;
  to_world(correction_);  // apply_velocity_increment takes world components (R_pᵀ · at q_n)
  apply_velocity_increment(model_, data_, q, correction_);  // q = q_n ⊕ Δ
  bool converged = false, multipliers_frozen = false;
  double previous_norm = 0.0;
  for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
    ++iterations_;
    trapezoidal_state(q, h);  // v_{n+1}, a_{n+1} from Δ
    tau_.setZero();
    if (effort_) effort_(t + h, q, velocity_, tau_);
    detail::kinematics_stage(model_, data_, q.data(), velocity_.data(), a_.data());
    detail::reactions_from_stage(model_, data_);  // data_.tau = M a + h (EC eq. 17)
    if (model_.has_armature) data_.tau += model_.armature.cwiseProduct(a_);  // + the drives' armature a
    tangent_at_stage();                           // Φ, J, M and T at the iterate
    // λ*_{i+1} = λ*_i + α Φ(q_{i+1}) after each Newton step (Cuadrado et al. 1997). Where
    // J nearly loses rank the multiplier along the vanishing direction is undetermined and
    // this update stops contracting; it is then frozen for the step (a pure penalty
    // iteration, which converges with T), so the step never stalls at a singular configuration.
    if (iteration > 0 && !multipliers_frozen) lambda_ += alpha * data_.loop_residual;
    rows_ = lambda_ + alpha * data_.loop_residual;  // λ* + α Φ
    force_ = data_.tau - tau_;
    system.add_jacobian_transpose_product(rows_, 1.0, force_);  // f = M a + h − τ + Jᵀ(λ* + αΦ)
    correction_ = (-0.25 * h * h) * force_;
    system.solve_augmented(correction_);  // T δ = −(h²/4) f
    const double norm = correction_.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(norm)) return restore();
    apply_velocity_increment(model_, data_, q, correction_);  // world δ; the stage is at the iterate
    to_parent_frames(correction_);
    delta_ += correction_;
    if (norm <= options_.tolerance) {
      converged = true;
      break;
    }
    if (iteration >= 2 && norm > 0.5 * previous_norm) {
      if (multipliers_frozen) ++stalled_;
      multipliers_frozen = true;
    }
    previous_norm = norm;
  }
  if (!converged) return restore();
  if (options_.adaptive) {
    // Local error of the position increment: the trapezoidal (average-acceleration) Δ is
    // h v + h²/2 a + h³/4 q⃛, the exact one h v + h²/2 a + h³/6 q⃛ and the predictor's
    // h v + h²/2 a, so the error h³/12 q⃛ = (Δ − Δ⁰)/3; RMS norm scaled by atol + rtol |Δ_i|
    // (Hairer, Nørsett & Wanner, "Solving ODEs I", §II.4).
    double sum = 0.0;
    for (Eigen::Index i = 0; i < delta_.size(); ++i) {
      const double scale = options_.absolute_tolerance + options_.relative_tolerance * std::abs(delta_[i]);
      const double e = (delta_[i] - predictor_[i]) / (3.0 * scale);
      sum += e * e;
    }
    error_ = delta_.size() > 0 ? std::sqrt(sum / static_cast<double>(delta_.size())) : 0.0;
    if (!(error_ <= 1.0)) {
      rejected_for_error_ = true;
      return restore();
    }
  }
  if (multipliers_frozen) ++frozen_steps_;
  // Mass-orthogonal projections at q_{n+1} (Bayo & Ledesma 1996): T v = M v*, T a = M a* − (h²/4) α Jᵀ J̇v.
  trapezoidal_state(q, h);
  detail::kinematics_stage(model_, data_, q.data(), nullptr, nullptr);
  tangent_at_stage();
  if (!multipliers_frozen) lambda_ += alpha * data_.loop_residual;  // the last update, at the converged q_{n+1}
  // In correction form (T − c JᵀJ = M): v = v* − c T⁻¹ Jᵀ (J v*), a = a* − c T⁻¹ Jᵀ (J a* + J̇ v):
  // the round-off scales with the constraint violation, not with c ‖v‖.
  system.jacobian_product(velocity_, rows_);
  scratch_.setZero();
  system.add_jacobian_transpose_product(rows_, -scale_, scratch_);
  system.solve_augmented(scratch_);
  v = velocity_ + scratch_;
  detail::kinematics_stage(model_, data_, q.data(), v.data(), nullptr);
  detail::loop_bias_from_stage(model_, data_);  // J̇ v
  system.jacobian_product(a_, rows_);
  rows_ += data_.loop_bias;
  scratch_.setZero();
  system.add_jacobian_transpose_product(rows_, -scale_, scratch_);
  system.solve_augmented(scratch_);
  a_ += scratch_;
  if (!q.allFinite() || !v.allFinite() || !a_.allFinite()) return restore();
  if (options_.screen_singularity) gram_ratio_ = system.gram_pivot_ratio();
  update_scale();  // c for the next step, at q_{n+1}
  ++steps_;
  return true;
}

void AugmentedLagrangianTrapezoidal::step_recursive(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                                    int depth) {
  if (try_step(t, h, q, v)) return;
  if (depth >= options_.max_halvings)
    throw SolverError("the augmented-Lagrangian trapezoidal step did not converge at t = " + std::to_string(t) +
                      " s with step " + std::to_string(h) + " s (a lock-up, an unassemblable configuration or "
                      "non-finite efforts)");
  step_recursive(t, 0.5 * h, q, v, depth + 1);
  step_recursive(t + 0.5 * h, 0.5 * h, q, v, depth + 1);
}

void AugmentedLagrangianTrapezoidal::advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  if (!options_.adaptive) throw InvalidArgument("augmented-Lagrangian trapezoidal advance: set options.adaptive");
  if (!(t_end >= t)) throw InvalidArgument("augmented-Lagrangian trapezoidal advance: end time before start time");
  const double max_step = std::min(options_.max_step, std::max(t_end - t, 0.0));
  if (!(next_step_ > 0.0)) next_step_ = std::min(max_step, 1e-3);
  while (t < t_end) {
    double h = std::min({next_step_, options_.max_step, t_end - t});
    if (t_end - (t + h) < 1e-12 * std::max(1.0, std::abs(t_end))) h = t_end - t;  // land on t_end
    if (budget_ != nullptr) budget_->charge(t);
    rejected_for_error_ = false;
    if (try_step(t, h, q, v)) {
      t = (h == t_end - t) ? t_end : t + h;
      // h_new = h · min(4, max(0.2, 0.9 err^(−1/3))) (third-order local error)
      const double grow = error_ > 0.0 ? 0.9 * std::pow(error_, -1.0 / 3.0) : 4.0;
      next_step_ = h * std::min(4.0, std::max(0.2, grow));
      continue;
    }
    ++rejected_;
    next_step_ = rejected_for_error_ ? h * std::max(0.2, 0.9 * std::pow(error_, -1.0 / 3.0)) : 0.5 * h;
    if (!(next_step_ >= options_.min_step))
      throw SolverError("the augmented-Lagrangian trapezoidal step fell below " + std::to_string(options_.min_step) +
                        " s at t = " + std::to_string(t) + " s (" +
                        (rejected_for_error_ ? "error control" : "Newton did not converge") + ")");
  }
}

void AugmentedLagrangianTrapezoidal::step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  if (options_.adaptive) throw InvalidArgument("augmented-Lagrangian trapezoidal step: adaptive; use advance");
  if (!(h > 0.0) || !std::isfinite(h)) throw InvalidArgument("augmented-Lagrangian trapezoidal step: h must be > 0");
  if (budget_ != nullptr) budget_->charge(t);
  step_recursive(t, h, q, v, 0);
}

}  // namespace mechdyn
