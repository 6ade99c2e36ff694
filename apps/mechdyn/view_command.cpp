// mechdyn view MODEL [RUN.csv] -o DIR: writes a self-contained web page that draws the
// model and plays a run (docs/viewer.md). DIR gets index.html, viewer.js (three.js and the
// page's code, bundled by esbuild from viewer/, embedded in this program: no npm at run
// time) and data.js (the model, and the run's columns and every body's world pose per
// row, body_poses.hpp, as base64 typed arrays). Everything is written to DIR.partial-PID
// first and renamed onto DIR at the end, so bad input leaves no half-written page.
// With --poses, the poses come from `simulate --poses` instead of forward kinematics.
// Without a run the page shows the model at its initial configuration with one slider per
// coordinate; loops are assembled in the page (viewer/src/assembly.js).
// Force elements and couplings (model format 3) go into the model's description (their
// bodies, points, joints and CSV columns: the page places the points from the body poses
// and colours springs by their column); with a run, every element's world force on body a
// per row (the direction of an applied load's or a bushing's arrow, which the CSV's
// magnitude column does not give), from the library's force_elements at the row's q, v, t.
// With --mode K, no run file: the K-th vibration mode about the equilibrium
// (mode_animation.hpp) is the run, and data.js's `mode` says which (the page's overlay).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "body_poses.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "csv_output.hpp"
#include "force_element_columns.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/flexible/flexible_beam.hpp"
#include "mechdyn/staged_directory.hpp"
#include "mode_animation.hpp"
#include "run_csv.hpp"
#include "viewer_assets.hpp"

namespace mechdyn::cli {

namespace {


struct ViewFlags {
  std::string model_path, run_path, output, poses;
  // --mode K and its options (as `mechdyn modes`)
  std::optional<int> mode;
  std::string locked = "actuated";
  std::optional<std::string> q, tau;
  double time = 0.0, amplitude = 0.0;
  int periods = 3;
  std::vector<std::string> mode_only;  // the mode options given (refused without --mode)
};

// The poses of `simulate --poses` for the rows of `run` (body_poses.hpp layout): the
// columns of this model's bodies in order, one row per run row at the same time.
std::vector<double> read_pose_file(const std::string& path, const Model& model, const RunTable& run,
                                   const std::string& model_path) {
  const RunTable poses = read_run_csv(path);
  const std::vector<std::string> expected = body_pose_columns(model);
  if (poses.columns.size() != expected.size() + 1)
    throw UsageError(path + ": " + std::to_string(poses.columns.size() - 1) + " pose columns, " + model_path + " has " +
                     std::to_string(model.num_bodies()) + " bodies (7 columns each): the poses do not match the model");
  for (std::size_t k = 0; k < expected.size(); ++k)
    if (poses.columns[k + 1] != expected[k])
      throw UsageError(path + ": column " + std::to_string(k + 2) + " is '" + poses.columns[k + 1] + "', expected '" +
                       expected[k] + "': the poses do not match the model");
  if (poses.rows != run.rows)
    throw UsageError(path + ": " + std::to_string(poses.rows) + " rows, the run has " + std::to_string(run.rows) +
                     ": the poses are not of this run");
  std::vector<double> values;
  values.reserve(run.rows * expected.size());
  for (std::size_t r = 0; r < run.rows; ++r) {
    if (poses.at(r, 0) != run.at(r, 0))
      throw UsageError(path + ": row " + std::to_string(r + 1) + ": t_s = " + format_number(poses.at(r, 0)) +
                       ", the run has " + format_number(run.at(r, 0)) + ": the poses are not of this run");
    for (std::size_t k = 1; k <= expected.size(); ++k) values.push_back(poses.at(r, k));
  }
  return values;
}

// The file that marks a directory as a page written by mechdyn view (it may be replaced).
constexpr const char* kMarkerFile = ".mechdyn-view";

std::string base64(const void* data, std::size_t size) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::string text;
  text.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < size; i += 3) {
    const unsigned v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) text += alphabet[(v >> s) & 63];
  }
  if (i < size) {
    const unsigned v = (bytes[i] << 16) | (i + 1 < size ? bytes[i + 1] << 8 : 0);
    text += alphabet[(v >> 18) & 63];
    text += alphabet[(v >> 12) & 63];
    text += i + 1 < size ? alphabet[(v >> 6) & 63] : '=';
    text += '=';
  }
  return text;
}

