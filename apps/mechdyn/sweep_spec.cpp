// Sweep specifications and one sample's run. See sweep_spec.hpp.
#include "sweep_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>

#include "common.hpp"
#include "csv_output.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/data.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

namespace {

enum class KeyKind { Q0, V0, Tau, Gravity, Duration, Mass, Com, Inertia, Q0Joint, V0Joint, TauJoint };

struct KeyInfo {
  KeyKind kind = KeyKind::Q0;
  int index = 0;                     // body or joint
  std::size_t size = 0;              // entries the value must have
  std::vector<std::string> columns;  // one per entry
};

std::string unit_suffix(const std::string& unit) { return unit.empty() ? "" : "_" + unit; }

int actuated_count(const Model& model) {
  int n = 0;
  for (const Joint& j : model.joints)
    if (j.actuated) n += j.nv;
  return n;
}

KeyInfo key_info(const Model& model, const std::string& key, const std::string& element) {
  KeyInfo info;
  std::vector<CoordinateLabel> ql = configuration_labels(model), vl = velocity_labels(model);
  const auto dot = key.find('.');
  const std::string head = key.substr(0, dot), name = dot == std::string::npos ? "" : key.substr(dot + 1);
  auto body = [&] {
    auto b = model.body_index(name);
    if (!b) throw UsageError(element + ": model '" + model.name + "' has no body '" + name + "'");
    return *b;
  };
  auto joint = [&] {
    auto j = model.joint_index(name);
    if (!j) throw UsageError(element + ": model '" + model.name + "' has no joint '" + name + "'");
    if (model.joints[*j].nq != 1 || model.joints[*j].nv != 1)
      throw UsageError(element + ": joint '" + name + "' has more than one coordinate; set the whole " + head);
    return *j;
  };
  if (dot == std::string::npos) {
    if (key == "q0") {
      info.kind = KeyKind::Q0;
      for (const auto& l : ql) info.columns.push_back("q0_" + l.name + unit_suffix(l.unit));
    } else if (key == "v0") {
      info.kind = KeyKind::V0;
      for (const auto& l : vl) info.columns.push_back("v0_" + l.name + "_" + l.unit + "_per_s");
    } else if (key == "tau") {
      info.kind = KeyKind::Tau;
      if (model.loops.empty()) {
        for (const auto& l : vl) info.columns.push_back("tau_" + l.name + (l.unit == "rad" ? "_N_m" : "_N"));
      } else {
        for (std::size_t k = 0; k < vl.size(); ++k)
          if (model.joints[model.dof_body[k]].actuated)
            info.columns.push_back("tau_" + vl[k].name + (vl[k].unit == "rad" ? "_N_m" : "_N"));
      }
    } else if (key == "gravity") {
      info.kind = KeyKind::Gravity;
      info.columns = {"gravity_x_m_per_s2", "gravity_y_m_per_s2", "gravity_z_m_per_s2"};
    } else if (key == "duration") {
      info.kind = KeyKind::Duration;
      info.columns = {"duration_s"};
    } else {
      throw UsageError(element + ": unknown parameter '" + key +
                       "' (q0, v0, tau, gravity, duration, mass.BODY, com.BODY, inertia.BODY, q0.JOINT, v0.JOINT, "
                       "tau.JOINT)");
    }
  } else if (head == "mass") {
    info.kind = KeyKind::Mass, info.index = body();
    info.columns = {"mass_" + name + "_kg"};
  } else if (head == "com") {
    info.kind = KeyKind::Com, info.index = body();
    for (const char* c : {"x", "y", "z"}) info.columns.push_back("com_" + name + "_" + c + "_m");
  } else if (head == "inertia") {
    info.kind = KeyKind::Inertia, info.index = body();
    for (const char* c : {"xx", "yy", "zz", "xy", "xz", "yz"}) info.columns.push_back("inertia_" + name + "_" + c + "_kg_m2");
  } else if (head == "q0" || head == "v0" || head == "tau") {
    info.index = joint();
    const Joint& j = model.joints[info.index];
    const auto& l = vl[j.v_index];
    if (head == "q0") info.kind = KeyKind::Q0Joint, info.columns = {"q0_" + l.name + "_" + l.unit};
    if (head == "v0") info.kind = KeyKind::V0Joint, info.columns = {"v0_" + l.name + "_" + l.unit + "_per_s"};
    if (head == "tau") {
      if (!model.loops.empty()) throw UsageError(element + ": tau.JOINT is for trees; with loops give the whole tau");
      info.kind = KeyKind::TauJoint, info.columns = {"tau_" + l.name + (l.unit == "rad" ? "_N_m" : "_N")};
    }
  } else {
    throw UsageError(element + ": unknown parameter '" + key + "'");
  }
  info.size = info.columns.size();
  return info;
}

double number_of(const YAML::Node& node, const std::string& element) {
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw UsageError(element + ": '" + text + "' is not a finite number");
  return value;
}

SweepValue value_of(const Model& model, const std::string& key, const YAML::Node& node, const std::string& element) {
  const KeyInfo info = key_info(model, key, element);
  SweepValue value;
  const bool texts = info.kind == KeyKind::Tau || info.kind == KeyKind::TauJoint;
  std::vector<YAML::Node> items;
  if (node.IsScalar()) items.push_back(node);
  else if (node.IsSequence()) for (const auto& item : node) items.push_back(item);
  else throw UsageError(element + ": expected a value or a list of values");
  if (items.size() != info.size)
    throw UsageError(element + ": has " + std::to_string(items.size()) + " entries, model '" + model.name + "' needs " +
                     std::to_string(info.size));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item_element = element + (items.size() > 1 ? "[" + std::to_string(i) + "]" : "");
    if (texts) {
      if (!items[i].IsScalar()) throw UsageError(item_element + ": expected a number or an expression of t");
      value.texts.push_back(items[i].Scalar());
    } else {
      value.numbers.push_back(number_of(items[i], item_element));
    }
  }
  return value;
}

