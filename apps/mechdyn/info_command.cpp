// mechdyn info: the structure of a model (bodies, joints, coordinates, chains, loops).
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/mobility/mobility_analysis.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/model/data.hpp"
#include "mobility_report.hpp"

namespace mechdyn::cli {

namespace {

std::string vec3_text(const Vec3& x) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "[%g, %g, %g]", x.x(), x.y(), x.z());
  return buffer;
}

std::string range_text(int first, int count) {
  if (count == 0) return "-";
  if (count == 1) return std::to_string(first);
  return std::to_string(first) + ".." + std::to_string(first + count - 1);
}

std::string body_name(const Model& model, int body) { return body == kGround ? "ground" : model.bodies[body].name; }

// Rank, redundant rows and mobility of the closure Jacobian, Grübler–Kutzbach, actuation
// (mobility/mobility_analysis.hpp), at the configuration assembled from the model's initial
// configuration (or the neutral one) by Newton, Levenberg–Marquardt and perturbed restarts
// (constraints/assembly_recovery.hpp); at the guess itself when that fails.
std::string closure_analysis(const Model& model) {
  Data data(model);
  const VecX guess =
      model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
  const char* start = model.initial_configuration.size() > 0 ? "initial_configuration" : "q = 0";
  VecX q = guess;
  std::string where;
  try {
    AssemblyOptions options;
    options.check_singular = false;
    const RecoveredAssembly assembled = assemble_with_recovery(model, data, q, options);
    where = std::string("assembled from ") + start + " by " + assembled.method;
  } catch (const SolverError& e) {
    q = guess;
    where = std::string("at ") + start + ", not assembled: " + e.what();
  }
  MobilityOptions mobility_options;
  mobility_options.assemble = false;
  const std::optional<MobilityReport> report = analyze_mobility(model, q, mobility_options);
  // Which rows are redundant, by cut joint and row (not a count: issue 25).
  std::string redundant;
  for (const RedundantConstraint& row : report->redundant_rows)
    redundant += (redundant.empty() ? "" : ", ") + loop_row_name(model, row);
  std::ostringstream out;
  out << "  closure rows " << report->constraint_rows << ", rank " << report->rank << ", redundant rows "
      << (redundant.empty() ? "none" : std::to_string(report->redundant_rows.size()) + " (" + redundant + ")")
      << ", mobility " << report->dof << " (nv " << model.nv << " - rank; " << where << ")\n";
  out << "  actuated velocities " << report->actuated << ", passive " << model.nv - report->actuated << "\n";
  out << mobility_summary(model, *report);
  return out.str();
}

// One line per flexible body (flexible/flexible_beam.hpp).
std::string flexible_summary(const Model& model) {
  if (!has_flexible_bodies(model)) return "";
  std::ostringstream out;
  out << "\nflexible bodies (beams; elastic coordinates after the rigid ones)\n";
  for (const Body& b : model.bodies) {
    if (!b.flexible) continue;
    const FlexibleBeam& f = *b.flexible;
    char line[512];
    std::snprintf(line, sizeof line,
                  "  %s: length %g m along %s, %d elements, %d elastic coordinates%s, beam mass %g kg, "
                  "geometric stiffening %s\n",
                  b.name.c_str(), f.length, vec3_text(f.direction).c_str(), f.elements, f.num_elastic(),
                  f.modes > 0 ? " (modal)" : "", f.material.density * f.section.area * f.length,
                  f.geometric_stiffening ? "on" : "off");
    out << line;
  }
  return out.str();
}

