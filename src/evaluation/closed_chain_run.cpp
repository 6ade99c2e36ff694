// A closed chain's simulation in time (forward: ali3p, rk4, dopri5; inverse: prescribed
// actuated motion). See the header.
#include "mechdyn/evaluation/closed_chain_run.hpp"

#include <cmath>
#include <cstdio>
#include <memory>

#include "../constraints/loop_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "mechdyn/constraints/augmented_lagrangian_dynamics.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/constraints/sparse_closure.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

const char* closed_chain_integrator_name(ClosedChainIntegrator integrator) {
  switch (integrator) {
    case ClosedChainIntegrator::Ali3p: return "ali3p";
    case ClosedChainIntegrator::Rk4: return "rk4";
    case ClosedChainIntegrator::DormandPrince: return "dopri5";
  }
  return "?";
}

std::optional<ClosedChainIntegrator> closed_chain_integrator_from_name(const std::string& name) {
  for (ClosedChainIntegrator i : {ClosedChainIntegrator::Ali3p, ClosedChainIntegrator::Rk4, ClosedChainIntegrator::DormandPrince})
    if (name == closed_chain_integrator_name(i)) return i;
  return std::nullopt;
}

namespace {

std::string at_time(double t) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, " at t = %.17g s", t);
  return buffer;
}

// Near-singular episodes of the closure Jacobian (header): pivot ratio of J Jᵀ with the
// start's redundant rows set aside, against the start's own ratio.
class SingularityScreen {
 public:
  SingularityScreen(const Model& model, const ClosedChainRunOptions& options) : system_(model), options_(options) {}
  void start(const Model& model, Data& data, const VecX& q) {
    evaluate(model, data, q);
    redundant_ = system_.gram_small_pivots(1e-10);
    reference_ = ratio();
  }
  void check(const Model& model, Data& data, const VecX& q, double t) {
    if (!(reference_ > 0.0)) return;
    evaluate(model, data, q);
    const double r = ratio() / reference_;
    if (!open_ && r < options_.singular_ratio) {
      open_ = true;
      first_ = t;
      lowest_ = r;
    }
    if (open_) {
      lowest_ = std::min(lowest_, r);
      last_ = t;
      if (r > 10.0 * options_.singular_ratio) close();
    }
  }
  void finish() {
    if (open_) close();
  }
  int episodes() const { return episodes_; }

 private:
  void evaluate(const Model& model, Data& data, const VecX& q) {
    detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
    detail::evaluate_loop_rows(model, data, false);  // the unit wrenches (no dense J: O(rows))
    system_.jacobian_from_rows(data);
    system_.gram_pivot_ratio();
  }
  double ratio() const { return system_.gram_pivot_ratio_skipping(redundant_); }
  void close() {
    open_ = false;
    ++episodes_;
    if (!options_.warning) return;
    char buffer[320];
    std::snprintf(buffer, sizeof buffer,
                  "near-singular configuration from t = %.6g to %.6g s: the closure Jacobian nearly loses rank "
                  "(pivot ratio of J Jᵀ down to %.3g of the start's); the loops' solution branches meet there%s",
                  first_, last_, lowest_,
                  options_.integrator == ClosedChainIntegrator::Ali3p || options_.inverse
                      ? ""
                      : " (an explicit integrator may leave the branch: compare with --integrator ali3p)");
    options_.warning(buffer);
  }

  SparseClosureSystem system_;
  const ClosedChainRunOptions& options_;
  int redundant_ = 0, episodes_ = 0;
  double reference_ = 0.0, first_ = 0.0, last_ = 0.0, lowest_ = 1.0;
  bool open_ = false;
};

}  // namespace

