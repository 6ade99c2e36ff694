// mechdyn: command-line front end of the mechdyn library (docs/cli.md).
//
//   mechdyn eval MODEL --q Q --v V [--a A] [--tau TAU] [--json]   one state, every quantity
//   mechdyn simulate MODEL [--scenario FILE] ...                 forward / inverse dynamics in time
//   mechdyn info MODEL                                           the model's structure
//   mechdyn mobility MODEL [--q Q] [--body NAME] [--json]        dof, redundancy, actuation, screws
//   mechdyn convert INPUT -o OUTPUT [--merge-fixed] [--floating-base]   between YAML, URDF, SDFormat, MJCF
//
// Exit status: 0 success; 2 bad input (one line "mechdyn: <problem>" on stderr, nothing
// on stdout); 3 solver failure (one line); 1 an internal error (a bug: please report).
#include <CLI/CLI.hpp>
#include <yaml-cpp/yaml.h>

#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"

namespace {

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  constexpr std::size_t kLongest = 400;  // e.g. a whole non-YAML file quoted by the reader
  if (text.size() > kLongest) text = text.substr(0, kLongest) + " ...";
  return text;
}

int fail(int status, const std::string& message) {
  mechdyn::cli::clear_progress();
  std::cerr << "mechdyn: " << one_line(message) << std::endl;
  return status;
}

// Options whose value may begin with '-' (negative numbers, "-sin(t)"): "--q -0.5,0.2"
// is rewritten to "--q=-0.5,0.2" so that the parser never takes the value for an option.
std::vector<std::string> join_option_values(int argc, char** argv) {
  static const std::set<std::string> takes_value = {
      "--q", "--v", "--a", "--tau", "--q0", "--v0", "--accelerations", "--duration", "--step",
      "--rtol", "--atol", "--every", "--tolerance"};
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (takes_value.count(arg) != 0 && i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0) {
      args.push_back(arg + "=" + argv[i + 1]);
      ++i;
    } else {
      args.push_back(arg);
    }
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mechdyn: rigid-body dynamics of trees in natural frames (docs/cli.md)", "mechdyn"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  mechdyn info examples/models/five_axis_tree.yaml\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0.1,0.2,0.3,0.4,0.5 --v 0,0,0,0,0 --json\n"
      "  mechdyn simulate --scenario examples/scenarios/five_axis_constant_accel.yaml --output run.csv\n"
      "Exit status: 0 ok, 2 bad input, 3 solver failure.");
  mechdyn::cli::CommandRunner selected;
  mechdyn::cli::add_eval_command(app, selected);
  mechdyn::cli::add_simulate_command(app, selected);
  mechdyn::cli::add_info_command(app, selected);
  mechdyn::cli::add_mobility_command(app, selected);
  mechdyn::cli::add_convert_command(app, selected);

  std::vector<std::string> args = join_option_values(argc, argv);
  if (!args.empty() && args[0].rfind("-", 0) != 0 &&
      std::set<std::string>{"eval", "simulate", "info", "mobility", "convert"}.count(args[0]) == 0)
    return fail(mechdyn::cli::kExitBadInput, "unknown command '" + args[0] + "' (commands: eval, simulate, info, mobility, convert)");
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help
    return fail(mechdyn::cli::kExitBadInput, e.what());
  }
  try {
    const std::string output = selected ? selected() : std::string();
    std::cout << output;
    std::cout.flush();
    if (!std::cout) return fail(1, "cannot write to standard output");
    return mechdyn::cli::kExitOk;
  } catch (const mechdyn::SolverError& e) {
    return fail(mechdyn::cli::kExitSolver, e.what());
  } catch (const mechdyn::Error& e) {  // ModelError, InvalidArgument, UsageError
    return fail(mechdyn::cli::kExitBadInput, e.what());
  } catch (const YAML::Exception& e) {
    return fail(mechdyn::cli::kExitBadInput, e.what());
  } catch (const CLI::Error& e) {
    return fail(mechdyn::cli::kExitBadInput, e.what());
  } catch (const std::exception& e) {
    return fail(1, std::string("internal error: ") + e.what());
  }
}