void set(SweepSample& sample, const std::string& key, SweepValue value) {
  for (auto& entry : sample)
    if (entry.first == key) {
      entry.second = std::move(value);
      return;
    }
  sample.emplace_back(key, std::move(value));
}

std::vector<std::pair<std::string, YAML::Node>> map_entries(const YAML::Node& node, const std::string& element) {
  if (!node.IsMap()) throw UsageError(element + ": expected a mapping of parameters");
  std::vector<std::pair<std::string, YAML::Node>> entries;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) throw UsageError(element + ": keys must be plain names");
    const YAML::Node value = it->second;  // a copy (see scenario_file.cpp)
    entries.emplace_back(it->first.Scalar(), value);
  }
  return entries;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

SweepSpec read_sweep_spec(const std::string& text, const std::string& path) {
  SweepSpec spec;
  spec.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError("sweep '" + path + "': " + one_line(e.what()));
  }
  if (!root.IsMap()) throw UsageError("sweep '" + path + "': expected a mapping of keys");
  const std::string where = "sweep '" + path + "' ";
  YAML::Node base, grid, samples;  // default-constructed nodes are null, not absent: the flags say what was given
  bool has_base = false, has_grid = false, has_samples = false, has_model_text = false;
  std::string model_text, model_format = "yaml";
  for (const auto& [key, value] : map_entries(root, "sweep '" + path + "'")) {
    const std::string element = where + key;
    auto scalar = [&, &value = value] {
      if (!value.IsScalar()) throw UsageError(element + ": expected a single value");
      return value.Scalar();
    };
    if (key == "model") {
      std::filesystem::path model = scalar();
      if (model.is_relative()) model = std::filesystem::path(path).parent_path() / model;
      spec.model_path = model.string();
    } else if (key == "model_text") {  // the model file's content (Python ships it to Dask workers)
      model_text = scalar();
      has_model_text = true;
    } else if (key == "model_format") model_format = scalar();
    else if (key == "duration") spec.options.duration = number_of(value, element);
    else if (key == "step") spec.options.step = number_of(value, element);
    else if (key == "rtol") spec.options.relative_tolerance = number_of(value, element);
    else if (key == "atol") spec.options.absolute_tolerance = number_of(value, element);
    else if (key == "max_steps") spec.options.max_steps = static_cast<long>(number_of(value, element));
    else if (key == "integrator") spec.integrator = scalar();
    else if (key == "method") spec.method = scalar();
    else if (key == "base") base = value, has_base = true;
    else if (key == "grid") grid = value, has_grid = true;
    else if (key == "samples") samples = value, has_samples = true;
    else throw UsageError(element + ": unknown key (model, model_text, model_format, duration, step, integrator, rtol, "
                          "atol, method, max_steps, base, grid, samples)");
  }
  if (spec.model_path.empty() && !has_model_text) throw UsageError(where + "model: missing (the model file to simulate)");
  if (!spec.model_path.empty() && has_model_text) throw UsageError(where + "model_text: give model or model_text, not both");
  if (spec.integrator != "rk4" && spec.integrator != "dopri5")
    throw UsageError(where + "integrator: '" + spec.integrator + "' (rk4 or dopri5)");
  if (spec.method != "explicit" && spec.method != "recursive")
    throw UsageError(where + "method: '" + spec.method + "' (explicit or recursive)");
  spec.options.adaptive = spec.integrator == "dopri5";
  spec.options.method = spec.method == "recursive" ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
  if (!(spec.options.step > 0.0)) throw UsageError(where + "step: must be > 0");
  if (!(spec.options.duration >= 0.0)) throw UsageError(where + "duration: must be ≥ 0");
  if (spec.options.duration / spec.options.step > 1e8) throw UsageError(where + "duration / step: above 1e8 intervals");
  if (spec.options.max_steps < 0) throw UsageError(where + "max_steps: must be ≥ 0");
  if (has_model_text) {
    const auto format = model_format_from_name(model_format);
    if (!format) throw UsageError(where + "model_format: '" + model_format + "' (yaml, urdf, sdf, mjcf)");
    std::vector<std::string> warnings;
    spec.model = load_model_from_string(model_text, *format, path + " model_text", {}, &warnings);
    for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
  } else {
    spec.model = load_model(spec.model_path);
  }
  const Model& model = spec.model;

  SweepSample common;
  if (has_base) for (const auto& [key, value] : map_entries(base, where + "base"))
      set(common, key, value_of(model, key, value, where + "base " + key));

  if (has_grid) {
    std::vector<std::pair<std::string, std::vector<SweepValue>>> axes;
    for (const auto& [key, value] : map_entries(grid, where + "grid")) {
      const std::string element = where + "grid " + key;
      if (!value.IsSequence() || value.size() == 0) throw UsageError(element + ": expected a non-empty list of values");
      std::vector<SweepValue> values;
      for (std::size_t i = 0; i < value.size(); ++i)
        values.push_back(value_of(model, key, value[i], element + "[" + std::to_string(i) + "]"));
      axes.emplace_back(key, std::move(values));
    }
    std::size_t total = 1;
    for (const auto& axis : axes) {
      total *= axis.second.size();
      if (total > 10000000) throw UsageError(where + "grid: more than 1e7 samples");
    }
    for (std::size_t n = 0; n < total; ++n) {
      SweepSample sample = common;
      std::size_t rest = n;
      std::vector<std::size_t> index(axes.size());
      for (std::size_t a = axes.size(); a-- > 0;) {  // last key fastest
        index[a] = rest % axes[a].second.size();
        rest /= axes[a].second.size();
      }
      for (std::size_t a = 0; a < axes.size(); ++a) set(sample, axes[a].first, axes[a].second[index[a]]);
      spec.samples.push_back(std::move(sample));
    }
  }
  if (has_samples) {
    if (!samples.IsSequence()) throw UsageError(where + "samples: expected a list of parameter mappings");
    for (std::size_t i = 0; i < samples.size(); ++i) {
      SweepSample sample = common;
      const std::string element = where + "samples[" + std::to_string(i) + "]";
      for (const auto& [key, value] : map_entries(samples[i], element))
        set(sample, key, value_of(model, key, value, element + " " + key));
      spec.samples.push_back(std::move(sample));
    }
  }
  if (!has_grid && !has_samples) spec.samples.push_back(common);
  for (const auto& sample : spec.samples)
    for (const auto& entry : sample) {
      bool seen = false;
      for (const auto& k : spec.parameter_keys) seen = seen || k == entry.first;
      if (!seen) spec.parameter_keys.push_back(entry.first);
    }
  return spec;
}