template <typename T>
std::string base64(const std::vector<T>& values) {
  return base64(values.data(), values.size() * sizeof(T));
}

void write_body_point(JsonWriter& json, const Model& model, const BodyPoint& at) {
  json.begin_object();
  json.key("body"), json.integer(at.body);
  json.key("body_name"), json.string(at.body == kGround ? std::string("ground") : model.bodies[static_cast<std::size_t>(at.body)].name);
  json.key("point"), json.vec3(at.point);
  json.end_object();
}

// `forces` and `couplings` of the page's model (docs/viewer.md "Force elements"): per
// element its name, type, CSV column (force_element_columns.hpp), the two body points
// (spring-damper, bushing; applied: `a` only) or the joint (= body index; joint elements),
// and the parameters the drawing uses; per coupling its joints and column.
void write_force_elements_json(JsonWriter& json, const Model& model) {
  std::vector<std::string> columns;
  append_force_element_columns(model, columns);
  json.key("forces"), json.begin_array();
  for (std::size_t e = 0; e < model.forces.size(); ++e) {
    const ForceElement& element = model.forces[e];
    json.begin_object();
    json.key("name"), json.string(element.name);
    json.key("type"), json.string(force_element_type_name(element.type));
    json.key("column"), json.string(columns[e]);
    if (is_joint_element(element.type)) {
      json.key("joint"), json.integer(element.joint);
      json.key("joint_name"), json.string(model.joints[static_cast<std::size_t>(element.joint)].name);
    } else {
      json.key("a"), write_body_point(json, model, element.a);
      if (element.type != ForceElementType::Applied) json.key("b"), write_body_point(json, model, element.b);
    }
    switch (element.type) {
      case ForceElementType::SpringDamper:
        json.key("stiffness"), json.number(element.stiffness);
        json.key("damping"), json.number(element.damping);
        json.key("free_length"), json.number(element.free_length);
        json.key("preload"), json.number(element.preload);
        break;
      case ForceElementType::JointStop:
        if (std::isfinite(element.lower)) json.key("lower"), json.number(element.lower);
        if (std::isfinite(element.upper)) json.key("upper"), json.number(element.upper);
        json.key("stiffness"), json.number(element.stiffness);
        break;
      case ForceElementType::JointSpringDamper:
        json.key("stiffness"), json.number(element.stiffness);
        json.key("damping"), json.number(element.damping);
        json.key("rest"), json.number(element.rest);
        break;
      default: break;
    }
    json.end_object();
  }
  json.end_array();
  json.key("couplings"), json.begin_array();
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {
    const Coupling& coupling = model.couplings[c];
    json.begin_object();
    json.key("name"), json.string(coupling.name);
    json.key("type"), json.string(coupling_type_name(coupling.type));
    json.key("column"), json.string(columns[model.forces.size() + c]);
    json.key("a"), json.integer(coupling.a);
    json.key("b"), json.integer(coupling.b);
    json.key("ratio"), json.number(coupling.ratio);
    json.key("offset"), json.number(coupling.offset);
    json.end_object();
  }
  json.end_array();
}

// The run's velocity columns (v_<coordinate>_<unit>_per_s, as simulate writes them), nv
// entries, or none when one is missing (an invdyn run without --joint-kinematics): then
// the element forces use v = 0 (only the damping part of a bushing's arrow depends on v).
std::vector<std::size_t> velocity_columns(const Model& model, const RunTable& run) {
  std::vector<std::size_t> found;
  for (const auto& label : velocity_labels(model)) {
    const std::string name = "v_" + label.name + "_" + label.unit + "_per_s";
    const auto it = std::find(run.columns.begin(), run.columns.end(), name);
    if (it == run.columns.end()) return {};
    found.push_back(static_cast<std::size_t>(it - run.columns.begin()));
  }
  return found;
}

