// Fuzz target: `mechdyn eval` (and `info`) end to end, in process (apps/mechdyn/cli.cpp).
// Input: model file text, then optionally a line "#state" followed by up to four lines
// q, v, a, tau (comma-separated numbers). The first byte of the model text picks the mode
// (JSON or text, explicit or recursive, with or without --derivatives, eval or info) and is
// then dropped.
// Contract checked (issue 16): exit status 0, 2 or 3 — never 1 (an internal error), no
// crash; stderr holds only reader warnings and, on an error, one error line, last; with
// status 0 and --json the output is one valid JSON object whose every number is finite
// (a NaN or inf printed with status 0 fails the parse or the check).
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

bool all_numbers_finite(const nlohmann::json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_array() || value.is_object()) {
    for (const auto& item : value)
      if (!all_numbers_finite(item)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::ostringstream sink;
  static std::streambuf* const silenced = std::cerr.rdbuf(sink.rdbuf());
  (void)silenced;
  static const std::string path = "/tmp/mechdyn_fuzz_eval_" + std::to_string(::getpid()) + ".yaml";
  sink.str(std::string());
  if (size == 0) return 0;
  const unsigned mode = data[0];
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string> state;
  const auto marker = text.find("\n#state\n");
  if (marker != std::string::npos) {
    std::istringstream lines(text.substr(marker + 8));
    std::string line;
    while (state.size() < 4 && std::getline(lines, line)) state.push_back(line);
    text.resize(marker + 1);
  }
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
  }
  const bool info = (mode & 8u) != 0;
  const bool json = (mode & 1u) != 0;
  std::vector<std::string> arguments{info ? "info" : "eval", path};
  if (!info) {
    const char* options[] = {"--q", "--v", "--a", "--tau"};
    for (std::size_t i = 0; i < state.size(); ++i)
      if (!state[i].empty()) arguments.insert(arguments.end(), {options[i], state[i]});
    if (json) arguments.push_back("--json");
    if ((mode & 2u) != 0) arguments.insert(arguments.end(), {"--method", "recursive"});
    if ((mode & 4u) != 0) arguments.push_back("--derivatives");  // docs/derivatives.md
  }
  std::ostringstream out;
  const int status = mechdyn::cli::run(arguments, out);
  if (status != 0 && status != 2 && status != 3) std::abort();  // 1: an internal error
  // stderr: only "mechdyn: warning: ..." lines, then (on an error) one "mechdyn: ..." line, last.
  std::istringstream err(sink.str());
  std::vector<std::string> err_lines;
  for (std::string line; std::getline(err, line);) err_lines.push_back(line);
  for (std::size_t i = 0; i < err_lines.size(); ++i) {
    const bool warning = err_lines[i].rfind("mechdyn: warning: ", 0) == 0;
    const bool last_error = status != 0 && i + 1 == err_lines.size() && err_lines[i].rfind("mechdyn: ", 0) == 0;
    if (!warning && !last_error) std::abort();
  }
  if (status != 0 && (err_lines.empty() || err_lines.back().rfind("mechdyn: warning: ", 0) == 0)) std::abort();
  if (status == 0 && json && !info) {
    const nlohmann::json parsed = nlohmann::json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object() || !all_numbers_finite(parsed)) std::abort();
  }
  return 0;
}
