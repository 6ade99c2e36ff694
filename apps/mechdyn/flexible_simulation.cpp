// mechdyn simulate on models with flexible bodies (docs/flexible-bodies.md "Time
// integration", "Position-driven runs"), Newmark average acceleration or HHT-α with
// Baumgarte-stabilised cut joints (flexible/newmark.hpp). The run is the library's
// (evaluation/flexible_run.hpp, also behind Python's simulate_flexible); this layer reads
// the inputs (expressions, tables), writes the CSV rows and prints warnings and progress:
//  - mode forward: efforts τ(t) on the joints (`tau`: expressions, one per joint velocity;
//    or `tau_table`: a CSV of the actuated coordinates' efforts);
//  - mode inverse (position-driven): the actuated coordinates follow q_a(t) (`positions`:
//    expressions; or `motion_table`: a CSV with q_, v_, a_ columns), everything else —
//    passive joints and elastic coordinates — free; the efforts that make them follow are
//    the multipliers of q_a − q_a(t) = 0.
// The start is assembled (flexible/assembly.hpp: loops closed and J v = 0 by moving the
// passive joints only). Alongside runs the rigid equivalent (every beam rigid, its
// undeformed inertia) under the same inputs, for the markers' deviation from the rigid
// mechanism and its efforts (off with `rigid_reference: false`); when the reference's step
// fails (a rigid mechanism falling through a singular pose, say) it stops with one warning
// line and its columns stay empty from there — the flexible run goes on.
// One CSV row per output interval: t, q (joints, elastic), v, markers, deviations, efforts,
// the largest constraint violation, Newton iterations, kinetic, gravity and strain energy;
// with force elements their potential energy (element_energy_J) and one column per element
// and coupling (force_<name>_<unit>, coupling_<name>_<unit>: force_element_columns.hpp).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actuated_motion.hpp"
#include "common.hpp"
#include "csv_output.hpp"
#include "flexible_simulation.hpp"
#include "force_element_columns.hpp"
#include "mechdyn/evaluation/flexible_run.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "progress.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

namespace {

std::vector<std::string> elastic_names(const Model& model) {
  static const char* const components[6] = {"ux_m", "uy_m", "uz_m", "thx_rad", "thy_rad", "thz_rad"};
  std::vector<std::string> out;
  for (const Body& body : model.bodies) {
    if (!body.flexible) continue;
    for (int k = 0; k < body.flexible->num_elastic(); ++k) {
      if (body.flexible->modes > 0) out.push_back(body.name + "_m" + std::to_string(k + 1));
      else out.push_back(body.name + "_n" + std::to_string(k / 6 + 2) + "_" + components[k % 6]);
    }
  }
  return out;
}

VecX start_vector(const std::optional<std::string>& text, const char* option, Eigen::Index full, Eigen::Index joints,
                  const VecX& fallback) {
  if (!text) return fallback;
  const auto count = std::count(text->begin(), text->end(), ',') + 1;
  if (count == joints && joints != full) {  // the joints' part only: elastic coordinates zero
    VecX out = VecX::Zero(full);
    out.head(joints) = parse_number_list(*text, option, joints, "joint");
    return out;
  }
  return parse_number_list(*text, option, full, option[0] == 'q' ? "nq" : "nv");
}

}  // namespace

