// mechdyn simulate: forward dynamics under efforts tau(t), or inverse dynamics along
// prescribed accelerations a(t), integrated in time (RK4 or Dormand–Prince 5(4)),
// written as CSV: t, q, v, a, tau, joint reactions, kinetic and potential energy.
// A tree's runs are the library's (evaluation/simulate.hpp): simulate (forward, behind
// Python's simulate and sweeps) and simulate_inverse (inverse, behind Python's
// simulate_inverse), their rows written by an observer; models with loops:
// closed_chain_simulation.cpp (the library's evaluation/closed_chain_run.hpp); flexible
// bodies: flexible_simulation.cpp (evaluation/flexible_run.hpp).
// Options come from a scenario file (docs/cli.md) and command-line flags, flags winning.
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "body_poses.hpp"
#include "closed_chain_simulation.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "csv_output.hpp"
#include "flexible_simulation.hpp"
#include "scenario_file.hpp"
#include "force_element_columns.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "progress.hpp"

namespace mechdyn::cli {

namespace {

// Command-line values; each is used only when its option was given.
struct SimulateFlags {
  std::string model_path, scenario_path, mode, tau, accelerations, velocities, q0, v0, integrator, method, output, poses;
  std::string positions, motion_table, tau_table;
  bool no_rigid_reference = false;
  double duration = 0.0, step = 0.0, rtol = 0.0, atol = 0.0, max_wall_time = 0.0;
  long every = 1, max_steps = 0;
  bool joint_loads = false;  // --joint-loads: decomposition columns also without friction
  std::map<std::string, CLI::Option*> given;
  bool has(const char* name) const { return given.at(name)->count() > 0; }
};

Settings resolve(const SimulateFlags& f) {
  Settings s;
  if (f.has("--scenario")) read_scenario(f.scenario_path, s);
  if (f.has("MODEL")) s.model_path = f.model_path;
  if (f.has("--mode")) s.mode = f.mode;
  if (f.has("--tau")) s.tau = split_expression_list(f.tau);
  if (f.has("--accelerations")) s.accelerations = split_expression_list(f.accelerations);
  if (f.has("--velocities")) s.velocities = split_expression_list(f.velocities);
  if (f.has("--positions")) s.positions = split_expression_list(f.positions);
  if (f.has("--motion-table")) s.motion_table = f.motion_table;
  if (f.has("--tau-table")) s.tau_table = f.tau_table;
  if (f.has("--no-rigid-reference")) s.rigid_reference = false;
  if (f.has("--q0")) s.q0 = f.q0;
  if (f.has("--v0")) s.v0 = f.v0;
  if (f.has("--duration")) s.duration = f.duration;
  if (f.has("--step")) s.step = f.step;
  if (f.has("--integrator")) s.integrator = f.integrator;
  if (f.has("--rtol")) s.rtol = f.rtol, s.tolerances_given = true;
  if (f.has("--atol")) s.atol = f.atol, s.tolerances_given = true;
  if (f.has("--method")) s.method = f.method;
  if (f.has("--output")) s.output = f.output;
  if (f.has("--every")) s.every = f.every;
  if (f.has("--max-steps")) s.max_steps = f.max_steps;
  if (f.has("--max-wall-time")) s.max_wall_time = f.max_wall_time;

  check_settings(s);
  return s;
}

std::vector<std::string> csv_header(const Model& model) {
  std::vector<std::string> columns{"t_s"};
  const auto qlabels = configuration_labels(model);
  const auto vlabels = velocity_labels(model);
  for (const auto& l : qlabels) columns.push_back("q_" + l.name + (l.unit.empty() ? "" : "_" + l.unit));
  for (const auto& l : vlabels) columns.push_back("v_" + l.name + "_" + l.unit + "_per_s");
  for (const auto& l : vlabels) columns.push_back("a_" + l.name + "_" + l.unit + "_per_s2");
  for (const auto& l : vlabels) columns.push_back("tau_" + l.name + (l.unit == "rad" ? "_N_m" : "_N"));
  for (const Joint& j : model.joints) {
    for (const char* c : {"fx", "fy", "fz"}) columns.push_back("reaction_" + j.name + "_" + c + "_N");
    for (const char* c : {"tx", "ty", "tz"}) columns.push_back("reaction_" + j.name + "_" + c + "_N_m");
  }
  columns.push_back("kinetic_energy_J");
  columns.push_back("potential_energy_J");  // with the force elements' (force-elements.md)
  append_force_element_columns(model, columns);
  return columns;
}

void run_simulate(const SimulateFlags& flags, std::ostream& standard_output) {
  Settings s = resolve(flags);
  const Model model = load_model(s.model_path);
  const bool flexible = has_flexible_bodies(model);
  if (s.integrator == "auto") s.integrator = flexible ? "newmark" : "rk4";
  if (flexible) {  // flexible_simulation.cpp (docs/flexible-bodies.md "Time integration")
    if (!flags.poses.empty()) throw UsageError("--poses: not yet for models with flexible bodies");
    run_flexible_simulation(model, s, standard_output);
    return;
  }
  if (s.integrator == "newmark" || s.integrator == "hht")
    throw UsageError("integrator '" + s.integrator + "' is for models with flexible bodies (rigid: rk4 or dopri5)");
  if (s.integrator == "ali3p" && !model.has_constraints())
    throw UsageError("integrator 'ali3p' is for models with loops (trees: rk4 or dopri5)");
  if (s.positions || !s.motion_table.empty() || !s.tau_table.empty())
    throw UsageError("positions, motion_table and tau_table are for models with flexible bodies (rigid closed chains: "
                     "--mode inverse with velocities or accelerations; mechdyn invdyn)");
  const long intervals = output_intervals(s.duration, s.step);
  // One budget for the whole run (simulation/integration_budget.hpp).
  IntegrationBudget budget(s.max_steps.value_or(default_step_budget(intervals)), s.max_wall_time);
  if (model.has_constraints()) {  // closed chains: closed_chain_simulation.cpp
    ClosedChainSettings c;
    c.mode = s.mode, c.tau = s.tau, c.velocities = s.velocities, c.accelerations = s.accelerations;
    c.q0 = s.q0, c.v0 = s.v0, c.duration = s.duration, c.step = s.step, c.rtol = s.rtol, c.atol = s.atol;
    c.integrator = s.integrator, c.output = s.output, c.every = s.every, c.budget = &budget;
    c.ali3p_adaptive = s.integrator == "ali3p" && s.tolerances_given;
    c.poses = flags.poses;
    run_closed_chain_simulation(model, c, standard_output);
    return;
  }
  if (s.velocities) throw UsageError("velocities are for models with loops (trees take accelerations)");
  // Joint friction (friction/*.hpp, docs/friction.md): forward mode solves the implicit
  // friction equation with stick–slip events; inverse mode adds τ_f (EC eq. 54). LuGre
  // bristle states z (one per velocity coordinate) are integrated with (q, v).
  const bool with_friction = has_joint_friction(model);
  const bool with_loads = with_friction || flags.joint_loads;
  const Eigen::Index nv = model.nv;
  // --q0, --v0: the full list, or assignments by joint name over the defaults (common.hpp).
  VecX q = parse_start_values(s.q0, "q0", model, StartLevel::Configuration,
                              model.initial_configuration.size() > 0 ? model.initial_configuration
                                                                     : model.neutral_configuration())
               .values;
  // The library's runs normalise q0's quaternions themselves (the same division), so they
  // receive q0 as given, once the check here has refused a bad norm with the CLI's
  // message; normalising twice could move a component by an ulp.
  const VecX q_given = q;
  check_and_normalize_quaternions(model, q, "q0");
  VecX v = parse_start_values(s.v0, "v0", model, StartLevel::Velocity, VecX::Zero(nv)).values;
  const bool forward = s.mode == "forward";
  // --method auto: explicit while nv <= 16, recursive (ABA, RNEA: O(n) per step) above
  // (common.hpp, docs/cli.md "Which method").
  const bool recursive = resolve_method(s.method, model) == "recursive";
  std::vector<std::string> source = forward ? s.tau.value_or(std::vector<std::string>())
                                            : s.accelerations.value_or(std::vector<std::string>());
  const char* source_name = forward ? "tau" : "accelerations";
  if (source.empty()) source.assign(static_cast<std::size_t>(nv), "0");
  if (static_cast<Eigen::Index>(source.size()) != nv)
    throw UsageError(std::string(source_name) + " has " + std::to_string(source.size()) +
                     " expressions, the model needs " + std::to_string(nv) + " (nv)");
  TimeExpressions expressions(source, source_name);

  CsvOutput csv(s.output, standard_output);  // rows stream out as they are computed
  std::ostream& out = csv.stream();
  PoseOutput poses(model, flags.poses, standard_output);  // --poses (body_poses.hpp)

  std::vector<std::string> header = csv_header(model);
  if (with_loads) {  // docs/friction.md: the decomposition, normal loads, friction, LuGre states
    const auto vlabels = velocity_labels(model);
    for (const Joint& j : model.joints) {
      const bool prismatic = j.type == JointType::Prismatic;
      header.push_back("constraint_torque_" + j.name + "_N_m");
      header.push_back("constraint_force_" + j.name + "_N");
      header.push_back("axial_load_" + j.name + (prismatic ? "_N_m" : "_N"));
      if (j.friction && j.friction->load) header.push_back("normal_load_" + j.name + (prismatic ? "_N" : "_N_m"));
    }
    if (with_friction) {
      for (const auto& l : vlabels) header.push_back("friction_" + l.name + (l.unit == "rad" ? "_N_m" : "_N"));
      for (const Joint& j : model.joints)
        if (j.friction && j.friction->model == FrictionModel::LuGre) header.push_back("lugre_z_" + j.name);
    }
  }
  // The header goes out with the first row, once that row is computed: a bad input found
  // at t = 0 (an expression not finite there) leaves standard output empty.
  bool header_written = false;

  // One CSV row from the state, q̈ and τ at it, and the Data on which they were computed
  // (for the reactions, energies and joint loads; with friction it holds the friction
  // efforts of that computation).
  std::string row;
  long rows = 0;
  auto write_row = [&](double t, const VecX& q, const VecX& v, const VecX& a, const VecX& tau, const VecX& z,
                       Data& data) {
    joint_reactions(model, data, q, v, a);
    // The force elements' wrenches (data.external_wrench, left by the run's force_elements
    // at this row) in the reactions, and their potential energy.
    if (model.has_force_elements) apply_external_wrenches_to_reactions(model, data);
    const double kinetic = kinetic_energy(model, data, q, v);
    const double potential =
        potential_energy(model, data, q) + (model.has_force_elements ? force_element_potential_energy(data) : 0.0);
    row = format_number(t);
    auto add = [&](double x) {
      if (!std::isfinite(x)) {
        std::ostringstream message;
        message.precision(17);
        message << "a result became non-finite at t = " << t << " s";
        throw SolverError(message.str());
      }
      row += ',';
      row += format_number(x);
    };
    for (Eigen::Index i = 0; i < q.size(); ++i) add(q[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(v[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(a[i]);
    for (Eigen::Index i = 0; i < nv; ++i) add(tau[i]);
    for (int l = 0; l < model.num_bodies(); ++l) {
      for (int k = 0; k < 3; ++k) add(data.reaction_force[l][k]);
      for (int k = 0; k < 3; ++k) add(data.reaction_torque[l][k]);
    }
    add(kinetic);
    add(potential);
    add_force_element_values(model, data, add);
    if (with_loads) {
      joint_load_decomposition(model, data);  // from the reactions above
      for (int l = 0; l < model.num_bodies(); ++l) {
        add(data.constraint_torque[l]);
        add(data.constraint_force[l]);
        add(data.axial_load[l]);
        if (model.joints[l].friction && model.joints[l].friction->load) add(data.normal_load[l]);
      }
      if (with_friction) {
        for (Eigen::Index i = 0; i < nv; ++i) add(data.friction_effort[i]);
        for (const Joint& j : model.joints)
          if (j.friction && j.friction->model == FrictionModel::LuGre) add(z[j.v_index]);
      }
    }
    row += '\n';
    if (!header_written) out << csv_header_line(header);  // names quoted per RFC 4180 where needed
    header_written = true;
    out << row;
    csv.check();  // a full disk or a closed pipe stops the run here (status 3)
    poses.write(t, q);
    ++rows;
  };

  // The library's runs (evaluation/simulate.hpp), each output row to the observer with q̈
  // (forward) or τ (inverse) and the row's Data from its one dynamics pass. Forward:
  // explicit forward dynamics or ABA, or the friction equation with stick–slip events and
  // LuGre states. Inverse: the prescribed accelerations integrated from (q0, v0), the
  // efforts by inverse dynamics (with joint friction τ + τ_f, the LuGre states integrated
  // along). RK4 or DOPRI5.
  ProgressBar progress;
  SimulationOptions options;
  options.duration = s.duration;
  options.step = s.step;
  options.adaptive = s.integrator == "dopri5";
  options.relative_tolerance = s.rtol;
  options.absolute_tolerance = s.atol;
  options.method = recursive ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
  options.every = s.every;
  options.max_steps = s.max_steps.value_or(default_step_budget(intervals));
  options.max_wall_time = s.max_wall_time;
  options.progress = [&progress](double fraction) { progress.update(fraction); };
  const SimulationObserver observer = [&](SimulationRow& r) {
    write_row(r.time, r.q, r.v, r.a, r.tau, r.friction_state, r.data);
  };
  if (forward) {
    simulate(model, q_given, v,
             [&expressions](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> tau) {
               expressions.evaluate(t, tau);
             },
             options, observer);
  } else {
    simulate_inverse(model, q_given, v, [&expressions](double t, Eigen::Ref<VecX> a) { expressions.evaluate(t, a); },
                     options, observer);
  }
  progress.finish();

  csv.commit();
  poses.commit();
  if (!csv.to_regular_file()) return;  // the summary only beside a file, never into a stream
  standard_output << "wrote " << rows << " rows (t = 0 .. " << s.duration << " s, " << s.mode << " dynamics, "
                  << s.integrator << ", method " << describe_method(s.method, model) << ") to " << s.output << "\n";
}

}  // namespace

void add_simulate_command(CLI::App& app, CommandRunner& selected) {
  auto f = std::make_shared<SimulateFlags>();
  CLI::App* sub = app.add_subcommand(
      "simulate", "Forward dynamics under efforts tau(t), or inverse dynamics along accelerations a(t), as CSV.");
  auto& g = f->given;
  g["MODEL"] = sub->add_option("MODEL", f->model_path, "model file (optional with --scenario)");
  g["--scenario"] = sub->add_option("--scenario", f->scenario_path, "scenario YAML file (docs/cli.md); flags override its keys");
  g["--mode"] = sub->add_option("--mode", f->mode, "forward (default) or inverse")->check(CLI::IsMember({"forward", "inverse"}));
  g["--tau"] = sub->add_option("--tau", f->tau, "forward: nv efforts, numbers or muParser expressions of t, comma-separated (default 0)");
  g["--accelerations"] = sub->add_option("--accelerations", f->accelerations, "inverse: nv accelerations, numbers or expressions of t (default 0); with loops: one per actuated coordinate");
  g["--velocities"] = sub->add_option("--velocities", f->velocities, "inverse, models with loops: actuated-joint velocities, numbers or expressions of t");
  g["--positions"] = sub->add_option("--positions", f->positions, "inverse, models with flexible bodies: actuated positions q_a(t), one expression per actuated coordinate");
  g["--motion-table"] = sub->add_option("--motion-table", f->motion_table, "inverse, models with flexible bodies: CSV with t_s and q_<c>_, v_<c>_, a_<c>_ columns of the actuated coordinates (e.g. mechdyn invdyn's output)");
  g["--tau-table"] = sub->add_option("--tau-table", f->tau_table, "forward, models with flexible bodies: CSV with t_s and effort_<c>_ (or tau_<c>_) columns of the actuated coordinates, linear between rows");
  g["--no-rigid-reference"] = sub->add_flag("--no-rigid-reference", f->no_rigid_reference, "models with flexible bodies: do not run the rigid equivalent alongside (no deviation columns)");
  g["--q0"] = sub->add_option("--q0", f->q0, "initial configuration, nq numbers or joint=value entries (joint[k]=x, joint=(a;b)); with loops the named (else the actuated) coordinates are kept and the rest solved (flexible bodies: or the joints' only, elastic 0; default: the model's initial_configuration, else neutral)");
  g["--v0"] = sub->add_option("--v0", f->v0, "initial velocities, nv numbers or joint=value entries; with loops the named (else the actuated) rates are kept and the rest solved (flexible bodies: or the joints' only; default 0)");
  g["--duration"] = sub->add_option("--duration", f->duration, "simulated time in s (default 1)");
  g["--step"] = sub->add_option("--step", f->step, "output interval in s; the RK4 step; the largest DOPRI5 step (default 1e-3)");
  g["--integrator"] = sub->add_option("--integrator", f->integrator, "rk4 (default for rigid models, fixed step), dopri5 (adaptive); ali3p (models with loops: implicit augmented Lagrangian, stays on the branch through singular configurations, O(n) per step); newmark (default with flexible bodies) or hht (HHT-alpha -0.1)")->check(CLI::IsMember({"rk4", "dopri5", "ali3p", "newmark", "hht"}));
  g["--rtol"] = sub->add_option("--rtol", f->rtol, "dopri5 relative tolerance (default 1e-8); with ali3p: error control, steps of at most --step");
  g["--atol"] = sub->add_option("--atol", f->atol, "dopri5 absolute tolerance (default 1e-10); with ali3p: error control");
  g["--method"] = sub->add_option("--method", f->method,
                                  "auto (default: explicit while nv <= 16, else recursive), explicit, or recursive (ABA, RNEA)")
                      ->check(CLI::IsMember({"auto", "explicit", "recursive"}));
  g["--output"] = sub->add_option("--output", f->output, "CSV file to write (default: standard output)");
  g["--poses"] = sub->add_option("--poses", f->poses,
                                 "also write each body's world pose per output row to this CSV (docs/cli.md)");
  g["--joint-loads"] = sub->add_flag("--joint-loads", f->joint_loads,
                                     "add the joint-load decomposition columns (always on with friction)");
  g["--every"] = sub->add_option("--every", f->every, "write every N-th output interval (default 1; the last time is always written)");
  g["--max-steps"] = sub->add_option("--max-steps", f->max_steps,
                                     "integration step budget of the whole run (default 100000 + 1000 per output interval)");
  g["--max-wall-time"] = sub->add_option("--max-wall-time", f->max_wall_time,
                                         "wall-time budget of the whole run in s (default 0: none)");
  sub->footer(
      "Examples:\n"
      "  mechdyn simulate examples/models/five_axis_tree.yaml --tau 0,0,0,0,0 --duration 2 --step 0.001 --output free_fall.csv\n"
      "  mechdyn simulate examples/models/five_axis_tree.yaml --tau '2*sin(t),0,-1,0,0' --integrator dopri5 --rtol 1e-9\n"
      "  mechdyn simulate examples/models/five_axis_tree.yaml --mode inverse --accelerations 1,1,1,1,1 --every 10\n"
      "  mechdyn simulate --scenario examples/scenarios/five_axis_constant_accel.yaml --output run.csv\n"
      "CSV columns: t_s, q_*, v_*, a_*, tau_*, reaction_<joint>_{fx,fy,fz}_N, reaction_<joint>_{tx,ty,tz}_N_m,\n"
      "kinetic_energy_J, potential_energy_J (SI units in the names); with joint friction or --joint-loads also\n"
      "constraint_torque_<joint>, constraint_force_<joint>, axial_load_<joint>, normal_load_<joint> (with load),\n"
      "friction_<coordinate>, lugre_z_<joint> (docs/friction.md). Friction: forward mode locates stick-slip events.");
  sub->callback([f, &selected] { selected = [f](std::ostream& out) { run_simulate(*f, out); }; });
}

}  // namespace mechdyn::cli
