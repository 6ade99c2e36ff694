// Newmark-β / HHT-α stepping of mechanisms with rigid and flexible bodies, with Baumgarte's
// constraint stabilisation and optional prescribed (rheonomic) joint motion
// (flexible/newmark.hpp: equations, sources, the iteration).
// Unknowns per step: a₁ (nv), the loop multipliers λ (rows) and the efforts μ of the
// prescribed coordinates (np), in that order. The prescribed coordinates are partitioned
// out: q_a, v_a taken from the prescription at t₁, their acceleration row a₁,a = q̈_a(t₁).
// Reads and writes FlexibleSystemData (kinematics, M, h, loop closure) at each iterate.
// Cost per Newton iteration: one system evaluation; one LU of size nv + rows + np per step.
#include "mechdyn/flexible/newmark.hpp"

#include <algorithm>
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
  for (std::size_t p = 0; p < options.prescribed.size(); ++p) {
    const int k = options.prescribed[p];
    if (k < 0 || k >= model.rigid_nv)
      throw InvalidArgument("FlexibleNewmark: prescribed coordinate " + std::to_string(k) + " is not a joint velocity");
    if (std::count(options.prescribed.begin(), options.prescribed.end(), k) > 1)
      throw InvalidArgument("FlexibleNewmark: prescribed coordinate " + std::to_string(k) + " is given twice");
    for (const Joint& joint : model.joints) {
      if (k < joint.v_index || k >= joint.v_index + joint.nv) continue;
      if (joint.type == JointType::Spherical || joint.type == JointType::Free)
        throw InvalidArgument("FlexibleNewmark: joint '" + joint.name +
                              "': prescribed motion needs coordinates with q' = v (revolute, prismatic, universal, "
                              "cylindrical), not a quaternion");
      prescribed_q_.push_back(joint.q_index + (k - joint.v_index));
    }
  }
  const Eigen::Index nv = model.nv, rows = model.num_loop_rows;
  const Eigen::Index np = static_cast<Eigen::Index>(options.prescribed.size()), n = nv + rows + np;
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
  iteration_matrix_ = MatX::Zero(n, n);
  factor_.compute(MatX::Identity(n, n));
  rhs_ = VecX::Zero(n);
  solution_ = VecX::Zero(n);
  q1_ = VecX::Zero(model.nq);
  v1_ = VecX::Zero(nv);
  a1_ = VecX::Zero(nv);
  lambda1_ = VecX::Zero(rows);
  mu1_ = VecX::Zero(np);
  displacement_ = VecX::Zero(nv);
}

void FlexibleNewmark::check_motion(const PrescribedMotion* motion, const char* where) const {
  const Eigen::Index np = static_cast<Eigen::Index>(options_.prescribed.size());
  if (np == 0) return;
  if (motion == nullptr || motion->position.size() != np || motion->velocity.size() != np ||
      motion->acceleration.size() != np)
    throw InvalidArgument(std::string("Newmark ") + where + ": the prescribed motion must give " + std::to_string(np) +
                          " positions, velocities and accelerations");
  if (!motion->position.allFinite() || !motion->velocity.allFinite() || !motion->acceleration.allFinite())
    throw InvalidArgument(std::string("Newmark ") + where + ": the prescribed motion is not finite");
}

void FlexibleNewmark::evaluate(FlexibleSystemData& data, const VecX& q, const VecX& v,
                               const VecX& previous_acceleration, const Eigen::Ref<const VecX>& effort,
                               const VecX& multipliers, const VecX& prescribed_efforts,
                               double baumgarte_frequency, bool mass_matrix, double time) const {
  flexible_kinematics(model_, system_, data, q, v);
  if (mass_matrix) flexible_mass_matrix(model_, system_, data, q);
  flexible_bias_force(model_, system_, data, q, v, previous_acceleration, time);  // with Q_f(q, v, t)
  force_ = data.bias_force - effort;  // F = h − τ − Jᵀλ − Sᵀμ
  for (std::size_t p = 0; p < options_.prescribed.size(); ++p)
    force_[options_.prescribed[p]] -= prescribed_efforts[static_cast<Eigen::Index>(p)];
  if (model_.num_loop_rows == 0) return;
  flexible_loop_closure(model_, system_, data, q, v);
  force_.noalias() -= data.loop_jacobian.transpose() * multipliers;
  // J̇v + 2 ζ ω_b Φ̇ + ω_b² Φ (FFR eq. 60 without the J a term), Φ̇ = J v
  constraint_ = data.loop_bias + baumgarte_frequency * baumgarte_frequency * data.loop_residual;
  constraint_.noalias() += (2.0 * options_.baumgarte_damping * baumgarte_frequency) * (data.loop_jacobian * v);
}

