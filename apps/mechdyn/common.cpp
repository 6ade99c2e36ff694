// Shared pieces of the mechdyn subcommands. See common.hpp.
#include "common.hpp"

#include <charconv>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "mechdyn/io/model_file.hpp"
#include "time_expressions.hpp"

namespace mechdyn::cli {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Model load_model(const std::string& path) {
  {
    std::ifstream probe(path);
    if (!probe) throw UsageError("cannot open model file '" + path + "'");
  }
  std::vector<std::string> warnings;
  Model model = load_model_file(path, &warnings);
  for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
  return model;
}

// One finite decimal number; `element` names it in the one-line error (status 2).
static double parse_finite_number(const std::string& item, const std::string& element) {
  if (item.empty()) throw UsageError(element + " is empty");
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(item.c_str(), &end);
  if (end == item.c_str() || *end != '\0') throw UsageError(element + " '" + item + "' is not a number");
  if (!std::isfinite(value) || (errno == ERANGE && std::abs(value) > 1.0))
    throw UsageError(element + " '" + item + "' is not finite");
  return value;
}

VecX parse_number_list(const std::string& text, const std::string& option, Eigen::Index expected,
                       const char* what) {
  const std::vector<std::string> items = split_expression_list(text);
  if (static_cast<Eigen::Index>(items.size()) != expected) {
    std::ostringstream message;
    message << option << " has " << items.size() << (items.size() == 1 ? " number" : " numbers") << ", the model needs "
            << expected << " (" << what << ")";
    throw UsageError(message.str());
  }
  VecX out(expected);
  for (std::size_t i = 0; i < items.size(); ++i) {
    out[static_cast<Eigen::Index>(i)] = parse_finite_number(items[i], option + "[" + std::to_string(i) + "]");
  }
  return out;
}

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string joint_names_hint(const Model& model) {
  std::string out;
  std::size_t shown = 0;
  for (const Joint& joint : model.joints) {
    if (joint.nv == 0) continue;
    if (shown == 8) return out + ", ...";
    out += (shown++ ? ", " : "") + joint.name;
  }
  return out;
}

}  // namespace

