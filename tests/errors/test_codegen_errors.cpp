// `mechdyn codegen MODEL -o DIR` (docs/codegen.md): a model it cannot express, an
// unwritable or foreign output directory, a bad option give one line "mechdyn: ..."
// naming the problem, exit status 2, and nothing written — not even a half-written
// directory (the files are staged in DIR.partial-PID and renamed at the end). A good run
// writes the four files and may replace its own earlier output, never a directory it did
// not write. Each test names the bug it would catch.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;

const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");

// Nothing at `dir` and no staging directory beside it.
void expect_nothing_written(const std::string& dir) {
  EXPECT_FALSE(fs::exists(dir)) << dir;
  const fs::path parent = fs::path(dir).parent_path();
  const std::string stem = fs::path(dir).filename().string();
  if (!fs::is_directory(parent)) return;
  for (const auto& entry : fs::directory_iterator(parent))
    EXPECT_NE(entry.path().filename().string().rfind(stem + ".partial", 0), 0u) << entry.path();
}

void expect_one_line_failure(const CliResult& r, const std::string& expected) {
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.rfind("mechdyn: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
}

// Bug caught: a flexible body generated as if it were rigid (its elastic coordinates
// dropped), or a half-written directory left behind.
TEST(CodegenErrors, FlexibleBodyIsRefusedByName) {
  const std::string dir = temporary_path("code");
  expect_one_line_failure(run_cli("codegen " + source_path("examples/models/flexible_arm.yaml") + " -o " + dir),
                          "body 'link2': flexible bodies cannot be generated");
  expect_nothing_written(dir);
}

// Bug caught: a closed chain generated as its spanning tree without a word (its loop
// constraints silently lost).
TEST(CodegenErrors, LoopIsRefusedByName) {
  const std::string dir = temporary_path("code");
  const CliResult r = run_cli("codegen " + source_path("examples/models/four_bar.yaml") + " -o " + dir);
  expect_one_line_failure(r, "closed chains cannot be generated");
  EXPECT_NE(r.err.find("loop '"), std::string::npos) << r.err;
  expect_nothing_written(dir);
}

// Bug caught: an output directory that cannot be created (here under a regular file, which
// even root cannot do) crashing, or reported with another status than bad input.
TEST(CodegenErrors, UnwritableDirectory) {
  const std::string file = write_temporary_file("not_a_directory", "x");
  const std::string dir = file + "/code";
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir), "cannot create the output directory");
  EXPECT_TRUE(fs::is_regular_file(file));
}

// Bug caught: -o pointing at a directory of the user's being emptied or overwritten.
TEST(CodegenErrors, RefusesADirectoryItDidNotWrite) {
  const std::string dir = temporary_path("users_dir");
  fs::create_directories(dir);
  std::ofstream(dir + "/notes.txt") << "mine";
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir), "was not written by mechdyn codegen");
  EXPECT_EQ(read_file(dir + "/notes.txt"), "mine");
  EXPECT_FALSE(fs::exists(dir + "/five_axis_tree.c"));
}

// Bug caught: a prefix that is not a C identifier (or a keyword) producing code that does
// not compile, after the directory was written.
TEST(CodegenErrors, BadPrefixAndLanguage) {
  const std::string dir = temporary_path("code");
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir + " --prefix 9lives"), "'9lives' is not usable");
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir + " --prefix 'a-b'"), "'a-b' is not usable");
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir + " --language cpp --prefix namespace"),
                          "'namespace' is not usable");
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir + " --language fortran"),
                          "--language 'fortran': expected c or cpp");
  expect_nothing_written(dir);
}

