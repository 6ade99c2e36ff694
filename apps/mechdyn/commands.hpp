// The subcommands of the mechdyn tool. Each add_* registers its options on `app` and,
// when the subcommand is selected, stores in `selected` the function that runs it.
// A command writes its standard output to the stream it is given. eval and info compute
// and check everything first and print only then (nothing on stdout on an error);
// simulate streams its CSV rows as they are computed (csv_output.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace mechdyn::cli {

using CommandRunner = std::function<void(std::ostream& out)>;

void add_eval_command(CLI::App& app, CommandRunner& selected);
void add_simulate_command(CLI::App& app, CommandRunner& selected);
void add_info_command(CLI::App& app, CommandRunner& selected);
void add_mobility_command(CLI::App& app, CommandRunner& selected);
void add_invdyn_command(CLI::App& app, CommandRunner& selected);
void add_convert_command(CLI::App& app, CommandRunner& selected);
void add_view_command(CLI::App& app, CommandRunner& selected);
void add_static_command(CLI::App& app, CommandRunner& selected);  // equilibrium_commands.cpp
void add_modes_command(CLI::App& app, CommandRunner& selected);   // equilibrium_commands.cpp
void add_linearize_command(CLI::App& app, CommandRunner& selected);
void add_sweep_command(CLI::App& app, CommandRunner& selected);
void add_codegen_command(CLI::App& app, CommandRunner& selected);

/// Erases a progress bar from the terminal (before an error message is printed).
void clear_progress();

}  // namespace mechdyn::cli
