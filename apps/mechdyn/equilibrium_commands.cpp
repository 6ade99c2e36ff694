// mechdyn static / mechdyn modes: static equilibrium and vibration modes of any mechanism
// (contracts ../shared/spec/linearisation.md and flexible-bodies.md).
//
//   mechdyn static MODEL [--q Q] [--tau TAU] [--t T] [--locked actuated|none] [--independent J,..] [--json]
//   mechdyn modes MODEL [--q Q] [--v V] [--tau TAU] [--t T] [--locked actuated|none] [--json]
//
// Both call analysis/mechanism_equilibrium.hpp: rigid models (trees, closed chains, force
// elements, couplings, armature) by coordinate partitioning with the analytical derivatives
// (docs/linearisation.md), models with flexible bodies through flexible/equilibrium.hpp
// (docs/flexible-bodies.md "Statics and modes"). --q: nq numbers (joints, then elastic coordinates) or joint
// assignments, default the model's initial_configuration or the neutral one.
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"
#include "mechdyn/flexible/equilibrium.hpp"

namespace mechdyn::cli {

namespace {

struct EquilibriumCliOptions {
  std::string model_path;
  std::optional<std::string> q, v, tau;
  double time = 0.0;
  bool json = false;
  std::string locked = "actuated";
  std::string independent;
  std::string friction = "refuse";
};

bool is_flexible(const Model& model) {
  for (const Body& body : model.bodies)
    if (body.flexible) return true;
  return false;
}

VecX start_configuration(const Model& model, const EquilibriumCliOptions& o) {
  const VecX defaults = model.initial_configuration.size() == model.nq ? model.initial_configuration
                                                                       : model.neutral_configuration();
  if (is_flexible(model)) {
    VecX q = o.q ? parse_number_list(*o.q, "--q", model.nq, "nq") : defaults;
    check_and_normalize_quaternions(model, q, "--q");
    return q;
  }
  VecX q = parse_start_values(o.q, "--q", model, StartLevel::Configuration, defaults).values;
  check_and_normalize_quaternions(model, q, "--q");
  return q;
}

EquilibriumOptions equilibrium_options(const Model& model, const EquilibriumCliOptions& o) {
  EquilibriumOptions options;
  options.time = o.time;
  if (!std::isfinite(o.time)) throw UsageError("--t: the time must be a finite number");
  if (o.tau) options.tau = parse_number_list(*o.tau, "--tau", model.nv, "nv");
  options.lock_actuated = o.locked == "actuated";
  options.independent = split_names(o.independent);
  options.friction = o.friction == "viscous" ? FrictionTreatment::ViscousOnly : FrictionTreatment::Refuse;
  return options;
}

void json_markers(JsonWriter& json, const Model& model, const std::vector<Vec3>& markers) {
  json.key("markers");
  json.begin_array();
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    json.begin_object();
    json.key("name");
    json.string(model.markers[m].name);
    json.key("position");
    json.vec3(markers[m]);
    json.end_object();
  }
  json.end_array();
}

void json_names(JsonWriter& json, const Model& model, const std::vector<int>& joints) {
  json.begin_array();
  for (int j : joints) json.string(model.joints[static_cast<std::size_t>(j)].name);
  json.end_array();
}

void text_configuration(std::ostream& out, const Model& model, const VecX& q, const std::vector<Vec3>& markers) {
  const std::vector<CoordinateLabel> joints = configuration_labels(model);
  const std::vector<std::string> elastic = elastic_coordinate_names(model);
  char line[200];
  out << "q\n";
  for (Eigen::Index i = 0; i < model.nq; ++i) {
    const std::string name = i < model.rigid_nq ? joints[static_cast<std::size_t>(i)].name
                                                : elastic[static_cast<std::size_t>(i - model.rigid_nq)];
    std::snprintf(line, sizeof line, "  %-24s%.9g\n", name.c_str(), q[i]);
    out << line;
  }
  if (!model.markers.empty()) out << "markers (world, m)\n";
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    const Vec3& p = markers[m];
    std::snprintf(line, sizeof line, "  %-24s%.9g %.9g %.9g\n", model.markers[m].name.c_str(), p.x(), p.y(), p.z());
    out << line;
  }
}

