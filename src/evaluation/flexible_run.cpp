// A mechanism with flexible bodies simulated in time by Newmark / HHT-α, forward or
// position-driven, with its rigid equivalent alongside. See the header.
#include "mechdyn/evaluation/flexible_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/assembly.hpp"
#include "mechdyn/flexible/equilibrium.hpp"

namespace mechdyn {

namespace {

std::string format_17g(double value) {  // the CLI's number format (%.17g)
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

// One integrated mechanism: the model, its system, workspace, integrator and state.
// Not movable: the integrator refers to the model and system it holds.
struct Mechanism {
  Mechanism(const Model& m, const NewmarkOptions& options)
      : model(m), system(make_flexible_system(model)), data(model, system), newmark(model, system, options) {}
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;
  FlexibleNewmark newmark;
  NewmarkState state;
  VecX effort;
  VecX actuated_effort;
  double violation = 0.0;
  FlexibleEnergies energy;

  // Markers, energies (with the force elements'), the elements' values and the constraint
  // violation at the state.
  void measure() {
    flexible_kinematics(model, system, data, state.q, state.v);
    flexible_mass_matrix(model, system, data, state.q);
    // the force elements' values and energies at the row's state and time (data.element_*)
    if (!model.forces.empty()) flexible_force_elements(model, system, data, state.q, state.v, state.time);
    energy = flexible_energies(model, system, data, state.q, state.v);
    violation = 0.0;
    if (model.num_loop_rows > 0) {
      flexible_loop_closure(model, system, data, state.q, VecX());
      violation = data.loop_residual.cwiseAbs().maxCoeff();
    }
  }
};

// SolverError naming the first non-finite coordinate, as the CLI's check_finite words it.
void check_configuration(const VecX& q, double t) {
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i]))
      throw SolverError("the configuration at t = " + format_17g(t) + " s[" + std::to_string(i) +
                        "] is not finite at this state (" + format_17g(q[i]) + ")");
}

}  // namespace

std::vector<int> flexible_run_actuated(const Model& model) { return actuated_velocities(model); }