void write_model_json(JsonWriter& json, const Model& model, const std::string& model_path, const VecX& q0) {
  json.begin_object();
  json.key("source"), json.string(model_path);
  json.key("name"), json.string(model.name);
  json.key("gravity"), json.vec3(model.gravity);
  json.key("nq"), json.integer(model.nq);
  json.key("nv"), json.integer(model.nv);
  json.key("bodies"), json.begin_array();
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& body = model.bodies[i];
    const Joint& joint = model.joints[i];
    json.begin_object();
    json.key("name"), json.string(body.name);
    json.key("parent"), json.integer(body.parent);
    json.key("mass"), json.number(body.mass);
    json.key("com"), json.vec3(body.com);
    json.key("joint"), json.begin_object();
    json.key("name"), json.string(joint.name);
    json.key("type"), json.string(joint_type_name(joint.type));
    json.key("axis"), json.vec3(joint.axis);
    json.key("second_axis"), json.vec3(joint.second_axis);
    json.key("origin"), json.vec3(joint.origin);
    json.key("actuated"), json.integer(joint.actuated ? 1 : 0);
    json.key("q_index"), json.integer(joint.q_index);
    json.key("nq"), json.integer(joint.nq);
    json.key("v_index"), json.integer(joint.v_index);
    json.key("nv"), json.integer(joint.nv);
    if (joint.limits && std::isfinite(joint.limits->lower) && std::isfinite(joint.limits->upper)) {
      json.key("limits"), json.begin_array(), json.number(joint.limits->lower), json.number(joint.limits->upper),
          json.end_array();
    }
    json.key("friction"), json.integer(joint.friction ? 1 : 0);
    json.end_object();
    json.end_object();
  }
  json.end_array();
  json.key("loops"), json.begin_array();
  for (const Loop& loop : model.loops) {
    json.begin_object();
    json.key("name"), json.string(loop.name);
    json.key("type"), json.string(loop_type_name(loop.type));
    json.key("a"), json.begin_object(), json.key("body"), json.integer(loop.a.body), json.key("point"),
        json.vec3(loop.a.point), json.end_object();
    json.key("b"), json.begin_object(), json.key("body"), json.integer(loop.b.body), json.key("point"),
        json.vec3(loop.b.point), json.end_object();
    json.key("axis"), json.vec3(loop.axis);
    json.key("second_axis"), json.vec3(loop.second_axis);
    json.end_object();
  }
  json.end_array();
  json.key("markers"), json.begin_array();
  for (const Marker& marker : model.markers) {
    json.begin_object();
    json.key("name"), json.string(marker.name);
    json.key("body"), json.integer(marker.at.body);
    json.key("point"), json.vec3(marker.at.point);
    json.end_object();
  }
  json.end_array();
  write_force_elements_json(json, model);
  json.key("coordinates"), json.begin_array();
  for (const auto& label : configuration_labels(model)) json.string(label.name + (label.unit.empty() ? "" : " (" + label.unit + ")"));
  json.end_array();
  json.key("q0"), json.vector(q0);
  json.end_object();
}

// The page's directory (mechdyn/staged_directory.hpp): replaced only when empty or
// holding a page written by mechdyn view; a foreign or uncreatable DIR is bad input
// (UsageError, exit 2), a failed write or rename an output failure (OutputError, exit 3).
StagingPolicy view_staging() {
  return {kMarkerFile, "written by mechdyn view; the directory may be replaced by it\n", "mechdyn view",
          {[](const std::string& message) { throw UsageError(message); },
           [](const std::string& message) { throw OutputError(message); }}};
}

