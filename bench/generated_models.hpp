// The code `mechdyn codegen` wrote, at benchmark build time, for the peer benchmark's
// models (bench/write_generated_models.cpp, bench/CMakeLists.txt), compiled into
// mechdyn_bench_peers with the benchmark's flags.
#pragma once

#include <string>

#include "generated_code.hpp"

namespace mechdyn::bench {

/// The generated functions of the benchmark model `name` (bench_models.hpp), or nullptr
/// when none were generated for it.
const GeneratedFunctions* generated_functions(const std::string& name);

}  // namespace mechdyn::bench
