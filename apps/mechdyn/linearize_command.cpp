// mechdyn linearize: the linear model ẋ = A x + B u, y = C x + D u of a rigid mechanism
// about (q, v, τ, t) (contract ../shared/spec/linearisation.md; analysis/linearize.hpp;
// docs/linearisation.md).
//
//   mechdyn linearize MODEL --q Q --v V [--tau TAU] [--t T] [--independent J,..]
//                     [--inputs NAMES] [--outputs NAMES] [--json]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/analysis/linearize.hpp"

namespace mechdyn::cli {

namespace {

struct LinearizeCliOptions {
  std::string model_path;
  std::optional<std::string> q, v, tau;
  double time = 0.0;
  std::string independent, inputs, outputs;
  std::string friction = "refuse";
  bool json = false;
};

void json_strings(JsonWriter& json, const std::vector<std::string>& names) {
  json.begin_array();
  for (const std::string& name : names) json.string(name);
  json.end_array();
}

void text_matrix(std::ostream& out, const char* title, const MatX& m, const std::vector<std::string>& rows,
                 const std::vector<std::string>& cols) {
  out << title << " (" << m.rows() << " x " << m.cols() << ")\n";
  if (m.rows() == 0 || m.cols() == 0) return;
  char cell[40];
  out << "  " << std::string(18, ' ');
  for (const std::string& c : cols) {
    std::snprintf(cell, sizeof cell, " %14.14s", c.c_str());
    out << cell;
  }
  out << "\n";
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    std::snprintf(cell, sizeof cell, "  %-18.18s", rows[static_cast<std::size_t>(r)].c_str());
    out << cell;
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      std::snprintf(cell, sizeof cell, " %14.6g", m(r, c));
      out << cell;
    }
    out << "\n";
  }
}

std::string run_linearize(const LinearizeCliOptions& o) {
  const Model model = load_model(o.model_path);
  const VecX defaults = model.initial_configuration.size() == model.nq ? model.initial_configuration
                                                                       : model.neutral_configuration();
  bool flexible = false;
  for (const Body& body : model.bodies) flexible = flexible || body.flexible.has_value();
  // nq numbers (joints, then elastic coordinates) for a model with flexible bodies
  VecX q = flexible ? (o.q ? parse_number_list(*o.q, "--q", model.nq, "nq") : defaults)
                    : parse_start_values(o.q, "--q", model, StartLevel::Configuration, defaults).values;
  check_and_normalize_quaternions(model, q, "--q");
  const VecX v = flexible ? (o.v ? parse_number_list(*o.v, "--v", model.nv, "nv") : VecX(VecX::Zero(model.nv)))
                          : parse_start_values(o.v, "--v", model, StartLevel::Velocity, VecX::Zero(model.nv)).values;
  if (!std::isfinite(o.time)) throw UsageError("--t: the time must be a finite number");
  LinearizeOptions options;
  options.time = o.time;
  if (o.tau) options.tau = parse_number_list(*o.tau, "--tau", model.nv, "nv");
  options.independent = split_names(o.independent);
  options.inputs = split_names(o.inputs);
  options.outputs = split_names(o.outputs);
  options.friction = o.friction == "viscous" ? FrictionTreatment::ViscousOnly : FrictionTreatment::Refuse;
  const LinearModel lm = linearize(model, q, v, options);
  // The contract assembles a --q whose loops do not close and completes the dependent rates:
  // say so, and by how much, when that changed what the user gave.
  if (lm.q.size() == q.size() && lm.v.size() == v.size()) {
    const double moved_q = (lm.q - q).cwiseAbs().maxCoeff(), moved_v = (lm.v - v).cwiseAbs().maxCoeff();
    if (moved_q > 1e-9)
      std::cerr << "mechdyn: warning: --q did not close the loops: the dependent coordinates were assembled (largest "
                   "change " << format_short(moved_q) << "; the operating point used is the JSON's q)\n";
    if (moved_v > 1e-9 * (1.0 + v.cwiseAbs().maxCoeff()))
      std::cerr << "mechdyn: warning: the dependent rates of --v were completed from the independent ones (largest "
                   "change " << format_short(moved_v) << "; the JSON's v is the one used)\n";
  }
  check_finite(lm.A, "A");
  check_finite(lm.B, "B");
  check_finite(lm.C, "C");
  check_finite(lm.D, "D");
  std::ostringstream out;
  if (o.json) {
    JsonWriter json(out);
    json.begin_object();
    json.key("state");
    json_strings(json, lm.state);
    json.key("inputs");
    json_strings(json, lm.inputs);
    json.key("outputs");
    json_strings(json, lm.outputs);
    json.key("A");
    json.matrix(lm.A);
    json.key("B");
    json.matrix(lm.B);
    json.key("C");
    json.matrix(lm.C);
    json.key("D");
    json.matrix(lm.D);
    // optional keys: the operating point (assembled) and the independent joints
    json.key("q");
    json.vector(lm.q);
    json.key("v");
    json.vector(lm.v);
    json.key("independent");
    json.begin_array();
    for (int j : lm.independent_joints) json.string(model.joints[static_cast<std::size_t>(j)].name);
    json.end_array();
    json.end_object();
    out << "\n";
    return out.str();
  }
  out << "linear model of '" << model.name << "' about q, v (t = " << o.time << " s): " << lm.state.size()
      << " states, " << lm.inputs.size() << " inputs, " << lm.outputs.size() << " outputs\n";
  text_matrix(out, "A", lm.A, lm.state, lm.state);
  text_matrix(out, "B", lm.B, lm.state, lm.inputs);
  text_matrix(out, "C", lm.C, lm.outputs, lm.state);
  text_matrix(out, "D", lm.D, lm.outputs, lm.inputs);
  return out.str();
}

}  // namespace

void add_linearize_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<LinearizeCliOptions>();
  CLI::App* sub = app.add_subcommand("linearize", "Linear state-space model A, B, C, D about a state.");
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md)")->required();
  sub->add_option("--q", o->q, "configuration: nq numbers or joint assignments (default initial_configuration or neutral)");
  sub->add_option("--v", o->v, "velocities: nv numbers or joint assignments (default 0)");
  sub->add_option("--tau", o->tau, "efforts at the operating point: nv numbers (default 0)");
  sub->add_option("--t", o->time, "time (s) of the servo targets and applied loads (default 0)");
  sub->add_option("--independent", o->independent, "closed chains: the independent joints, comma-separated (default: chosen)");
  sub->add_option("--inputs", o->inputs, "inputs, comma-separated: tau_<joint>[_k], target_<servo>, or none (default: tau_ of the actuated joints)");
  sub->add_option("--outputs", o->outputs,
                  "outputs, comma-separated: q_<joint>, dq_<joint>_<k>, v_<joint>[_k], <marker>, <marker>_velocity "
                  "(default: the state)");
  sub->add_option("--friction", o->friction,
                  "joint friction: refuse (default; Coulomb friction is not differentiable at rest) or viscous (keep "
                  "each friction block's viscous k_v as a joint damper, leave the rest out)")
      ->check(CLI::IsMember({"refuse", "viscous"}));
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/linearisation.md)");
  sub->footer(
      "Example:\n"
      "  mechdyn linearize examples/models/spring_pendulum.yaml --q 0.3,0.2 --v 0.5,-1 --json\n"
      "Exit status: 0 ok, 2 bad input, 3 a singular configuration or a failed assembly.");
  sub->callback([o, &selected] { selected = [o](std::ostream& out) { out << run_linearize(*o); }; });
}

}  // namespace mechdyn::cli
