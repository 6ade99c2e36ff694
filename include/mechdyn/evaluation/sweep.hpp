// Sweeps (docs/python.md "Sweeps", docs/cli.md "mechdyn sweep"): one base simulation and a
// set of samples, each changing model parameters, the initial state or the input
// expressions; running one sample; the result columns and the CSV row. `mechdyn sweep`
// (a local thread pool) and Python's mechdyn.sweep (Dask distributed) both run each sample
// with run_sweep_sample, so that both give the same numbers. The spec file (YAML) is read
// by io/sweep_spec.hpp (read_sweep_spec).
//
// Parameter keys: q0 (nq numbers), v0 (nv), tau (one number or muParser expression of t
// per velocity coordinate, math/time_expressions.hpp; models with loops: per actuated
// coordinate, as simulate), gravity (3), duration, mass.BODY (kg), com.BODY (3, m, body
// frame), inertia.BODY (6: Ixx Iyy Izz Ixy Ixz Iyz about the com, kg m²), q0.JOINT,
// v0.JOINT (one-coordinate joints), tau.JOINT (trees, one-coordinate joints).
//
// A sample that fails (bad parameter value, singular mass matrix, assembly failure,
// budget) is a row with status "error" and the one-line message; it never stops a sweep.
//
// Cost of run_sweep_sample: one simulate (evaluation/simulate.hpp) on a copy of the model,
// then the energies of the last state. Reads only the spec; safe from several threads.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

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

/// What a parameter key sets: its kind, the body or joint it names, its columns.
enum class SweepParameterKind { Q0, V0, Tau, Gravity, Duration, Mass, Com, Inertia, Q0Joint, V0Joint, TauJoint };
struct SweepParameter {
  SweepParameterKind kind = SweepParameterKind::Q0;
  int index = 0;                     // body (Mass, Com, Inertia) or joint (Q0Joint, V0Joint, TauJoint)
  std::vector<std::string> columns;  // one per entry the value must have (SI units in the names)
  bool texts() const { return kind == SweepParameterKind::Tau || kind == SweepParameterKind::TauJoint; }
};

/// The parameter `key` names on `model`. Throws InvalidArgument starting with `element`
/// for an unknown key, body or joint, or a JOINT key on a joint of several coordinates.
SweepParameter sweep_parameter(const Model& model, const std::string& key, const std::string& element);

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
/// sample (the row says it), only for an index outside the spec (InvalidArgument).
SweepRow run_sweep_sample(const SweepSpec& spec, int index);

/// A row as CSV text (numbers %.17g, "nan" after an error; RFC 4180 quoting of the error
/// and of expressions), ending in a newline: the text `mechdyn sweep` writes.
std::string sweep_csv_row(const SweepRow& row);

}  // namespace mechdyn
