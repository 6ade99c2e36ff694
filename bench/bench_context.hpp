// What every benchmark program writes into Google Benchmark's context block.
#pragma once

#include <string>

namespace mechdyn::bench {

/// The CPU's "model name" from /proc/cpuinfo, or "unknown".
std::string cpu_model_name();

}  // namespace mechdyn::bench
