// Text and JSON forms of a mobility analysis. See mobility_report.hpp.
#include "mobility_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "mechdyn/screw/screw_description.hpp"

namespace mechdyn::cli {

namespace {
void write_string(const std::string& s, std::string& out) {
  // nlohmann's own escaping of one string value.
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_value(const Json& value, std::string& out) {
  switch (value.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        write_string(it.key(), out);
        out += ':';
        write_value(it.value(), out);
      }
      out += '}';
      return;
    }
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += ',';
        first = false;
        write_value(item, out);
      }
      out += ']';
      return;
    }
    case Json::value_t::number_float: {
      const double x = value.get<double>();
      if (!std::isfinite(x)) throw SolverError("a result is not finite; nothing printed");
      out += format_number(x);
      return;
    }
    default:
      out += value.dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
  }
}
}  // namespace

std::string write_json(const Json& value) {
  std::string out;
  write_value(value, out);
  return out;
}

namespace {

Json screws_json(const ScrewBasis& basis) {
  Json out = Json::array();
  for (Eigen::Index k = 0; k < basis.cols(); ++k) {
    Json screw = Json::array();
    for (int i = 0; i < 6; ++i) screw.push_back(basis(i, k));
    out.push_back(screw);
  }
  return out;
}

std::string screw_text(const Vec6& x) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "[%.6g, %.6g, %.6g,  %.6g, %.6g, %.6g]", x[0], x[1], x[2], x[3], x[4], x[5]);
  return buffer;
}

void screws_text(std::ostringstream& out, const ScrewBasis& basis, bool twists, double length) {
  for (Eigen::Index k = 0; k < basis.cols(); ++k) {
    const Vec6 x = basis.col(k);
    out << "    " << screw_text(x) << "  "
        << (twists ? describe_twist(Twist(x), length) : describe_wrench(Wrench(x), length)) << "\n";
  }
}

}  // namespace

Json mobility_json(const Model& model, const MobilityReport& r) {
  Json out = Json::object();
  out["dof"] = r.dof;
  out["constraint_rows"] = r.constraint_rows;
  out["rank"] = r.rank;
  out["redundant_constraints"] = r.redundant_constraints;
  out["actuated"] = r.actuated;
  out["redundant_actuation"] = r.redundant_actuation;
  out["singular_actuation"] = r.singular_actuation;
  if (r.body) {
    Json body = Json::object();
    body["name"] = model.bodies[r.body->body].name;
    body["twists"] = screws_json(r.body->twists);
    body["constraint_wrenches"] = screws_json(r.body->constraint_wrenches);
    body["locked_twists"] = screws_json(r.body->locked_twists);
    out["body"] = body;
  }
  // ---- optional keys (docs/parallel-manipulators.md) ----
  out["nv"] = r.nv;
  out["bodies"] = r.bodies;
  out["moving_bodies"] = r.moving_bodies;
  out["joints"] = r.joints;
  out["gruebler_kutzbach"] = r.gruebler_kutzbach;
  out["idle_freedoms"] = r.idle_freedoms;
  out["locked_rank"] = r.locked_rank;
  out["locked_mobility"] = r.locked_mobility;
  out["locked_idle_freedoms"] = r.locked_idle_freedoms;
  Json rows = Json::array();
  for (const RedundantConstraint& row : r.redundant_rows) {
    Json entry = Json::object();
    entry["row"] = row.row;
    entry["loop"] = model.constraint_name(row.loop);
    entry["loop_row"] = row.loop_row;
    entry["wrench"] = screws_json(ScrewBasis(row.wrench.plucker))[0];
    entry["description"] = describe_wrench(row.wrench, r.scale.length);
    rows.push_back(entry);
  }
  out["redundant_rows"] = rows;
  if (r.body) {
    Json limbs = Json::array();
    for (const LimbConstraints& limb : r.limbs) {
      Json entry = Json::object();
      entry["joints"] = limb.joint_names;
      entry["serial"] = limb.serial;
      entry["freedoms"] = limb.freedoms;
      if (limb.serial) {
        entry["twist_rank"] = limb.twist_rank;
        entry["constraint_wrenches"] = screws_json(limb.constraint_wrenches);
      }
      limbs.push_back(entry);
    }
    out["limbs"] = limbs;
  }
  Json q = Json::array();
  for (Eigen::Index i = 0; i < r.q.size(); ++i) q.push_back(r.q[i]);
  out["q"] = q;
  out["closure_residual"] = r.closure_residual;
  out["assembly_iterations"] = r.assembly_iterations;
  out["tolerance"] = r.tolerance;
  out["characteristic_length_m"] = r.scale.length;
  out["reference_point_m"] =
      Json::array({r.scale.reference_point.x(), r.scale.reference_point.y(), r.scale.reference_point.z()});
  return out;
}

