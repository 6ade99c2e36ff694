// Forward simulation, rows to an observer or as arrays. See evaluation/simulate.hpp.
#include "mechdyn/evaluation/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>

#include "mechdyn/evaluation/closed_chain_run.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_beam.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/simulation/integration_budget.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

void check_options(const SimulationOptions& o) {
  auto positive = [](double x, const char* name) {
    if (!(std::isfinite(x) && x > 0.0))
      throw InvalidArgument(std::string("simulate: ") + name + " must be a finite positive number, got " + number(x));
  };
  if (!(std::isfinite(o.duration) && o.duration >= 0.0))
    throw InvalidArgument("simulate: duration must be finite and ≥ 0, got " + number(o.duration));
  positive(o.step, "step");
  positive(o.relative_tolerance, "relative_tolerance");
  positive(o.absolute_tolerance, "absolute_tolerance");
  if (o.every < 1) throw InvalidArgument("simulate: every must be ≥ 1, got " + std::to_string(o.every));
  if (o.max_steps < 0) throw InvalidArgument("simulate: max_steps must be ≥ 0, got " + std::to_string(o.max_steps));
  if (!(std::isfinite(o.max_wall_time) && o.max_wall_time >= 0.0))
    throw InvalidArgument("simulate: max_wall_time must be finite and ≥ 0, got " + number(o.max_wall_time));
  if (o.duration / o.step > 1e9)
    throw InvalidArgument("simulate: duration / step is above 1e9 output intervals");
}

// Quaternions of q0 must have norm 1 within 1e-6; they are then normalised exactly.
void normalize_start(const Model& model, VecX& q) {
  for (const Joint& joint : model.joints) {
    const int offset = joint_quaternion_offset(joint);
    if (offset < 0) continue;
    const int first = joint.q_index + offset;
    const double norm = q.segment<4>(first).norm();
    if (!(std::abs(norm - 1.0) <= 1e-6))
      throw InvalidArgument("simulate: q0: the quaternion of joint '" + joint.name + "' (q0[" + std::to_string(first) +
                            ".." + std::to_string(first + 3) + "]) has norm " + number(norm) +
                            "; it must be 1 within 1e-6");
    q.segment<4>(first) /= norm;
  }
}

// The output intervals K of the run and its step budget (options.max_steps, else 100000 + 1000 K).
long output_intervals(const SimulationOptions& options) {
  return options.duration == 0.0
             ? 0
             : std::max(1L, static_cast<long>(std::ceil(options.duration / options.step * (1.0 - 1e-12))));
}
long step_budget(const SimulationOptions& options, long intervals) {
  return options.max_steps > 0 ? options.max_steps
         : intervals > (std::numeric_limits<long>::max() - 100000) / 1000 ? std::numeric_limits<long>::max()
                                                                          : 100000 + 1000 * intervals;
}

void check_start(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0) {
  if (q0.size() != model.nq)
    throw InvalidArgument("simulate: q0 has " + std::to_string(q0.size()) + " entries, model '" + model.name +
                          "' needs " + std::to_string(model.nq) + " (nq)");
  if (v0.size() != model.nv)
    throw InvalidArgument("simulate: v0 has " + std::to_string(v0.size()) + " entries, model '" + model.name +
                          "' needs " + std::to_string(model.nv) + " (nv)");
  if (!q0.allFinite() || !v0.allFinite()) throw InvalidArgument("simulate: q0 or v0 is not finite");
}

// The rows of a run as arrays, sized once the run's own checks have passed (the first row).
template <class Run>
SimulationResult collect_rows(const Model& model, const SimulationOptions& options, const Run& run) {
  check_options(options);
  const long intervals = output_intervals(options);
  const long rows = intervals == 0 ? 1 : 1 + intervals / options.every + (intervals % options.every != 0 ? 1 : 0);
  SimulationResult result;
  long row = 0;
  run([&](SimulationRow& r) {
    if (row == 0) {
      result.time.resize(rows);
      result.q.resize(rows, model.nq);
      result.v.resize(rows, model.nv);
      result.a.resize(rows, model.nv);
      result.tau.resize(rows, model.nv);
    }
    result.time[row] = r.time;
    result.q.row(row) = r.q.transpose();
    result.v.row(row) = r.v.transpose();
    result.a.row(row) = r.a.transpose();
    result.tau.row(row) = r.tau.transpose();
    ++row;
  });
  return result;
}

}  // namespace

