// Reading model files (../shared/spec/model-format.md, version 1; version 2 adds flexible
// bodies, ../shared/spec/flexible-bodies.md and docs/flexible-bodies.md).
//
// Every error is a ModelError whose one-line message names the file, the element
// (e.g. "bodies[2] 'L2' joint.axis") and the problem. Unknown keys are not errors:
// they are reported as warnings (one line each) through `warnings`.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Reads, validates and finalises the model in the file at `path`: a YAML model file, or a
/// URDF, SDFormat or MJCF robot description (by extension, or the root element of an .xml
/// file; io/robot_files.hpp, read with the default ImportOptions).
Model load_model_file(const std::string& path, std::vector<std::string>* warnings = nullptr);

/// The same from YAML text; `source` names it in messages (e.g. "<inline>").
Model parse_model_string(const std::string& yaml_text, const std::string& source,
                         std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
