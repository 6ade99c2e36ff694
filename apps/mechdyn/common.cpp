// Shared pieces of the mechdyn subcommands. See common.hpp.
#include "common.hpp"

#include <unistd.h>

#include <filesystem>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

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

std::string format_number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

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

void check_finite(const Eigen::Ref<const MatX>& values, const std::string& what) {
  if (!values.allFinite()) throw SolverError(what + " is not finite at this state");
}

CsvOutput::CsvOutput(const std::string& path) : path_(path) {
  if (path_.empty()) return;
  temporary_ = path_ + ".partial-" + std::to_string(::getpid());
  file_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!file_) throw UsageError("cannot write '" + path_ + "'");
}

CsvOutput::~CsvOutput() {
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

std::ostream& CsvOutput::stream() { return path_.empty() ? static_cast<std::ostream&>(memory_) : file_; }

std::string CsvOutput::commit() {
  committed_ = true;
  if (path_.empty()) return memory_.str();
  committed_ = false;
  file_.close();
  if (!file_) throw UsageError("cannot write '" + path_ + "'");
  std::error_code error;
  std::filesystem::rename(temporary_, path_, error);
  if (error) throw UsageError("cannot write '" + path_ + "': " + error.message());
  committed_ = true;
  return {};
}

}  // namespace mechdyn::cli
