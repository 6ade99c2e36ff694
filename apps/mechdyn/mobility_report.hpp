// Text and JSON forms of a mobility analysis (mobility/mobility_analysis.hpp), shared by
// `mechdyn mobility` and `mechdyn info`. JSON keys: ../shared/spec/parallel-manipulators.md
// ("mechdyn mobility") plus the optional keys of docs/parallel-manipulators.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "mechdyn/mobility/mobility_analysis.hpp"

namespace mechdyn::cli {

/// A small JSON tree (a mobility report is a few kB; eval's large output streams through
/// JsonWriter instead).
using Json = nlohmann::ordered_json;

/// Prints `value` with every double by %.17g (format_number); a non-finite number is
/// refused (SolverError) before anything is printed.
std::string write_json(const Json& value);

/// The contract's object: dof, constraint_rows, rank, redundant_constraints, actuated,
/// redundant_actuation, singular_actuation, body{name, twists, constraint_wrenches}, then the
/// optional keys.
Json mobility_json(const Model& model, const MobilityReport& report);

/// The full human-readable report.
std::string mobility_text(const Model& model, const MobilityReport& report, const std::string& where);

/// The lines `mechdyn info` adds below its closure line: Grübler–Kutzbach and the
/// over-constraint, actuation (redundant / singular), idle freedoms. Indented by two spaces.
std::string mobility_summary(const Model& model, const MobilityReport& report);

/// "C row k": a redundant closure row by its cut joint and the row within it.
std::string loop_row_name(const Model& model, const RedundantConstraint& row);

}  // namespace mechdyn::cli
