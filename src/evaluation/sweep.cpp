// Sweep parameters, one sample's run, the columns and the CSV row. See sweep.hpp.
#include "mechdyn/evaluation/sweep.hpp"

#include "mechdyn/csv_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

namespace {

std::string unit_suffix(const std::string& unit) { return unit.empty() ? "" : "_" + unit; }

// The coordinate names of every joint: nq configuration and nv velocity labels.
void coordinate_labels(const Model& model, std::vector<CoordinateName>& configuration,
                       std::vector<CoordinateName>& velocity) {
  for (const Joint& j : model.joints) joint_coordinate_names(j, configuration, velocity);
}

int actuated_count(const Model& model) {
  int n = 0;
  for (const Joint& j : model.joints)
    if (j.actuated) n += j.nv;
  return n;
}

// %.17g (the CLI's format_number: std::to_chars with a precision formats as printf does).
std::string format_number(double value) {
  char buffer[32];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  return std::string(buffer, result.ptr);
}


std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

SweepParameter sweep_parameter(const Model& model, const std::string& key, const std::string& element) {
  using Kind = SweepParameterKind;
  SweepParameter info;
  std::vector<CoordinateName> ql, vl;
  coordinate_labels(model, ql, vl);
  const auto dot = key.find('.');
  const std::string head = key.substr(0, dot), name = dot == std::string::npos ? "" : key.substr(dot + 1);
  auto body = [&] {
    auto b = model.body_index(name);
    if (!b) throw InvalidArgument(element + ": model '" + model.name + "' has no body '" + name + "'");
    return *b;
  };
  auto joint = [&] {
    auto j = model.joint_index(name);
    if (!j) throw InvalidArgument(element + ": model '" + model.name + "' has no joint '" + name + "'");
    if (model.joints[*j].nq != 1 || model.joints[*j].nv != 1)
      throw InvalidArgument(element + ": joint '" + name + "' has more than one coordinate; set the whole " + head);
    return *j;
  };
  if (dot == std::string::npos) {
    if (key == "q0") {
      info.kind = Kind::Q0;
      for (const auto& l : ql) info.columns.push_back("q0_" + l.name + unit_suffix(l.unit));
    } else if (key == "v0") {
      info.kind = Kind::V0;
      for (const auto& l : vl) info.columns.push_back("v0_" + l.name + "_" + l.unit + "_per_s");
    } else if (key == "tau") {
      info.kind = Kind::Tau;
      if (!model.has_constraints()) {
        for (const auto& l : vl) info.columns.push_back("tau_" + l.name + (l.unit == "rad" ? "_N_m" : "_N"));
      } else {
        for (std::size_t k = 0; k < vl.size(); ++k)
          if (model.joints[model.dof_body[k]].actuated)
            info.columns.push_back("tau_" + vl[k].name + (vl[k].unit == "rad" ? "_N_m" : "_N"));
      }
    } else if (key == "gravity") {
      info.kind = Kind::Gravity;
      info.columns = {"gravity_x_m_per_s2", "gravity_y_m_per_s2", "gravity_z_m_per_s2"};
    } else if (key == "duration") {
      info.kind = Kind::Duration;
      info.columns = {"duration_s"};
    } else {
      throw InvalidArgument(element + ": unknown parameter '" + key +
                            "' (q0, v0, tau, gravity, duration, mass.BODY, com.BODY, inertia.BODY, q0.JOINT, v0.JOINT, "
                            "tau.JOINT)");
    }
  } else if (head == "mass") {
    info.kind = Kind::Mass, info.index = body();
    info.columns = {"mass_" + name + "_kg"};
  } else if (head == "com") {
    info.kind = Kind::Com, info.index = body();
    for (const char* c : {"x", "y", "z"}) info.columns.push_back("com_" + name + "_" + c + "_m");
  } else if (head == "inertia") {
    info.kind = Kind::Inertia, info.index = body();
    for (const char* c : {"xx", "yy", "zz", "xy", "xz", "yz"}) info.columns.push_back("inertia_" + name + "_" + c + "_kg_m2");
  } else if (head == "q0" || head == "v0" || head == "tau") {
    info.index = joint();
    const Joint& j = model.joints[info.index];
    const auto& l = vl[j.v_index];
    if (head == "q0") info.kind = Kind::Q0Joint, info.columns = {"q0_" + l.name + "_" + l.unit};
    if (head == "v0") info.kind = Kind::V0Joint, info.columns = {"v0_" + l.name + "_" + l.unit + "_per_s"};
    if (head == "tau") {
      if (model.has_constraints()) throw InvalidArgument(element + ": tau.JOINT is for trees; with loops give the whole tau");
      info.kind = Kind::TauJoint, info.columns = {"tau_" + l.name + (l.unit == "rad" ? "_N_m" : "_N")};
    }
  } else {
    throw InvalidArgument(element + ": unknown parameter '" + key + "'");
  }
  return info;
}

std::vector<std::string> sweep_parameter_columns(const SweepSpec& spec) {
  std::vector<std::string> columns;
  for (const auto& key : spec.parameter_keys)
    for (const auto& c : sweep_parameter(spec.model, key, key).columns) columns.push_back(c);
  return columns;
}

std::vector<std::string> sweep_result_columns(const SweepSpec& spec) {
  std::vector<CoordinateName> ql, vl;
  coordinate_labels(spec.model, ql, vl);
  std::vector<std::string> columns{"t_end_s"};
  for (const auto& l : ql) columns.push_back("q_" + l.name + unit_suffix(l.unit));
  for (const auto& l : vl) columns.push_back("v_" + l.name + "_" + l.unit + "_per_s");
  columns.push_back("kinetic_energy_J");
  columns.push_back("potential_energy_J");
  return columns;
}

std::vector<std::string> sweep_columns(const SweepSpec& spec) {
  std::vector<std::string> columns{"sample", "status"};
  for (const auto& c : sweep_parameter_columns(spec)) columns.push_back(c);
  for (const auto& c : sweep_result_columns(spec)) columns.push_back(c);
  columns.push_back("error");
  return columns;
}

SweepRow run_sweep_sample(const SweepSpec& spec, int index) {
  using Kind = SweepParameterKind;
  if (index < 0 || index >= static_cast<int>(spec.samples.size()))
    throw InvalidArgument("sweep: sample " + std::to_string(index) + " is outside 0.." +
                          std::to_string(static_cast<int>(spec.samples.size()) - 1));
  const SweepSample& sample = spec.samples[static_cast<std::size_t>(index)];
  SweepRow row;
  row.sample = index;
  const Model& base = spec.model;
  const Eigen::Index nq = base.nq, nv = base.nv;
  // Parameter columns: every key of the spec, blank where this sample leaves it alone.
  for (const auto& key : spec.parameter_keys) {
    const SweepValue* value = nullptr;
    for (const auto& entry : sample)
      if (entry.first == key) value = &entry.second;
    const std::size_t size = sweep_parameter(base, key, key).columns.size();
    for (std::size_t i = 0; i < size; ++i)
      row.parameters.push_back(!value ? std::string()
                               : value->texts.empty() ? format_number(value->numbers[i])
                                                      : value->texts[i]);
  }
  row.results.assign(static_cast<std::size_t>(3 + nq + nv), std::numeric_limits<double>::quiet_NaN());
  try {
    Model model = base;  // a copy: parameters change it
    VecX q0 = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
    VecX v0 = VecX::Zero(nv);
    SimulationOptions options = spec.options;
    const bool loops = model.has_constraints();
    std::vector<std::string> tau(static_cast<std::size_t>(loops ? actuated_count(model) : nv), "0");
    for (const auto& [key, value] : sample) {
      const SweepParameter info = sweep_parameter(model, key, key);
      const std::vector<double>& x = value.numbers;
      Body* body = info.kind == Kind::Mass || info.kind == Kind::Com || info.kind == Kind::Inertia
                       ? &model.bodies[static_cast<std::size_t>(info.index)]
                       : nullptr;
      const Joint* joint = info.kind == Kind::Q0Joint || info.kind == Kind::V0Joint || info.kind == Kind::TauJoint
                               ? &model.joints[static_cast<std::size_t>(info.index)]
                               : nullptr;
      switch (info.kind) {
        case Kind::Q0: q0 = Eigen::Map<const VecX>(x.data(), nq); break;
        case Kind::V0: v0 = Eigen::Map<const VecX>(x.data(), nv); break;
        case Kind::Tau: tau = value.texts; break;
        case Kind::Gravity: model.gravity = Vec3(x[0], x[1], x[2]); break;
        case Kind::Duration: options.duration = x[0]; break;
        case Kind::Mass:
          if (!(x[0] >= 0.0)) throw ModelError("mass." + body->name + ": mass must be ≥ 0, got " + format_number(x[0]));
          body->mass = x[0];
          break;
        case Kind::Com: body->com = Vec3(x[0], x[1], x[2]); break;
        case Kind::Inertia: {
          Mat3 inertia;
          inertia << x[0], x[3], x[4], x[3], x[1], x[5], x[4], x[5], x[2];
          check_inertia(inertia, "sweep", "inertia." + body->name);
          body->inertia = inertia;
          break;
        }
        case Kind::Q0Joint: q0[joint->q_index] = x[0]; break;
        case Kind::V0Joint: v0[joint->v_index] = x[0]; break;
        case Kind::TauJoint: tau[static_cast<std::size_t>(joint->v_index)] = value.texts[0]; break;
      }
    }
    TimeExpressions expressions(tau, "tau");
    VecX input = VecX::Zero(static_cast<Eigen::Index>(tau.size()));
    std::vector<int> actuated;
    for (const Joint& j : model.joints)
      if (j.actuated)
        for (int k = 0; k < j.nv; ++k) actuated.push_back(j.v_index + k);
    EffortFunction effort = [&](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                Eigen::Ref<VecX> out) {
      if (!loops) {
        expressions.evaluate(t, out);
        return;
      }
      expressions.evaluate(t, input);
      out.setZero();
      for (std::size_t c = 0; c < actuated.size(); ++c) out[actuated[c]] = input[static_cast<Eigen::Index>(c)];
    };
    const SimulationResult result = simulate(model, q0, v0, effort, options);
    const Eigen::Index last = result.time.size() - 1;
    const VecX q = result.q.row(last).transpose(), v = result.v.row(last).transpose();
    Data data(model);
    std::size_t k = 0;
    row.results[k++] = result.time[last];
    for (Eigen::Index i = 0; i < nq; ++i) row.results[k++] = q[i];
    for (Eigen::Index i = 0; i < nv; ++i) row.results[k++] = v[i];
    row.results[k++] = kinetic_energy(model, data, q, v);
    row.results[k++] = potential_energy(model, data, q);
    row.ok = true;
  } catch (const std::exception& e) {
    row.ok = false;
    row.error = one_line(e.what());
    std::fill(row.results.begin(), row.results.end(), std::numeric_limits<double>::quiet_NaN());
  }
  return row;
}

std::string sweep_csv_row(const SweepRow& row) {
  std::string line = std::to_string(row.sample) + (row.ok ? ",ok" : ",error");
  for (const auto& p : row.parameters) line += "," + csv_field(p);
  for (double x : row.results) line += "," + (std::isfinite(x) ? format_number(x) : std::string("nan"));
  line += "," + csv_field(row.error) + "\n";
  return line;
}

}  // namespace mechdyn