std::string run_static_any(const Model& model, const EquilibriumCliOptions& o) {
  const VecX q0 = start_configuration(model, o);
  const EquilibriumOptions options = equilibrium_options(model, o);
  const MechanismEquilibrium result = mechanism_equilibrium(model, q0, options);
  check_finite(result.q, "the equilibrium configuration");
  std::ostringstream out;
  if (o.json) {
    JsonWriter json(out);
    json.begin_object();
    json.key("q");
    json.vector(result.q);
    json_markers(json, model, result.markers);
    json.key("stable");
    json.boolean(result.stable);
    json.key("stiffness_eigenvalues");
    json.vector(result.stiffness_eigenvalues);
    json.key("free");
    json_names(json, model, result.free_joints);
    json.key("locked");
    json_names(json, model, result.locked_joints);
    json.key("held_efforts");
    json.vector(result.held_efforts);
    json.key("iterations");
    json.integer(result.iterations);
    json.end_object();
    out << "\n";
    return out.str();
  }
  out << "static equilibrium of '" << model.name << "' (" << result.iterations << " Newton iterations; actuated joints "
      << (options.lock_actuated ? "held" : "free") << "): " << (result.stable ? "stable" : "NOT stable")
      << " (smallest reduced stiffness eigenvalue "
      << (result.stiffness_eigenvalues.size() > 0 ? format_short(result.stiffness_eigenvalues[0]) : std::string("none"))
      << ")\n";
  text_configuration(out, model, result.q, result.markers);
  return out.str();
}

std::string run_static(const EquilibriumCliOptions& o) {
  const Model model = load_model(o.model_path);
  return run_static_any(model, o);
}

std::string run_modes_any(const Model& model, const EquilibriumCliOptions& o) {
  ModesOptions options;
  options.equilibrium = equilibrium_options(model, o);
  options.at_state = o.v.has_value();
  const VecX q0 = start_configuration(model, o);
  if (o.v) options.v = parse_start_values(o.v, "--v", model, StartLevel::Velocity, VecX::Zero(model.nv)).values;
  const MechanismModes result = mechanism_modes(model, q0, options);
  for (double f : result.frequencies) check_finite(f, "a natural frequency");
  for (const std::complex<double>& l : result.eigenvalues) check_finite(std::abs(l), "an eigenvalue");
  std::ostringstream out;
  if (o.json) {
    JsonWriter json(out);
    json.begin_object();
    json.key("frequencies");
    json.begin_array();
    for (double f : result.frequencies) json.number(f);
    json.end_array();
    json.key("zero_modes");
    json.integer(result.zero_modes);
    json.key("locked");
    json.begin_array();
    for (const std::string& name : result.locked) json.string(name);
    json.end_array();
    json.key("threshold");
    json.number(result.threshold);
    if (result.unstable_modes > 0) {
      json.key("unstable_modes");
      json.integer(result.unstable_modes);
    }
    if (result.damped_model) {
      json.key("damped");
      json.begin_array();
      for (const DampedMode& mode : result.damped) {
        json.begin_object();
        json.key("frequency");
        json.number(mode.frequency);
        json.key("damping_ratio");
        json.number(mode.damping_ratio);
        json.end_object();
      }
      json.end_array();
      json.key("eigenvalues");
      json.begin_array();
      for (const std::complex<double>& l : result.eigenvalues) {
        json.begin_array();
        json.number(l.real());
        json.number(l.imag());
        json.end_array();
      }
      json.end_array();
    }
    // optional keys: where, which coordinates, and the mode shapes
    json.key("q");
    json.vector(result.q);
    json.key("free");
    json_names(json, model, result.free_joints);
    json.key("shapes");
    json.begin_array();
    for (Eigen::Index k = 0; k < result.shapes.cols(); ++k) {
      json.begin_object();
      json.key("frequency");
      json.number(result.frequencies[static_cast<std::size_t>(k)]);
      json.key("v");
      json.vector(result.shapes.col(k));
      if (static_cast<std::size_t>(k) < result.marker_shapes.size()) {  // rigid models
        json.key("markers");
        json.begin_array();
        for (std::size_t m = 0; m < model.markers.size(); ++m) {
          json.begin_object();
          json.key("name");
          json.string(model.markers[m].name);
          json.key("displacement");
          json.vec3(result.marker_shapes[static_cast<std::size_t>(k)][m]);
          json.end_object();
        }
        json.end_array();
      }
      json.end_object();
    }
    json.end_array();
    json.end_object();
    out << "\n";
    return out.str();
  }
  out << "vibration modes of '" << model.name << "' about " << (options.at_state ? "the given state" : "its equilibrium")
      << " (actuated joints " << (options.equilibrium.lock_actuated ? "locked" : "free") << ")\n";
  out << "zero modes (|f| < " << result.threshold << " Hz): " << result.zero_modes << "\n";
  if (result.unstable_modes > 0) out << "unstable modes (negative stiffness): " << result.unstable_modes << "\n";
  char line[120];
  out << "undamped natural frequencies\n";
  for (std::size_t k = 0; k < result.frequencies.size(); ++k) {
    std::snprintf(line, sizeof line, "  %4zu  %.9g Hz\n", k + 1, result.frequencies[k]);
    out << line;
  }
  if (result.damped_model) {
    out << "damped modes (frequency, damping ratio)\n";
    for (std::size_t k = 0; k < result.damped.size(); ++k) {
      std::snprintf(line, sizeof line, "  %4zu  %.9g Hz  zeta = %.6g\n", k + 1, result.damped[k].frequency,
                    result.damped[k].damping_ratio);
      out << line;
    }
  }
  return out.str();
}

