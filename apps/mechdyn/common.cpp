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
    const std::string& item = items[i];
    const std::string element = option + "[" + std::to_string(i) + "]";
    if (item.empty()) throw UsageError(element + " is empty");
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    if (end == item.c_str() || *end != '\0') throw UsageError(element + " '" + item + "' is not a number");
    if (!std::isfinite(value) || (errno == ERANGE && std::abs(value) > 1.0))
      throw UsageError(element + " '" + item + "' is not finite");
    out[static_cast<Eigen::Index>(i)] = value;
  }
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

}  // namespace mechdyn::cli
