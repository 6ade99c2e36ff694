// Reading a sweep spec file. See sweep_spec.hpp.
#include "mechdyn/io/sweep_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/robot_files.hpp"

namespace mechdyn {

namespace {

double number_of(const YAML::Node& node, const std::string& element) {
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw InvalidArgument(element + ": '" + text + "' is not a finite number");
  return value;
}

SweepValue value_of(const Model& model, const std::string& key, const YAML::Node& node, const std::string& element) {
  const SweepParameter info = sweep_parameter(model, key, element);
  SweepValue value;
  std::vector<YAML::Node> items;
  if (node.IsScalar()) items.push_back(node);
  else if (node.IsSequence()) for (const auto& item : node) items.push_back(item);
  else throw InvalidArgument(element + ": expected a value or a list of values");
  if (items.size() != info.columns.size())
    throw InvalidArgument(element + ": has " + std::to_string(items.size()) + " entries, model '" + model.name +
                          "' needs " + std::to_string(info.columns.size()));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item_element = element + (items.size() > 1 ? "[" + std::to_string(i) + "]" : "");
    if (info.texts()) {
      if (!items[i].IsScalar()) throw InvalidArgument(item_element + ": expected a number or an expression of t");
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
  if (!node.IsMap()) throw InvalidArgument(element + ": expected a mapping of parameters");
  std::vector<std::pair<std::string, YAML::Node>> entries;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) throw InvalidArgument(element + ": keys must be plain names");
    const YAML::Node value = it->second;  // a copy (yaml-cpp's iterator value is a temporary)
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

SweepSpec read_sweep_spec(const std::string& text, const std::string& path, std::vector<std::string>* warnings) {
  SweepSpec spec;
  spec.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InvalidArgument("sweep '" + path + "': " + one_line(e.what()));
  }
  if (!root.IsMap()) throw InvalidArgument("sweep '" + path + "': expected a mapping of keys");
  const std::string where = "sweep '" + path + "' ";
  YAML::Node base, grid, samples;  // default-constructed nodes are null, not absent: the flags say what was given
  bool has_base = false, has_grid = false, has_samples = false, has_model_text = false;
  std::string model_text, model_format = "yaml";
  for (const auto& [key, value] : map_entries(root, "sweep '" + path + "'")) {
    const std::string element = where + key;
    auto scalar = [&, &value = value] {
      if (!value.IsScalar()) throw InvalidArgument(element + ": expected a single value");
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
    else throw InvalidArgument(element + ": unknown key (model, model_text, model_format, duration, step, integrator, "
                               "rtol, atol, method, max_steps, base, grid, samples)");
  }
  if (spec.model_path.empty() && !has_model_text)
    throw InvalidArgument(where + "model: missing (the model file to simulate)");
  if (!spec.model_path.empty() && has_model_text)
    throw InvalidArgument(where + "model_text: give model or model_text, not both");
  if (spec.integrator != "rk4" && spec.integrator != "dopri5")
    throw InvalidArgument(where + "integrator: '" + spec.integrator + "' (rk4 or dopri5)");
  if (spec.method != "explicit" && spec.method != "recursive")
    throw InvalidArgument(where + "method: '" + spec.method + "' (explicit or recursive)");
  spec.options.adaptive = spec.integrator == "dopri5";
  spec.options.method = spec.method == "recursive" ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
  if (!(spec.options.step > 0.0)) throw InvalidArgument(where + "step: must be > 0");
  if (!(spec.options.duration >= 0.0)) throw InvalidArgument(where + "duration: must be ≥ 0");
  if (spec.options.duration / spec.options.step > 1e8) throw InvalidArgument(where + "duration / step: above 1e8 intervals");
  if (spec.options.max_steps < 0) throw InvalidArgument(where + "max_steps: must be ≥ 0");
  if (has_model_text) {
    const auto format = model_format_from_name(model_format);
    if (!format) throw InvalidArgument(where + "model_format: '" + model_format + "' (yaml, urdf, sdf, mjcf)");
    spec.model = load_model_from_string(model_text, *format, path + " model_text", {}, warnings);
  } else {
    if (!std::ifstream(spec.model_path)) throw InvalidArgument("cannot open model file '" + spec.model_path + "'");
    spec.model = load_model_file(spec.model_path, warnings);
  }
  const Model& model = spec.model;

  SweepSample common;
  if (has_base)
    for (const auto& [key, value] : map_entries(base, where + "base"))
      set(common, key, value_of(model, key, value, where + "base " + key));

  if (has_grid) {
    std::vector<std::pair<std::string, std::vector<SweepValue>>> axes;
    for (const auto& [key, value] : map_entries(grid, where + "grid")) {
      const std::string element = where + "grid " + key;
      if (!value.IsSequence() || value.size() == 0)
        throw InvalidArgument(element + ": expected a non-empty list of values");
      std::vector<SweepValue> values;
      for (std::size_t i = 0; i < value.size(); ++i)
        values.push_back(value_of(model, key, value[i], element + "[" + std::to_string(i) + "]"));
      axes.emplace_back(key, std::move(values));
    }
    std::size_t total = 1;
    for (const auto& axis : axes) {
      total *= axis.second.size();
      if (total > 10000000) throw InvalidArgument(where + "grid: more than 1e7 samples");
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
    if (!samples.IsSequence()) throw InvalidArgument(where + "samples: expected a list of parameter mappings");
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

}  // namespace mechdyn
