// mechdyn simulate on models with flexible bodies: forward dynamics under joint efforts
// tau(t), Newmark average acceleration or HHT-α with Baumgarte-stabilised cut joints
// (flexible/newmark.hpp; docs/flexible-bodies.md "Time integration"), one CSV row per
// output interval: t, the joints' q and v, the elastic coordinates and velocities, every
// marker's world position, the largest constraint violation, the Newton iterations, and the
// kinetic, gravity and strain energy.
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "csv_output.hpp"
#include "flexible_simulation.hpp"
#include "mechdyn/flexible/newmark.hpp"
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

}  // namespace

void run_flexible_simulation(const Model& model, const Settings& s, std::ostream& standard_output) {
  if (s.mode != "forward")
    throw UsageError("simulate: models with flexible bodies run forward dynamics only (mode forward)");
  if (s.velocities || s.accelerations)
    throw UsageError("simulate: models with flexible bodies take joint efforts (tau), not accelerations or velocities");
  if (s.integrator != "newmark" && s.integrator != "hht")
    throw UsageError("simulate: integrator '" + s.integrator + "' does not treat flexible bodies (newmark or hht)");
  const Eigen::Index nv = model.nv, joints = model.rigid_nv;
  VecX q = s.q0                                    ? parse_number_list(*s.q0, "q0", model.nq, "nq")
           : model.initial_configuration.size() > 0 ? model.initial_configuration
                                                    : model.neutral_configuration();
  check_and_normalize_quaternions(model, q, "q0");
  const VecX v = s.v0 ? parse_number_list(*s.v0, "v0", nv, "nv") : VecX::Zero(nv);
  std::vector<std::string> source = s.tau.value_or(std::vector<std::string>());
  if (source.empty()) source.assign(static_cast<std::size_t>(joints), "0");
  if (static_cast<Eigen::Index>(source.size()) != joints)
    throw UsageError("tau has " + std::to_string(source.size()) + " expressions, the model needs " +
                     std::to_string(joints) + " (one per joint velocity; the elastic coordinates take none)");
  TimeExpressions expressions(source, "tau");

  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  NewmarkOptions options;
  if (s.integrator == "hht") options.alpha = -0.1;
  FlexibleNewmark newmark(model, system, options);
  NewmarkState state;
  state.q = q;
  state.v = v;
  VecX effort = VecX::Zero(nv);
  expressions.evaluate(0.0, effort.head(joints));
  newmark.initialize(data, state, effort);

  std::vector<std::string> header{"t_s"};
  const auto qlabels = configuration_labels(model);
  const auto vlabels = velocity_labels(model);
  const std::vector<std::string> elastic = elastic_names(model);
  for (const auto& l : qlabels) header.push_back("q_" + l.name + (l.unit.empty() ? "" : "_" + l.unit));
  for (const std::string& name : elastic) header.push_back("e_" + name);
  for (const auto& l : vlabels) header.push_back("v_" + l.name + "_" + l.unit + "_per_s");
  for (const std::string& name : elastic) header.push_back("edot_" + name + "_per_s");
  for (const Marker& marker : model.markers)
    for (const char* c : {"x", "y", "z"}) header.push_back("marker_" + marker.name + "_" + c + "_m");
  // constraint_violation: the largest |Φ| row (m for positions, rad-like for directions)
  for (const char* name : {"constraint_violation", "newton_iterations", "kinetic_energy_J", "gravity_energy_J",
                           "strain_energy_J"})
    header.push_back(name);

  CsvOutput csv(s.output, standard_output);
  std::ostream& out = csv.stream();
  out << csv_header_line(header);
  std::string row;
  auto write_row = [&]() {
    // The energies and markers at the state: kinematics with v, then M.
    flexible_kinematics(model, system, data, state.q, state.v);
    flexible_mass_matrix(model, system, data, state.q);
    const FlexibleEnergies energy = flexible_energies(model, system, data, state.q, state.v);
    double violation = 0.0;
    if (model.num_loop_rows > 0) {
      flexible_loop_closure(model, system, data, state.q, VecX());
      violation = data.loop_residual.cwiseAbs().maxCoeff();
    }
    check_finite(state.q, "the configuration at t = " + format_number(state.time) + " s");
    row = format_number(state.time);
    for (Eigen::Index i = 0; i < model.nq; ++i) row += "," + format_number(state.q[i]);
    for (Eigen::Index i = 0; i < nv; ++i) row += "," + format_number(state.v[i]);
    for (const Vec3& p : data.marker_position)
      for (int c = 0; c < 3; ++c) row += "," + format_number(p[c]);
    row += "," + format_number(violation) + "," + std::to_string(state.iterations);
    row += "," + format_number(energy.kinetic) + "," + format_number(energy.gravity) + "," + format_number(energy.strain);
    row += '\n';
    out << row;
    csv.check();
  };

  const long intervals = output_intervals(s.duration, s.step);
  ProgressBar progress;
  long rows = 1;
  write_row();
  for (long k = 1; k <= intervals; ++k) {
    const double t1 = k == intervals ? s.duration : static_cast<double>(k) * s.step;
    expressions.evaluate(t1, effort.head(joints));
    newmark.step(data, state, t1 - state.time, effort);
    state.time = t1;  // no drift of the output grid
    if (k % s.every == 0 || k == intervals) {
      write_row();
      ++rows;
    }
    progress.update(static_cast<double>(k) / static_cast<double>(intervals));
  }
  progress.finish();
  csv.commit();
  if (!csv.to_regular_file()) return;
  standard_output << "wrote " << rows << " rows (t = 0 .. " << s.duration << " s, forward dynamics, " << s.integrator
                  << ") to " << s.output << "\n";
}

}  // namespace mechdyn::cli