FlexibleRunSummary run_flexible(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                                const FlexibleInputs& inputs, const FlexibleRunOptions& options,
                                const FlexibleObserver& observer) {
  if (q0.size() != model.nq || v0.size() != model.nv)
    throw InvalidArgument("flexible run: q0 has " + std::to_string(q0.size()) + " entries, v0 " +
                          std::to_string(v0.size()) + "; model '" + model.name + "' needs nq = " +
                          std::to_string(model.nq) + ", nv = " + std::to_string(model.nv));
  if (!q0.allFinite() || !v0.allFinite()) throw InvalidArgument("flexible run: q0 or v0 is not finite");
  if (!(options.step > 0.0) || !std::isfinite(options.step) || !(options.duration >= 0.0) ||
      !std::isfinite(options.duration) || options.every < 1)
    throw InvalidArgument("flexible run: step must be > 0, duration ≥ 0 and every ≥ 1");
  if (!(options.alpha >= -1.0 / 3.0 && options.alpha <= 0.0))
    throw InvalidArgument("flexible run: alpha must lie in [-1/3, 0], got " + format_17g(options.alpha));
  const bool driven = options.driven;
  const Eigen::Index joints = model.rigid_nv;
  const std::vector<int> actuated = actuated_velocities(model);
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
  if (driven && na == 0) throw InvalidArgument("flexible run: position-driven needs actuated joints; the model has none");
  if (driven && !inputs.actuated_motion)
    throw InvalidArgument("flexible run: position-driven needs the actuated coordinates' motion (actuated_motion)");

  VecX joint_effort = VecX::Zero(joints);
  auto efforts_at = [&](double t) {
    joint_effort.setZero();
    if (inputs.effort) inputs.effort(t, joint_effort);
  };
  auto apply_efforts = [&](Mechanism& run) {
    run.effort.setZero();
    run.effort.head(joints) = joint_effort;
  };
  PrescribedMotion motion;
  motion.position = motion.velocity = motion.acceleration = VecX::Zero(na);

  // ---- the mechanisms: the model, and its rigid equivalent alongside ----
  NewmarkOptions newmark;
  newmark.alpha = options.alpha;
  if (driven) newmark.prescribed = actuated;
  std::vector<std::unique_ptr<Mechanism>> runs;
  runs.push_back(std::make_unique<Mechanism>(model, newmark));
  if (options.rigid_reference) runs.push_back(std::make_unique<Mechanism>(rigid_equivalent(model), newmark));
  Mechanism& flexible = *runs[0];

  VecX q = q0, v = v0;
  if (driven) {
    inputs.actuated_motion(0.0, motion);
    for (Eigen::Index p = 0; p < na; ++p) {
      const int k = actuated[static_cast<std::size_t>(p)];
      const Joint& joint = model.joints[static_cast<std::size_t>(model.dof_body[static_cast<std::size_t>(k)])];
      q[joint.q_index + (k - joint.v_index)] = motion.position[p];
      v[k] = motion.velocity[p];
    }
  }
  for (std::size_t r = 0; r < runs.size(); ++r) {
    Mechanism& run = *runs[r];
    run.state.q = q.head(run.model.nq);
    run.state.v = v.head(run.model.nv);
    // Assembled start: loops closed and J v = 0 by the passive joints (the actuated held).
    assemble_flexible_state(run.model, run.system, run.data, run.state.q, run.state.v, actuated);
    run.effort = VecX::Zero(run.model.nv);
    run.actuated_effort = VecX::Zero(na);
    if (r == 0) efforts_at(0.0);
    apply_efforts(run);
    run.newmark.initialize(run.data, run.state, run.effort, driven ? &motion : nullptr);
  }

  if (options.started) options.started();
  FlexibleRunSummary summary;
  bool reference_alive = options.rigid_reference;
  auto emit_row = [&]() {
    for (std::size_t r = 0; r < (reference_alive ? runs.size() : 1); ++r) {
      Mechanism& run = *runs[r];
      run.measure();
      for (Eigen::Index p = 0; p < na; ++p)
        run.actuated_effort[p] = driven ? run.state.prescribed_efforts[p] : run.effort[actuated[static_cast<std::size_t>(p)]];
    }
    check_configuration(flexible.state.q, flexible.state.time);
    std::optional<FlexibleReferenceRow> reference;
    if (reference_alive) reference.emplace(FlexibleReferenceRow{runs[1]->state, runs[1]->data, runs[1]->actuated_effort});
    const FlexibleRow row{flexible.state.time, flexible.state,  flexible.effort,         flexible.actuated_effort,
                          flexible.data,       flexible.violation, flexible.state.iterations, flexible.energy,
                          reference ? &*reference : nullptr};
    observer(row);
    ++summary.rows;
  };

  // Output grid: K = ⌈duration / step⌉ intervals (none for duration 0), the last ending at `duration`.
  const long intervals =
      options.duration == 0.0
          ? 0
          : std::max(1L, static_cast<long>(std::ceil(options.duration / options.step * (1.0 - 1e-12))));
  emit_row();
  for (long k = 1; k <= intervals; ++k) {
    const double t1 = k == intervals ? options.duration : static_cast<double>(k) * options.step;
    if (driven) inputs.actuated_motion(t1, motion);
    for (std::size_t r = 0; r < (reference_alive ? runs.size() : 1); ++r) {
      Mechanism& run = *runs[r];
      if (r == 0) efforts_at(t1);
      apply_efforts(run);
      try {
        run.newmark.step(run.data, run.state, t1 - run.state.time, run.effort, driven ? &motion : nullptr);
      } catch (const SolverError& e) {
        if (r == 0) throw;
        // The reference is an aid, not the run: it stops (one warning line), the rows
        // carry no reference from here on, the flexible run goes on.
        reference_alive = false;
        summary.reference_stopped = true;
        summary.reference_stop_time = t1;
        if (options.warning)
          options.warning("the rigid reference stopped at t = " + format_17g(t1) + " s (" + e.what() +
                          "); its columns are empty from there");
        continue;
      }
      run.state.time = t1;  // no drift of the output grid
    }
    if (k % options.every == 0 || k == intervals) emit_row();
    if (options.progress) options.progress(static_cast<double>(k) / static_cast<double>(intervals));
  }
  return summary;
}

}  // namespace mechdyn
