// Shared pieces of the mechdyn subcommands: input parsing, model loading, the JSON
// writer with 17 significant digits, CSV/text formatting and the error convention.
//
// Error convention (docs/cli.md): bad input of any kind throws UsageError (or a
// mechdyn::ModelError / InvalidArgument from the library) → "mechdyn: <problem>" on
// stderr, exit status 2; mechdyn::SolverError → exit status 3. Commands write their
// output only after everything succeeded, so nothing reaches stdout on an error.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::cli {

/// Bad command-line input (exit status 2).
class UsageError : public mechdyn::InvalidArgument {
 public:
  using mechdyn::InvalidArgument::InvalidArgument;
};

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitSolver = 3;

/// Loads a model file; reader warnings go to stderr, one line each ("mechdyn: warning: ...").
Model load_model(const std::string& path);

/// Parses "1,-2.5,3e-1" into numbers: every entry must be a finite decimal number.
/// `option` names the option in messages; `expected` is the count the model needs and
/// `what` says which ("nq", "nv").
VecX parse_number_list(const std::string& text, const std::string& option, Eigen::Index expected,
                       const char* what);

/// Throws UsageError unless every quaternion of q has norm 1 within 1e-6; then
/// renormalises them exactly.
void check_and_normalize_quaternions(const Model& model, VecX& q, const std::string& option);

/// Names of the coordinates of one joint: suffixes for q and v columns with units.
/// (model/joint.hpp: e.g. {"J1", "rad"}, {"J1_qw", ""}, {"B_x", "m"})
using CoordinateLabel = CoordinateName;
std::vector<CoordinateLabel> configuration_labels(const Model& model);  // nq entries, unit of q
/// nv entries; `unit` is the unit of v's base quantity: "rad" (angular) or "m" (linear).
std::vector<CoordinateLabel> velocity_labels(const Model& model);

/// Writes a JSON value with every double printed by %.17g (round-trips exactly);
/// non-finite numbers are refused (SolverError) — the CLI never prints NaN.
using Json = nlohmann::ordered_json;
std::string write_json(const Json& value);

/// %.17g
std::string format_number(double value);

/// Throws SolverError naming `what` unless every entry is finite.
void check_finite(const Eigen::Ref<const MatX>& values, const std::string& what);

/// Reads a whole text file; UsageError when it cannot be opened.
std::string read_text_file(const std::string& path);

/// Where `simulate` writes its CSV: a temporary file beside `path`, renamed to `path` by
/// commit() (so a failed run leaves no partial file), or, with an empty path, a string
/// that commit() returns for standard output.
class CsvOutput {
 public:
  explicit CsvOutput(const std::string& path);
  ~CsvOutput();  // removes the temporary file unless commit() succeeded
  CsvOutput(const CsvOutput&) = delete;
  CsvOutput& operator=(const CsvOutput&) = delete;
  std::ostream& stream();
  /// Standard output mode: the CSV text. File mode: "" after renaming; UsageError on failure.
  std::string commit();
  bool to_file() const { return !path_.empty(); }

 private:
  std::string path_, temporary_;
  std::ostringstream memory_;
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace mechdyn::cli
