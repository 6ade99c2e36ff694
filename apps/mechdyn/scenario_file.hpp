// Scenario files of `mechdyn simulate` (docs/model-file.md, "Scenario files"): the
// settings of a run, read from YAML, then overridden by the command line's flags.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mechdyn::cli {

// The resolved settings: defaults, then the scenario, then the flags.
struct Settings {
  std::string model_path;
  std::string mode = "forward";
  std::optional<std::vector<std::string>> tau, accelerations;  // expressions, one per velocity
  std::optional<std::vector<std::string>> velocities;          // closed chains, inverse: actuated velocities
  std::optional<std::string> q0, v0;                           // comma-separated numbers
  // Models with flexible bodies (docs/flexible-bodies.md "Position-driven runs"):
  std::optional<std::vector<std::string>> positions;  // inverse: actuated positions q_a(t), one per actuated coordinate
  std::string motion_table;                            // inverse: CSV with q_/v_/a_ columns of the actuated coordinates
  std::string tau_table;                               // forward: CSV with effort_ (or tau_) columns of the actuated ones
  bool rigid_reference = true;                         // run the rigid equivalent alongside (deviation columns)
  double duration = 1.0;
  double step = 1e-3;
  std::string integrator = "auto";  // auto: rk4 for rigid models, newmark with flexible bodies
  double rtol = 1e-8, atol = 1e-10;
  bool tolerances_given = false;  // rtol or atol stated (scenario key or flag): ali3p then controls its error
  std::string method = "auto";  // auto: explicit while nv <= 16, else recursive (common.hpp resolve_method)
  std::string output;  // empty: standard output
  long every = 1;
  std::optional<long> max_steps;  // integration step budget; default: default_step_budget(K)
  double max_wall_time = 0.0;     // s of wall time; 0: no limit
};

/// Reads the scenario file at `path` into `s` (only the keys it gives). UsageError (exit
/// status 2) on a file that cannot be read, bad YAML, or a bad value; an unknown key is a
/// warning on stderr. `model` is taken relative to the scenario file.
void read_scenario(const std::string& path, Settings& s);
/// The same for scenario text already read (`path` names it and anchors `model`).
void read_scenario_text(const std::string& text, const std::string& path, Settings& s);

/// Throws UsageError unless the settings are consistent (a model, known mode, integrator
/// and method, finite positive step and tolerances, every ≥ 1, budgets, at most 1e9
/// output intervals, the inputs that fit the mode).
void check_settings(const Settings& s);

}  // namespace mechdyn::cli
