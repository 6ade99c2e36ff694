// The sweep spec file (YAML; docs/python.md "Sweeps", docs/cli.md "mechdyn sweep"): read
// into a SweepSpec (evaluation/sweep.hpp) by `mechdyn sweep SPEC.yaml` and by Python's
// SweepSpec / mechdyn.sweep.
//
// Spec (YAML):
//   model: PATH            relative to the spec file; any format load_model_file reads
//   model_text, model_format   instead of model: the file's content and its format (yaml,
//                          urdf, sdf, mjcf); Python's sweep ships the model this way to
//                          Dask workers that do not share the file system
//   duration, step, integrator (rk4 | dopri5), rtol, atol, method (explicit | recursive),
//   max_steps              as in `mechdyn simulate` (max_steps: per sample)
//   base: {KEY: VALUE}     parameters of every sample
//   grid: {KEY: [VALUES]}  Cartesian product (first key slowest)
//   samples: [{KEY: VALUE}]  explicit samples, after the grid's
// The parameter keys: evaluation/sweep.hpp.
//
// A broken spec (unreadable, bad YAML, unknown key, wrong sizes that every sample shares,
// a model that does not load) throws InvalidArgument / ModelError, one line naming the
// spec and the key, before anything runs.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/evaluation/sweep.hpp"

namespace mechdyn {

/// Reads a spec from text (`path` anchors `model` and names it in messages). The model
/// reader's warnings are appended to `warnings` when given (the caller shows them).
SweepSpec read_sweep_spec(const std::string& text, const std::string& path,
                          std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