void run_info(const std::string& model_path, std::ostream& stdout_stream) {
  const Model model = load_model(model_path);
  std::ostringstream out;
  out << "model      " << model.name << "\n";
  out << "nq         " << model.nq << "\n";
  out << "nv         " << model.nv << "\n";
  if (!model.has_constraints())  // the tree dynamics of eval and simulate (closed chains have their own)
    out << "method     " << describe_method("auto", model) << " in eval and simulate\n";
  out << "gravity    " << vec3_text(model.gravity) << " m/s^2\n";
  double total_mass = 0.0;
  for (const Body& b : model.bodies)  // a flexible body: its welded part and the beam
    total_mass += b.mass + (b.flexible ? b.flexible->material.density * b.flexible->section.area * b.flexible->length : 0.0);
  // Each mass is finite (the reader checks), but a sum of huge ones can overflow: refused
  // like every non-finite result (status 3), never printed as "inf kg".
  check_finite(total_mass, "the total mass of model '" + model.name + "'");
  char line[1024];
  std::snprintf(line, sizeof line, "total mass %g kg\n\n", total_mass);
  out << line;

  out << "bodies\n";
  std::snprintf(line, sizeof line, "  %-3s %-14s %-14s %-14s %-10s %-6s %-6s %-9s %-26s %s\n", "#", "body", "parent",
                "joint", "type", "q", "v", "mass/kg", "com/m", "subtree");
  out << line;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Body& b = model.bodies[l];
    const Joint& j = model.joints[l];
    // The subtree's names, cut after ~160 characters with the count (a chain's first body
    // has every body below it: listing them all would make info O(n²) in a chain).
    std::string subtree;
    for (int s : model.subtree[l]) {
      if (subtree.size() > 160) {
        subtree += ",... (" + std::to_string(model.subtree[l].size()) + " bodies)";
        break;
      }
      subtree += (subtree.empty() ? "" : ",") + model.bodies[s].name;
    }
    std::snprintf(line, sizeof line, "  %-3d %-14s %-14s %-14s %-10s %-6s %-6s %-9g %-26s %s\n", l, b.name.c_str(),
                  body_name(model, b.parent).c_str(), j.name.c_str(), joint_type_name(j.type),
                  range_text(j.q_index, j.nq).c_str(), range_text(j.v_index, j.nv).c_str(), b.mass,
                  vec3_text(b.com).c_str(), subtree.c_str());
    out << line;
  }

  out << "\nchains (ground -> leaf)\n";
  for (int l = 0; l < model.num_bodies(); ++l) {
    if (!model.children[l].empty()) continue;
    std::vector<int> path;  // leaf to root; printed root first (O(depth), no string prepending)
    for (int b = l; b != kGround; b = model.bodies[b].parent) path.push_back(b);
    out << "  ground";
    for (auto b = path.rbegin(); b != path.rend(); ++b) out << " -> " << model.bodies[*b].name;
    out << "\n";
  }

  out << "\nloops";
  if (!model.has_constraints()) out << " (none)\n";
  else out << "\n";
  for (const Loop& loop : model.loops) {
    out << "  " << loop.name << ": " << loop_type_name(loop.type) << " cut joint, " << body_name(model, loop.a.body)
        << " " << vec3_text(loop.a.point) << " to " << body_name(model, loop.b.body) << " "
        << vec3_text(loop.b.point) << " (" << loop_rows(loop.type) << " rows from "
        << model.loop_row_index[static_cast<std::size_t>(&loop - model.loops.data())] << ":";
    const CutJointFacts& facts = cut_joint_facts(loop.type);  // the kind's row labels
    for (int r = 0; r < facts.rows; ++r) out << " " << facts.row_labels[r];
    out << ")\n";
  }
  for (const Coupling& c : model.couplings)
    out << "  " << c.name << ": gear coupling " << model.joints[static_cast<std::size_t>(c.b)].name << " = " << c.ratio
        << " " << model.joints[static_cast<std::size_t>(c.a)].name << " + " << c.offset << " (1 row from "
        << model.coupling_row_index + (&c - model.couplings.data()) << ")\n";
  if (!model.forces.empty()) {
    out << "\nforce elements\n";
    for (const ForceElement& e : model.forces) out << "  " << e.name << ": " << force_element_type_name(e.type) << "\n";
  }
  if (model.has_constraints() && !has_flexible_bodies(model)) out << closure_analysis(model);
  if (model.has_constraints() && has_flexible_bodies(model))
    out << "  closure analysis: not yet for models with flexible bodies\n";
  out << flexible_summary(model);
  out << "\nmarkers";
  if (model.markers.empty()) out << " (none)\n";
  else out << "\n";
  for (const Marker& marker : model.markers)
    out << "  " << marker.name << ": " << body_name(model, marker.at.body) << " " << vec3_text(marker.at.point) << "\n";
  stdout_stream << out.str();
}

}  // namespace

void add_info_command(CLI::App& app, CommandRunner& selected) {
  auto path = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("info", "The structure of a model: bodies, joints, coordinates, chains, loops.");
  sub->add_option("MODEL", *path, "model file (YAML, model-format.md)")->required();
  sub->footer(
      "Examples:\n"
      "  mechdyn info examples/models/five_axis_tree.yaml\n"
      "Reader warnings (unknown keys) go to standard error.");
  sub->callback([path, &selected] { selected = [path](std::ostream& out) { run_info(*path, out); }; });
}

}  // namespace mechdyn::cli