void FlexibleNewmark::initialize(FlexibleSystemData& data, NewmarkState& state, const Eigen::Ref<const VecX>& effort,
                                 const PrescribedMotion* motion) const {
  const Eigen::Index nv = model_.nv, rows = model_.num_loop_rows;
  const Eigen::Index np = static_cast<Eigen::Index>(options_.prescribed.size());
  if (state.q.size() != model_.nq || state.v.size() != nv || effort.size() != nv)
    throw InvalidArgument("FlexibleNewmark::initialize: q, v and the efforts must hold nq, nv and nv numbers");
  check_motion(motion, "initialize");
  for (Eigen::Index p = 0; p < np; ++p) {
    state.q[prescribed_q_[static_cast<std::size_t>(p)]] = motion->position[p];
    state.v[options_.prescribed[static_cast<std::size_t>(p)]] = motion->velocity[p];
  }
  const VecX zero_acceleration = VecX::Zero(nv), zero_multipliers = VecX::Zero(rows), zero_efforts = VecX::Zero(np);
  const double frequency = options_.baumgarte_frequency;
  evaluate(data, state.q, state.v, zero_acceleration, effort, zero_multipliers, zero_efforts, frequency, true,
           state.time);
  const Eigen::Index n = nv + rows + np;
  MatX system = MatX::Zero(n, n);
  system.topLeftCorner(nv, nv) = data.mass_matrix;
  VecX rhs(n);
  rhs.head(nv) = -force_;
  if (rows > 0) {
    system.block(0, nv, nv, rows) = -data.loop_jacobian.transpose();
    system.block(nv, 0, rows, nv) = data.loop_jacobian;
    rhs.segment(nv, rows) = -constraint_;
  }
  for (Eigen::Index p = 0; p < np; ++p) {  // a_a = q̈_a: the selector rows S and columns −Sᵀ
    const int k = options_.prescribed[static_cast<std::size_t>(p)];
    system(k, nv + rows + p) = -1.0;
    system(nv + rows + p, k) = 1.0;
    rhs[nv + rows + p] = motion->acceleration[p];
  }
  const Eigen::FullPivLU<MatX> lu(system);
  if (!lu.isInvertible())
    throw SolverError(
        "Newmark: the initial accelerations are not unique (redundant or singular constraints, or a prescribed "
        "coordinate the loops already fix)");
  const VecX solution = lu.solve(rhs);
  state.a = solution.head(nv);
  state.multipliers = solution.segment(nv, rows);
  state.prescribed_efforts = solution.tail(np);
  state.force = force_;
  if (rows > 0) state.force.noalias() -= data.loop_jacobian.transpose() * state.multipliers;
  for (Eigen::Index p = 0; p < np; ++p)
    state.force[options_.prescribed[static_cast<std::size_t>(p)]] -= state.prescribed_efforts[p];
  state.iterations = 0;
}