void run_flexible_simulation(const Model& model, const Settings& s, std::ostream& standard_output) {
  const bool driven = s.mode == "inverse";
  if (s.velocities || s.accelerations)
    throw UsageError(
        "simulate: models with flexible bodies take joint efforts (tau, tau_table) in mode forward, or the actuated "
        "positions (positions, motion_table) in mode inverse, not accelerations or velocities");
  if (driven && !s.positions && s.motion_table.empty())
    throw UsageError("simulate: mode inverse on a model with flexible bodies needs the actuated joints' motion: "
                     "positions (expressions of t) or motion_table (a CSV file)");
  if (s.integrator != "newmark" && s.integrator != "hht")
    throw UsageError("simulate: integrator '" + s.integrator + "' does not treat flexible bodies (newmark or hht)");
  const Eigen::Index nv = model.nv, joints = model.rigid_nv;
  const std::vector<int> actuated = actuated_velocities(model);
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
  const auto vlabels = velocity_labels(model);
  std::vector<std::string> actuated_names;
  for (int k : actuated) actuated_names.push_back(vlabels[static_cast<std::size_t>(k)].name);
  if (driven && na == 0) throw UsageError("simulate: mode inverse needs actuated joints; the model has none");

  // ---- inputs ----
  std::unique_ptr<TimeExpressions> expressions;
  std::unique_ptr<EffortTable> effort_table;
  std::unique_ptr<PrescribedSource> prescribed;
  if (s.tau) {
    if (static_cast<Eigen::Index>(s.tau->size()) != joints)
      throw UsageError("tau has " + std::to_string(s.tau->size()) + " expressions, the model needs " +
                       std::to_string(joints) + " (one per joint velocity; the elastic coordinates take none)");
    expressions = std::make_unique<TimeExpressions>(*s.tau, "tau");
  }
  if (!s.tau_table.empty()) effort_table = std::make_unique<EffortTable>(s.tau_table, actuated_names);
  if (s.positions) prescribed = std::make_unique<PrescribedPositions>(*s.positions, na, "positions");
  if (!s.motion_table.empty()) prescribed = std::make_unique<PrescribedTable>(s.motion_table, actuated_names);
  if (prescribed) prescribed->require_times(s.duration);  // before the first row is written
  if (effort_table) effort_table->require_times(s.duration);
  VecX table_efforts = VecX::Zero(na);
  // The joints' efforts at t (zeroed by the run): the expressions, plus the table's on the
  // actuated coordinates.
  auto efforts_at = [&](double t, Eigen::Ref<VecX> effort) {
    if (expressions) expressions->evaluate(t, effort);
    if (effort_table) {
      effort_table->sample(t, table_efforts);
      for (Eigen::Index p = 0; p < na; ++p) effort[actuated[static_cast<std::size_t>(p)]] += table_efforts[p];
    }
  };

  // ---- the run: the library's (evaluation/flexible_run.hpp) ----
  FlexibleRunOptions options;
  options.driven = driven;
  options.alpha = s.integrator == "hht" ? -0.1 : 0.0;
  options.duration = s.duration;
  options.step = s.step;
  options.every = s.every;
  options.rigid_reference = s.rigid_reference;
  options.warning = [](const std::string& line) { std::cerr << "mechdyn: warning: " << line << "\n"; };
  FlexibleInputs inputs;
  inputs.effort = efforts_at;
  if (driven) inputs.actuated_motion = [&prescribed](double t, PrescribedMotion& motion) { prescribed->sample(t, motion); };

  const VecX fallback = model.initial_configuration.size() > 0 ? model.initial_configuration
                                                               : model.neutral_configuration();
  VecX q = start_vector(s.q0, "q0", model.nq, model.rigid_nq, fallback);
  check_and_normalize_quaternions(model, q, "q0");
  const VecX v = start_vector(s.v0, "v0", nv, joints, VecX::Zero(nv));

  // ---- header ----
  std::vector<std::string> header{"t_s"};
  const auto qlabels = configuration_labels(model);
  const std::vector<std::string> elastic = elastic_names(model);
  for (const auto& l : qlabels) header.push_back("q_" + l.name + (l.unit.empty() ? "" : "_" + l.unit));
  for (const std::string& name : elastic) header.push_back("e_" + name);
  for (const auto& l : vlabels) header.push_back("v_" + l.name + "_" + l.unit + "_per_s");
  for (const std::string& name : elastic) header.push_back("edot_" + name + "_per_s");
  for (const Marker& marker : model.markers)
    for (const char* c : {"x", "y", "z"}) header.push_back("marker_" + marker.name + "_" + c + "_m");
  if (s.rigid_reference)  // flexible minus rigid, world frame
    for (const Marker& marker : model.markers)
      for (const char* c : {"x", "y", "z"}) header.push_back("deviation_" + marker.name + "_" + c + "_m");
  auto effort_unit = [&](int k) { return vlabels[static_cast<std::size_t>(k)].unit == "rad" ? "_N_m" : "_N"; };
  for (Eigen::Index p = 0; p < na; ++p)
    header.push_back("effort_" + actuated_names[static_cast<std::size_t>(p)] + effort_unit(actuated[static_cast<std::size_t>(p)]));
  if (s.rigid_reference && driven)
    for (Eigen::Index p = 0; p < na; ++p)
      header.push_back("rigid_effort_" + actuated_names[static_cast<std::size_t>(p)] +
                       effort_unit(actuated[static_cast<std::size_t>(p)]));
  // constraint_violation: the largest |Φ| row (m for positions, rad-like for directions)
  for (const char* name : {"constraint_violation", "newton_iterations", "kinetic_energy_J", "gravity_energy_J",
                           "strain_energy_J"})
    header.push_back(name);
  // Force elements and couplings (format 3): their columns as in the rigid runs, and the
  // elements' potential energy (docs/force-elements.md "Runs").
  const bool elements = !model.forces.empty();
  if (elements) header.push_back("element_energy_J");
  append_force_element_columns(model, header);

  // The output opens once the start is assembled and initialised (a start that fails
  // leaves no output).
  std::optional<CsvOutput> csv;
  options.started = [&] {
    csv.emplace(s.output, standard_output);
    csv->stream() << csv_header_line(header);
  };
  std::string row;
  auto write_row = [&](const FlexibleRow& r) {
    row = format_number(r.time);
    for (Eigen::Index i = 0; i < model.nq; ++i) row += "," + format_number(r.state.q[i]);
    for (Eigen::Index i = 0; i < nv; ++i) row += "," + format_number(r.state.v[i]);
    for (const Vec3& p : r.data.marker_position)
      for (int c = 0; c < 3; ++c) row += "," + format_number(p[c]);
    if (s.rigid_reference)
      for (std::size_t m = 0; m < model.markers.size(); ++m)
        for (int c = 0; c < 3; ++c)
          row += r.reference ? "," + format_number(r.data.marker_position[m][c] -
                                                   r.reference->data.marker_position[m][c])
                             : std::string(",");
    for (Eigen::Index p = 0; p < na; ++p) row += "," + format_number(r.actuated_effort[p]);
    if (s.rigid_reference && driven)
      for (Eigen::Index p = 0; p < na; ++p)
        row += r.reference ? "," + format_number(r.reference->actuated_effort[p]) : std::string(",");
    row += "," + format_number(r.constraint_violation) + "," + std::to_string(r.newton_iterations);
    row += "," + format_number(r.energy.kinetic) + "," + format_number(r.energy.gravity) + "," +
           format_number(r.energy.strain);
    if (elements) row += "," + format_number(r.energy.elements);
    for (Eigen::Index e = 0; e < r.data.element_value.size(); ++e) row += "," + format_number(r.data.element_value[e]);
    for (std::size_t c = 0; c < model.couplings.size(); ++c)  // λ of the coupling's row: its effort on b
      row += "," + format_number(r.state.multipliers[model.coupling_row_index + static_cast<Eigen::Index>(c)]);
    row += '\n';
    csv->stream() << row;
    csv->check();
  };

  ProgressBar progress;
  options.progress = [&progress](double fraction) { progress.update(fraction); };
  const FlexibleRunSummary summary = run_flexible(model, q, v, inputs, options, write_row);
  progress.finish();
  csv->commit();
  if (!csv->to_regular_file()) return;
  standard_output << "wrote " << summary.rows << " rows (t = 0 .. " << s.duration << " s, "
                  << (driven ? "position-driven" : "forward dynamics") << ", " << s.integrator
                  << (s.rigid_reference ? ", rigid reference alongside" : "") << ") to " << s.output << "\n";
}

}  // namespace mechdyn::cli