std::string run_modes(const EquilibriumCliOptions& o) {
  const Model model = load_model(o.model_path);
  return run_modes_any(model, o);
}

void add_common(CLI::App* sub, const std::shared_ptr<EquilibriumCliOptions>& o) {
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md; flexible bodies: format version 2)")
      ->required();
  sub->add_option("--q", o->q,
                  "start configuration: nq comma-separated numbers (joints, then elastic coordinates) or joint "
                  "assignments (joint=x, joint[k]=x); default initial_configuration or neutral; the actuated joints "
                  "are held at these values");
  sub->add_option("--tau", o->tau, "constant efforts: nv comma-separated numbers (default 0)");
  sub->add_option("--t", o->time, "time (s) of the servo targets and applied loads (default 0)");
  sub->add_option("--locked", o->locked, "actuated (default): actuated joints held; none: free")
      ->check(CLI::IsMember({"actuated", "none"}));
  sub->add_option("--independent", o->independent,
                  "rigid closed chains: the free independent joints, comma-separated (default: chosen, docs/linearisation.md)");
  sub->add_option("--friction", o->friction,
                  "joint friction: refuse (default; Coulomb friction is not differentiable at rest) or viscous (keep "
                  "each friction block's viscous k_v as a joint damper, leave the rest out)")
      ->check(CLI::IsMember({"refuse", "viscous"}));
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/linearisation.md)");
}

}  // namespace

void add_static_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<EquilibriumCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "static", "Static equilibrium under gravity, force elements and efforts (actuated joints held): q, markers, stable.");
  add_common(sub, o);
  sub->footer(
      "Example:\n"
      "  mechdyn static examples/models/flexible_arm.yaml --json\n"
      "Exit status: 0 ok, 2 bad input, 3 no equilibrium (e.g. an unheld free body under gravity).");
  sub->callback([o, &selected] { selected = [o](std::ostream& out) { out << run_static(*o); }; });
}

void add_modes_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<EquilibriumCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "modes", "Natural frequencies (Hz), damped modes and mode shapes about the equilibrium or a state; zero modes counted.");
  add_common(sub, o);
  sub->add_option("--v", o->v, "velocities: linearise about (--q, --v) as given instead of the equilibrium");
  sub->footer(
      "Example:\n"
      "  mechdyn modes examples/models/flexible_arm.yaml --locked none --json\n"
      "Exit status: 0 ok, 2 bad input, 3 no equilibrium or a failed eigenproblem.");
  sub->callback([o, &selected] { selected = [o](std::ostream& out) { out << run_modes(*o); }; });
}

}  // namespace mechdyn::cli
