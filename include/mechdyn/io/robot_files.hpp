// Loading and saving models in every format mechdyn reads or writes: its own model
// files (YAML, ../shared/spec/model-format.md), URDF, SDFormat and MJCF (docs/robot-files.md).
//
// Robot descriptions are converted to natural frames on reading (every body frame parallel
// to the world at q = 0; joint axes, origins, centres of mass and inertias re-expressed),
// link and joint names kept. Real files break rules; what can be meant is loaded with one
// warning line per change ("<source>: link 'x': <what was done>"), what cannot be meant
// is a ModelError "<source>: <element>: <problem> (line N)". These are the functions
// the command line (`mechdyn convert`, and every command taking a model) and the Python
// bindings call.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn {

enum class ModelFormat {
  Yaml,  // mechdyn model file, .yaml / .yml
  Urdf,  // .urdf (or .xml whose root element is <robot>)
  Sdf,   // .sdf, .world (or .xml whose root element is <sdf>)
  Mjcf,  // .xml whose root element is <mujoco>, .mjcf
};

/// "yaml", "urdf", "sdf", "mjcf".
const char* model_format_name(ModelFormat format);
/// Parses "yaml", "urdf", "sdf", "mjcf" (also "xml" for MJCF); std::nullopt otherwise.
std::optional<ModelFormat> model_format_from_name(const std::string& name);

/// Stiffness and damping of the joint stops a reader adds at a robot file's position
/// limits on request (ImportOptions::limit_stops; force-elements.md joint-stop).
struct LimitStops {
  double stiffness = 0.0;  // k, N m/rad or N/m, > 0
  double damping = 0.0;    // c, N m s/rad or N s/m, ≥ 0
};

/// Choices a user makes when reading a robot description (ignored for YAML model files).
struct ImportOptions {
  /// Weld every fixed-joint child into its parent (mass, centre of mass and inertia
  /// combined); the welded link's frame stays available as a marker of the same name.
  /// Default false: links and fixed joints are kept, so that every name in the file is a
  /// body or joint name in the model.
  bool merge_fixed_joints = false;
  /// URDF: attach the root link to ground by a free joint (URDF has no floating base;
  /// SDFormat and MJCF state theirs in the file). Default false: the root is fixed.
  bool floating_base = false;
  /// Read joint damping (URDF/SDFormat <dynamics damping>, MJCF damping) as a
  /// joint-spring-damper force element and joint friction (<dynamics friction>, MJCF
  /// frictionloss) as coulomb_viscous joint friction with that Coulomb effort (with a
  /// warning: the formats leave the friction law to the simulator). false: ignore both
  /// (also with a warning). Springs (MJCF stiffness, SDFormat spring_stiffness) are always read.
  bool joint_dynamics = true;
  /// Position limits (URDF <limit lower upper>, MJCF range, SDFormat <limit>) stay
  /// joint.limits; with this set, each joint of one coordinate with a limit also gets a
  /// joint-stop force element "<joint>_stop" (format 3) at its limits with this stiffness
  /// and damping (`mechdyn convert --limit-stops K[,C]`). Default: no stops.
  std::optional<LimitStops> limit_stops;
};

/// The format named by a file's extension: .yaml/.yml, .urdf, .sdf/.world, .mjcf;
/// std::nullopt for .xml (its root element decides) and anything else.
std::optional<ModelFormat> model_format_from_extension(const std::string& path);

/// The format of a model: by extension, or for .xml (and any other extension) by the
/// root element (<robot> URDF, <sdf> SDFormat, <mujoco> MJCF); text that is not XML is
/// taken for YAML. Throws ModelError for XML with another root element.
ModelFormat detect_model_format(const std::string& path, const std::string& text);

/// Reads the model file at `path` in any format (detect_model_format). Relative paths in
/// the file (MJCF/SDFormat includes) are resolved against its directory.
Model load_model(const std::string& path, const ImportOptions& options = {},
                 std::vector<std::string>* warnings = nullptr);

/// The same from text; `source` names it in messages and, when it is a path, its
/// directory resolves includes.
Model load_model_from_string(const std::string& text, ModelFormat format, const std::string& source = "<string>",
                             const ImportOptions& options = {}, std::vector<std::string>* warnings = nullptr);

/// The text of `model` in `format` (YAML: model format version 1, every number in the
/// shortest text that reads back to the same double, so it reads back bit for bit; MJCF: a
/// model whose loops do not close at q = 0 is written posed at an assembled configuration,
/// io/mjcf.hpp). Throws ModelError with a
/// one-line reason when the format cannot express the model (SDFormat is not written;
/// URDF has no loops; see docs/robot-files.md for MJCF).
std::string write_model_string(const Model& model, ModelFormat format, std::vector<std::string>* warnings = nullptr);

/// Writes `model` to `path` in the format of its extension (.yaml/.yml, .urdf, .xml/.mjcf
/// for MJCF). Throws ModelError when the format cannot express the model or the file
/// cannot be written.
void save_model(const Model& model, const std::string& path, std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
