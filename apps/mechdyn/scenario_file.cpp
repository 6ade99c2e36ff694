// Scenario files of `mechdyn simulate`. See scenario_file.hpp.
#include "scenario_file.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "common.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

namespace {

// A user string fit for a one-line message: control characters shown escaped.
std::string printable(const std::string& text) {
  std::string out;
  for (char c : text) out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
  return out;
}

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

long scenario_integer(const YAML::Node& node, const std::string& element) {
  const double value = scenario_number(node, element);
  if (value != std::floor(value) || std::abs(value) > 1e15) throw UsageError(element + ": '" + node.Scalar() + "' is not an integer");
  return static_cast<long>(value);
}

}  // namespace

void read_scenario(const std::string& path, Settings& s) { read_scenario_text(read_text_file(path), path, s); }

void read_scenario_text(const std::string& text, const std::string& path, Settings& s) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError("scenario '" + path + "': " + e.what());
  }
  if (!root.IsMap()) throw UsageError("scenario '" + path + "': expected a mapping of keys");
  const std::string where = "scenario '" + path + "' ";
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (!it->first.IsScalar()) throw UsageError(where + "keys must be plain names");
    const std::string key = it->first.Scalar();
    // A copy, not a reference: `*it` is a temporary (yaml-cpp's iterator_value), and a
    // reference to its member dangles once this statement ends (ASan: stack-use-after-scope).
    const YAML::Node value = it->second;
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
    else if (key == "rtol") s.rtol = scenario_number(value, element), s.tolerances_given = true;
    else if (key == "atol") s.atol = scenario_number(value, element), s.tolerances_given = true;
    else if (key == "method") s.method = scalar();
    else if (key == "every") s.every = scenario_integer(value, element);
    else if (key == "max_steps") s.max_steps = scenario_integer(value, element);
    else if (key == "max_wall_time") s.max_wall_time = scenario_number(value, element);
    else if (key == "output") s.output = scalar();
    else if (key == "q0") s.q0 = scalar_list(value, element);
    else if (key == "v0") s.v0 = scalar_list(value, element);
    else if (key == "tau") s.tau = expression_list(value, element);
    else if (key == "accelerations") s.accelerations = expression_list(value, element);
    else if (key == "velocities") s.velocities = expression_list(value, element);
    else if (key == "positions") s.positions = expression_list(value, element);
    else if (key == "motion_table" || key == "tau_table") {
      std::filesystem::path file = scalar();
      if (file.empty()) throw UsageError(element + ": expected a file name");
      if (file.is_relative()) file = std::filesystem::path(path).parent_path() / file;
      (key == "motion_table" ? s.motion_table : s.tau_table) = file.string();
    } else if (key == "rigid_reference") {
      const std::string text = scalar();
      if (text != "true" && text != "false") throw UsageError(element + ": '" + printable(text) + "' is not true or false");
      s.rigid_reference = text == "true";
    }
    else std::cerr << "mechdyn: warning: " << printable(element) << ": unknown key, ignored\n";
  }
}


void check_settings(const Settings& s) {
  if (s.model_path.empty()) throw UsageError("simulate: no model given (MODEL or the scenario's 'model' key)");
  if (s.mode != "forward" && s.mode != "inverse") throw UsageError("mode '" + s.mode + "' must be forward or inverse");
  if (s.integrator != "auto" && s.integrator != "rk4" && s.integrator != "dopri5" && s.integrator != "ali3p" &&
      s.integrator != "newmark" && s.integrator != "hht")
    throw UsageError("integrator '" + s.integrator + "' must be rk4, dopri5, ali3p, newmark or hht");
  if (s.method != "auto" && s.method != "explicit" && s.method != "recursive")
    throw UsageError("method '" + s.method + "' must be auto, explicit or recursive");
  if (!(s.duration >= 0.0) || !std::isfinite(s.duration)) throw UsageError("duration must be a finite number >= 0");
  if (!(s.step > 0.0) || !std::isfinite(s.step)) throw UsageError("step must be a finite number > 0");
  if (!(s.rtol > 0.0) || !std::isfinite(s.rtol)) throw UsageError("rtol must be a finite number > 0");
  if (!(s.atol > 0.0) || !std::isfinite(s.atol)) throw UsageError("atol must be a finite number > 0");
  if (s.every < 1) throw UsageError("every must be an integer >= 1");
  if (s.max_steps && *s.max_steps < 1) throw UsageError("max-steps must be an integer >= 1");
  if (!(s.max_wall_time >= 0.0) || !std::isfinite(s.max_wall_time))
    throw UsageError("max-wall-time must be a finite number of seconds >= 0 (0: no limit)");
  if (s.duration / s.step > 1e9) throw UsageError("duration / step exceeds 1e9 output intervals");
  if (s.mode == "forward" && s.accelerations) throw UsageError("accelerations are for mode inverse (forward takes tau)");
  if (s.mode == "inverse" && s.tau) throw UsageError("tau is for mode forward (inverse takes accelerations)");
  if (s.mode == "forward" && s.velocities) throw UsageError("velocities are for mode inverse of a model with loops");
  if (s.mode == "forward" && (s.positions || !s.motion_table.empty()))
    throw UsageError("positions and motion_table are for mode inverse (position-driven runs of models with flexible bodies)");
  if (s.mode == "inverse" && !s.tau_table.empty()) throw UsageError("tau_table is for mode forward (inverse takes the motion)");
  if (s.positions && !s.motion_table.empty()) throw UsageError("give positions or motion_table, not both");
  if (s.tau && !s.tau_table.empty()) throw UsageError("give tau or tau_table, not both");
}

}  // namespace mechdyn::cli
