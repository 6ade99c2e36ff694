// Fuzz target: the scenario reader of `simulate` (apps/mechdyn/scenario_file.cpp) and the
// settings check. Contract: a UsageError (exit status 2) or settings that pass the check;
// nothing else escapes, no crash. Warnings (stderr) are silenced.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

#include "common.hpp"
#include "scenario_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::ostringstream sink;
  static std::streambuf* const silenced = std::cerr.rdbuf(sink.rdbuf());
  (void)silenced;
  sink.str(std::string());
  const std::string text(reinterpret_cast<const char*>(data), size);
  mechdyn::cli::Settings settings;
  try {
    mechdyn::cli::read_scenario_text(text, "fuzz/scenario.yaml", settings);
    mechdyn::cli::check_settings(settings);
  } catch (const mechdyn::cli::UsageError&) {
  }
  return 0;
}