// Bug caught: --forward-dynamics ignored (the default form written whatever was asked), a
// bad value or an articulated form for a joint of several coordinates accepted (a spherical
// joint's ball written as if it had one axis), or a refusal leaving files behind.
TEST(CodegenErrors, ForwardDynamicsForm) {
  const std::string dir = temporary_path("code");
  expect_one_line_failure(run_cli("codegen " + kFiveAxis + " -o " + dir + " --forward-dynamics newton"),
                          "--forward-dynamics 'newton': expected cheaper, factor or articulated");
  const std::string ball = write_temporary_file(
      "ball.yaml",
      "mechdyn: 1\nname: ball\nbodies:\n  - {name: b, parent: ground, joint: {name: shoulder, type: spherical, "
      "origin: [0, 0, 0]}, mass: 1, com: [0, 0, -0.5], inertia: {diag: [0.1, 0.1, 0.1]}}\n");
  expect_one_line_failure(run_cli("codegen " + ball + " -o " + dir + " --forward-dynamics articulated"),
                          "joint 'shoulder' has 3 coordinates");
  expect_nothing_written(dir);
  ASSERT_EQ(run_cli("codegen " + ball + " -o " + dir + " --forward-dynamics factor").status, 0);
  for (const auto& [form, summary] : {std::pair<std::string, std::string>{"factor", "by the branch-sparse L^T D L of M"},
                                      {"articulated", "by the articulated-body algorithm"}}) {
    const CliResult r = run_cli("codegen " + kFiveAxis + " -o " + dir + " --forward-dynamics " + form);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string source = read_file(dir + "/five_axis_tree.c");
    EXPECT_NE(source.find(summary), std::string::npos) << form;
  }
}

// Bug caught: a missing model file or a model with no coordinates producing empty code.
TEST(CodegenErrors, MissingModelAndNothingToGenerate) {
  const std::string dir = temporary_path("code");
  expect_one_line_failure(run_cli("codegen /nonexistent/model.yaml -o " + dir), "/nonexistent/model.yaml");
  const std::string welded = write_temporary_file(
      "welded.yaml",
      "mechdyn: 1\nname: welded\nbodies:\n  - {name: b, parent: ground, joint: {type: fixed, origin: [0, 0, 0]}, "
      "mass: 1, com: [0, 0, 0], inertia: {diag: [1, 1, 1]}}\n");
  expect_one_line_failure(run_cli("codegen " + welded + " -o " + dir), "no degrees of freedom");
  expect_nothing_written(dir);
}

// Bug caught: a good run not writing the four files (or its marker), or a second run
// refusing to replace the directory it wrote itself.
TEST(CodegenErrors, WritesAndReplacesItsOwnDirectory) {
  const std::string dir = temporary_path("code");
  CliResult r = run_cli("codegen " + kFiveAxis + " -o " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"five_axis_tree.h", "five_axis_tree.c", "CMakeLists.txt", "README.md", ".mechdyn-codegen"})
    EXPECT_TRUE(fs::is_regular_file(dir + "/" + name)) << name;
  EXPECT_NE(r.out.find("five_axis_tree_mass_matrix"), std::string::npos) << r.out;
  r = run_cli("codegen " + kFiveAxis + " -o " + dir + " --language cpp --prefix tree");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir + "/tree.hpp"));
  EXPECT_FALSE(fs::exists(dir + "/five_axis_tree.c")) << "the earlier output was not replaced as a whole";
  expect_nothing_written(dir + ".never");
}