ClosedChainRunSummary run_closed_chain(const Model& model, const Eigen::Ref<const VecX>& q0,
                                       const Eigen::Ref<const VecX>& v0, const ClosedChainInputs& inputs,
                                       const ClosedChainRunOptions& s, const ClosedChainObserver& observer) {
  check_state(model, q0, &v0);
  if (!(s.step > 0.0) || !std::isfinite(s.step) || !(s.duration >= 0.0) || !std::isfinite(s.duration) || s.every < 1)
    throw InvalidArgument("closed-chain run: step must be > 0, duration ≥ 0 and every ≥ 1");
  Data data(model), work(model);
  const std::vector<int> actuated = data.actuated_dofs;
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size()), nv = model.nv;
  if (data.passive_dofs.empty())
    throw ModelError("model '" + model.name + "' has " + model.constraint_kinds() + " but no passive joint: mark the passive joints actuated: false");
  const bool inverse = s.inverse;
  const bool by_velocity = inverse && static_cast<bool>(inputs.actuated_velocity);
  if (inverse && static_cast<bool>(inputs.actuated_velocity) == static_cast<bool>(inputs.actuated_acceleration))
    throw InvalidArgument("closed-chain inverse run: give the actuated accelerations or velocities (exactly one)");
  if (inverse)
    for (int k : actuated) {
      const Joint& joint = model.joints[model.dof_body[k]];
      if (joint.nq != joint.nv)
        throw InvalidArgument("joint '" + joint.name + "': inverse closed-chain simulation needs actuated joints with nq = nv");
    }
  VecX q = q0, v = v0;
  VecX input = VecX::Zero(na), input_mid = VecX::Zero(na), input_end = VecX::Zero(na);
  VecX a = VecX::Zero(nv), tau = VecX::Zero(nv);

  auto prescribed = [&](double t) {  // sets v_a, a_a at t (inverse)
    if (by_velocity) {  // a_a = dv_a/dt by a central difference
      inputs.actuated_velocity(t, input);
      const double h = 1e-6 * std::max(1.0, std::abs(t));
      inputs.actuated_velocity(t + h, input_mid);
      inputs.actuated_velocity(t - h, input_end);
      for (Eigen::Index c = 0; c < na; ++c) {
        v[actuated[c]] = input[c];
        a[actuated[c]] = (input_mid[c] - input_end[c]) / (2 * h);
      }
    } else {
      inputs.actuated_acceleration(t, input);
      for (Eigen::Index c = 0; c < na; ++c) a[actuated[c]] = input[c];
    }
  };
  // The actuators' efforts (reported in the rows), and what the dynamics see: those plus
  // the force elements' Q_f(q, v, t) (format 3, dynamics/force_elements.hpp), evaluated on a
  // Data of their own (element_data) at each call.
  auto actuator_efforts = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                              Eigen::Ref<VecX> out) {
    out.setZero();
    if (inputs.effort) inputs.effort(t, qq, vv, out);
  };
  std::unique_ptr<Data> element_data;
  if (model.has_force_elements) element_data = std::make_unique<Data>(model, DenseWorkspace::None);
  auto efforts = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv, Eigen::Ref<VecX> out) {
    actuator_efforts(t, qq, vv, out);
    if (element_data) {
      force_elements(model, *element_data, qq, vv, t);
      out += element_data->applied_force;
    }
  };

  // Start on the constraint manifold (constraints/initial_state.hpp).
  InitialStateOptions start = s.start;
  if (by_velocity) {
    prescribed(0.0);
    start.kept_velocities.reset();
  }
  ClosedChainRunSummary summary;
  summary.start = consistent_initial_state(model, data, q, v, start);
  if (s.started) s.started(summary.start);
  if (inverse) prescribed(0.0);

  // Forward integrators.
  VecX effort_work = VecX::Zero(nv);
  AccelerationFunction acceleration = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                                          Eigen::Ref<VecX> out) {
    efforts(t, qq, vv, effort_work);
    try {
      out = constrained_forward_dynamics(model, work, qq, vv, effort_work);
    } catch (const SolverError& e) {
      throw SolverError(std::string(e.what()) + at_time(t));
    }
  };
  std::unique_ptr<Rk4Integrator> rk4;
  std::unique_ptr<DormandPrinceIntegrator> dopri5;
  std::unique_ptr<AugmentedLagrangianTrapezoidal> ali3p;
  std::unique_ptr<AugmentedLagrangianDynamics> row_dynamics;
  AugmentedLagrangianTrapezoidalOptions ali3p_options = s.ali3p;
  ali3p_options.screen_singularity = false;  // the run screens after every output interval itself
  if (s.ali3p_adaptive) {  // error control with the run's tolerances, steps of at most `step`
    ali3p_options.adaptive = true;
    ali3p_options.relative_tolerance = s.relative_tolerance;
    ali3p_options.absolute_tolerance = s.absolute_tolerance;
    ali3p_options.max_step = s.step;
    ali3p_options.min_step = std::min(1e-12, 1e-6 * s.step);
  }
  if (!inverse) {
    switch (s.integrator) {
      case ClosedChainIntegrator::Rk4:
        rk4 = std::make_unique<Rk4Integrator>(model, acceleration);
        rk4->set_budget(s.budget);
        break;
      case ClosedChainIntegrator::DormandPrince: {
        DormandPrinceOptions options;
        options.relative_tolerance = s.relative_tolerance;
        options.absolute_tolerance = s.absolute_tolerance;
        options.max_step = s.step;
        options.min_step = std::min(1e-12, 1e-6 * s.step);
        options.budget = s.budget;
        dopri5 = std::make_unique<DormandPrinceIntegrator>(model, acceleration, options);
        break;
      }
      case ClosedChainIntegrator::Ali3p:
        ali3p = std::make_unique<AugmentedLagrangianTrapezoidal>(model, efforts, ali3p_options);
        ali3p->set_budget(s.budget);
        ali3p->initialize(0.0, q, v);
        row_dynamics = std::make_unique<AugmentedLagrangianDynamics>(model);
        break;
    }
  }
  SingularityScreen screen(model, s);
  screen.start(model, work, q);

  auto emit_row = [&](double t) {
    double residual = 0.0;
    if (inverse) {
      prescribed(t);
      try {
        // The elements' wrenches and joint efforts at the row's state (external_wrench,
        // element_effort), read by the inverse dynamics as applied loads (τ = … − Q_f).
        if (model.has_force_elements) force_elements(model, data, q, v, t);
        closed_chain_inverse_dynamics(model, data, q, v, a);
      } catch (const SolverError& e) {
        throw SolverError(std::string(e.what()) + at_time(t));
      }
      tau = data.tau;
      loop_closure(model, work, q);
      residual = work.loop_residual.lpNorm<Eigen::Infinity>();
    } else {
      actuator_efforts(t, q, v, tau);
      VecX& total = data.total_effort;
      total = tau;
      if (model.has_force_elements) {  // Q_f and the elements' body wrenches at the row (the reactions read them)
        force_elements(model, data, q, v, t);
        total += data.applied_force;
      }
      try {
        if (row_dynamics) {  // the sparse augmented-Lagrangian dynamics: a, λ and the cut wrenches
          a = row_dynamics->evaluate(model, data, q, v, total);
          residual = data.loop_residual.lpNorm<Eigen::Infinity>();
        } else {
          a = constrained_forward_dynamics(model, data, q, v, total);
          residual = data.loop_residual.lpNorm<Eigen::Infinity>();
        }
      } catch (const SolverError& e) {
        throw SolverError(std::string(e.what()) + at_time(t));
      }
      closed_chain_joint_reactions(model, data, q, v, a);
    }
    // Forward: the energies from the reactions' kinematics stage at (q, v, a), no pass of
    // their own; inverse: at the assembled (q, v).
    const double kinetic = inverse ? kinetic_energy(model, work, q, v) : kinetic_energy_from_kinematics(model, data);
    double potential = inverse ? potential_energy(model, work, q) : potential_energy_from_kinematics(model, data);
    if (model.has_force_elements) potential += force_element_potential_energy(data);  // the elements' (force-elements.md)
    const ClosedChainRow row{t, q, v, a, tau, data, residual, kinetic, potential};
    if (observer) observer(row);
    ++summary.rows;
  };

  const long intervals =
      s.duration == 0.0 ? 0 : std::max(1L, static_cast<long>(std::ceil(s.duration / s.step * (1.0 - 1e-12))));
  auto time_at = [&](long k) { return k == intervals ? s.duration : static_cast<double>(k) * s.step; };
  emit_row(0.0);
  for (long k = 1; k <= intervals; ++k) {
    const double t0 = time_at(k - 1), t1 = time_at(k), h = t1 - t0;
    if (inverse) {
      // Actuated coordinates: Simpson's rule (RK4 for a right-hand side of t only).
      const auto& source = by_velocity ? inputs.actuated_velocity : inputs.actuated_acceleration;
      source(t0, input);
      source(0.5 * (t0 + t1), input_mid);
      source(t1, input_end);
      for (Eigen::Index c = 0; c < na; ++c) {
        const int k_v = actuated[c];
        const Joint& joint = model.joints[model.dof_body[k_v]];
        double& coordinate = q[joint.q_index + (k_v - joint.v_index)];
        if (by_velocity) {
          coordinate += h / 6.0 * (input[c] + 4.0 * input_mid[c] + input_end[c]);
        } else {
          coordinate += h * v[k_v] + h * h / 6.0 * (input[c] + 2.0 * input_mid[c]);
          v[k_v] += h / 6.0 * (input[c] + 4.0 * input_mid[c] + input_end[c]);
        }
      }
    } else if (ali3p) {
      if (s.ali3p_adaptive) ali3p->advance(t0, t1, q, v);  // projections inside every step
      else ali3p->step(t0, h, q, v);
    } else {
      if (rk4) rk4->step(t0, h, q, v);
      else dopri5->advance(t0, t1, q, v);
      project_positions(model, data, q);  // drift control: back onto Φ = 0, J v = 0
      project_velocities(model, data, q, v);
    }
    screen.check(model, work, q, t1);
    if (k % s.every == 0 || k == intervals) emit_row(t1);
    if (s.progress) s.progress(static_cast<double>(k) / static_cast<double>(intervals));
  }
  screen.finish();
  summary.near_singular_episodes = screen.episodes();
  if (ali3p) {
    summary.steps = ali3p->steps();
    summary.newton_iterations = ali3p->newton_iterations();
  } else if (rk4) {
    summary.steps = intervals;
  } else if (dopri5) {
    summary.steps = dopri5->accepted_steps();
  }
  return summary;
}

}  // namespace mechdyn