// --mode K: the start, the efforts and the locking read as `mechdyn modes` reads them.
ModeAnimation animate_mode(const Model& model, const ViewFlags& flags) {
  const VecX defaults = model.initial_configuration.size() == model.nq ? model.initial_configuration
                                                                       : model.neutral_configuration();
  VecX q_start = parse_start_values(flags.q, "--q", model, StartLevel::Configuration, defaults).values;
  check_and_normalize_quaternions(model, q_start, "--q");
  ModeAnimationOptions options;
  options.mode = *flags.mode;
  const bool amplitude_given =
      std::find(flags.mode_only.begin(), flags.mode_only.end(), "--amplitude") != flags.mode_only.end();
  if (amplitude_given && !(std::isfinite(flags.amplitude) && flags.amplitude > 0.0)) {
    char given[40];
    std::snprintf(given, sizeof given, "%g", flags.amplitude);
    throw UsageError(std::string("--amplitude ") + given +
                     ": must be a positive number (rad or m: the largest coordinate's excursion)");
  }
  if (*flags.mode < 1) throw UsageError("--mode " + std::to_string(*flags.mode) + ": K counts from 1 (the lowest frequency)");
  options.amplitude = flags.amplitude;
  options.periods = flags.periods;
  if (!std::isfinite(flags.time)) throw UsageError("--t: the time must be a finite number");
  options.equilibrium.time = flags.time;
  if (flags.tau) options.equilibrium.tau = parse_number_list(*flags.tau, "--tau", model.nv, "nv");
  options.equilibrium.lock_actuated = flags.locked == "actuated";
  return mode_animation(model, flags.model_path, q_start, options);
}

// data.js's `mode` (docs/viewer.md "Mode shapes"): which mode, its frequency and period,
// the amplitude and its coordinate, the page's time scale (one period in
// wall_seconds_per_period at 1×), what was held and how loops were closed.
void write_mode_json(JsonWriter& json, const ModeAnimation& animation) {
  json.begin_object();
  json.key("number"), json.integer(animation.number);
  json.key("count"), json.integer(animation.count);
  json.key("zero_modes"), json.integer(animation.zero_modes);
  json.key("frequency"), json.number(animation.frequency);
  json.key("period"), json.number(animation.period);
  json.key("wall_seconds_per_period"), json.number(2.0);
  json.key("amplitude"), json.number(animation.amplitude);
  json.key("default_amplitude"), json.integer(animation.default_amplitude ? 1 : 0);
  json.key("unit"), json.string(animation.unit);
  json.key("coordinate"), json.string(animation.coordinate);
  json.key("shape"), json.vector(animation.shape);
  json.key("q_equilibrium"), json.vector(animation.q_equilibrium);
  json.key("locked"), json.begin_array();
  for (const std::string& name : animation.locked) json.string(name);
  json.end_array();
  json.key("damped_model"), json.integer(animation.damped_model ? 1 : 0);
  json.key("reassembled"), json.integer(animation.reassembled ? 1 : 0);
  json.key("max_closure_residual"), json.number(animation.max_closure_residual);
  json.end_object();
}

