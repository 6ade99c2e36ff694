// mechdyn convert: a model from any format mechdyn reads to any it writes (docs/cli.md,
// docs/robot-files.md). Reader and writer warnings go to standard error, one line each; the
// output file is written only when everything succeeded (through a temporary file beside it).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::cli {
namespace {

struct ConvertOptions {
  std::string input, output, format, q, limit_stops;
  bool merge_fixed = false, floating_base = false, no_joint_dynamics = false, has_q = false;
};

std::string extension_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot + 1);
}

std::string run_convert(const ConvertOptions& o) {
  {
    std::ifstream probe(o.input);
    if (!probe) throw UsageError("cannot open model file '" + o.input + "'");
  }
  // The output format: --to, else the output's extension (.xml is MJCF).
  std::optional<ModelFormat> format;
  if (!o.format.empty()) {
    format = model_format_from_name(o.format);
    if (!format) throw UsageError("--to '" + o.format + "' is not a format (yaml, urdf, mjcf)");
  } else if (o.output == "-") {
    throw UsageError("-o - writes to standard output: name the format with --to yaml|urdf|mjcf");
  } else {
    format = model_format_from_extension(o.output);
    if (extension_of(o.output) == "xml") format = ModelFormat::Mjcf;
    if (!format)
      throw UsageError("output '" + o.output + "': unknown extension (write .yaml, .urdf, .xml or .mjcf, or give --to)");
  }

  ImportOptions import;
  import.merge_fixed_joints = o.merge_fixed;
  import.floating_base = o.floating_base;
  import.joint_dynamics = !o.no_joint_dynamics;
  if (!o.limit_stops.empty()) {
    // --limit-stops K[,C]: a joint-stop at every joint's position limits (docs/robot-files.md).
    const auto count = static_cast<Eigen::Index>(std::count(o.limit_stops.begin(), o.limit_stops.end(), ',') + 1);
    if (count > 2) throw UsageError("--limit-stops '" + o.limit_stops + "' must be K or K,C (stop stiffness and damping)");
    const VecX values = parse_number_list(o.limit_stops, "--limit-stops", count, "stiffness K and optionally damping C");
    LimitStops stops;
    stops.stiffness = values[0];
    stops.damping = values.size() > 1 ? values[1] : 0.0;
    if (!(stops.stiffness > 0.0)) throw UsageError("--limit-stops: the stiffness K must be > 0");
    if (stops.damping < 0.0) throw UsageError("--limit-stops: the damping C must not be negative");
    import.limit_stops = stops;
  }
  std::vector<std::string> warnings;
  const Model model = load_model(o.input, import, &warnings);
  for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
  warnings.clear();

  std::string text;
  if (*format == ModelFormat::Mjcf && o.has_q) {
    // Posed at the configuration assembled from --q (io/mjcf.hpp: loops whose cut points
    // do not meet at q = 0).
    VecX q = parse_number_list(o.q, "--q", model.nq, "nq");
    if (!model.loops.empty()) {
      Data data(model);
      assemble(model, data, q);
    }
    MjcfOptions options;
    options.reference_configuration = q;
    text = write_mjcf(model, options, &warnings);
  } else {
    if (o.has_q) throw UsageError("--q is used only when writing MJCF (the configuration the file is posed at)");
    text = write_model_string(model, *format, &warnings);
  }
  for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
  if (o.output == "-") return text;

  const std::string temporary = o.output + ".mechdyn-tmp";
  {
    std::ofstream file(temporary, std::ios::binary);
    if (!file) throw UsageError("cannot write '" + o.output + "'");
    file << text;
    file.close();
    if (!file) {
      std::remove(temporary.c_str());
      throw UsageError("cannot write '" + o.output + "'");
    }
  }
  if (std::rename(temporary.c_str(), o.output.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw UsageError("cannot write '" + o.output + "'");
  }
  std::ostringstream summary;
  summary << "wrote " << o.output << " (" << model_format_name(*format) << "): " << model.num_bodies() << " bodies, nq "
          << model.nq << ", nv " << model.nv << ", " << model.loops.size() << " loops, " << model.markers.size()
          << " markers\n";
  return summary.str();
}

}  // namespace

void add_convert_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand(
      "convert", "Convert a model between formats: read YAML, URDF, SDFormat, MJCF; write YAML, URDF, MJCF.");
  sub->add_option("INPUT", o->input, "model file: .yaml, .urdf, .sdf/.world, .xml (MJCF, or URDF/SDFormat by root element)")
      ->required();
  sub->add_option("-o,--output", o->output, "output file (.yaml, .urdf, .xml/.mjcf), or - for standard output")->required();
  sub->add_option("--to", o->format, "output format: yaml, urdf, mjcf (default: from the output's extension)");
  sub->add_flag("--merge-fixed", o->merge_fixed,
                "weld fixed-joint children into their parents (their frames stay as markers)");
  sub->add_flag("--floating-base", o->floating_base, "URDF: attach the root link to ground by a free joint");
  sub->add_flag("--no-joint-dynamics", o->no_joint_dynamics,
                "ignore joint damping and friction of the file (default: coulomb_viscous friction, with a warning)");
  sub->add_option("--limit-stops", o->limit_stops,
                  "robot files: add a joint-stop (stiffness K, damping C, default 0) at the position limits of every "
                  "revolute and prismatic joint (default: limits only)");
  CLI::Option* q = sub->add_option(
      "--q", o->q, "MJCF output: write the model posed at this configuration (nq numbers; loops are assembled from it)");
  sub->footer(
      "Examples:\n"
      "  mechdyn convert robot.urdf -o robot.yaml\n"
      "  mechdyn convert robot.urdf --floating-base -o robot.xml\n"
      "  mechdyn convert robot.urdf --limit-stops 1e4,10 -o robot.yaml\n"
      "  mechdyn convert examples/robots/four_bar.sdf -o four_bar.yaml\n"
      "  mechdyn convert examples/models/four_bar.yaml -o four_bar.xml --q 0.6,0.16,1.45\n"
      "Warnings (what was done with a file's quirks) go to standard error.\n"
      "Exit status: 0 ok, 2 bad input (unreadable or broken file, a model the output format cannot express).");
  sub->callback([o, q, &selected] {
    o->has_q = q->count() > 0;
    selected = [o](std::ostream& out) { out << run_convert(*o); };
  });
}

}  // namespace mechdyn::cli
