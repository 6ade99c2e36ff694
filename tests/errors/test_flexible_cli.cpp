// The command-line tool on models with flexible bodies (format version 2), until the
// flexible multibody dynamics exists: `info` describes them; `eval` and `simulate` refuse
// them with one line naming the file and the body (exit status 2) instead of treating the
// beam as rigid; a bad flexible block is one line, status 2.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"

namespace mechdyn {
namespace {

using testing::CliResult;
using testing::run_cli;
using testing::source_path;
using testing::write_temporary_file;

const std::string kArm = source_path("examples/models/flexible_arm.yaml");

void expect_one_line_failure(const CliResult& r, const std::string& file, const std::string& element,
                             const std::string& problem) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_EQ(r.err.rfind("mechdyn: " + file + ": " + element + ": ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
}

// Catches: info failing on version 2, or hiding the beam.
TEST(FlexibleCli, InfoDescribesTheBeam) {
  const CliResult r = run_cli("info " + kArm);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("flexible bodies"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("link2: length 0.8 m along [1, 0, 0], 4 elements, 24 elastic coordinates"), std::string::npos)
      << r.out;
}

// Catches: eval/simulate running the rigid algorithms on a beam (a silent wrong answer).
TEST(FlexibleCli, EvalAndSimulateRefuseFlexibleBodies) {
  expect_one_line_failure(run_cli("eval " + kArm + " --json"), kArm, "bodies[1] 'link2'",
                          "is a flexible beam; mechdyn eval treats rigid bodies only");
  expect_one_line_failure(run_cli("simulate " + kArm + " --duration 0.1"), kArm, "bodies[1] 'link2'",
                          "is a flexible beam; mechdyn simulate treats rigid bodies only");
}

// Catches: a reader error on a flexible block escaping as another status or several lines.
TEST(FlexibleCli, BadFlexibleBlockIsOneLine) {
  std::string text = testing::read_file(kArm);
  text.replace(text.find("elements: 4"), 11, "elements: 0");
  const std::string path = write_temporary_file("zero_elements.yaml", text);
  expect_one_line_failure(run_cli("info " + path), path, "bodies[1] 'link2' flexible.elements", "at least 1");

  text = testing::read_file(kArm);
  text.replace(text.find("mechdyn: 2"), 10, "mechdyn: 1");
  const std::string old = write_temporary_file("version_one.yaml", text);
  expect_one_line_failure(run_cli("info " + old), old, "bodies[1] 'link2' flexible", "format version 2");
}

}  // namespace
}  // namespace mechdyn
