// mechdyn static / mechdyn modes: static equilibrium under gravity and natural frequencies
// of a mechanism with rigid and flexible bodies (contract ../shared/spec/flexible-bodies.md;
// docs/flexible-bodies.md "Statics and modes"). Both work on rigid models too.
//
//   mechdyn static MODEL [--q Q] [--json]
//   mechdyn modes MODEL [--q Q] [--locked actuated|none] [--json]
//
// --q: nq numbers (joints, then elastic coordinates), default the model's
// initial_configuration or the neutral one; the actuated joints are held at their values.
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/flexible/equilibrium.hpp"

namespace mechdyn::cli {

namespace {

// The equilibrium and modes here (flexible/equilibrium.hpp) do not read force elements,
// couplings or armature yet (issue 27): refused, never answered without them.
void refuse_force_elements(const Model& model, const std::string& path) {
  if (!model.forces.empty() || !model.couplings.empty() || model.has_armature)
    throw UsageError(path + ": force elements, couplings and armature (format 3) are not yet part of static and "
                            "modes (docs/force-elements.md); remove them or use eval/simulate");
}

struct FlexibleOptions {
  std::string model_path;
  std::string q;
  bool has_q = false;
  bool json = false;
  std::string locked = "actuated";
};

VecX start_configuration(const Model& model, const FlexibleOptions& o) {
  VecX q = o.has_q ? parse_number_list(o.q, "--q", model.nq, "nq")
                   : (model.initial_configuration.size() == model.nq ? model.initial_configuration
                                                                     : model.neutral_configuration());
  check_and_normalize_quaternions(model, q, "--q");
  return q;
}

// "link2_n3_uy": body, node (2 … n+1) and component of each elastic coordinate; "link2_m1" modal.
std::vector<std::string> elastic_labels(const Model& model) {
  static const char* const components[6] = {"ux", "uy", "uz", "thx", "thy", "thz"};
  std::vector<std::string> out;
  for (const Body& body : model.bodies) {
    if (!body.flexible) continue;
    const int ne = body.flexible->num_elastic();
    for (int k = 0; k < ne; ++k) {
      if (body.flexible->modes > 0) out.push_back(body.name + "_m" + std::to_string(k + 1));
      else out.push_back(body.name + "_n" + std::to_string(k / 6 + 2) + "_" + components[k % 6]);
    }
  }
  return out;
}

std::string run_static(const FlexibleOptions& o) {
  const Model model = load_model(o.model_path);
  refuse_force_elements(model, o.model_path);
  const VecX q0 = start_configuration(model, o);
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const StaticResult result = static_equilibrium(model, system, data, q0, actuated_velocities(model));
  check_finite(result.q, "the equilibrium configuration");
  std::ostringstream out;
  if (o.json) {
    JsonWriter json(out);
    json.begin_object();
    json.key("q");
    json.vector(result.q);
    json.key("markers");
    json.begin_array();
    for (std::size_t m = 0; m < model.markers.size(); ++m) {
      json.begin_object();
      json.key("name");
      json.string(model.markers[m].name);
      json.key("position");
      json.vec3(result.markers[m]);
      json.end_object();
    }
    json.end_array();
    json.end_object();
    out << "\n";
    return out.str();
  }
  const std::vector<CoordinateLabel> joints = configuration_labels(model);
  const std::vector<std::string> elastic = elastic_labels(model);
  char line[200];
  out << "static equilibrium of '" << model.name << "' under gravity (" << result.iterations
      << " Newton iterations; actuated joints held)\n";
  out << "q\n";
  for (Eigen::Index i = 0; i < model.nq; ++i) {
    const std::string name = i < model.rigid_nq ? joints[static_cast<std::size_t>(i)].name
                                                : elastic[static_cast<std::size_t>(i - model.rigid_nq)];
    std::snprintf(line, sizeof line, "  %-24s%.9g\n", name.c_str(), result.q[i]);
    out << line;
  }
  if (!model.markers.empty()) out << "markers (world, m)\n";
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    const Vec3& p = result.markers[m];
    std::snprintf(line, sizeof line, "  %-24s%.9g %.9g %.9g\n", model.markers[m].name.c_str(), p.x(), p.y(), p.z());
    out << line;
  }
  return out.str();
}

std::string run_modes(const FlexibleOptions& o) {
  const Model model = load_model(o.model_path);
  refuse_force_elements(model, o.model_path);
  const VecX q0 = start_configuration(model, o);
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const ModesResult result = natural_frequencies(model, system, data, q0, o.locked == "actuated");
  for (double f : result.frequencies) check_finite(f, "a natural frequency");
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
    if (result.unstable_modes > 0) {  // an extension of the contract (optional key)
      json.key("unstable_modes");
      json.integer(result.unstable_modes);
    }
    json.end_object();
    out << "\n";
    return out.str();
  }
  out << "natural frequencies of '" << model.name << "' about its static equilibrium (actuated joints "
      << (o.locked == "actuated" ? "locked" : "free") << ")\n";
  out << "zero modes (|f| < " << result.threshold << " Hz): " << result.zero_modes << "\n";
  if (result.unstable_modes > 0) out << "unstable modes (negative stiffness): " << result.unstable_modes << "\n";
  char line[80];
  for (std::size_t k = 0; k < result.frequencies.size(); ++k) {
    std::snprintf(line, sizeof line, "  %4zu  %.9g Hz\n", k + 1, result.frequencies[k]);
    out << line;
  }
  return out.str();
}

void add_common(CLI::App* sub, const std::shared_ptr<FlexibleOptions>& o) {
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md; flexible bodies: format version 2)")
      ->required();
  sub->add_option("--q", o->q,
                  "configuration: nq comma-separated numbers, joints then elastic coordinates (default: "
                  "initial_configuration or neutral); the actuated joints are held at these values");
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/flexible-bodies.md)");
}

}  // namespace

void add_static_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<FlexibleOptions>();
  CLI::App* sub = app.add_subcommand("static", "Static equilibrium under gravity (actuated joints held): q and markers.");
  add_common(sub, o);
  sub->footer(
      "Example:\n"
      "  mechdyn static examples/models/flexible_arm.yaml --json\n"
      "Exit status: 0 ok, 2 bad input, 3 no equilibrium (e.g. an unheld free body under gravity).");
  sub->callback([o, sub, &selected] {
    o->has_q = sub->get_option("--q")->count() > 0;
    selected = [o](std::ostream& out) { out << run_static(*o); };
  });
}

void add_modes_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<FlexibleOptions>();
  CLI::App* sub = app.add_subcommand(
      "modes", "Natural frequencies (Hz) about the static equilibrium, constraints eliminated; zero modes counted.");
  add_common(sub, o);
  sub->add_option("--locked", o->locked, "actuated (default): actuated joints locked; none: free")
      ->check(CLI::IsMember({"actuated", "none"}));
  sub->footer(
      "Example:\n"
      "  mechdyn modes examples/models/flexible_arm.yaml --locked none --json\n"
      "Exit status: 0 ok, 2 bad input, 3 no equilibrium or a failed eigenproblem.");
  sub->callback([o, sub, &selected] {
    o->has_q = sub->get_option("--q")->count() > 0;
    selected = [o](std::ostream& out) { out << run_modes(*o); };
  });
}

}  // namespace mechdyn::cli
