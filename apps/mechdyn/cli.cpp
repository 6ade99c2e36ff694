// mechdyn's command line as a function (docs/cli.md): parses the arguments, runs one
// subcommand, writes its output to `out` and returns the exit status. main.cpp calls it
// with std::cout; the fuzz targets (fuzz/) call it in process.
//
//   mechdyn eval MODEL --q Q --v V [--a A] [--tau TAU] [--json]   one state, every quantity
//   mechdyn simulate MODEL [--scenario FILE] ...                 forward / inverse dynamics in time
//   mechdyn info MODEL                                           the model's structure
//   mechdyn mobility MODEL [--q Q] [--body NAME] [--json]        dof, redundancy, actuation, screws
//   mechdyn invdyn MODEL --motion BODY=FILE.csv [--wrench ...]   inverse dynamics along a body motion
//   mechdyn convert INPUT -o OUTPUT [--merge-fixed] [--floating-base]   between YAML, URDF, SDFormat, MJCF
//   mechdyn view MODEL [RUN.csv] -o DIR                          a web page that draws and plays a run
//   mechdyn static MODEL [--q Q] [--json]                         equilibrium under gravity (flexible bodies too)
//   mechdyn modes MODEL [--q Q] [--locked actuated|none] [--json] natural frequencies about it
//   mechdyn sweep SPEC.yaml [--threads N] [-o FILE]              simulations over parameter sets
//   mechdyn codegen MODEL -o DIR [--language c|cpp]             generated C for one mechanism
//
// Exit status: 0 success; 2 bad input (one line "mechdyn: <problem>" on stderr, nothing
// on stdout); 3 solver failure or resource exhaustion (out of memory, the step budget, an
// output that cannot be written; one line); 1 an internal error (a bug: please report).
// The error line is the last line on stderr; only reader warnings ("mechdyn: warning:
// ...") may come before it.
#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "csv_output.hpp"
#include "mechdyn/simulation/integration_budget.hpp"

namespace mechdyn::cli {

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
  clear_progress();
  std::cerr << "mechdyn: " << one_line(message) << std::endl;
  return status;
}

// Options whose value may begin with '-' (negative numbers, "-sin(t)"): "--q -0.5,0.2"
// is rewritten to "--q=-0.5,0.2" so that the parser never takes the value for an option.
std::vector<std::string> join_option_values(const std::vector<std::string>& arguments) {
  static const std::set<std::string> takes_value = {
      "--q", "--v", "--a", "--tau", "--q0", "--v0", "--accelerations", "--velocities", "--duration", "--step",
      "--rtol", "--atol", "--every", "--tolerance", "--start"};
  std::vector<std::string> args;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& arg = arguments[i];
    if (takes_value.count(arg) != 0 && i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) {
      args.push_back(arg + "=" + arguments[i + 1]);
      ++i;
    } else {
      args.push_back(arg);
    }
  }
  return args;
}

int run_unguarded(const std::vector<std::string>& arguments, std::ostream& out) {
  CLI::App app{"mechdyn: rigid-body dynamics of trees in natural frames (docs/cli.md)", "mechdyn"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  mechdyn info examples/models/five_axis_tree.yaml\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0.1,0.2,0.3,0.4,0.5 --v 0,0,0,0,0 --json\n"
      "  mechdyn simulate --scenario examples/scenarios/five_axis_constant_accel.yaml --output run.csv\n"
      "Exit status: 0 ok, 2 bad input, 3 solver failure or resource exhaustion.");
  CommandRunner selected;
  add_eval_command(app, selected);
  add_simulate_command(app, selected);
  add_info_command(app, selected);
  add_mobility_command(app, selected);
  add_invdyn_command(app, selected);
  add_convert_command(app, selected);
  add_view_command(app, selected);
  add_static_command(app, selected);
  add_modes_command(app, selected);
  add_linearize_command(app, selected);
  add_sweep_command(app, selected);
  add_codegen_command(app, selected);

  const std::vector<std::string> args = join_option_values(arguments);
  if (!args.empty() && args[0].rfind("-", 0) != 0 &&
      std::set<std::string>{"eval", "simulate", "info", "mobility", "invdyn", "convert", "view", "static", "modes", "linearize", "sweep", "codegen"}
              .count(args[0]) == 0)
    return fail(kExitBadInput, "unknown command '" + args[0] +
                                   "' (commands: eval, simulate, info, mobility, invdyn, convert, view, static, modes, linearize, sweep, codegen)");
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e, out, std::cerr);  // --help
    return fail(kExitBadInput, e.what());
  }
  try {
    if (selected) selected(out);
    out.flush();
    if (!out) throw OutputError("cannot write to standard output");
    return kExitOk;
  } catch (const BudgetExceeded& e) {
    return fail(kExitSolver, std::string(e.what()) + "; raise the limit with " +
                                 (e.wall_time() ? "--max-wall-time SECONDS" : "--max-steps N") + " (docs/cli.md)");
  } catch (const OutputError& e) {  // disk full, closed pipe: resource exhaustion
    return fail(kExitSolver, e.what());
  } catch (const mechdyn::SolverError& e) {
    return fail(kExitSolver, e.what());
  } catch (const mechdyn::Error& e) {  // ModelError, InvalidArgument, UsageError
    return fail(kExitBadInput, e.what());
  } catch (const YAML::Exception& e) {
    return fail(kExitBadInput, e.what());
  } catch (const CLI::Error& e) {
    return fail(kExitBadInput, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kExitSolver, "out of memory (the model or the request is too large for this machine)");
  } catch (const std::length_error& e) {  // a container asked for more than it can hold
    return fail(kExitSolver, std::string("out of memory: ") + e.what());
  } catch (const std::exception& e) {
    return fail(kExitInternal, std::string("internal error: ") + e.what());
  }
}

}  // namespace

int run(const std::vector<std::string>& arguments, std::ostream& out) {
  try {
    return run_unguarded(arguments, out);
  } catch (const std::bad_alloc&) {  // outside the command: parsing the arguments
    return fail(kExitSolver, "out of memory");
  }
}

}  // namespace mechdyn::cli
