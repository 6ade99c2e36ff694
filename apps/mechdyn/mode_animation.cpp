// The periodic trajectory of one vibration mode for `mechdyn view --mode K`
// (mode_animation.hpp has the formula and the choices).
#include "mode_animation.hpp"

#include <algorithm>
#include <cmath>

#include "common.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn::cli {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The diagonal of the box around every body frame origin and centre of mass at the
// position stage in `data` (m); the default amplitude of a mode led by a length is 0.2 of it.
double model_size(const Model& model, const Data& data) {
  Vec3 low = Vec3::Constant(1e300), high = Vec3::Constant(-1e300);
  for (int i = 0; i < model.num_bodies(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    low = low.cwiseMin(data.position[b]).cwiseMin(data.com_position[b]);
    high = high.cwiseMax(data.position[b]).cwiseMax(data.com_position[b]);
  }
  return (high - low).norm();
}

}  // namespace

ModeAnimation mode_animation(const Model& model, const std::string& model_path, const Eigen::Ref<const VecX>& q_start,
                             const ModeAnimationOptions& options) {
  ModesOptions modes_options;
  modes_options.equilibrium = options.equilibrium;
  const MechanismModes modes = mechanism_modes(model, q_start, modes_options);

  ModeAnimation out;
  out.count = static_cast<int>(modes.frequencies.size());
  out.zero_modes = modes.zero_modes;
  out.locked = modes.locked;
  out.damped_model = modes.damped_model;
  const std::string held = modes.locked.empty() ? "no joint held"
                                                : std::to_string(modes.locked.size()) + " actuated joint" +
                                                      (modes.locked.size() == 1 ? "" : "s") + " held";
  if (out.count == 0)
    throw UsageError(model_path + ": no nonzero vibration mode about the equilibrium (" + held + ", " +
                     std::to_string(modes.zero_modes) + (modes.zero_modes == 1 ? " zero mode" : " zero modes") +
                     (modes.unstable_modes > 0 ? ", " + std::to_string(modes.unstable_modes) + " unstable: the equilibrium found is unstable" : "") +
                     (modes.locked.empty() ? "" : "; --locked none frees the actuated joints") + "): nothing to animate");
  if (options.mode < 1 || options.mode > out.count)
    throw UsageError("--mode " + std::to_string(options.mode) + ": " + model_path + " has " + std::to_string(out.count) +
                     " nonzero vibration mode" + (out.count == 1 ? "" : "s") + " (" + held + "): K from 1 to " +
                     std::to_string(out.count));
  if (options.periods < 1) throw UsageError("--periods: at least 1");
  if (options.rows_per_period < 4 || options.rows_per_period % 4 != 0)
    throw InvalidArgument("mode_animation: rows_per_period must be a positive multiple of 4");

  out.number = options.mode;
  const auto k = static_cast<Eigen::Index>(options.mode - 1);
  out.frequency = modes.frequencies[static_cast<std::size_t>(k)];
  check_finite(out.frequency, "the mode's frequency");
  const VecX shape = modes.shapes.col(k);
  check_finite(shape, "the mode shape");
  Eigen::Index largest = 0;
  const double peak = shape.cwiseAbs().maxCoeff(&largest);
  if (!(peak > 0.0)) throw SolverError(model_path + ": mode " + std::to_string(options.mode) + " has a zero shape");
  out.shape = shape / peak;
  out.period = 1.0 / out.frequency;
  out.q_equilibrium = modes.q;
  const std::vector<CoordinateLabel> v_labels = velocity_labels(model);
  out.coordinate = v_labels[static_cast<std::size_t>(largest)].name;
  out.unit = v_labels[static_cast<std::size_t>(largest)].unit;

  Data at_equilibrium(model), work(model);
  forward_kinematics(model, at_equilibrium, out.q_equilibrium);  // apply_velocity_increment reads it
  out.default_amplitude = !(options.amplitude > 0.0);
  if (!out.default_amplitude) out.amplitude = options.amplitude;
  else if (out.unit == "m") {
    const double size = model_size(model, at_equilibrium);
    out.amplitude = 0.2 * (size > 1e-9 ? size : 1.0);
  } else {
    out.amplitude = 0.2;
  }

  // closed chains: keep the free independent and the held coordinates, solve the dependent ones
  std::vector<int> kept;
  out.reassembled = !model.loops.empty();
  if (out.reassembled) {
    std::vector<bool> keep(static_cast<std::size_t>(model.num_bodies()), false);
    for (int j : modes.free_joints) keep[static_cast<std::size_t>(j)] = true;
    for (const std::string& name : modes.locked)
      for (int j = 0; j < model.num_bodies(); ++j)
        if (model.joints[static_cast<std::size_t>(j)].name == name) keep[static_cast<std::size_t>(j)] = true;
    for (int j = 0; j < model.num_bodies(); ++j)
      if (keep[static_cast<std::size_t>(j)])
        for (int c = 0; c < model.joints[static_cast<std::size_t>(j)].nv; ++c)
          kept.push_back(model.joints[static_cast<std::size_t>(j)].v_index + c);
  }

  RunTable& run = out.run;
  run.columns.push_back("t_s");
  for (const auto& label : configuration_labels(model))
    run.columns.push_back("q_" + label.name + (label.unit.empty() ? "" : "_" + label.unit));
  for (const auto& label : v_labels) run.columns.push_back("v_" + label.name + "_" + label.unit + "_per_s");
  run.columns.push_back("modal_coordinate_" + out.unit);
  if (out.reassembled) run.columns.push_back("closure_residual");
  run.rows = static_cast<std::size_t>(options.periods) * static_cast<std::size_t>(options.rows_per_period) + 1;
  run.values.reserve(run.rows * run.columns.size());

  const double omega = 2.0 * kPi * out.frequency;
  VecX q(model.nq);
  for (std::size_t r = 0; r < run.rows; ++r) {
    // t = r T / n exactly at the period boundaries and the peaks (r a multiple of n / 4)
    const double t = static_cast<double>(r) * out.period / options.rows_per_period;
    const double phase = 2.0 * kPi * static_cast<double>(r % static_cast<std::size_t>(options.rows_per_period)) /
                         options.rows_per_period;
    const double modal = out.amplitude * std::sin(phase);
    q = out.q_equilibrium;
    apply_velocity_increment(model, at_equilibrium, q, modal * out.shape);
    double residual = 0.0;
    if (out.reassembled) {
      AssemblyOptions assembly;
      assembly.check_singular = false;  // a passing singular pose is still drawn
      assemble_keeping(model, work, q, kept, assembly);
      loop_closure(model, work, q);
      residual = work.loop_residual.size() > 0 ? work.loop_residual.cwiseAbs().maxCoeff() : 0.0;
      out.max_closure_residual = std::max(out.max_closure_residual, residual);
    }
    run.values.push_back(t);
    for (Eigen::Index i = 0; i < model.nq; ++i) run.values.push_back(q[i]);
    const double rate = omega * out.amplitude * std::cos(phase);
    for (Eigen::Index i = 0; i < model.nv; ++i) run.values.push_back(rate * out.shape[i]);
    run.values.push_back(modal);
    if (out.reassembled) run.values.push_back(residual);
  }
  return out;
}

}  // namespace mechdyn::cli