void run_view(const ViewFlags& flags, std::ostream& standard_output) {
  const Model model = load_model(flags.model_path);
  if (model.num_bodies() == 0) throw UsageError(flags.model_path + ": the model has no bodies: nothing to draw");
  require_rigid_bodies(model, flags.model_path, "mechdyn view");
  if (flags.mode && !flags.run_path.empty())
    throw UsageError("--mode and a RUN.csv: the page plays one or the other (drop RUN.csv or --mode)");
  if (!flags.mode && !flags.mode_only.empty())
    throw UsageError(flags.mode_only.front() + " is an option of --mode K (the vibration mode to animate)");
  if (!flags.poses.empty() && flags.run_path.empty()) throw UsageError("--poses needs a RUN.csv (the run the poses belong to)");
  StagedDirectory::check_target(flags.output, view_staging());
  std::optional<ModeAnimation> animation;
  if (flags.mode) animation = animate_mode(model, flags);

  // The configuration the page opens at without a run (and its sliders' start): the
  // model's initial_configuration, else neutral; loops assembled by the library.
  VecX q0 = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
  std::string assembly_note;
  if (!model.loops.empty()) {
    Data data(model);
    VecX q = q0;
    try {
      assemble_with_recovery(model, data, q);
      q0 = q;
    } catch (const SolverError& e) {
      assembly_note = e.what();  // the page shows the open loops and their closure error
    }
  }

  std::ostringstream text;
  text.precision(17);
  text << "window.MECHDYN_DATA = {\"model\": ";
  JsonWriter model_json(text);
  write_model_json(model_json, model, flags.model_path, q0);
  text << ",\n\"assembly_note\": ";
  JsonWriter(text).string(assembly_note);
  std::size_t rows = 0;
  RunTable csv_run;
  const RunTable* run_table = nullptr;  // the run file's, or the mode's rows
  std::string run_source;
  if (!flags.run_path.empty()) {
    csv_run = read_run_csv(flags.run_path);
    run_table = &csv_run;
    run_source = flags.run_path;
  } else if (animation) {
    run_table = &animation->run;
    run_source = flags.model_path + " mode " + std::to_string(animation->number);
  }
  if (run_table != nullptr) {
    const RunTable& run = *run_table;
    const auto q_columns = configuration_columns(model, run, run_source, flags.model_path);
    rows = run.rows;
    const std::size_t n = run.columns.size(), bodies = static_cast<std::size_t>(model.num_bodies());
    std::vector<double> times(rows), q_all(rows * static_cast<std::size_t>(model.nq));
    std::vector<float> values(rows * n), poses(rows * 7 * bodies);
    std::vector<double> pose_row(7 * bodies);
    Data data(model);
    VecX q(model.nq);
    std::vector<double> given_poses;  // --poses: simulate's pose file instead of forward kinematics
    if (!flags.poses.empty()) given_poses = read_pose_file(flags.poses, model, run, flags.model_path);
    // force elements: the world force on body a per row and element (rows × elements × 3)
    const std::size_t elements = model.forces.size();
    std::vector<float> element_forces(rows * elements * 3, 0.0f);
    const std::vector<std::size_t> v_columns = elements > 0 ? velocity_columns(model, run) : std::vector<std::size_t>{};
    VecX v = VecX::Zero(model.nv);
    for (std::size_t r = 0; r < rows; ++r) {
      times[r] = run.at(r, 0);
      for (std::size_t c = 0; c < n; ++c) values[c * rows + r] = static_cast<float>(run.at(r, c));
      for (Eigen::Index k = 0; k < model.nq; ++k) q[k] = run.at(r, q_columns[static_cast<std::size_t>(k)]);
      check_and_normalize_quaternions(model, q, run_source + ": row at t_s = " + format_number(times[r]));
      for (Eigen::Index k = 0; k < model.nq; ++k) q_all[r * static_cast<std::size_t>(model.nq) + static_cast<std::size_t>(k)] = q[k];
      if (given_poses.empty()) body_poses(model, data, q, pose_row.data());
      else std::copy_n(given_poses.begin() + static_cast<std::ptrdiff_t>(r * 7 * bodies), 7 * bodies, pose_row.begin());
      for (std::size_t k = 0; k < 7 * bodies; ++k) poses[r * 7 * bodies + k] = static_cast<float>(pose_row[k]);
      if (elements > 0) {
        for (std::size_t k = 0; k < v_columns.size(); ++k) v[static_cast<Eigen::Index>(k)] = run.at(r, v_columns[k]);
        try {
          force_elements(model, data, q, v, times[r]);
        } catch (const SolverError&) {
          continue;  // a spring of zero length (the run itself stopped there): no arrows at this row
        } catch (const InvalidArgument&) {
          continue;  // a time function not finite at this t: no arrows at this row
        }
        for (std::size_t e = 0; e < elements; ++e)
          for (int k = 0; k < 3; ++k)
            element_forces[(r * elements + e) * 3 + static_cast<std::size_t>(k)] =
                static_cast<float>(data.element_wrench_a[e][3 + k]);
      }
    }
    text << ",\n\"run\": {\"source\": ";
    JsonWriter(text).string(run_source);
    text << ", \"rows\": " << rows << ", \"columns\": ";
    JsonWriter columns_json(text);
    columns_json.begin_array();
    for (const std::string& c : run.columns) columns_json.string(c);
    columns_json.end_array();
    text << ",\n\"times\": \"" << base64(times) << "\",\n\"q\": \"" << base64(q_all) << "\",\n\"values\": \""
         << base64(values) << "\",\n\"poses\": \"" << base64(poses) << "\",\n\"element_forces\": \""
         << base64(element_forces) << "\"}";
  } else {
    text << ",\n\"run\": null";
  }
  if (animation) {
    text << ",\n\"mode\": ";
    JsonWriter json(text);
    write_mode_json(json, *animation);
  }
  text << "};\n";

  StagedDirectory staging(flags.output, view_staging());
  staging.write_file("index.html", viewer_page());
  staging.write_file("viewer.js", viewer_bundle());
  staging.write_file("data.js", text.str());
  staging.commit();
  standard_output << "wrote " << flags.output << "/index.html (" << model.num_bodies() << " bodies, "
                  << (rows > 0 ? std::to_string(rows) + " rows of " + run_source : std::string("no run: joint sliders"));
  if (animation) {
    char line[200];
    std::snprintf(line, sizeof line, ": %.6g Hz, amplitude %.4g %s (%s), %d periods", animation->frequency,
                  animation->amplitude, animation->unit.c_str(), animation->coordinate.c_str(), flags.periods);
    standard_output << line;
  }
  standard_output << "); open it in a browser\n";
}

}  // namespace

