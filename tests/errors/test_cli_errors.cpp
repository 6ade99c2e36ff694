// Bad input to the mechdyn tool: every case gives exactly one line on stderr that
// starts with "mechdyn: " and names the problem, exit status 2 (3 for a solver
// failure), and nothing on stdout. Each test names the bug it would catch.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;

const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");
const std::string kFloating = source_path("examples/models/floating_base.yaml");
const std::string kState = " --q 0,0,0,0,0 --v 0,0,0,0,0";

// One stderr line "mechdyn: ...", containing `expected` (case-sensitive), no stdout.
void expect_failure(const std::string& arguments, const std::string& expected, int status = 2) {
  SCOPED_TRACE("mechdyn " + arguments);
  const CliResult r = run_cli(arguments);
  EXPECT_EQ(r.status, status);
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.rfind("mechdyn: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << "message: " << r.err;
}

// Bug caught: a missing file crashing or printing a stack of messages.
TEST(CliErrors, MissingModelFile) { expect_failure("eval /nonexistent/model.yaml" + kState, "/nonexistent/model.yaml"); }

// Bug caught: a YAML syntax error escaping as an uncaught yaml-cpp exception.
TEST(CliErrors, MalformedYaml) {
  const std::string path = write_temporary_file("malformed.yaml", "mechdyn: 1\nname: [unclosed\nbodies: {\n");
  expect_failure("eval " + path, path);
  expect_failure("info " + path, path);
  expect_failure("simulate " + path, path);
}

// Bug caught: a physically invalid model (ModelError) accepted or reported with status 1.
TEST(CliErrors, InvalidModel) {
  const std::string path = write_temporary_file("negative_mass.yaml", R"(mechdyn: 1
name: bad
bodies:
  - name: B
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: -1
    com: [0, 0, 0]
    inertia: {diag: [1, 1, 1]}
)");
  expect_failure("eval " + path + " --q 0 --v 0", "mass");
}

// Bug caught: a vector of the wrong size read past its end or silently padded.
TEST(CliErrors, WrongCountOfNumbers) {
  expect_failure("eval " + kFiveAxis + " --q 1,2,3 --v 0,0,0,0,0", "--q has 3 numbers, the model needs 5");
  expect_failure("eval " + kFiveAxis + " --q 0,0,0,0,0 --v 0,0,0,0,0,0", "--v has 6 numbers");
  expect_failure("eval " + kFiveAxis + kState + " --a 1", "--a has 1 number");
  expect_failure("eval " + kFiveAxis + kState + " --tau 1,2,3,4", "--tau has 4 numbers");
  expect_failure("simulate " + kFiveAxis + " --q0 1,2", "q0 has 2 numbers");
  expect_failure("simulate " + kFiveAxis + " --tau 1,2", "tau has 2 expressions");
}

// Bug caught: strtod accepting a prefix ("1x" → 1) or an empty entry as 0.
TEST(CliErrors, NonNumericNumbers) {
  expect_failure("eval " + kFiveAxis + " --q 0,0,abc,0,0 --v 0,0,0,0,0", "--q[2] 'abc' is not a number");
  expect_failure("eval " + kFiveAxis + " --q 0,0,1x,0,0 --v 0,0,0,0,0", "'1x' is not a number");
  expect_failure("eval " + kFiveAxis + " --q 0,,0,0,0 --v 0,0,0,0,0", "--q[1] is empty");
  expect_failure("simulate " + kFiveAxis + " --duration abc", "--duration");
}

// Bug caught: NaN or infinity passed into the dynamics (and NaN printed).
TEST(CliErrors, NonFiniteNumbers) {
  expect_failure("eval " + kFiveAxis + " --q 0,nan,0,0,0 --v 0,0,0,0,0", "not finite");
  expect_failure("eval " + kFiveAxis + " --q 0,0,0,0,0 --v inf,0,0,0,0", "not finite");
  expect_failure("eval " + kFiveAxis + " --q 0,0,0,0,1e999 --v 0,0,0,0,0", "not finite");
}

// Bug caught: a non-unit quaternion silently normalised (the contract: beyond 1e-6 is an error).
TEST(CliErrors, NonUnitQuaternion) {
  expect_failure("eval " + kFloating + " --q 0,0,0,1.01,0,0,0,0,0,0,0 --v 0,0,0,0,0,0,0,0,0,0", "quaternion");
  expect_failure("simulate " + kFloating + " --q0 0,0,0,0,0,0,0,0,0,0,0", "quaternion");
  // Within 1e-6 it is accepted.
  const CliResult ok = run_cli("eval " + kFloating + " --q 0,0,0,1.0000005,0,0,0,0,0,0,0 --v 0,0,0,0,0,0,0,0,0,0");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// Bug caught: muParser exceptions escaping, or a bad expression found only mid-run.
TEST(CliErrors, BadExpressions) {
  expect_failure("simulate " + kFiveAxis + " --tau 'sin(t,0,0,0,0'", "tau");
  expect_failure("simulate " + kFiveAxis + " --tau 'x*t,0,0,0,0'", "tau[0] 'x*t'");
  expect_failure("simulate " + kFiveAxis + " --tau '0,0,0,0,2*+'", "tau[4]");
  expect_failure("simulate " + kFiveAxis + " --mode inverse --accelerations '1/t,0,0,0,0'", "not finite at t = 0");
}

// Bug caught: CLI11's multi-line error text, or status 1 or 0 for a usage error.
TEST(CliErrors, UnknownOptionsAndCommands) {
  expect_failure("eval " + kFiveAxis + " --bogus", "--bogus");
  expect_failure("frobnicate " + kFiveAxis, "frobnicate");
  expect_failure("", "subcommand");
  expect_failure("eval", "MODEL");
  expect_failure("eval " + kFiveAxis + " --method magic", "magic");
  expect_failure("simulate " + kFiveAxis + " --integrator euler", "euler");
  expect_failure("simulate " + kFiveAxis + " --step -0.1", "step");
  expect_failure("simulate " + kFiveAxis + " --step 0", "step");
  expect_failure("simulate " + kFiveAxis + " --every 0", "every");
  expect_failure("eval " + kFiveAxis + " --q", "--q");
}

// Bug caught: scenario problems (missing file, a bad key value) escaping as exceptions.
TEST(CliErrors, BadScenario) {
  expect_failure("simulate --scenario /nonexistent/scenario.yaml", "/nonexistent/scenario.yaml");
  const std::string bad = write_temporary_file("bad_scenario.yaml",
                                               "model: " + kFiveAxis + "\nmode: sideways\nduration: 1\n");
  expect_failure("simulate --scenario " + bad, "sideways");
  const std::string missing_model = write_temporary_file("no_model.yaml", "duration: 1\n");
  expect_failure("simulate --scenario " + missing_model, "no model");
  const std::string malformed = write_temporary_file("malformed_scenario.yaml", "model: [\n");
  expect_failure("simulate --scenario " + malformed, "scenario");
}

// Bug caught: a simulation that diverges printing inf/NaN rows instead of exit status 3,
// or leaving a partial CSV behind. A 1 kg slider under 1e308 N overflows in a few steps.
TEST(CliErrors, SolverFailureGivesStatus3AndNoFile) {
  const std::string model = write_temporary_file("slider.yaml", R"(mechdyn: 1
name: slider
bodies:
  - name: block
    parent: ground
    joint: {name: X, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0]}
    mass: 1
    com: [0, 0, 0]
    inertia: {diag: [0.1, 0.1, 0.1]}
)");
  const std::string csv = temporary_path("diverged.csv");
  expect_failure("simulate " + model + " --tau 1e308 --duration 10 --step 1 --output " + csv, "t = ", 3);
  EXPECT_EQ(std::fopen(csv.c_str(), "r"), nullptr) << "a partial CSV was left behind";
  // Without --output the rows stream to stdout (docs/cli.md): only whole rows from before
  // the failure, none with a non-finite number; then status 3 and one line.
  const CliResult streamed = run_cli("simulate " + model + " --tau 1e308 --duration 10 --step 1 --integrator dopri5");
  EXPECT_EQ(streamed.status, 3);
  EXPECT_EQ(streamed.err.find('\n'), streamed.err.size() - 1) << streamed.err;
  EXPECT_NE(streamed.err.find("t = "), std::string::npos) << streamed.err;
  EXPECT_TRUE(streamed.out.empty() || streamed.out.back() == '\n');
  EXPECT_EQ(streamed.out.find("inf"), std::string::npos) << streamed.out;
  EXPECT_EQ(streamed.out.find("nan"), std::string::npos) << streamed.out;
}

// Bug caught: an unwritable output path crashing after the simulation ran.
TEST(CliErrors, UnwritableOutput) {
  expect_failure("simulate " + kFiveAxis + " --duration 0.01 --output /nonexistent/dir/out.csv", "/nonexistent/dir/out.csv");
}

}  // namespace