void simulate(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
              const EffortFunction& effort, const SimulationOptions& options, const SimulationObserver& observer) {
  check_options(options);
  require_rigid_bodies(model, model.name, "simulate");
  const Eigen::Index nv = model.nv;
  check_start(model, q0, v0);
  VecX q = q0, v = v0;
  normalize_start(model, q);

  const long intervals = output_intervals(options);
  IntegrationBudget budget(step_budget(options, intervals), options.max_wall_time);

  const bool loops = model.has_constraints();
  if (loops) {  // the closed-chain run of `mechdyn simulate` (evaluation/closed_chain_run.hpp), rk4 or dopri5
    ClosedChainRunOptions run;
    run.integrator = options.adaptive ? ClosedChainIntegrator::DormandPrince : ClosedChainIntegrator::Rk4;
    run.duration = options.duration;
    run.step = options.step;
    run.relative_tolerance = options.relative_tolerance;
    run.absolute_tolerance = options.absolute_tolerance;
    run.every = options.every;
    run.budget = &budget;
    run.progress = options.progress;
    ClosedChainInputs inputs;
    inputs.effort = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv, Eigen::Ref<VecX> out) {
      if (!effort) return;  // zero (the run clears out)
      effort(t, qq, vv, out);
      if (!out.allFinite()) throw InvalidArgument("simulate: the efforts are not finite at t = " + number(t) + " s");
    };
    const VecX no_friction_state = VecX::Zero(nv);
    run_closed_chain(model, q, v, inputs, run, [&](const ClosedChainRow& r) {
      if (!r.a.allFinite()) throw SolverError("a result became non-finite at t = " + number(r.t) + " s");
      SimulationRow row{r.t, r.q, r.v, r.a, r.tau, no_friction_state, r.data};
      if (observer) observer(row);
    });
    return;
  }
  const bool friction = has_joint_friction(model);
  const bool recursive = options.method == DynamicsMethod::Recursive;
  // Only the dense workspaces the chosen dynamics use (model/data.hpp): none for ABA, so
  // that a recursive run's memory grows as O(n) (a 2000-body chain under the CLI's
  // address-space test, tests/unit/test_cli_scale.cpp); a missing group would be
  // allocated on first use.
  const DenseWorkspace dense = friction ? DenseWorkspace::MassMatrix | DenseWorkspace::Friction
                               : recursive ? DenseWorkspace::None
                                           : DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor;
  Data data(model, dense), row_data(model, dense);

  VecX tau = VecX::Zero(nv), row_tau = VecX::Zero(nv), z = VecX::Zero(nv);
  auto efforts = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv, Eigen::Ref<VecX> out) {
    if (effort) {
      effort(t, qq, vv, out);
      if (!out.allFinite()) throw InvalidArgument("simulate: the efforts are not finite at t = " + number(t) + " s");
    } else {
      out.setZero();
    }
  };
  // Force elements (format 3): the dynamics see τ + Q_f(q, v, t); the rows report τ (the
  // actuators') and leave the elements' values in the row's Data. With joint friction the
  // friction simulation evaluates the elements on its own Data and adds Q_f to the
  // actuators' τ, so that the joint loads of load-dependent friction include the elements'
  // body wrenches (friction/friction_simulation.hpp, forward_dynamics_with_friction.hpp).
  const bool elements = model.has_force_elements;
  AccelerationFunction acceleration = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                                          Eigen::Ref<VecX> a) {
    if (!qq.allFinite() || !vv.allFinite()) throw SolverError("the state became non-finite at t = " + number(t) + " s");
    efforts(t, qq, vv, tau);
    try {
      if (elements) {  // one kinematics pass: the elements' Q_f on it, then the dynamics at τ + Q_f
        force_elements(model, data, qq, vv, t);
        tau += data.applied_force;
        a = recursive ? aba_from_kinematics(model, data, tau) : explicit_forward_dynamics_from_kinematics(model, data, tau);
      } else {
        a = recursive ? aba(model, data, qq, vv, tau) : explicit_forward_dynamics(model, data, qq, vv, tau);
      }
    } catch (const SolverError& e) {
      throw SolverError(std::string(e.what()) + " at t = " + number(t) + " s");
    }
  };

  std::unique_ptr<Rk4Integrator> rk4;
  std::unique_ptr<DormandPrinceIntegrator> dopri5;
  std::unique_ptr<FrictionSimulation> friction_simulation;
  if (friction) {
    FrictionSimulationOptions fo;
    fo.adaptive = options.adaptive;
    fo.step = options.step;
    fo.dormand_prince.relative_tolerance = options.relative_tolerance;
    fo.dormand_prince.absolute_tolerance = options.absolute_tolerance;
    fo.dormand_prince.min_step = std::min(1e-12, 1e-6 * options.step);
    fo.dormand_prince.budget = &budget;
    fo.budget = &budget;
    friction_simulation = std::make_unique<FrictionSimulation>(model, efforts, fo);  // it adds Q_f itself
  } else if (!options.adaptive) {
    rk4 = std::make_unique<Rk4Integrator>(model, acceleration);
    rk4->set_budget(&budget);
  } else {
    DormandPrinceOptions dp;
    dp.relative_tolerance = options.relative_tolerance;
    dp.absolute_tolerance = options.absolute_tolerance;
    dp.max_step = options.step;
    dp.min_step = std::min(1e-12, 1e-6 * options.step);
    dp.budget = &budget;
    dopri5 = std::make_unique<DormandPrinceIntegrator>(model, acceleration, dp);
  }

  VecX row_a = VecX::Zero(nv);
  VecX& row_total = row_data.total_effort;  // τ + Q_f
  auto record = [&](double t) {
    efforts(t, q, v, row_tau);
    row_total = row_tau;
    if (elements) {  // Q_f and the elements' values at the row, left in the row's Data
      force_elements(model, row_data, q, v, t);
      row_total += row_data.applied_force;
    }
    if (friction) {
      row_data.friction_state = z;
      row_a = forward_dynamics_with_friction(model, row_data, q, v, row_total);
    } else {
      row_a = recursive ? aba(model, row_data, q, v, row_total) : explicit_forward_dynamics(model, row_data, q, v, row_total);
    }
    if (!row_a.allFinite()) throw SolverError("a result became non-finite at t = " + number(t) + " s");
    SimulationRow row{t, q, v, row_a, row_tau, z, row_data};
    if (observer) observer(row);
  };
  auto time_at = [&](long k) { return k == intervals ? options.duration : static_cast<double>(k) * options.step; };
  record(0.0);
  for (long k = 1; k <= intervals; ++k) {
    const double t0 = time_at(k - 1), t1 = time_at(k);
    if (friction_simulation) friction_simulation->advance(t0, t1, q, v, z);
    else if (rk4) rk4->step(t0, t1 - t0, q, v);
    else dopri5->advance(t0, t1, q, v);
    if (k % options.every == 0 || k == intervals) record(t1);
    if (options.progress) options.progress(static_cast<double>(k) / static_cast<double>(intervals));
  }
}

