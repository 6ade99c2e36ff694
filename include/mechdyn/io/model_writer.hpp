// Writing mechdyn model files (../shared/spec/model-format.md, version 1).
//
// Every number is written in the shortest decimal form that reads back as the same
// double, so parse_model_string(write_model_yaml(m)) rebuilds m bit for bit: bodies in
// order, joints with axis/axes, origin, limits and friction, mass, com and the inertia
// entries (ixx, iyy, izz, ixy, ixz, iyz: tensor entries as the contract fixes), loops,
// and markers (docs/model-file.md). Names are double-quoted YAML strings.
#pragma once

#include <string>

#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// The YAML text of `model`. Throws ModelError for a flexible body (format version 2 is
/// read, not yet written).
std::string write_model_yaml(const Model& model);

/// Shortest decimal text of `value` that std::strtod reads back to the same double.
std::string shortest_decimal(double value);

}  // namespace mechdyn
