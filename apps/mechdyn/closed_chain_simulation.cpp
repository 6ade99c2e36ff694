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
#include "csv_output.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/initial_state.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
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
  return columns;
}

}  // namespace

void run_closed_chain_simulation(const Model& model, const ClosedChainSettings& s, std::ostream& standard_output) {
  const bool inverse = s.mode == "inverse";
  Data data(model), work(model);
  const std::vector<int> actuated = data.actuated_dofs;
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size()), nv = model.nv;
  if (data.passive_dofs.empty())
    throw UsageError("model '" + model.name + "' has loops but no passive joint: mark the passive joints actuated: false");
  // Start: --q0, else the model's initial_configuration, else the neutral one; for the
  // passive coordinates only a guess that the assembly below closes.
  // Named entries (joint=value) are the coordinates kept; a full list or none keeps the
  // actuated ones (constraints/initial_state.hpp).
  const StartValues q_start = parse_start_values(s.q0, "q0", model, StartLevel::Configuration,
                                                 model.initial_configuration.size() > 0 ? model.initial_configuration
                                                                                        : model.neutral_configuration());
  VecX q = q_start.values;
  check_and_normalize_quaternions(model, q, "q0");
  const StartValues v_start = parse_start_values(s.v0, "v0", model, StartLevel::Velocity, VecX::Zero(nv));
  VecX v = v_start.values;
  for (int k : actuated) {
    const Joint& joint = model.joints[model.dof_body[k]];
    if (inverse && joint.nq != joint.nv)
      throw UsageError("joint '" + joint.name + "': inverse closed-chain simulation needs actuated joints with nq = nv");
  }
  auto expressions_for = [&](const std::optional<std::vector<std::string>>& list, const char* name) {
    std::vector<std::string> e = list.value_or(std::vector<std::string>(static_cast<std::size_t>(na), "0"));
    if (static_cast<Eigen::Index>(e.size()) != na)
      throw UsageError(std::string(name) + " has " + std::to_string(e.size()) + " expressions; model '" + model.name +
                       "' has loops, so it needs one per actuated coordinate (" + std::to_string(na) + ")");
    return TimeExpressions(e, name);
  };
  if (inverse && s.velocities && s.accelerations)
    throw UsageError("give either velocities or accelerations of the actuated joints, not both");
  const bool by_velocity = inverse && s.velocities.has_value();
  TimeExpressions source = expressions_for(inverse ? (by_velocity ? s.velocities : s.accelerations) : s.tau,
                                           inverse ? (by_velocity ? "velocities" : "accelerations") : "tau");
  VecX input = VecX::Zero(na), input_mid = VecX::Zero(na), input_end = VecX::Zero(na);

  // Actuated motion at t from the state (q_a, v_a) carried along the output grid.
  VecX a = VecX::Zero(nv), tau_full = VecX::Zero(nv);
  auto prescribed = [&](double t) {  // sets v_a, a_a at t (inverse)
    source.evaluate(t, input);
    if (by_velocity) {  // a_a = dv_a/dt by a central difference of the expression (CLI input only)
      const double h = 1e-6 * std::max(1.0, std::abs(t));
      source.evaluate(t + h, input_mid);
      source.evaluate(t - h, input_end);
      for (Eigen::Index c = 0; c < na; ++c) {
        v[actuated[c]] = input[c];
        a[actuated[c]] = (input_mid[c] - input_end[c]) / (2 * h);
      }
    } else {
      for (Eigen::Index c = 0; c < na; ++c) a[actuated[c]] = input[c];
    }
  };

  // Forward: constrained dynamics with efforts on the actuated coordinates.
  AccelerationFunction acceleration = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                                          Eigen::Ref<VecX> out) {
    source.evaluate(t, input);
    tau_full.setZero();
    for (Eigen::Index c = 0; c < na; ++c) tau_full[actuated[c]] = input[c];
    try {
      out = constrained_forward_dynamics(model, work, qq, vv, tau_full);
    } catch (const SolverError& e) {
      throw SolverError(std::string(e.what()) + " at t = " + format_number(t) + " s");
    }
  };
  std::unique_ptr<Rk4Integrator> rk4;
  std::unique_ptr<DormandPrinceIntegrator> dopri5;
  if (!inverse) {
    if (s.integrator == "rk4") {
      rk4 = std::make_unique<Rk4Integrator>(model, acceleration);
      rk4->set_budget(s.budget);
    } else {
      DormandPrinceOptions options;
      options.relative_tolerance = s.rtol;
      options.absolute_tolerance = s.atol;
      options.max_step = s.step;
      options.min_step = std::min(1e-12, 1e-6 * s.step);
      options.budget = s.budget;
      dopri5 = std::make_unique<DormandPrinceIntegrator>(model, acceleration, options);
    }
  }
  // Initial state on the constraint manifold, the stated coordinates kept where the loops
  // allow (constraints/initial_state.hpp: assembly with recovery, then the dependent
  // rates); every kept rate it had to move is one warning line. Inverse mode: the first
  // row's assembly starts from it (later rows from the previous one); driven by
  // velocities, the actuated rates at t = 0 are the expressions' and are the ones kept.
  InitialStateOptions start;
  start.kept_positions = q_start.named;
  start.kept_velocities = v_start.named;
  if (by_velocity) {
    if (s.v0) std::cerr << "mechdyn: warning: v0 is not used with velocities (the actuated rates come from them)\n";
    prescribed(0.0);
    start.kept_velocities.reset();
  }
  for (const InitialStateAdjustment& moved : consistent_initial_state(model, data, q, v, start).adjustments) {
    const std::string unit = moved.unit + "/s";
    std::cerr << "mechdyn: warning: initial velocity of " << moved.name << ": " << format_short(moved.given) << " "
              << unit << " given, " << format_short(moved.used) << " " << unit << " used (difference "
              << format_short(moved.difference()) << " " << unit
              << "; the least change the loops allow for the rates kept)\n";
  }
  if (inverse) prescribed(0.0);

  CsvOutput csv(s.output, standard_output);
  std::ostream& out = csv.stream();
  PoseOutput poses(model, s.poses, standard_output);  // --poses (body_poses.hpp)
  const auto columns = header(model, actuated, inverse);
  bool header_written = false;  // with the first computed row (see simulate_command.cpp)

  std::string row;
  auto write_row = [&](double t) {
    VecX tau;
    if (inverse) {
      prescribed(t);
      try {
        closed_chain_inverse_dynamics(model, data, q, v, a);
      } catch (const SolverError& e) {
        throw SolverError(std::string(e.what()) + " at t = " + format_number(t) + " s");
      }
      tau = data.tau;
    } else {
      source.evaluate(t, input);
      tau_full.setZero();
      for (Eigen::Index c = 0; c < na; ++c) tau_full[actuated[c]] = input[c];
      a = constrained_forward_dynamics(model, data, q, v, tau_full);
      closed_chain_joint_reactions(model, data, q, v, a);
      tau = tau_full;
    }
    loop_closure(model, work, q);
    const double residual = work.loop_residual.lpNorm<Eigen::Infinity>();
    const double kinetic = kinetic_energy(model, work, q, v);
    const double potential = potential_energy(model, work, q);
    row = format_number(t);
    auto add = [&](double x) {
      if (!std::isfinite(x)) throw SolverError("a result became non-finite at t = " + format_number(t) + " s");
      row += ',';
      row += format_number(x);
    };
    for (Eigen::Index i = 0; i < q.size(); ++i) add(q[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(v[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(a[i]);
    for (int k : actuated) add(tau[k]);
    if (inverse) {
      for (int k : actuated) add(data.friction_effort[k]);
      for (int k : actuated) add(tau[k] + data.friction_effort[k]);  // τ_d = τ_a + τ_f (EC eq. 56)
    }
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      for (int c = 0; c < 3; ++c) add(data.cut_force[i][c]);
      for (int c = 0; c < 3; ++c) add(data.cut_torque[i][c]);
    }
    for (int l = 0; l < model.num_bodies(); ++l) {
      for (int c = 0; c < 3; ++c) add(data.reaction_force[l][c]);
      for (int c = 0; c < 3; ++c) add(data.reaction_torque[l][c]);
    }
    add(residual);
    add(kinetic);
    add(potential);
    row += '\n';
    if (!header_written) out << csv_header_line(columns);
    header_written = true;
    out << row;
    csv.check();
    poses.write(t, q);
  };

  const long intervals = output_intervals(s.duration, s.step);
  auto time_at = [&](long k) { return k == intervals ? s.duration : static_cast<double>(k) * s.step; };
  ProgressBar progress;
  long rows = 0;
  write_row(0.0);
  ++rows;
  for (long k = 1; k <= intervals; ++k) {
    const double t0 = time_at(k - 1), t1 = time_at(k), h = t1 - t0;
    if (inverse) {
      // Actuated coordinates: Simpson's rule (RK4 for a right-hand side of t only).
      if (by_velocity) {
        source.evaluate(t0, input);
        source.evaluate(0.5 * (t0 + t1), input_mid);
        source.evaluate(t1, input_end);
        for (Eigen::Index c = 0; c < na; ++c)
          q[model.joints[model.dof_body[actuated[c]]].q_index + (actuated[c] - model.joints[model.dof_body[actuated[c]]].v_index)] +=
              h / 6.0 * (input[c] + 4.0 * input_mid[c] + input_end[c]);
      } else {
        source.evaluate(t0, input);
        source.evaluate(0.5 * (t0 + t1), input_mid);
        source.evaluate(t1, input_end);
        for (Eigen::Index c = 0; c < na; ++c) {
          const int k_v = actuated[c];
          const Joint& joint = model.joints[model.dof_body[k_v]];
          q[joint.q_index + (k_v - joint.v_index)] += h * v[k_v] + h * h / 6.0 * (input[c] + 2.0 * input_mid[c]);
          v[k_v] += h / 6.0 * (input[c] + 4.0 * input_mid[c] + input_end[c]);
        }
      }
    } else {
      if (rk4) rk4->step(t0, h, q, v);
      else dopri5->advance(t0, t1, q, v);
      project_positions(model, data, q);  // drift control: back onto Φ = 0, J v = 0
      project_velocities(model, data, q, v);
    }
    if (k % s.every == 0 || k == intervals) {
      write_row(t1);
      ++rows;
    }
    progress.update(static_cast<double>(k) / static_cast<double>(intervals));
  }
  progress.finish();

  csv.commit();
  poses.commit();
  if (!csv.to_regular_file()) return;  // the summary only beside a file, never into a stream
  standard_output << "wrote " << rows << " rows (t = 0 .. " << s.duration << " s, closed-chain " << s.mode << " dynamics"
          << (inverse ? "" : ", " + s.integrator + " with projection") << ") to " << s.output << "\n";
}

}  // namespace mechdyn::cli
