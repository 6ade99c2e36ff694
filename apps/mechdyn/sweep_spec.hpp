// Sweep specifications (docs/python.md "Sweeps", docs/cli.md "mechdyn sweep"): one base
// simulation and a set of samples, each changing model parameters, the initial state or
// the input expressions. Read by `mechdyn sweep SPEC.yaml` (a local thread pool) and by
// Python's mechdyn.sweep (the same spec on Dask distributed): both run each sample with
// run_sweep_sample, so that both give the same numbers.
//
// Spec (YAML):
//   model: PATH            relative to the spec file; any format load_model reads
//   model_text, model_format   instead of model: the file's content and its format (yaml,
//                          urdf, sdf, mjcf); Python's sweep ships the model this way to
//                          Dask workers that do not share the file system
//   duration, step, integrator (rk4 | dopri5), rtol, atol, method (explicit | recursive),
//   max_steps              as in `mechdyn simulate` (max_steps: per sample)
//   base: {KEY: VALUE}     parameters of every sample
//   grid: {KEY: [VALUES]}  Cartesian product (first key slowest)
//   samples: [{KEY: VALUE}]  explicit samples, after the grid's
// Keys: q0 (nq numbers), v0 (nv), tau (one number or muParser expression of t per
// velocity coordinate; models with loops: per actuated coordinate, as simulate), gravity
// (3), duration, mass.BODY (kg), com.BODY (3, m, body frame), inertia.BODY (6: Ixx Iyy
// Izz Ixy Ixz Iyz about the com, kg m²), q0.JOINT, v0.JOINT (one-coordinate joints),
// tau.JOINT (trees, one-coordinate joints).
//
// A sample that fails (bad parameter value, singular mass matrix, assembly failure,
// budget) is a row with status "error" and the one-line message; it never stops a sweep.
// A broken spec (unreadable, bad YAML, unknown key, wrong sizes that every sample shares)
// throws UsageError / ModelError before anything runs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::cli {

/// One parameter value: numbers, or texts (tau expressions).
struct SweepValue {
  std::vector<double> numbers;
  std::vector<std::string> texts;  // tau only: each entry a number or an expression
};

using SweepSample = std::vector<std::pair<std::string, SweepValue>>;  // key order kept

struct SweepSpec {
  std::string path;  // of the spec (messages)
  std::string model_path;
  Model model;
  SimulationOptions options;
  std::string integrator = "rk4";
  std::string method = "explicit";
  std::vector<std::string> parameter_keys;  // every key any sample sets, in first-seen order
  std::vector<SweepSample> samples;          // base merged in
};

/// Reads a spec from text (`path` anchors `model` and names it in messages).
SweepSpec read_sweep_spec(const std::string& text, const std::string& path);

/// The CSV columns: sample, status, the parameter columns (one per parameter entry, SI
/// units in the names), the result columns (t_end_s, final q and v, kinetic and potential
/// energy at the end), error.
std::vector<std::string> sweep_parameter_columns(const SweepSpec& spec);
std::vector<std::string> sweep_result_columns(const SweepSpec& spec);
std::vector<std::string> sweep_columns(const SweepSpec& spec);

struct SweepRow {
  int sample = 0;
  bool ok = false;
  std::string error;                    // one line; empty when ok
  std::vector<std::string> parameters;  // sweep_parameter_columns: numbers (%.17g) or expressions
  std::vector<double> results;          // sweep_result_columns; NaN after an error
};

/// Runs sample `index` (0-based) on a copy of the model; never throws for a failure of the
/// sample (the row says it), only for an index outside the spec.
SweepRow run_sweep_sample(const SweepSpec& spec, int index);

/// A row as CSV text (RFC 4180 quoting of the error), ending in a newline.
std::string sweep_csv_row(const SweepRow& row);

}  // namespace mechdyn::cli
