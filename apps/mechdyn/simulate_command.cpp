// mechdyn simulate: forward dynamics under efforts tau(t), or inverse dynamics along
// prescribed accelerations a(t), integrated in time (RK4 or Dormand–Prince 5(4)),
// written as CSV: t, q, v, a, tau, joint reactions, kinetic and potential energy.
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

#include "closed_chain_simulation.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/friction_simulation.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "time_expressions.hpp"
#include "progress.hpp"

namespace mechdyn::cli {

namespace {

// Command-line values; each is used only when its option was given.
struct SimulateFlags {
  std::string model_path, scenario_path, mode, tau, accelerations, velocities, q0, v0, integrator, method, output;
  double duration = 0.0, step = 0.0, rtol = 0.0, atol = 0.0;
  long every = 1;
  bool joint_loads = false;  // --joint-loads: decomposition columns also without friction
  std::map<std::string, CLI::Option*> given;
  bool has(const char* name) const { return given.at(name)->count() > 0; }
};

// The resolved settings: defaults, then the scenario, then the flags.
struct Settings {
  std::string model_path;
  std::string mode = "forward";
  std::optional<std::vector<std::string>> tau, accelerations;  // expressions, one per velocity
  std::optional<std::vector<std::string>> velocities;          // closed chains, inverse: actuated velocities
  std::optional<std::string> q0, v0;                           // comma-separated numbers
  double duration = 1.0;
  double step = 1e-3;
  std::string integrator = "rk4";
  double rtol = 1e-8, atol = 1e-10;
  std::string method = "explicit";
  std::string output;  // empty: standard output
  long every = 1;
};

std::string scalar_list(const YAML::Node& node, const std::string& element) {
  if (node.IsScalar()) return node.Scalar();
  if (!node.IsSequence()) throw UsageError(element + ": expected a list or a comma-separated string");
  std::string joined;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (!node[i].IsScalar()) throw UsageError(element + "[" + std::to_string(i) + "]: expected a number or expression");
    joined += (i ? "," : "") + node[i].Scalar();
  }
  return joined;
}

std::vector<std::string> expression_list(const YAML::Node& node, const std::string& element) {
  if (node.IsScalar()) return split_expression_list(node.Scalar());
  if (!node.IsSequence()) throw UsageError(element + ": expected a list or a comma-separated string");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (!node[i].IsScalar()) throw UsageError(element + "[" + std::to_string(i) + "]: expected a number or expression");
    out.push_back(node[i].Scalar());
  }
  return out;
}

double scenario_number(const YAML::Node& node, const std::string& element) {
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) throw UsageError(element + ": '" + text + "' is not a finite number");
  return value;
}

void read_scenario(const std::string& path, Settings& s) {
  const std::string text = read_text_file(path);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError("scenario '" + path + "': " + e.what());
  }
  if (!root.IsMap()) throw UsageError("scenario '" + path + "': expected a mapping of keys");
  const std::string where = "scenario '" + path + "' ";
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    const YAML::Node& value = it->second;
    const std::string element = where + key;
    auto scalar = [&] {
      if (!value.IsScalar()) throw UsageError(element + ": expected a single value");
      return value.Scalar();
    };
    if (key == "model") {
      std::filesystem::path model = scalar();
      if (model.is_relative()) model = std::filesystem::path(path).parent_path() / model;
      s.model_path = model.string();
    } else if (key == "mode") s.mode = scalar();
    else if (key == "duration") s.duration = scenario_number(value, element);
    else if (key == "step") s.step = scenario_number(value, element);
    else if (key == "integrator") s.integrator = scalar();
    else if (key == "rtol") s.rtol = scenario_number(value, element);
    else if (key == "atol") s.atol = scenario_number(value, element);
    else if (key == "method") s.method = scalar();
    else if (key == "every") s.every = static_cast<long>(scenario_number(value, element));
    else if (key == "output") s.output = scalar();
    else if (key == "q0") s.q0 = scalar_list(value, element);
    else if (key == "v0") s.v0 = scalar_list(value, element);
    else if (key == "tau") s.tau = expression_list(value, element);
    else if (key == "accelerations") s.accelerations = expression_list(value, element);
    else if (key == "velocities") s.velocities = expression_list(value, element);
    else std::cerr << "mechdyn: warning: " << element << ": unknown key, ignored\n";
  }
}

