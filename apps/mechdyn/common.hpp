// Shared pieces of the mechdyn subcommands: input parsing, model loading, the streaming
// JSON writer with 17 significant digits, labels and the error convention.
//
// Error convention (docs/cli.md): bad input of any kind throws UsageError (or a
// mechdyn::ModelError / InvalidArgument from the library) → "mechdyn: <problem>" on
// stderr, exit status 2; mechdyn::SolverError → exit status 3 (also out of memory and an
// output that cannot be written, cli.cpp).
#pragma once

#include <optional>
#include <ostream>
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
inline constexpr int kExitSolver = 3;    // also resource exhaustion (memory, step budget, output)
inline constexpr int kExitInternal = 1;  // a bug

/// Loads a model file; reader warnings go to stderr, one line each ("mechdyn: warning: ...").
Model load_model(const std::string& path);

/// Parses "1,-2.5,3e-1" into numbers: every entry must be a finite decimal number.
/// `option` names the option in messages; `expected` is the count the model needs and
/// `what` says which ("nq", "nv").
VecX parse_number_list(const std::string& text, const std::string& option, Eigen::Index expected,
                       const char* what);

/// The initial configuration or velocities (`--q0`, `--v0`, a scenario's q0, v0) as the
/// user gave them: either the full list of numbers (parse_number_list), or assignments by
/// joint name, comma-separated (docs/cli.md, "Initial state by joint name"):
///   joint=x              a joint of one coordinate (revolute, prismatic);
///   joint[k]=x           the joint's k-th coordinate, k from 1 (q: not a quaternion
///                        component — a spherical or free joint's orientation is given whole);
///   joint=(a;b;...)      all of the joint's coordinates (nq of them for q, nv for v; a
///                        comma works too inside the parentheses).
/// Coordinates not named keep `defaults`. Errors (UsageError, one line naming the option
/// and the problem, exit status 2): an unknown joint, a coordinate assigned twice, a wrong
/// count of values, an index out of range, an entry that is not a finite number, a plain
/// list mixed with assignments.
struct StartValues {
  VecX values;  // nq (configuration) or nv (velocities): as stated, the defaults elsewhere
  /// The velocity indices of the coordinates named (sorted; a quaternion orientation named
  /// whole gives its joint's three rotation coordinates); nullopt for a full list or no text.
  std::optional<std::vector<int>> named;
};
enum class StartLevel { Configuration, Velocity };
StartValues parse_start_values(const std::optional<std::string>& text, const std::string& option, const Model& model,
                               StartLevel level, const VecX& defaults);

/// Throws UsageError unless every quaternion of q has norm 1 within 1e-6; then
/// renormalises them exactly.
void check_and_normalize_quaternions(const Model& model, VecX& q, const std::string& option);

/// Names of the coordinates of one joint: suffixes for q and v columns with units.
/// (model/joint.hpp: e.g. {"J1", "rad"}, {"J1_qw", ""}, {"B_x", "m"})
using CoordinateLabel = CoordinateName;
std::vector<CoordinateLabel> configuration_labels(const Model& model);  // nq entries, unit of q
/// nv entries; `unit` is the unit of v's base quantity: "rad" (angular) or "m" (linear).
std::vector<CoordinateLabel> velocity_labels(const Model& model);

/// A JSON writer that streams straight to `out` (no tree in memory: an nv × nv mass
/// matrix costs no more than its printed text). Numbers are printed with %.17g (at least
/// 17 significant digits: they reparse to the same double, eval-json.md); a non-finite
/// number is refused (SolverError) — callers check their values before printing anything.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(const std::string& name);  // inside an object, before its value
  void number(double value);
  void integer(long long value);
  void boolean(bool value);
  void string(const std::string& text);
  void vector(const Eigen::Ref<const VecX>& values);
  void vec3(const Vec3& value);
  void matrix(const Eigen::Ref<const MatX>& values);  // list of rows

 private:
  void separate();  // the comma before a value or key that is not the first
  std::ostream& out_;
  std::vector<bool> has_items_;  // per open container: something was written in it
  bool after_key_ = false;
};

/// "a,b,,c" → {"a", "b", "c"}: a comma-separated list of names (empty items dropped).
std::vector<std::string> split_names(const std::string& text);

/// %.17g
std::string format_number(double value);
/// %.6g: a number for a message or a warning line, not for output data.
std::string format_short(double value);
/// %.17g into `buffer` (no terminating zero); returns the length. Exactly snprintf's text.
std::size_t format_17g(double value, char (&buffer)[32]);

/// `--method auto` (the default of eval and simulate) picks the explicit method while
/// nv ≤ kAutoExplicitMaxDofs and the recursive one above (docs/cli.md, "Which method"):
/// up to 16 coordinates an explicit RK4 step costs at most ~1.2× a recursive one (a
/// chain, the worst shape; equal on branched trees; bench/bench_scale.cpp), beyond it the
/// recursive step is faster and the only one whose time and memory grow as O(n).
inline constexpr int kAutoExplicitMaxDofs = 16;

/// The method eval and simulate use for a tree: "explicit" or "recursive" as
/// `requested`, or by the rule above for "auto".
std::string resolve_method(const std::string& requested, const Model& model);

/// One phrase saying which method runs and why, e.g. "recursive (auto: nv = 2000 > 16)".
std::string describe_method(const std::string& requested, const Model& model);

/// Throws SolverError naming `what` and the first non-finite entry ("the mass matrix
/// M(q)[2][3] is not finite at this state") unless every entry is finite.
void check_finite(const Eigen::Ref<const MatX>& values, const std::string& what);
void check_finite(double value, const std::string& what);

/// simulate's output grid: K = ⌈duration / step⌉ intervals (0 for duration 0), the last
/// ending exactly at `duration`.
long output_intervals(double duration, double step);

/// The default integration step budget of a run with K output intervals: 100000 + 1000 K
/// step attempts in all (docs/cli.md, "--max-steps"): generous for any motion an output
/// grid can show, and an end within seconds to minutes for one it cannot.
long default_step_budget(long intervals);

/// Reads a whole text file; UsageError when it cannot be opened.
std::string read_text_file(const std::string& path);

}  // namespace mechdyn::cli