void FlexibleNewmark::step(FlexibleSystemData& data, NewmarkState& state, double dt,
                           const Eigen::Ref<const VecX>& effort, const PrescribedMotion* motion) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw InvalidArgument("Newmark: the step must be positive and finite");
  check_motion(motion, "step");
  const Eigen::Index nv = model_.nv, rows = model_.num_loop_rows;
  const Eigen::Index np = static_cast<Eigen::Index>(options_.prescribed.size()), rows_all = rows + np;
  const double alpha = options_.alpha, gamma = 0.5 - alpha, beta = 0.25 * (1.0 - alpha) * (1.0 - alpha);
  const double frequency = options_.baumgarte_frequency > 0.0 ? options_.baumgarte_frequency : 0.5 / dt;
  a1_ = state.a;
  lambda1_ = state.multipliers;
  mu1_ = state.prescribed_efforts;
  for (Eigen::Index p = 0; p < np; ++p) a1_[options_.prescribed[static_cast<std::size_t>(p)]] = motion->acceleration[p];
  bool small_update = false;
  double previous_update = INFINITY, oldest_update = INFINITY;  // relative updates of the last two iterations
  auto accept = [&](int iteration) {  // the iterate (q₁, v₁, a₁, λ₁, μ₁) becomes the state
    state.time += dt;
    state.q = q1_;
    state.v = v1_;
    state.a = a1_;
    state.multipliers = lambda1_;
    state.prescribed_efforts = mu1_;
    state.force = force_;
    state.iterations = iteration;
  };
  for (int iteration = 0; iteration <= options_.max_iterations; ++iteration) {
    displacement_ = dt * state.v + (dt * dt * (0.5 - beta)) * state.a + (dt * dt * beta) * a1_;  // eq. (64)
    v1_ = state.v + (dt * (1.0 - gamma)) * state.a + (dt * gamma) * a1_;
    for (Eigen::Index p = 0; p < np; ++p) {  // the prescribed coordinates land on q_a(t₁), q̇_a(t₁) exactly
      const int k = options_.prescribed[static_cast<std::size_t>(p)];
      displacement_[k] = motion->position[p] - state.q[prescribed_q_[static_cast<std::size_t>(p)]];
      v1_[k] = motion->velocity[p];
    }
    flexible_kinematics(model_, system_, data, state.q);  // the mount rotations q ⊕ Δ reads
    flexible_integrate(model_, data, state.q, displacement_, q1_);
    // M itself only for the iteration matrix (once per step); the residual takes M a₁.
    evaluate(data, q1_, v1_, state.a, effort, lambda1_, mu1_, frequency, iteration == 0, state.time + dt);
    flexible_mass_product(model_, system_, data, q1_, a1_);
    if (!force_.allFinite()) throw SolverError("Newmark: the state became non-finite at t = " + std::to_string(state.time));
    if (small_update) {  // the last update was below the tolerance: accept this iterate
      accept(iteration);
      return;
    }
    if (iteration == 0) {  // the modified Newton matrix, once per step
      iteration_matrix_.topLeftCorner(nv, nv) = data.mass_matrix;
      iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * gamma * dt) * elastic_damping_;
      iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * beta * dt * dt) * elastic_stiffness_;
      if (!model_.forces.empty()) {  // the force elements' −∂Q_f/∂v, −∂Q_f/∂q (flexible_force_element_tangent)
        flexible_force_element_tangent(model_, system_, data, q1_, v1_);
        iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * gamma * dt) * data.element_damping;
        iteration_matrix_.topLeftCorner(nv, nv) += ((1.0 + alpha) * beta * dt * dt) * data.element_stiffness;
      }
      iteration_matrix_.topRightCorner(nv, rows_all).setZero();
      iteration_matrix_.bottomRows(rows_all).setZero();
      if (rows > 0) {
        iteration_matrix_.block(0, nv, nv, rows) = -(1.0 + alpha) * data.loop_jacobian.transpose();
        // ∂/∂a₁ of J a₁ + J̇v + 2ζω_b J v₁ + ω_b² Φ(q₁): J (1 + 2ζω_b γΔt + ω_b² βΔt²)
        const double gain = 1.0 + 2.0 * options_.baumgarte_damping * frequency * gamma * dt +
                            frequency * frequency * beta * dt * dt;
        iteration_matrix_.block(nv, 0, rows, nv) = gain * data.loop_jacobian;
      }
      for (Eigen::Index p = 0; p < np; ++p) {
        const int k = options_.prescribed[static_cast<std::size_t>(p)];
        iteration_matrix_(k, nv + rows + p) = -(1.0 + alpha);
        iteration_matrix_(nv + rows + p, k) = 1.0;
      }
      factor_.compute(iteration_matrix_);
    }
    rhs_.head(nv) = -data.mass_product;
    rhs_.head(nv) -= (1.0 + alpha) * force_;
    rhs_.head(nv) += alpha * state.force;
    if (rows > 0) {
      rhs_.segment(nv, rows) = -constraint_;
      rhs_.segment(nv, rows).noalias() -= data.loop_jacobian * a1_;  // (−(J a) would allocate a temporary)
    }
    for (Eigen::Index p = 0; p < np; ++p)
      rhs_[nv + rows + p] = motion->acceleration[p] - a1_[options_.prescribed[static_cast<std::size_t>(p)]];
    solution_.noalias() = factor_.solve(rhs_);
    if (!solution_.allFinite()) throw SolverError("Newmark: singular iteration matrix at t = " + std::to_string(state.time));
    a1_ += solution_.head(nv);
    lambda1_ += solution_.segment(nv, rows);
    mu1_ += solution_.tail(np);
    // Round-off floor: the residual's noise (a few ulps of the largest internal forces — a stiff,
    // damped beam's elastic and damping forces) bounds how small an update can get. When the
    // updates stop shrinking (not halved over the last two iterations) below 1000 times the
    // tolerance, the iterate is as converged as the arithmetic allows: accept it.
    const double update = solution_.head(nv).cwiseAbs().maxCoeff() / (1.0 + a1_.cwiseAbs().maxCoeff());
    if (iteration >= 3 && update > 0.5 * oldest_update && update <= 1e3 * options_.tolerance) small_update = true;
    oldest_update = previous_update, previous_update = update;
    small_update = small_update ||
                   (solution_.head(nv).cwiseAbs().maxCoeff() <= options_.tolerance * (1.0 + a1_.cwiseAbs().maxCoeff()) &&
                    (rows == 0 || solution_.segment(nv, rows).cwiseAbs().maxCoeff() <=
                                      options_.tolerance * (1.0 + lambda1_.cwiseAbs().maxCoeff())) &&
                    (np == 0 || solution_.tail(np).cwiseAbs().maxCoeff() <=
                                    options_.tolerance * (1.0 + mu1_.cwiseAbs().maxCoeff())));
  }
  throw SolverError("Newmark: no convergence in " + std::to_string(options_.max_iterations) +
                    " iterations at t = " + std::to_string(state.time) + " s (reduce the step)");
}

}  // namespace mechdyn