void add_view_command(CLI::App& app, CommandRunner& selected) {
  auto f = std::make_shared<ViewFlags>();
  CLI::App* sub = app.add_subcommand("view", "Write a web page that draws the model and plays a run (docs/viewer.md).");
  sub->add_option("MODEL", f->model_path, "model file (or URDF, SDFormat, MJCF)")->required();
  sub->add_option("RUN", f->run_path, "a CSV written by mechdyn simulate for this model (optional)");
  sub->add_option("-o,--output", f->output, "the directory to write (index.html, viewer.js, data.js)")->required();
  sub->add_option("--poses", f->poses,
                  "the body poses of the run written by simulate --poses (default: computed from the run's q columns)");
  sub->add_option("--mode", f->mode,
                  "animate the K-th vibration mode (1 = lowest frequency) about the equilibrium instead of a run");
  sub->add_option("--locked", f->locked, "with --mode: actuated (default): actuated joints held; none: free")
      ->check(CLI::IsMember({"actuated", "none"}));
  sub->add_option("--amplitude", f->amplitude,
                  "with --mode: the largest coordinate's excursion, rad or m (default 0.2 rad, or 0.2 x the model's size)");
  sub->add_option("--periods", f->periods, "with --mode: periods in the animation (default 3)")->check(CLI::Range(1, 1000));
  sub->add_option("--q", f->q,
                  "with --mode: start of the equilibrium search, nq numbers or joint assignments (default "
                  "initial_configuration or neutral; held joints stay there)");
  sub->add_option("--tau", f->tau, "with --mode: constant efforts, nv numbers (default 0)");
  sub->add_option("--t", f->time, "with --mode: time (s) of servo targets and applied loads (default 0)");
  sub->footer(
      "Examples:\n"
      "  mechdyn simulate examples/models/five_axis_tree.yaml --duration 2 --output run.csv\n"
      "  mechdyn view examples/models/five_axis_tree.yaml run.csv -o five_axis_view   # open five_axis_view/index.html\n"
      "  mechdyn view examples/models/four_bar.yaml -o four_bar_view                  # sliders, loops assembled\n"
      "  mechdyn view examples/models/five_axis_tree.yaml --mode 1 --locked none -o mode1 # the lowest mode, 1 period = 2 s\n"
      "The page opens at a time given as index.html?t=2.5.\n"
      "Exit status: 0 ok, 2 bad input (also --mode K beyond the modes available), 3 no equilibrium or failed eigenproblem.");
  sub->callback([f, sub, &selected] {
    f->mode_only.clear();
    for (const char* name : {"--locked", "--amplitude", "--periods", "--q", "--tau", "--t"})
      if (sub->get_option(name)->count() > 0) f->mode_only.push_back(name);
    selected = [f](std::ostream& out) { run_view(*f, out); };
  });
}

}  // namespace mechdyn::cli
