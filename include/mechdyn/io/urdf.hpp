// URDF in and out (docs/robot-files.md).
//
// Reading: Debian's urdfdom parses the file (its errors, captured from console_bridge,
// become one-line ModelErrors); tinyxml2 supplies line numbers and the order of the
// elements. Every link frame is the frame of the joint that carries it; poses compose
// from the root, and everything is re-expressed in natural frames (robot_files.hpp).
// Writing: tree models only (a loop is refused), links with their natural frames (no
// rotations), universal joints as two revolute joints through a massless link.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Reads URDF text; `source` names it in messages. Throws ModelError.
Model read_urdf(const std::string& text, const std::string& source, const ImportOptions& options = {},
                std::vector<std::string>* warnings = nullptr);

/// Reads the URDF file at `path` (whatever its extension). Throws ModelError
/// "<path>: <element>: <problem> (line N)".
Model load_urdf(const std::string& path, const ImportOptions& options = {},
                std::vector<std::string>* warnings = nullptr);

/// The URDF of a tree model. Throws ModelError naming the first loop, or a joint URDF
/// cannot express (spherical; a free joint below the root).
std::string write_urdf(const Model& model, std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
