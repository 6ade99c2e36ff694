// What every benchmark program writes into Google Benchmark's context block.
#pragma once

#include <string>

// The commit and build type come from bench/CMakeLists.txt (compile definitions).
#ifndef MECHDYN_GIT_COMMIT
#define MECHDYN_GIT_COMMIT "unknown"
#endif
#ifndef MECHDYN_BUILD_TYPE
#define MECHDYN_BUILD_TYPE "unknown"
#endif

namespace mechdyn::bench {

/// The CPU's "model name" from /proc/cpuinfo, or "unknown".
std::string cpu_model_name();

}  // namespace mechdyn::bench