StartValues parse_start_values(const std::optional<std::string>& text, const std::string& option, const Model& model,
                               StartLevel level, const VecX& defaults) {
  const bool configuration = level == StartLevel::Configuration;
  const Eigen::Index size = configuration ? model.nq : model.nv;
  StartValues out{defaults, std::nullopt};
  if (!text) return out;
  const std::vector<std::string> items = split_expression_list(*text);
  const bool assignments = std::any_of(items.begin(), items.end(), [](const std::string& item) {
    return item.find('=') != std::string::npos;
  });
  if (!assignments) {
    out.values = parse_number_list(*text, option, size, configuration ? "nq" : "nv");
    return out;
  }
  std::vector<char> assigned(static_cast<std::size_t>(size), 0);
  std::vector<int> named;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string& item = items[i];
    const auto equals = item.find('=');
    if (equals == std::string::npos)
      throw UsageError(option + "[" + std::to_string(i) + "] '" + item +
                       "' is a plain number among joint assignments: give either " + std::to_string(size) +
                       (configuration ? " numbers (nq)" : " numbers (nv)") + " or only joint=value entries");
    std::string target = trimmed(item.substr(0, equals));
    const std::string value_text = trimmed(item.substr(equals + 1));
    // joint, or joint[k] (k from 1)
    std::optional<int> index;
    if (!model.joint_index(target) && !target.empty() && target.back() == ']' && target.find('[') != std::string::npos) {
      const auto open = target.rfind('[');
      const std::string digits = target.substr(open + 1, target.size() - open - 2);
      if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError(option + " '" + item + "': the index in [ ] must be a coordinate number from 1");
      index = std::stoi(digits);
      target = trimmed(target.substr(0, open));
    }
    if (target.empty()) throw UsageError(option + " '" + item + "': no joint name before '='");
    const std::optional<int> joint_number = model.joint_index(target);
    if (!joint_number)
      throw UsageError(option + ": model '" + model.name + "' has no joint '" + target + "' (joints: " +
                       joint_names_hint(model) + ")");
    const Joint& joint = model.joints[static_cast<std::size_t>(*joint_number)];
    const int count = configuration ? joint.nq : joint.nv;
    const int first = configuration ? joint.q_index : joint.v_index;
    const int quaternion = configuration ? joint_quaternion_offset(joint) : -1;
    const std::string element = option + " " + target + (index ? "[" + std::to_string(*index) + "]" : "");
    if (count == 0) throw UsageError(option + ": joint '" + target + "' has no coordinates");
    // The values: "(a;b;...)" for the whole joint, else one number.
    std::vector<double> values;
    std::vector<int> offsets;
    if (!value_text.empty() && value_text.front() == '(') {
      if (value_text.back() != ')') throw UsageError(element + " '" + value_text + "': missing ')'");
      if (index) throw UsageError(element + ": a list ( ) sets the whole joint; write " + target + "=(...)");
      std::string inner = value_text.substr(1, value_text.size() - 2);
      std::replace(inner.begin(), inner.end(), ';', ',');
      const std::vector<std::string> parts = split_expression_list(inner);
      if (static_cast<int>(parts.size()) != count)
        throw UsageError(element + " has " + std::to_string(parts.size()) + (parts.size() == 1 ? " value" : " values") +
                         ", the joint has " + std::to_string(count) + (count == 1 ? " coordinate" : " coordinates") +
                         (configuration ? " (q)" : " (v)"));
      for (int c = 0; c < count; ++c) {
        values.push_back(parse_finite_number(parts[static_cast<std::size_t>(c)], element + "[" + std::to_string(c + 1) + "]"));
        offsets.push_back(c);
      }
    } else if (index) {
      if (*index < 1 || *index > count)
        throw UsageError(element + ": joint '" + target + "' has " + std::to_string(count) +
                         (count == 1 ? " coordinate" : " coordinates") + (configuration ? " (q)" : " (v)"));
      if (quaternion >= 0 && *index - 1 >= quaternion && *index - 1 < quaternion + 4)
        throw UsageError(element + ": a quaternion component cannot be set alone; give the joint whole, " + target +
                         "=(" + std::string(quaternion == 0 ? "qw;qx;qy;qz" : "x;y;z;qw;qx;qy;qz") + ")");
      values.push_back(parse_finite_number(value_text, element));
      offsets.push_back(*index - 1);
    } else {
      if (count != 1)
        throw UsageError(element + ": joint '" + target + "' has " + std::to_string(count) +
                         " coordinates; give them all, " + target + "=(...), or one, " + target + "[k]=...");
      values.push_back(parse_finite_number(value_text, element));
      offsets.push_back(0);
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
      const std::size_t k = static_cast<std::size_t>(first + offsets[c]);
      if (assigned[k])
        throw UsageError(option + ": " + (configuration ? configuration_labels(model) : velocity_labels(model))[k].name +
                         " of joint '" + target + "' is assigned twice");
      assigned[k] = 1;
      out.values[static_cast<Eigen::Index>(k)] = values[c];
      // The velocity coordinate that keeps it: the same offset, except a quaternion (its
      // joint's three rotation coordinates, once for the four components).
      if (quaternion >= 0 && offsets[c] >= quaternion && offsets[c] < quaternion + 4) {
        if (offsets[c] == quaternion)
          for (int r = 0; r < 3; ++r) named.push_back(joint.v_index + quaternion + r);
      } else {
        named.push_back(joint.v_index + offsets[c]);
      }
    }
  }
  std::sort(named.begin(), named.end());
  out.named = named;
  return out;
}

void check_and_normalize_quaternions(const Model& model, VecX& q, const std::string& option) {
  for (const Joint& joint : model.joints) {
    const int offset = joint_quaternion_offset(joint);
    if (offset < 0) continue;
    const int first = joint.q_index + offset;
    const double norm = q.segment<4>(first).norm();
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
      std::ostringstream message;
      message.precision(17);
      message << option << ": the quaternion of joint '" << joint.name << "' (" << option << "[" << first << ".."
              << first + 3 << "]) has norm " << norm << "; it must be 1 within 1e-6";
      throw UsageError(message.str());
    }
    q.segment<4>(first) /= norm;
  }
}

std::vector<CoordinateLabel> configuration_labels(const Model& model) {
  std::vector<CoordinateLabel> configuration, velocity;
  for (const Joint& j : model.joints) joint_coordinate_names(j, configuration, velocity);
  return configuration;
}