Settings resolve(const SimulateFlags& f) {
  Settings s;
  if (f.has("--scenario")) read_scenario(f.scenario_path, s);
  if (f.has("MODEL")) s.model_path = f.model_path;
  if (f.has("--mode")) s.mode = f.mode;
  if (f.has("--tau")) s.tau = split_expression_list(f.tau);
  if (f.has("--accelerations")) s.accelerations = split_expression_list(f.accelerations);
  if (f.has("--velocities")) s.velocities = split_expression_list(f.velocities);
  if (f.has("--q0")) s.q0 = f.q0;
  if (f.has("--v0")) s.v0 = f.v0;
  if (f.has("--duration")) s.duration = f.duration;
  if (f.has("--step")) s.step = f.step;
  if (f.has("--integrator")) s.integrator = f.integrator;
  if (f.has("--rtol")) s.rtol = f.rtol;
  if (f.has("--atol")) s.atol = f.atol;
  if (f.has("--method")) s.method = f.method;
  if (f.has("--output")) s.output = f.output;
  if (f.has("--every")) s.every = f.every;

  if (s.model_path.empty()) throw UsageError("simulate: no model given (MODEL or the scenario's 'model' key)");
  if (s.mode != "forward" && s.mode != "inverse") throw UsageError("mode '" + s.mode + "' must be forward or inverse");
  if (s.integrator != "rk4" && s.integrator != "dopri5")
    throw UsageError("integrator '" + s.integrator + "' must be rk4 or dopri5");
  if (s.method != "explicit" && s.method != "recursive")
    throw UsageError("method '" + s.method + "' must be explicit or recursive");
  if (!(s.duration >= 0.0) || !std::isfinite(s.duration)) throw UsageError("duration must be a finite number >= 0");
  if (!(s.step > 0.0) || !std::isfinite(s.step)) throw UsageError("step must be a finite number > 0");
  if (!(s.rtol > 0.0) || !std::isfinite(s.rtol)) throw UsageError("rtol must be a finite number > 0");
  if (!(s.atol > 0.0) || !std::isfinite(s.atol)) throw UsageError("atol must be a finite number > 0");
  if (s.every < 1) throw UsageError("every must be an integer >= 1");
  if (s.duration / s.step > 1e9) throw UsageError("duration / step exceeds 1e9 output intervals");
  if (s.mode == "forward" && s.accelerations) throw UsageError("accelerations are for mode inverse (forward takes tau)");
  if (s.mode == "inverse" && s.tau) throw UsageError("tau is for mode forward (inverse takes accelerations)");
  if (s.mode == "forward" && s.velocities) throw UsageError("velocities are for mode inverse of a model with loops");
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
  columns.push_back("potential_energy_J");
  return columns;
}

