// Reads a run CSV back for `mechdyn view`: run_csv.hpp.
#include "run_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

#include "common.hpp"

namespace mechdyn::cli {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

namespace {

bool parse_double(const std::string& text, double& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno != ERANGE && std::isfinite(value);
}

}  // namespace

RunTable read_run_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot open the run file (missing or unreadable)");
  return read_run_csv(in, path);
}

RunTable read_run_csv(std::istream& in, const std::string& path) {
  RunTable run;
  std::string line;
  if (!std::getline(in, line) || line.empty() || line == "\r")
    throw UsageError(path + ": line 1: empty file (expected the CSV header of mechdyn simulate)");
  run.columns = split_csv_line(line);
  if (run.columns.front() != "t_s")
    throw UsageError(path + ": line 1: the first column is '" + run.columns.front() +
                     "', not 't_s': not a CSV written by mechdyn simulate");
  std::map<std::string, int> seen;
  for (const std::string& c : run.columns)
    if (seen[c]++ == 1) throw UsageError(path + ": line 1: column '" + c + "' appears twice");
  const std::size_t n = run.columns.size();
  std::size_t line_number = 1;
  std::vector<std::string> fields;
  double previous_time = -INFINITY;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line == "\r") continue;
    fields = split_csv_line(line);
    if (fields.size() != n)
      throw UsageError(path + ": line " + std::to_string(line_number) + ": " + std::to_string(fields.size()) +
                       " fields, the header has " + std::to_string(n));
    for (std::size_t k = 0; k < n; ++k) {
      double value = 0.0;
      if (!parse_double(fields[k], value))
        throw UsageError(path + ": line " + std::to_string(line_number) + ": column '" + run.columns[k] + "': '" +
                         fields[k] + "' is not a finite number");
      run.values.push_back(value);
    }
    const double t = run.values[run.rows * n];
    if (t < previous_time)
      throw UsageError(path + ": line " + std::to_string(line_number) + ": t_s = " + format_number(t) +
                       " is before the previous row's time");
    previous_time = t;
    ++run.rows;
  }
  if (in.bad()) throw UsageError(path + ": cannot read the run file");
  if (run.rows == 0) throw UsageError(path + ": no rows after the header");
  return run;
}

std::vector<std::size_t> configuration_columns(const Model& model, const RunTable& run, const std::string& run_path,
                                               const std::string& model_path) {
  std::map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < run.columns.size(); ++k) index[run.columns[k]] = k;
  std::vector<std::size_t> columns;
  std::map<std::string, bool> expected;
  for (const auto& label : configuration_labels(model))
    expected["q_" + label.name + (label.unit.empty() ? "" : "_" + label.unit)] = true;
  for (const std::string& c : run.columns)  // a coordinate the model does not have: another model's run
    if (c.rfind("q_", 0) == 0 && expected.count(c) == 0)
      throw UsageError(run_path + ": column '" + c + "' is no coordinate of " + model_path + " (nq = " +
                       std::to_string(model.nq) + "): the run does not match the model");
  for (const auto& label : configuration_labels(model)) {
    const std::string name = "q_" + label.name + (label.unit.empty() ? "" : "_" + label.unit);
    const auto found = index.find(name);
    if (found == index.end())
      throw UsageError(run_path + ": no column '" + name + "' for a coordinate of " + model_path + " (nq = " +
                       std::to_string(model.nq) + "): the run does not match the model");
    columns.push_back(found->second);
  }
  return columns;
}

}  // namespace mechdyn::cli
