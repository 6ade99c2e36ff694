// mechdyn simulate for closed chains. See closed_chain_simulation.hpp.
#include "closed_chain_simulation.hpp"

#include "body_poses.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "common.hpp"
#include "force_element_columns.hpp"
#include "csv_output.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/initial_state.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/evaluation/closed_chain_run.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "progress.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

namespace {

std::vector<std::string> header(const Model& model, const std::vector<int>& actuated, bool inverse) {
  std::vector<std::string> columns{"t_s"};
  const auto ql = configuration_labels(model);
  const auto vl = velocity_labels(model);
  for (const auto& l : ql) columns.push_back("q_" + l.name + (l.unit.empty() ? "" : "_" + l.unit));
  for (const auto& l : vl) columns.push_back("v_" + l.name + "_" + l.unit + "_per_s");
  for (const auto& l : vl) columns.push_back("a_" + l.name + "_" + l.unit + "_per_s2");
  auto effort_unit = [&](int k) { return std::string(vl[k].unit == "rad" ? "_N_m" : "_N"); };
  for (int k : actuated) columns.push_back("tau_" + vl[k].name + effort_unit(k));
  if (inverse) {
    for (int k : actuated) columns.push_back("friction_" + vl[k].name + effort_unit(k));
    for (int k : actuated) columns.push_back("tau_with_friction_" + vl[k].name + effort_unit(k));
  }
  for (const Loop& loop : model.loops) {
    for (const char* c : {"fx", "fy", "fz"}) columns.push_back("cut_" + loop.name + "_" + c + "_N");
    for (const char* c : {"tx", "ty", "tz"}) columns.push_back("cut_" + loop.name + "_" + c + "_N_m");
  }
  for (const Joint& j : model.joints) {
    for (const char* c : {"fx", "fy", "fz"}) columns.push_back("reaction_" + j.name + "_" + c + "_N");
    for (const char* c : {"tx", "ty", "tz"}) columns.push_back("reaction_" + j.name + "_" + c + "_N_m");
  }
  columns.push_back("closure_residual");
  columns.push_back("kinetic_energy_J");
  columns.push_back("potential_energy_J");
  append_force_element_columns(model, columns);
  return columns;
}

}  // namespace