std::string run_simulate(const SimulateFlags& flags) {
  const Settings s = resolve(flags);
  const Model model = load_model(s.model_path);
  require_rigid_bodies(model, s.model_path, "mechdyn simulate");  // flexible bodies: issue 11, second part
  if (!model.loops.empty()) {  // closed chains: closed_chain_simulation.cpp
    ClosedChainSettings c;
    c.mode = s.mode, c.tau = s.tau, c.velocities = s.velocities, c.accelerations = s.accelerations;
    c.q0 = s.q0, c.v0 = s.v0, c.duration = s.duration, c.step = s.step, c.rtol = s.rtol, c.atol = s.atol;
    c.integrator = s.integrator, c.output = s.output, c.every = s.every;
    return run_closed_chain_simulation(model, c);
  }
  if (s.velocities) throw UsageError("velocities are for models with loops (trees take accelerations)");
  // Joint friction (friction/*.hpp, docs/friction.md): forward mode solves the implicit
  // friction equation with stick–slip events; inverse mode adds τ_f (EC eq. 54). LuGre
  // bristle states z (one per velocity coordinate) are integrated with (q, v).
  const bool with_friction = has_joint_friction(model);
  const bool with_loads = with_friction || flags.joint_loads;
  const Eigen::Index nv = model.nv;
  VecX q = s.q0 ? parse_number_list(*s.q0, "q0", model.nq, "nq") : model.neutral_configuration();
  check_and_normalize_quaternions(model, q, "q0");
  VecX v = s.v0 ? parse_number_list(*s.v0, "v0", nv, "nv") : VecX::Zero(nv);
  const bool forward = s.mode == "forward";
  const bool recursive = s.method == "recursive";
  std::vector<std::string> source = forward ? s.tau.value_or(std::vector<std::string>())
                                            : s.accelerations.value_or(std::vector<std::string>());
  const char* source_name = forward ? "tau" : "accelerations";
  if (source.empty()) source.assign(static_cast<std::size_t>(nv), "0");
  if (static_cast<Eigen::Index>(source.size()) != nv)
    throw UsageError(std::string(source_name) + " has " + std::to_string(source.size()) +
                     " expressions, the model needs " + std::to_string(nv) + " (nv)");
  TimeExpressions expressions(source, source_name);

  // Right-hand side v̇ = a(t, q, v); its own Data, allocated once.
  Data dynamics_data(model);
  VecX effort = VecX::Zero(nv);
  AccelerationFunction acceleration;
  if (forward) {
    acceleration = [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                       Eigen::Ref<VecX> a) {
      if (!qq.allFinite() || !vv.allFinite()) throw SolverError("the state became non-finite at t = " + format_number(t) + " s");
      expressions.evaluate(t, effort);
      try {
        a = recursive ? aba(model, dynamics_data, qq, vv, effort)
                      : explicit_forward_dynamics(model, dynamics_data, qq, vv, effort);
      } catch (const SolverError& e) {
        throw SolverError(std::string(e.what()) + " at t = " + format_number(t) + " s");
      }
    };
  } else {
    acceleration = [&](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> a) {
      expressions.evaluate(t, a);
    };
  }
  std::unique_ptr<Rk4Integrator> rk4;
  std::unique_ptr<DormandPrinceIntegrator> dopri5;
  std::unique_ptr<FrictionSimulation> friction_simulation;
  VecX z = VecX::Zero(nv);  // LuGre bristle deflections (friction/friction_simulation.hpp)
  // Inverse mode with friction: x = (q, v, z), a prescribed, ż from the LuGre joints.
  ExtendedDerivativeFunction inverse_with_friction = [&](double t, const Eigen::Ref<const VecX>& qq,
                                                         const Eigen::Ref<const VecX>& vv,
                                                         const Eigen::Ref<const VecX>& zz, Eigen::Ref<VecX> a,
                                                         Eigen::Ref<VecX> z_rate) {
    expressions.evaluate(t, a);
    dynamics_data.friction_state = zz;
    inverse_dynamics_with_friction(model, dynamics_data, qq, vv, a, LuGreEvaluation::State);
    z_rate = dynamics_data.friction_state_rate;
  };
  if (with_friction) {
    FrictionSimulationOptions options;
    options.adaptive = s.integrator == "dopri5";
    options.step = s.step;
    options.dormand_prince.relative_tolerance = s.rtol;
    options.dormand_prince.absolute_tolerance = s.atol;
    options.dormand_prince.min_step = std::min(1e-12, 1e-6 * s.step);
    if (forward) {
      friction_simulation = std::make_unique<FrictionSimulation>(
          model, [&](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
            expressions.evaluate(t, out);
          }, options);
    } else if (options.adaptive) {
      DormandPrinceOptions dp = options.dormand_prince;
      dp.max_step = s.step;
      dopri5 = std::make_unique<DormandPrinceIntegrator>(model, inverse_with_friction, static_cast<int>(nv), dp);
    } else {
      rk4 = std::make_unique<Rk4Integrator>(model, inverse_with_friction, static_cast<int>(nv));
    }
  } else if (s.integrator == "rk4") {
    rk4 = std::make_unique<Rk4Integrator>(model, acceleration);
  } else {
    DormandPrinceOptions options;
    options.relative_tolerance = s.rtol;
    options.absolute_tolerance = s.atol;
    options.max_step = s.step;
    options.min_step = std::min(1e-12, 1e-6 * s.step);
    dopri5 = std::make_unique<DormandPrinceIntegrator>(model, acceleration, options);
  }

  CsvOutput csv(s.output);
  std::ostream& out = csv.stream();

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
  for (std::size_t i = 0; i < header.size(); ++i) out << (i ? "," : "") << header[i];
  out << "\n";

  Data row_data(model);
  VecX a = VecX::Zero(nv), tau = VecX::Zero(nv);
  std::string row;
  auto write_row = [&](double t) {
    if (forward) {
      expressions.evaluate(t, tau);
      a = recursive ? aba(model, row_data, q, v, tau) : explicit_forward_dynamics(model, row_data, q, v, tau);
    } else {
      expressions.evaluate(t, a);
      tau = recursive ? rnea(model, row_data, q, v, a) : explicit_inverse_dynamics(model, row_data, q, v, a);
    }
    if (with_friction) {  // a (forward) or tau (inverse) with joint friction
      row_data.friction_state = z;
      if (forward) a = forward_dynamics_with_friction(model, row_data, q, v, tau);
      else tau = inverse_dynamics_with_friction(model, row_data, q, v, a, LuGreEvaluation::State);
    }
    joint_reactions(model, row_data, q, v, a);
    const double kinetic = kinetic_energy(model, row_data, q, v);
    const double potential = potential_energy(model, row_data, q);
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
      for (int k = 0; k < 3; ++k) add(row_data.reaction_force[l][k]);
      for (int k = 0; k < 3; ++k) add(row_data.reaction_torque[l][k]);
    }
    add(kinetic);
    add(potential);
    if (with_loads) {
      joint_load_decomposition(model, row_data);  // from the reactions above
      for (int l = 0; l < model.num_bodies(); ++l) {
        add(row_data.constraint_torque[l]);
        add(row_data.constraint_force[l]);
        add(row_data.axial_load[l]);
        if (model.joints[l].friction && model.joints[l].friction->load) add(row_data.normal_load[l]);
      }
      if (with_friction) {
        for (Eigen::Index i = 0; i < nv; ++i) add(row_data.friction_effort[i]);
        for (const Joint& j : model.joints)
          if (j.friction && j.friction->model == FrictionModel::LuGre) add(z[j.v_index]);
      }
    }
    row += '\n';
    out << row;
  };

  const long intervals = s.duration == 0.0 ? 0 : std::max(1L, static_cast<long>(std::ceil(s.duration / s.step * (1.0 - 1e-12))));
  auto time_at = [&](long k) { return k == intervals ? s.duration : static_cast<double>(k) * s.step; };
  ProgressBar progress;
  long rows = 0;
  write_row(0.0);
  ++rows;
  for (long k = 1; k <= intervals; ++k) {
    const double t0 = time_at(k - 1), t1 = time_at(k);
    if (friction_simulation) friction_simulation->advance(t0, t1, q, v, z);
    else if (with_friction && rk4) rk4->step(t0, t1 - t0, q, v, z);
    else if (with_friction) dopri5->advance(t0, t1, q, v, z);
    else if (rk4) rk4->step(t0, t1 - t0, q, v);
    else dopri5->advance(t0, t1, q, v);
    if (k % s.every == 0 || k == intervals) {
      write_row(t1);
      ++rows;
    }
    progress.update(static_cast<double>(k) / static_cast<double>(intervals));
  }
  progress.finish();

  if (!csv.to_file()) return csv.commit();
  csv.commit();
  std::ostringstream summary;
  summary << "wrote " << rows << " rows (t = 0 .. " << s.duration << " s, " << s.mode << " dynamics, " << s.integrator
          << ") to " << s.output << "\n";
  return summary.str();
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
  g["--q0"] = sub->add_option("--q0", f->q0, "initial configuration, nq numbers (default neutral)");
  g["--v0"] = sub->add_option("--v0", f->v0, "initial velocities, nv numbers (default 0)");
  g["--duration"] = sub->add_option("--duration", f->duration, "simulated time in s (default 1)");
  g["--step"] = sub->add_option("--step", f->step, "output interval in s; the RK4 step; the largest DOPRI5 step (default 1e-3)");
  g["--integrator"] = sub->add_option("--integrator", f->integrator, "rk4 (default, fixed step) or dopri5 (adaptive)")->check(CLI::IsMember({"rk4", "dopri5"}));
  g["--rtol"] = sub->add_option("--rtol", f->rtol, "dopri5 relative tolerance (default 1e-8)");
  g["--atol"] = sub->add_option("--atol", f->atol, "dopri5 absolute tolerance (default 1e-10)");
  g["--method"] = sub->add_option("--method", f->method, "explicit (default) or recursive (ABA, RNEA)")->check(CLI::IsMember({"explicit", "recursive"}));
  g["--output"] = sub->add_option("--output", f->output, "CSV file to write (default: standard output)");
  g["--joint-loads"] = sub->add_flag("--joint-loads", f->joint_loads,
                                     "add the joint-load decomposition columns (always on with friction)");
  g["--every"] = sub->add_option("--every", f->every, "write every N-th output interval (default 1; the last time is always written)");
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
  sub->callback([f, &selected] { selected = [f] { return run_simulate(*f); }; });
}

}  // namespace mechdyn::cli