SimulationResult simulate(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                          const EffortFunction& effort, const SimulationOptions& options) {
  return collect_rows(model, options, [&](const SimulationObserver& observer) {
    simulate(model, q0, v0, effort, options, observer);
  });
}

void simulate_inverse(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                      const PrescribedAccelerationFunction& acceleration, const SimulationOptions& options,
                      const SimulationObserver& observer) {
  check_options(options);
  require_rigid_bodies(model, model.name, "simulate_inverse");
  if (model.has_constraints())
    throw ModelError("simulate_inverse: model '" + model.name +
                     "' has " + model.constraint_kinds() + ": its inverse run is the closed-chain run (evaluation/closed_chain_run.hpp)");
  const Eigen::Index nv = model.nv;
  check_start(model, q0, v0);
  VecX q = q0, v = v0;
  normalize_start(model, q);
  const long intervals = output_intervals(options);
  IntegrationBudget budget(step_budget(options, intervals), options.max_wall_time);
  const bool friction = has_joint_friction(model);
  const bool recursive = options.method == DynamicsMethod::Recursive;
  // Only the dense workspaces the inverse dynamics use (model/data.hpp): none for RNEA, M
  // for the explicit method.
  const DenseWorkspace dense = recursive ? DenseWorkspace::None : DenseWorkspace::MassMatrix;
  Data dynamics_data(model, dense), row_data(model, dense);
  auto prescribed = [&](double t, Eigen::Ref<VecX> a) {
    if (!acceleration) {
      a.setZero();
      return;
    }
    acceleration(t, a);
    if (!a.allFinite()) throw InvalidArgument("simulate_inverse: the accelerations are not finite at t = " + number(t) + " s");
  };

  // x = (q, v), with joint friction (q, v, z): the LuGre bristle states' rates from the
  // inverse dynamics with friction along the prescribed motion.
  VecX z = VecX::Zero(nv);
  AccelerationFunction kinematic = [&](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                       Eigen::Ref<VecX> a) { prescribed(t, a); };
  ExtendedDerivativeFunction with_friction = [&](double t, const Eigen::Ref<const VecX>& qq,
                                                 const Eigen::Ref<const VecX>& vv, const Eigen::Ref<const VecX>& zz,
                                                 Eigen::Ref<VecX> a, Eigen::Ref<VecX> z_rate) {
    prescribed(t, a);
    dynamics_data.friction_state = zz;
    inverse_dynamics_with_friction(model, dynamics_data, qq, vv, a, LuGreEvaluation::State);
    z_rate = dynamics_data.friction_state_rate;
  };
  std::unique_ptr<Rk4Integrator> rk4;
  std::unique_ptr<DormandPrinceIntegrator> dopri5;
  DormandPrinceOptions dp;
  dp.relative_tolerance = options.relative_tolerance;
  dp.absolute_tolerance = options.absolute_tolerance;
  dp.max_step = options.step;
  dp.min_step = std::min(1e-12, 1e-6 * options.step);
  dp.budget = &budget;
  if (!options.adaptive) {
    rk4 = friction ? std::make_unique<Rk4Integrator>(model, with_friction, static_cast<int>(nv))
                   : std::make_unique<Rk4Integrator>(model, kinematic);
    rk4->set_budget(&budget);
  } else {
    dopri5 = friction ? std::make_unique<DormandPrinceIntegrator>(model, with_friction, static_cast<int>(nv), dp)
                      : std::make_unique<DormandPrinceIntegrator>(model, kinematic, dp);
  }

  VecX a = VecX::Zero(nv), tau = VecX::Zero(nv);
  auto record = [&](double t) {
    prescribed(t, a);
    // Force elements first (their kinematics pass), so that the inverse dynamics below leave
    // the row's stage at (q, v, a) for the observer: τ = M a + h − Q_f (+ τ_f).
    if (model.has_force_elements) force_elements(model, row_data, q, v, t);
    if (friction) {  // as compute_all_terms: the reactions with the elements' body wrenches set the normal loads
      row_data.friction_state = z;
      joint_reactions(model, row_data, q, v, a);  // EC eq. (17); row_data.tau = M a + h (without the armature)
      if (model.has_force_elements) {
        apply_external_wrenches_to_reactions(model, row_data);  // row_data.tau = M a + h − Σ J_lᵀ E_l
        row_data.tau -= row_data.element_effort;                 // − the joint elements': M a + h − Q_f
      }
      if (model.has_armature) row_data.tau += model.armature.cwiseProduct(a);  // the drives' armature a
      tau = friction_from_reactions(model, row_data, v, a, LuGreEvaluation::State);  // + τ_f (EC eq. 54)
    } else {
      tau = recursive ? rnea(model, row_data, q, v, a) : explicit_inverse_dynamics(model, row_data, q, v, a);
      if (model.has_force_elements) tau -= row_data.applied_force;  // the actuators' effort (force-elements.md)
    }
    SimulationRow row{t, q, v, a, tau, z, row_data};
    if (observer) observer(row);
  };
  auto time_at = [&](long k) { return k == intervals ? options.duration : static_cast<double>(k) * options.step; };
  record(0.0);
  for (long k = 1; k <= intervals; ++k) {
    const double t0 = time_at(k - 1), t1 = time_at(k);
    if (friction && rk4) rk4->step(t0, t1 - t0, q, v, z);
    else if (friction) dopri5->advance(t0, t1, q, v, z);
    else if (rk4) rk4->step(t0, t1 - t0, q, v);
    else dopri5->advance(t0, t1, q, v);
    if (k % options.every == 0 || k == intervals) record(t1);
    if (options.progress) options.progress(static_cast<double>(k) / static_cast<double>(intervals));
  }
}

SimulationResult simulate_inverse(const Model& model, const Eigen::Ref<const VecX>& q0,
                                  const Eigen::Ref<const VecX>& v0, const PrescribedAccelerationFunction& acceleration,
                                  const SimulationOptions& options) {
  return collect_rows(model, options, [&](const SimulationObserver& observer) {
    simulate_inverse(model, q0, v0, acceleration, options, observer);
  });
}

}  // namespace mechdyn
