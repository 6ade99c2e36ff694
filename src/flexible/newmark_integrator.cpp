// Newmark-β / HHT-α stepping of mechanisms with rigid and flexible bodies, with Baumgarte's
// constraint stabilisation (flexible/newmark.hpp: equations, sources, the iteration).
// Reads and writes FlexibleSystemData (kinematics, M, h, loop closure) at each iterate.
// Cost per Newton iteration: one system evaluation; one LU of size nv + rows per step.
#include "mechdyn/flexible/newmark.hpp"

#include <cmath>
#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

FlexibleNewmark::FlexibleNewmark(const Model& model, const FlexibleSystem& system, const NewmarkOptions& options)
    : model_(model), system_(system), options_(options) {
  if (!(options.alpha >= -1.0 / 3.0 && options.alpha <= 0.0))
    throw InvalidArgument("FlexibleNewmark: HHT alpha must lie in [-1/3, 0], got " + std::to_string(options.alpha));
  if (!(options.baumgarte_damping >= 0.0) || !(options.baumgarte_frequency >= 0.0) || options.max_iterations < 1 ||
      !(options.tolerance > 0.0))
    throw InvalidArgument("FlexibleNewmark: Baumgarte parameters must be >= 0, iterations >= 1, tolerance > 0");
  const Eigen::Index nv = model.nv, rows = model.num_loop_rows;
  elastic_stiffness_ = MatX::Zero(nv, nv);
  elastic_damping_ = MatX::Zero(nv, nv);
  for (std::size_t f = 0; f < system.bodies.size(); ++f) {
    const FlexibleBody& body = system.bodies[f];
    const int k = system.elastic_velocity_index(model, system.body_of[f]);
    elastic_stiffness_.block(k, k, body.num_elastic, body.num_elastic) = body.stiffness;
    elastic_damping_.block(k, k, body.num_elastic, body.num_elastic) = body.damping;
  }
  force_ = VecX::Zero(nv);
  constraint_ = VecX::Zero(rows);
  iteration_matrix_ = MatX::Zero(nv + rows, nv + rows);
  factor_.compute(MatX::Identity(nv + rows, nv + rows));
  rhs_ = VecX::Zero(nv + rows);
  solution_ = VecX::Zero(nv + rows);
  q1_ = VecX::Zero(model.nq);
  v1_ = VecX::Zero(nv);
  a1_ = VecX::Zero(nv);
  lambda1_ = VecX::Zero(rows);
  displacement_ = VecX::Zero(nv);
}

void FlexibleNewmark::evaluate(FlexibleSystemData& data, const VecX& q, const VecX& v,
                               const VecX& previous_acceleration, const Eigen::Ref<const VecX>& effort,
                               const VecX& multipliers, double baumgarte_frequency) const {
  flexible_kinematics(model_, system_, data, q, v);
  flexible_mass_matrix(model_, system_, data, q);
  flexible_bias_force(model_, system_, data, q, v, previous_acceleration);
  force_ = data.bias_force - effort;  // F = h − τ − Jᵀλ
  if (model_.num_loop_rows == 0) return;
  flexible_loop_closure(model_, system_, data, q, v);
  force_.noalias() -= data.loop_jacobian.transpose() * multipliers;
  // J̇v + 2 ζ ω_b Φ̇ + ω_b² Φ (FFR eq. 60 without the J a term), Φ̇ = J v
  constraint_ = data.loop_bias + baumgarte_frequency * baumgarte_frequency * data.loop_residual;
  constraint_.noalias() += (2.0 * options_.baumgarte_damping * baumgarte_frequency) * (data.loop_jacobian * v);
}

void FlexibleNewmark::initialize(FlexibleSystemData& data, NewmarkState& state,
                                 const Eigen::Ref<const VecX>& effort) const {
  const Eigen::Index nv = model_.nv, rows = model_.num_loop_rows;
  if (state.q.size() != model_.nq || state.v.size() != nv || effort.size() != nv)
    throw InvalidArgument("FlexibleNewmark::initialize: q, v and the efforts must hold nq, nv and nv numbers");
  const VecX zero_acceleration = VecX::Zero(nv), zero_multipliers = VecX::Zero(rows);
  const double frequency = options_.baumgarte_frequency;
  evaluate(data, state.q, state.v, zero_acceleration, effort, zero_multipliers, frequency);
  MatX system = MatX::Zero(nv + rows, nv + rows);
  system.topLeftCorner(nv, nv) = data.mass_matrix;
  VecX rhs(nv + rows);
  rhs.head(nv) = -force_;
  if (rows > 0) {
    system.topRightCorner(nv, rows) = -data.loop_jacobian.transpose();
    system.bottomLeftCorner(rows, nv) = data.loop_jacobian;
    rhs.tail(rows) = -constraint_;
  }
  const Eigen::FullPivLU<MatX> lu(system);
  if (!lu.isInvertible())
    throw SolverError("Newmark: the initial accelerations are not unique (redundant or singular constraints)");
  const VecX solution = lu.solve(rhs);
  state.a = solution.head(nv);
  state.multipliers = solution.tail(rows);
  state.force = force_;
  if (rows > 0) state.force.noalias() -= data.loop_jacobian.transpose() * state.multipliers;
  state.iterations = 0;
}

