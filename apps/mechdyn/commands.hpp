// The subcommands of the mechdyn tool. Each add_* registers its options on `app` and,
// when the subcommand is selected, stores in `selected` the function that runs it.
// A command returns its standard output as a string; it is printed only on success.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace mechdyn::cli {

using CommandRunner = std::function<std::string()>;

void add_eval_command(CLI::App& app, CommandRunner& selected);
void add_simulate_command(CLI::App& app, CommandRunner& selected);
void add_info_command(CLI::App& app, CommandRunner& selected);
void add_mobility_command(CLI::App& app, CommandRunner& selected);
void add_convert_command(CLI::App& app, CommandRunner& selected);

/// Erases a progress bar from the terminal (before an error message is printed).
void clear_progress();

}  // namespace mechdyn::cli
