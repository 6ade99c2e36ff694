// mechdyn mobility: degrees of freedom, redundant constraints, actuation and the screws of a
// body of a model with loops at one configuration (../shared/spec/parallel-manipulators.md;
// docs/parallel-manipulators.md). The analysis: mobility/mobility_analysis.hpp.
#include <memory>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mobility_report.hpp"

namespace mechdyn::cli {

namespace {

struct MobilityCommandOptions {
  std::string model_path;
  std::string q;
  bool has_q = false;
  std::string body;
  bool json = false;
  double tolerance = kScrewTolerance;
};

std::string run_mobility(const MobilityCommandOptions& o) {
  const Model model = load_model(o.model_path);
  VecX q = o.has_q                                     ? parse_number_list(o.q, "--q", model.nq, "nq")
           : model.initial_configuration.size() > 0 ? VecX(model.initial_configuration)
                                                    : model.neutral_configuration();
  check_and_normalize_quaternions(model, q, "--q");
  MobilityOptions options;
  options.tolerance = o.tolerance;
  if (!o.body.empty()) {
    const std::optional<int> index = model.body_index(o.body);
    if (!index) {
      std::string names;
      for (const Body& b : model.bodies) names += (names.empty() ? "" : ", ") + b.name;
      throw UsageError(o.model_path + ": --body: no body named '" + o.body + "' (bodies: " + names + ")");
    }
    options.body = *index;
  }
  MobilityReport report;
  try {
    report = analyze_mobility(model, q, options);
  } catch (const InvalidArgument& e) {
    throw UsageError(o.model_path + ": " + (o.has_q ? "--q" : "neutral configuration") + ": " + e.what());
  }
  if (o.json) return write_json(mobility_json(model, report)) + "\n";
  const std::string where =
      model.loops.empty() ? std::string("(no loops)")
                          : std::string("at the configuration assembled from ") + (o.has_q ? "--q" : model.initial_configuration.size() > 0 ? "initial_configuration" : "the neutral one");
  return mobility_text(model, report, where);
}

}  // namespace

void add_mobility_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<MobilityCommandOptions>();
  CLI::App* sub =
      app.add_subcommand("mobility",
                         "Degrees of freedom, redundant constraints and actuation of a model with loops; twists and "
                         "constraint wrenches of a body.");
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md)")->required();
  CLI::Option* q = sub->add_option("--q", o->q,
                                   "configuration guess: nq comma-separated numbers (default: neutral); "
                                   "the passive coordinates are solved for");
  sub->add_option("--body", o->body, "body whose twists, constraint wrenches and limbs are reported");
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/parallel-manipulators.md)");
  sub->add_option("--tolerance", o->tolerance, "relative singular-value tolerance of the rank decisions (default 1e-9)")
      ->check(CLI::Range(1e-15, 0.1));
  sub->footer(
      "Examples:\n"
      "  mechdyn mobility examples/models/four_bar.yaml --q 0.6,0.6,0.6\n"
      "  mechdyn mobility robot.yaml --body platform --json\n"
      "Screws: twists (w; v) and wrenches (f; m), world frame, about the world origin.\n"
      "Exit status: 0 ok, 2 bad input (unknown body, malformed --q, loops that cannot close), 3 solver failure.");
  sub->callback([o, q, &selected] {
    o->has_q = q->count() > 0;
    selected = [o](std::ostream& out) { out << run_mobility(*o); };
  });
}

}  // namespace mechdyn::cli
