// mechdyn: command-line front end of the mechdyn library (docs/cli.md). The work is in
// cli.cpp; here only what belongs to the process: SIGPIPE and SIGXFSZ ignored (a closed
// pipe, or a file grown past the size limit, is then a write error reported with exit
// status 3 and one line, not a death by signal).
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return mechdyn::cli::run(arguments, std::cout);
}