void FlexibleNewmark::step(FlexibleSystemData& data, NewmarkState& state, double dt,
                           const Eigen::Ref<const VecX>& effort) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw InvalidArgument("Newmark: the step must be positive and finite");
  const Eigen::Index nv = model_.nv, rows = model_.num_loop_rows;
  const double alpha = options_.alpha, gamma = 0.5 - alpha, beta = 0.25 * (1.0 - alpha) * (1.0 - alpha);
  const double frequency = options_.baumgarte_frequency > 0.0 ? options_.baumgarte_frequency : 0.5 / dt;
  a1_ = state.a;
  lambda1_ = state.multipliers;
  bool small_update = false;
  for (int iteration = 0; iteration <= options_.max_iterations; ++iteration) {
    displacement_ = dt * state.v + (dt * dt * (0.5 - beta)) * state.a + (dt * dt * beta) * a1_;  // eq. (64)
    flexible_kinematics(model_, system_, data, state.q);  // the mount rotations q ⊕ Δ reads
    flexible_integrate(model_, data, state.q, displacement_, q1_);
    v1_ = state.v + (dt * (1.0 - gamma)) * state.a + (dt * gamma) * a1_;
    evaluate(data, q1_, v1_, state.a, effort, lambda1_, frequency);
    if (!force_.allFinite()) throw SolverError("Newmark: the state became non-finite at t = " + std::to_string(state.time));
    if (small_update) {  // the last update was below the tolerance: accept this iterate
      state.time += dt;
      state.q = q1_;
      state.v = v1_;
      state.a = a1_;
      state.multipliers = lambda1_;
      state.force = force_;
      state.iterations = iteration;
      return;
    }
    if (iteration == 0) {  // the modified Newton matrix, once per step
      iteration_matrix_.topLeftCorner(nv, nv) = data.mass_matrix;
      iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * gamma * dt) * elastic_damping_;
      iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * beta * dt * dt) * elastic_stiffness_;
      if (rows > 0) {
        iteration_matrix_.topRightCorner(nv, rows) = -(1.0 + alpha) * data.loop_jacobian.transpose();
        // ∂/∂a₁ of J a₁ + J̇v + 2ζω_b J v₁ + ω_b² Φ(q₁): J (1 + 2ζω_b γΔt + ω_b² βΔt²)
        const double gain = 1.0 + 2.0 * options_.baumgarte_damping * frequency * gamma * dt +
                            frequency * frequency * beta * dt * dt;
        iteration_matrix_.bottomLeftCorner(rows, nv) = gain * data.loop_jacobian;
        iteration_matrix_.bottomRightCorner(rows, rows).setZero();
      }
      factor_.compute(iteration_matrix_);
    }
    rhs_.head(nv).noalias() = -(data.mass_matrix * a1_);
    rhs_.head(nv) -= (1.0 + alpha) * force_;
    rhs_.head(nv) += alpha * state.force;
    if (rows > 0) {
      rhs_.tail(rows).noalias() = -(data.loop_jacobian * a1_);
      rhs_.tail(rows) -= constraint_;
    }
    solution_.noalias() = factor_.solve(rhs_);
    if (!solution_.allFinite()) throw SolverError("Newmark: singular iteration matrix at t = " + std::to_string(state.time));
    a1_ += solution_.head(nv);
    lambda1_ += solution_.tail(rows);
    small_update = solution_.head(nv).cwiseAbs().maxCoeff() <= options_.tolerance * (1.0 + a1_.cwiseAbs().maxCoeff()) &&
                   (rows == 0 || solution_.tail(rows).cwiseAbs().maxCoeff() <=
                                     options_.tolerance * (1.0 + lambda1_.cwiseAbs().maxCoeff()));
  }
  throw SolverError("Newmark: no convergence in " + std::to_string(options_.max_iterations) +
                    " iterations at t = " + std::to_string(state.time) + " s (reduce the step)");
}

}  // namespace mechdyn