std::vector<std::string> sweep_parameter_columns(const SweepSpec& spec) {
  std::vector<std::string> columns;
  for (const auto& key : spec.parameter_keys)
    for (const auto& c : key_info(spec.model, key, key).columns) columns.push_back(c);
  return columns;
}

std::vector<std::string> sweep_result_columns(const SweepSpec& spec) {
  std::vector<std::string> columns{"t_end_s"};
  for (const auto& l : configuration_labels(spec.model)) columns.push_back("q_" + l.name + unit_suffix(l.unit));
  for (const auto& l : velocity_labels(spec.model)) columns.push_back("v_" + l.name + "_" + l.unit + "_per_s");
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
    const std::size_t size = key_info(base, key, key).size;
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
    const bool loops = !model.loops.empty();
    std::vector<std::string> tau(static_cast<std::size_t>(loops ? actuated_count(model) : nv), "0");
    for (const auto& [key, value] : sample) {
      const KeyInfo info = key_info(model, key, key);
      const std::vector<double>& x = value.numbers;
      Body* body = info.kind == KeyKind::Mass || info.kind == KeyKind::Com || info.kind == KeyKind::Inertia
                       ? &model.bodies[static_cast<std::size_t>(info.index)]
                       : nullptr;
      const Joint* joint = info.kind == KeyKind::Q0Joint || info.kind == KeyKind::V0Joint || info.kind == KeyKind::TauJoint
                               ? &model.joints[static_cast<std::size_t>(info.index)]
                               : nullptr;
      switch (info.kind) {
        case KeyKind::Q0: q0 = Eigen::Map<const VecX>(x.data(), nq); break;
        case KeyKind::V0: v0 = Eigen::Map<const VecX>(x.data(), nv); break;
        case KeyKind::Tau: tau = value.texts; break;
        case KeyKind::Gravity: model.gravity = Vec3(x[0], x[1], x[2]); break;
        case KeyKind::Duration: options.duration = x[0]; break;
        case KeyKind::Mass:
          if (!(x[0] >= 0.0)) throw ModelError("mass." + body->name + ": mass must be ≥ 0, got " + format_number(x[0]));
          body->mass = x[0];
          break;
        case KeyKind::Com: body->com = Vec3(x[0], x[1], x[2]); break;
        case KeyKind::Inertia: {
          Mat3 inertia;
          inertia << x[0], x[3], x[4], x[3], x[1], x[5], x[4], x[5], x[2];
          check_inertia(inertia, "sweep", "inertia." + body->name);
          body->inertia = inertia;
          break;
        }
        case KeyKind::Q0Joint: q0[joint->q_index] = x[0]; break;
        case KeyKind::V0Joint: v0[joint->v_index] = x[0]; break;
        case KeyKind::TauJoint: tau[static_cast<std::size_t>(joint->v_index)] = value.texts[0]; break;
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

}  // namespace mechdyn::cli