std::string loop_row_name(const Model& model, const RedundantConstraint& row) {
  return model.constraint_name(row.loop) + " row " + std::to_string(row.loop_row);
}

std::string mobility_summary(const Model& model, const MobilityReport& r) {
  std::ostringstream out;
  const int cut_freedoms = r.gruebler_kutzbach - 6 * (r.bodies - r.joints);
  out << "  Grubler-Kutzbach " << r.gruebler_kutzbach << " = 6 (" << r.bodies << " bodies - " << r.joints
      << " joints) + " << cut_freedoms << " joint freedoms; dof - GK = " << r.dof - r.gruebler_kutzbach
      << " redundant constraint" << (r.redundant_constraints == 1 ? "" : "s");
  if (r.redundant_rows.empty()) {
    out << "\n";
  } else {
    out << ":\n";
    for (const RedundantConstraint& row : r.redundant_rows)
      out << "    " << loop_row_name(model, row) << ": " << describe_wrench(row.wrench, r.scale.length) << "\n";
  }
  if (r.idle_freedoms > 0)
    out << "  idle freedoms " << r.idle_freedoms << " (motions that move no joint, e.g. an S-S link spinning)\n";
  out << "  actuated joints locked: rank " << r.locked_rank << ", mobility " << r.locked_mobility;
  if (r.locked_idle_freedoms > 0) out << " (" << r.locked_idle_freedoms << " idle)";
  out << "; redundant actuation " << r.redundant_actuation << "; singular actuation "
      << (r.singular_actuation ? "yes: the actuators cannot control the mechanism at this configuration" : "no")
      << "\n";
  return out.str();
}

std::string mobility_text(const Model& model, const MobilityReport& r, const std::string& where) {
  std::ostringstream out;
  char line[256];
  out << "mobility of " << model.name << " " << where << "\n";
  std::snprintf(line, sizeof line, "  closure residual %.3g after %d Newton iterations\n", r.closure_residual,
                r.assembly_iterations);
  out << line;
  out << "  bodies " << r.bodies << " (" << r.moving_bodies << " moving), joints " << r.joints << " ("
      << model.num_bodies() << " tree + " << model.loops.size() << " cut), nv " << r.nv << "\n";
  out << "  closure rows " << r.constraint_rows << ", rank " << r.rank << ", redundant rows " << r.redundant_rows.size();
  for (std::size_t k = 0; k < r.redundant_rows.size(); ++k)
    out << (k == 0 ? " (" : ", ") << loop_row_name(model, r.redundant_rows[k]) << (k + 1 == r.redundant_rows.size() ? ")" : "");
  out << "\n";
  out << "  degrees of freedom " << r.dof << " (nv - rank)";
  if (r.idle_freedoms > 0) out << ", " << r.idle_freedoms << " of them idle";
  out << "\n  actuated velocities " << r.actuated << ", passive " << r.nv - r.actuated << "\n";
  out << mobility_summary(model, r);
  std::snprintf(line, sizeof line,
                "  rank decisions: singular values > %.3g x max(sigma_max, 1) of the dimensionless closure Jacobian "
                "(L = %.6g m about [%.6g, %.6g, %.6g])\n",
                r.tolerance, r.scale.length, r.scale.reference_point.x(), r.scale.reference_point.y(),
                r.scale.reference_point.z());
  out << line;
  if (r.body) {
    const double length = r.scale.length;
    out << "\nbody " << model.bodies[r.body->body].name
        << " (screws (w; v) and (f; m), world frame, about the world origin)\n";
    out << "  twists (" << r.body->twists.cols() << ")\n";
    screws_text(out, r.body->twists, true, length);
    out << "  constraint wrenches (" << r.body->constraint_wrenches.cols() << ")\n";
    screws_text(out, r.body->constraint_wrenches, false, length);
    out << "  twists with the actuated joints locked (" << r.body->locked_twists.cols() << ")\n";
    screws_text(out, r.body->locked_twists, true, length);
    out << "\nlimbs from ground to " << model.bodies[r.body->body].name << " (" << r.limbs.size() << ")\n";
    int index = 1;
    for (const LimbConstraints& limb : r.limbs) {
      std::string joints;
      for (const std::string& name : limb.joint_names) joints += (joints.empty() ? "" : " > ") + name;
      out << "  " << index++ << ": " << joints << " (" << limb.freedoms << " joint freedoms";
      if (!limb.serial) {
        out << ", not serial: no constraint screws reported)\n";
        continue;
      }
      out << ", twist rank " << limb.twist_rank << "), constraint wrenches (" << limb.constraint_wrenches.cols()
          << ")\n";
      screws_text(out, limb.constraint_wrenches, false, length);
    }
  }
  return out.str();
}

}  // namespace mechdyn::cli