void run_closed_chain_simulation(const Model& model, const ClosedChainSettings& s, std::ostream& standard_output) {
  // The run is the library's (evaluation/closed_chain_run.hpp); this layer parses the
  // inputs, writes the rows as CSV and the poses, and prints warnings and progress.
  const bool inverse = s.mode == "inverse";
  const Data probe(model);
  const std::vector<int> actuated = probe.actuated_dofs;
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size()), nv = model.nv;
  if (probe.passive_dofs.empty())
    throw UsageError("model '" + model.name + "' has " + model.constraint_kinds() + " but no passive joint: mark the passive joints actuated: false");
  // Start: --q0, else the model's initial_configuration, else the neutral one. Named
  // entries (joint=value) are the coordinates kept; a full list or none keeps the actuated
  // ones (constraints/initial_state.hpp).
  const StartValues q_start = parse_start_values(s.q0, "q0", model, StartLevel::Configuration,
                                                 model.initial_configuration.size() > 0 ? model.initial_configuration
                                                                                        : model.neutral_configuration());
  VecX q = q_start.values;
  check_and_normalize_quaternions(model, q, "q0");
  const StartValues v_start = parse_start_values(s.v0, "v0", model, StartLevel::Velocity, VecX::Zero(nv));
  for (int k : actuated) {
    const Joint& joint = model.joints[model.dof_body[k]];
    if (inverse && joint.nq != joint.nv)
      throw UsageError("joint '" + joint.name + "': inverse closed-chain simulation needs actuated joints with nq = nv");
  }
  auto expressions_for = [&](const std::optional<std::vector<std::string>>& list, const char* name) {
    std::vector<std::string> e = list.value_or(std::vector<std::string>(static_cast<std::size_t>(na), "0"));
    if (static_cast<Eigen::Index>(e.size()) != na)
      throw UsageError(std::string(name) + " has " + std::to_string(e.size()) + " expressions; model '" + model.name +
                       "' has " + model.constraint_kinds() + ", so it needs one per actuated coordinate (" + std::to_string(na) + ")");
    return TimeExpressions(e, name);
  };
  if (inverse && s.velocities && s.accelerations)
    throw UsageError("give either velocities or accelerations of the actuated joints, not both");
  const bool by_velocity = inverse && s.velocities.has_value();
  TimeExpressions source = expressions_for(inverse ? (by_velocity ? s.velocities : s.accelerations) : s.tau,
                                           inverse ? (by_velocity ? "velocities" : "accelerations") : "tau");
  if (by_velocity && s.v0)
    std::cerr << "mechdyn: warning: v0 is not used with velocities (the actuated rates come from them)\n";

  ClosedChainInputs inputs;
  VecX input = VecX::Zero(na);
  if (!inverse) {
    inputs.effort = [&](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> tau) {
      source.evaluate(t, input);
      for (Eigen::Index c = 0; c < na; ++c) tau[actuated[c]] = input[c];  // efforts on the actuated coordinates
    };
  } else if (by_velocity) {
    inputs.actuated_velocity = [&](double t, Eigen::Ref<VecX> out) { source.evaluate(t, out); };
  } else {
    inputs.actuated_acceleration = [&](double t, Eigen::Ref<VecX> out) { source.evaluate(t, out); };
  }
  ClosedChainRunOptions options;
  options.inverse = inverse;
  options.integrator = closed_chain_integrator_from_name(s.integrator).value_or(ClosedChainIntegrator::Rk4);
  options.duration = s.duration;
  options.step = s.step;
  options.relative_tolerance = s.rtol;
  options.absolute_tolerance = s.atol;
  options.ali3p_adaptive = s.ali3p_adaptive;
  options.every = s.every;
  options.budget = s.budget;
  options.start.kept_positions = q_start.named;
  options.start.kept_velocities = v_start.named;
  options.warning = [](const std::string& line) { std::cerr << "mechdyn: warning: " << line << "\n"; };
  options.started = [](const InitialStateResult& start) {  // every kept rate the loops moved: one line
    for (const InitialStateAdjustment& moved : start.adjustments) {
      const std::string unit = moved.unit + "/s";
      std::cerr << "mechdyn: warning: initial velocity of " << moved.name << ": " << format_short(moved.given) << " "
                << unit << " given, " << format_short(moved.used) << " " << unit << " used (difference "
                << format_short(moved.difference()) << " " << unit
                << "; the least change the loops allow for the rates kept)\n";
    }
  };
  ProgressBar progress;
  options.progress = [&](double fraction) { progress.update(fraction); };

  CsvOutput csv(s.output, standard_output);
  std::ostream& out = csv.stream();
  PoseOutput poses(model, s.poses, standard_output);  // --poses (body_poses.hpp)
  const auto columns = header(model, actuated, inverse);
  bool header_written = false;  // with the first computed row (see simulate_command.cpp)
  std::string line;
  auto write_row = [&](const ClosedChainRow& row) {
    const Data& data = row.data;
    line = format_number(row.t);
    auto add = [&](double x) {
      if (!std::isfinite(x)) throw SolverError("a result became non-finite at t = " + format_number(row.t) + " s");
      line += ',';
      line += format_number(x);
    };
    for (Eigen::Index i = 0; i < row.q.size(); ++i) add(row.q[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(row.v[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(row.a[i]);
    for (int k : actuated) add(row.tau[k]);
    if (inverse) {
      for (int k : actuated) add(data.friction_effort[k]);
      for (int k : actuated) add(row.tau[k] + data.friction_effort[k]);  // τ_d = τ_a + τ_f (EC eq. 56)
    }
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      for (int c = 0; c < 3; ++c) add(data.cut_force[i][c]);
      for (int c = 0; c < 3; ++c) add(data.cut_torque[i][c]);
    }
    for (int l = 0; l < model.num_bodies(); ++l) {
      for (int c = 0; c < 3; ++c) add(data.reaction_force[l][c]);
      for (int c = 0; c < 3; ++c) add(data.reaction_torque[l][c]);
    }
    add(row.closure_residual);
    add(row.kinetic_energy);
    add(row.potential_energy);
    add_force_element_values(model, data, add);
    line += '\n';
    if (!header_written) out << csv_header_line(columns);
    header_written = true;
    out << line;
    csv.check();
    poses.write(row.t, row.q);
  };
  const ClosedChainRunSummary summary = run_closed_chain(model, q, v_start.values, inputs, options, write_row);
  progress.finish();

  csv.commit();
  poses.commit();
  if (!csv.to_regular_file()) return;  // the summary only beside a file, never into a stream
  standard_output << "wrote " << summary.rows << " rows (t = 0 .. " << s.duration << " s, closed-chain " << s.mode
                  << " dynamics"
                  << (inverse ? "" : ", " + s.integrator + (s.integrator == "ali3p" ? "" : " with projection")) << ") to "
                  << s.output << "\n";
}

}  // namespace mechdyn::cli