std::vector<CoordinateLabel> velocity_labels(const Model& model) {
  std::vector<CoordinateLabel> configuration, velocity;
  for (const Joint& j : model.joints) joint_coordinate_names(j, configuration, velocity);
  return velocity;
}

std::size_t format_17g(double value, char (&buffer)[32]) {
  // std::to_chars with a precision formats "as if by std::printf" in the C locale
  // ([charconv.to.chars]), i.e. exactly %.17g, several times faster than snprintf (a
  // 10,000-DoF mass matrix is 10⁸ numbers); tests/unit/test_cli_scale.cpp compares the two.
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  return static_cast<std::size_t>(result.ptr - buffer);
}

std::string format_number(double value) {
  char buffer[32];
  return std::string(buffer, format_17g(value, buffer));
}

std::string format_short(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string resolve_method(const std::string& requested, const Model& model) {
  if (requested != "auto") return requested;
  return model.nv <= kAutoExplicitMaxDofs ? "explicit" : "recursive";
}

std::string describe_method(const std::string& requested, const Model& model) {
  const std::string method = resolve_method(requested, model);
  if (requested != "auto") return method + " (--method " + requested + ")";
  return method + " (auto: nv = " + std::to_string(model.nv) + (method == "explicit" ? " <= " : " > ") +
         std::to_string(kAutoExplicitMaxDofs) + ")";
}

long output_intervals(double duration, double step) {
  return duration == 0.0 ? 0 : std::max(1L, static_cast<long>(std::ceil(duration / step * (1.0 - 1e-12))));
}

long default_step_budget(long intervals) {
  constexpr long kBase = 100000, kPerInterval = 1000;
  return intervals > (std::numeric_limits<long>::max() - kBase) / kPerInterval ? std::numeric_limits<long>::max()
                                                                               : kBase + kPerInterval * intervals;
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_.put(',');
    has_items_.back() = true;
  }
}

void JsonWriter::begin_object() {
  separate();
  out_.put('{');
  has_items_.push_back(false);
}

void JsonWriter::end_object() {
  has_items_.pop_back();
  out_.put('}');
}

void JsonWriter::begin_array() {
  separate();
  out_.put('[');
  has_items_.push_back(false);
}

void JsonWriter::end_array() {
  has_items_.pop_back();
  out_.put(']');
}

void JsonWriter::key(const std::string& name) {
  separate();
  // nlohmann's escaping of one string (invalid UTF-8 replaced, never thrown).
  out_ << nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ':';
  after_key_ = true;
}

void JsonWriter::string(const std::string& text) {
  separate();
  out_ << nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonWriter::number(double value) {
  if (!std::isfinite(value)) throw SolverError("a result is not finite; refusing to print it");
  separate();
  char buffer[32];
  out_.write(buffer, static_cast<std::streamsize>(format_17g(value, buffer)));
}

void JsonWriter::boolean(bool value) {
  separate();
  out_ << (value ? "true" : "false");
}

void JsonWriter::integer(long long value) {
  separate();
  out_ << value;
}

void JsonWriter::vector(const Eigen::Ref<const VecX>& values) {
  begin_array();
  for (Eigen::Index i = 0; i < values.size(); ++i) number(values[i]);
  end_array();
}

void JsonWriter::vec3(const Vec3& value) {
  begin_array();
  for (int k = 0; k < 3; ++k) number(value[k]);
  end_array();
}

void JsonWriter::matrix(const Eigen::Ref<const MatX>& values) {
  begin_array();
  for (Eigen::Index r = 0; r < values.rows(); ++r) {
    begin_array();
    for (Eigen::Index c = 0; c < values.cols(); ++c) number(values(r, c));
    end_array();
  }
  end_array();
}

void check_finite(const Eigen::Ref<const MatX>& values, const std::string& what) {
  if (values.allFinite()) return;
  for (Eigen::Index c = 0; c < values.cols(); ++c)
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
      if (std::isfinite(values(r, c))) continue;
      std::string where = "[" + std::to_string(r) + "]";
      if (values.cols() > 1) where += "[" + std::to_string(c) + "]";
      throw SolverError(what + where + " is not finite at this state (" + format_number(values(r, c)) + ")");
    }
}

void check_finite(double value, const std::string& what) {
  if (!std::isfinite(value)) throw SolverError(what + " is not finite (" + format_number(value) + ")");
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace mechdyn::cli
