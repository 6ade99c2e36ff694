// Runs the built mechdyn command-line tool (MECHDYN_CLI_PATH) and captures its exit
// status, standard output and standard error. Header-only; for tests/unit/test_cli.cpp
// and tests/errors/test_cli_errors.cpp.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace mechdyn::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

/// A fresh path in the test temporary directory. Whatever an earlier test process left there
/// is removed first: process ids repeat (pid_max 32768, and /tmp keeps every run's files), and
/// a stale page directory from a process with the same id and counter made the view tests'
/// "no page written" checks fail now and then under ctest -j2.
inline std::string temporary_path(const std::string& name) {
  static int counter = 0;
  const std::string path =
      ::testing::TempDir() + "mechdyn_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + name;
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string write_temporary_file(const std::string& name, const std::string& text) {
  const std::string path = temporary_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// `arguments` is appended to the tool's path as shell text (quote as in a shell).
inline CliResult run_cli(const std::string& arguments) {
  const std::string err_path = temporary_path("stderr.txt");
  const std::string command = std::string(MECHDYN_CLI_PATH) + " " + arguments + " 2>" + err_path;
  CliResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[65536];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_file(err_path);
  std::remove(err_path.c_str());
  return result;
}

inline std::string source_path(const std::string& relative) { return std::string(MECHDYN_SOURCE_DIR) + "/" + relative; }

}  // namespace mechdyn::testing
