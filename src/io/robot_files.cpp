// Format detection and dispatch for every model format (io/robot_files.hpp).
#include "mechdyn/io/robot_files.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/sdf.hpp"
#include "mechdyn/io/urdf.hpp"
#include "mechdyn/model/data.hpp"
#include "xml_support.hpp"

namespace mechdyn {

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string extension_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return lowercase(path.substr(dot + 1));
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
}

// True when the first non-blank character (after a UTF-8 byte-order mark) is '<'.
bool looks_like_xml(const std::string& text) {
  std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i < text.size() && text[i] == '<';
}

}  // namespace

const char* model_format_name(ModelFormat format) {
  switch (format) {
    case ModelFormat::Yaml: return "yaml";
    case ModelFormat::Urdf: return "urdf";
    case ModelFormat::Sdf: return "sdf";
    case ModelFormat::Mjcf: return "mjcf";
  }
  return "yaml";
}

std::optional<ModelFormat> model_format_from_name(const std::string& name) {
  const std::string n = lowercase(name);
  if (n == "yaml" || n == "yml") return ModelFormat::Yaml;
  if (n == "urdf") return ModelFormat::Urdf;
  if (n == "sdf" || n == "sdformat") return ModelFormat::Sdf;
  if (n == "mjcf" || n == "xml" || n == "mujoco") return ModelFormat::Mjcf;
  return std::nullopt;
}

std::optional<ModelFormat> model_format_from_extension(const std::string& path) {
  const std::string extension = extension_of(path);
  if (extension == "yaml" || extension == "yml") return ModelFormat::Yaml;
  if (extension == "urdf") return ModelFormat::Urdf;
  if (extension == "sdf" || extension == "world") return ModelFormat::Sdf;
  if (extension == "mjcf") return ModelFormat::Mjcf;
  return std::nullopt;
}

ModelFormat detect_model_format(const std::string& path, const std::string& text) {
  if (const std::optional<ModelFormat> format = model_format_from_extension(path)) return *format;
  if (!looks_like_xml(text)) return ModelFormat::Yaml;
  const std::string root = io::xml_root_name(text, path);
  if (root == "robot") return ModelFormat::Urdf;
  if (root == "sdf") return ModelFormat::Sdf;
  if (root == "mujoco") return ModelFormat::Mjcf;
  throw ModelError(path + ": document: the XML root element is <" + io::printable(root) +
                   ">, none of <robot> (URDF), <sdf> (SDFormat) or <mujoco> (MJCF)");
}

Model load_model_from_string(const std::string& text, ModelFormat format, const std::string& source,
                             const ImportOptions& options, std::vector<std::string>* warnings) {
  switch (format) {
    case ModelFormat::Yaml:
      return parse_model_string(text, source, warnings);
    case ModelFormat::Urdf:
      return read_urdf(text, source, options, warnings);
    case ModelFormat::Sdf:
      return read_sdf(text, source, source.empty() || source[0] == '<' ? "" : directory_of(source), options, warnings);
    case ModelFormat::Mjcf:
      return read_mjcf(text, source, source.empty() || source[0] == '<' ? "" : directory_of(source), options, warnings);
  }
  throw ModelError(source + ": document: unknown model format");
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ModelError(path + ": file: cannot be opened for reading");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw ModelError(path + ": file: read error");
  return text.str();
}

}  // namespace

Model load_model(const std::string& path, const ImportOptions& options, std::vector<std::string>* warnings) {
  const std::string content = read_file(path);
  return load_model_from_string(content, detect_model_format(path, content), path, options, warnings);
}

Model load_urdf(const std::string& path, const ImportOptions& options, std::vector<std::string>* warnings) {
  return load_model_from_string(read_file(path), ModelFormat::Urdf, path, options, warnings);
}

Model load_sdf(const std::string& path, const ImportOptions& options, std::vector<std::string>* warnings) {
  return load_model_from_string(read_file(path), ModelFormat::Sdf, path, options, warnings);
}

Model load_mjcf(const std::string& path, const ImportOptions& options, std::vector<std::string>* warnings) {
  return load_model_from_string(read_file(path), ModelFormat::Mjcf, path, options, warnings);
}

std::string write_model_string(const Model& model, ModelFormat format, std::vector<std::string>* warnings) {
  switch (format) {
    case ModelFormat::Yaml:
      return write_model_yaml(model);
    case ModelFormat::Urdf:
      return write_urdf(model, warnings);
    case ModelFormat::Sdf:
      throw ModelError(model.name + ": document: writing SDFormat is not supported (write .yaml, .urdf or .xml)");
    case ModelFormat::Mjcf: {
      // Loops whose cut points do not meet at q = 0: pose the file at the configuration
      // assembled from the neutral one (io/mjcf.hpp).
      try {
        return write_mjcf(model, {}, warnings);
      } catch (const ModelError&) {
        if (model.loops.empty() || !mjcf_supports(model)) throw;
      }
      // Newton from q = 0 stalls where every link is aligned (a singular closure
      // Jacobian, as in four_bar.yaml); the passive coordinates are also started from a
      // few turned guesses, the first that assembles wins.
      Data data(model);
      VecX q;
      std::string failure;
      bool assembled = false;
      for (const double start : {0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5}) {
        for (const double alternate : {1.0, -1.0}) {
          q = model.neutral_configuration();
          double sign = 1.0;
          for (const Joint& joint : model.joints)
            if (!joint.actuated && (joint.type == JointType::Revolute || joint.type == JointType::Prismatic)) {
              q[joint.q_index] = sign * start;
              sign *= alternate;
            }
          try {
            assemble(model, data, q);
            assembled = true;
          } catch (const SolverError& e) {
            if (failure.empty()) failure = e.what();
          }
          if (assembled || start == 0.0) break;
        }
        if (assembled) break;
      }
      if (!assembled)
        throw ModelError(model.name + ": loops: the cut points do not meet at q = 0 and the model does not assemble "
                         "near there (" + failure + "); give an assembled configuration (mechdyn convert --q)");
      MjcfOptions options;
      options.reference_configuration = q;
      if (warnings != nullptr)
        warnings->push_back(model.name + ": loops: the cut points do not meet at q = 0; the MJCF is written posed at "
                            "an assembled configuration q* (actuated coordinates 0), with joint ref = q* there (MuJoCo's qpos = mechdyn's q)");
      return write_mjcf(model, options, warnings);
    }
  }
  throw ModelError(model.name + ": document: unknown model format");
}

void save_model(const Model& model, const std::string& path, std::vector<std::string>* warnings) {
  const std::string extension = extension_of(path);
  std::optional<ModelFormat> format = model_format_from_extension(path);
  if (extension == "xml") format = ModelFormat::Mjcf;
  if (!format)
    throw ModelError(path + ": file: unknown extension '." + extension +
                     "' (write .yaml, .yml, .urdf, .xml or .mjcf)");
  const std::string text = write_model_string(model, *format, warnings);
  std::ofstream file(path, std::ios::binary);
  if (!file) throw ModelError(path + ": file: cannot be opened for writing");
  file << text;
  file.close();
  if (!file) throw ModelError(path + ": file: write error");
}

}  // namespace mechdyn
