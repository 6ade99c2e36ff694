// Reads a run written by `mechdyn simulate` (docs/cli.md, CSV columns) back for
// `mechdyn view` and checks that it belongs to the model: header row (RFC 4180 quoting,
// as csv_output.hpp writes it), `t_s` first, every configuration column of the model
// (q_<joint>_<unit>, the names simulate writes), the same number of fields in every row,
// every field a finite decimal number, times non-decreasing. Whole file in memory:
// rows × columns doubles.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn::cli {

struct RunTable {
  std::vector<std::string> columns;  // header names, t_s first
  std::vector<double> values;        // row-major: rows × columns
  std::size_t rows = 0;
  double at(std::size_t row, std::size_t column) const { return values[row * columns.size() + column]; }
};

/// Splits one CSV line into fields (RFC 4180: "a, b" quoted, "" inside quotes is ").
std::vector<std::string> split_csv_line(const std::string& line);

/// Reads `path`; throws UsageError "<path>: line N: <problem>" (status 2) when it cannot be
/// read, is empty, or a row is malformed.
RunTable read_run_csv(const std::string& path);
/// The same from a stream; `path` names it in messages (fuzz/fuzz_run_csv.cpp).
RunTable read_run_csv(std::istream& in, const std::string& path);

/// The column of every configuration coordinate of `model` in `run` (nq entries, in q
/// order). Throws UsageError naming the first missing column and the model when the run
/// does not match the model ("written for another model?").
std::vector<std::size_t> configuration_columns(const Model& model, const RunTable& run, const std::string& run_path,
                                               const std::string& model_path);

}  // namespace mechdyn::cli
