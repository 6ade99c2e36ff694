// Internal to the model reader: the `flexible` block of a body (format version 2,
// ../shared/spec/flexible-bodies.md; docs/model-file.md "Flexible bodies") and the check
// of the points attached to flexible bodies, with file lines in the messages.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "mechdyn/model/model.hpp"

namespace mechdyn::io {

/// Reads `flexible: {type: beam, ...}` of a body. `element` names it in messages
/// ("bodies[2] 'link3' flexible"); `version` is the file's format version (a version-1 file
/// with a flexible block is refused). ModelError "<source>: <element>: <problem> (line N)";
/// unknown keys go to `warnings`.
FlexibleBeam read_flexible_block(const YAML::Node& node, const std::string& element, int version,
                                 const std::string& source, std::vector<std::string>* warnings);

/// Refuses, naming the file line, every point meant to be on a flexible body whose foot on
/// the beam's axis lies outside [0, L]: child joint origins, loop points, marker points.
void check_flexible_points(const YAML::Node& root, const Model& model, const std::string& source);

}  // namespace mechdyn::io
