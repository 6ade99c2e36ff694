// The mechdyn command line as a function (cli.cpp): main.cpp and the fuzz targets call it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace mechdyn::cli {

/// Runs `mechdyn <arguments...>` (arguments without the program name): the command's
/// output goes to `out`, errors and warnings to std::cerr. Returns the exit status
/// (0 ok, 2 bad input, 3 solver failure or resource exhaustion, 1 a bug).
int run(const std::vector<std::string>& arguments, std::ostream& out);

}  // namespace mechdyn::cli