// Bug caught: a model with joint friction refused, or generated without its friction
// function, or the command's summary not reporting the exp and sqrt the friction costs.
TEST(CodegenErrors, FrictionModelGeneratesTheFrictionFunction) {
  const std::string dir = temporary_path("code");
  const CliResult r = run_cli("codegen " + source_path("examples/models/five_axis_tree_stribeck.yaml") + " -o " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("five_axis_tree_stribeck_inverse_dynamics_with_friction: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" exp\n"), std::string::npos) << r.out;
  EXPECT_NE(read_file(dir + "/five_axis_tree_stribeck.h").find("void five_axis_tree_stribeck_inverse_dynamics_with_friction("),
            std::string::npos);
}

// A version-3 pendulum with one extra force block (or a coupling), for the refusals below.
std::string format3_model(const std::string& name, const std::string& extra) {
  return write_temporary_file(
      name + ".yaml",
      "mechdyn: 3\nname: " + name + "\nbodies:\n"
      "  - {name: b1, parent: ground, joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], armature: 0.1}, "
      "mass: 1, com: [0, -0.5, 0], inertia: {diag: [0.1, 0.1, 0.1]}}\n"
      "  - {name: b2, parent: b1, joint: {name: J2, type: revolute, axis: [0, 0, 1], origin: [0, -1, 0]}, "
      "mass: 1, com: [0, -0.5, 0], inertia: {diag: [0.1, 0.1, 0.1]}}\n" +
          extra);
}

// Bug caught: a force element codegen cannot express (a stop's non-smooth contact, a servo's
// or an applied load's functions of time, a bushing's rotation log) or a coupling's
// constraint row silently dropped from the generated dynamics — the code would compute a
// different mechanism than `mechdyn eval`. Each is refused by name, exit 2, nothing written.
TEST(CodegenErrors, UnsupportedForceElementsAndCouplingsAreRefusedByName) {
  const std::string dir = temporary_path("code");
  const std::pair<std::string, std::string> cases[] = {
      {"forces:\n  - {name: stop1, type: joint-stop, joint: J2, lower: -1, upper: 1, stiffness: 1000}\n",
       "force 'stop1': joint-stop elements cannot be generated"},
      {"forces:\n  - {name: servo1, type: joint-servo, joint: J1, target: \"0.5*sin(t)\", stiffness: 100}\n",
       "force 'servo1': joint-servo elements cannot be generated"},
      {"forces:\n  - {name: bush1, type: bushing, a: {body: b2, point: [0, -1, 0]}, b: {body: ground, point: [0, -2, 0]}, "
       "stiffness: [1, 1, 1, 1, 1, 1]}\n",
       "force 'bush1': bushing elements cannot be generated"},
      {"forces:\n  - {name: load1, type: applied, body: b2, point: [0, -1, 0], force: [\"0\", \"1\", \"0\"]}\n",
       "force 'load1': applied elements cannot be generated"},
      {"couplings:\n  - {name: gear12, type: gear, a: J1, b: J2, ratio: 2}\n", "coupling 'gear12': couplings cannot be generated"},
  };
  int k = 0;
  for (const auto& [extra, expected] : cases) {
    const std::string model = format3_model("refused" + std::to_string(k++), extra);
    expect_one_line_failure(run_cli("codegen " + model + " -o " + dir), expected);
    expect_nothing_written(dir);
  }
}

// Bug caught: armature, spring-dampers or joint spring-dampers refused, or generated without
// the applied_force function (Q_f), or a spring-damper that can divide by L = 0 written with
// a void inverse dynamics (no way to report the coincident points).
TEST(CodegenErrors, SpringsDampersAndArmatureAreGenerated) {
  const std::string dir = temporary_path("code");
  const std::string model = format3_model(
      "springs", "forces:\n"
                 "  - {name: S1, type: spring-damper, a: {body: b2, point: [0, -1, 0]}, b: {body: ground, point: [1, -2, 0]}, "
                 "stiffness: 100, free_length: 0.5, damping: 2}\n"
                 "  - {name: K2, type: joint-spring-damper, joint: J2, stiffness: 10, damping: 0.1, rest: 0.2}\n");
  const CliResult r = run_cli("codegen " + model + " -o " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("springs_applied_force: "), std::string::npos) << r.out;
  const std::string header = read_file(dir + "/springs.h");
  EXPECT_NE(header.find("int springs_inverse_dynamics("), std::string::npos) << header;
  EXPECT_NE(header.find("int springs_applied_force("), std::string::npos) << header;
  EXPECT_NE(header.find("tau = M(q) a + h(q, v) - Q_f(q, v)"), std::string::npos) << header;
  EXPECT_NE(header.find("Armature"), std::string::npos) << header;
}

}  // namespace
