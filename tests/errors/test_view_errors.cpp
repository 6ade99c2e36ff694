// `mechdyn view MODEL [RUN.csv] -o DIR` (docs/viewer.md) and `simulate --poses`: bad input
// gives one line "mechdyn: ..." naming the problem, exit status 2, and no page — not even
// a half-written one (the page is staged in DIR.partial-PID and renamed at the end); a
// good run writes the three files and may replace its own earlier page, never a directory
// it did not write. Each test names the bug it would catch.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
const std::string kFourBar = source_path("examples/models/four_bar.yaml");
const std::string kArm = source_path("examples/models/planar_3dof_arm.yaml");

// Nothing at `dir` and no staging directory beside it.
void expect_no_page(const std::string& dir) {
  EXPECT_FALSE(fs::exists(dir)) << dir;
  const fs::path parent = fs::path(dir).parent_path();
  const std::string stem = fs::path(dir).filename().string();
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

std::string five_axis_run() {
  static const std::string path = [] {
    const std::string p = temporary_path("five_axis_run.csv");
    const CliResult r = run_cli("simulate " + kFiveAxis + " --duration 0.05 --step 0.01 --output " + p);
    EXPECT_EQ(r.status, 0) << r.err;
    return p;
  }();
  return path;
}

// Bug caught: a missing model file crashing or leaving an empty page directory.
TEST(ViewErrors, MissingModel) {
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view /nonexistent/model.yaml -o " + dir), "/nonexistent/model.yaml");
  expect_no_page(dir);
}

// Bug caught: a missing run file drawing the model alone, as if no run had been given.
TEST(ViewErrors, MissingRun) {
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFiveAxis + " /nonexistent/run.csv -o " + dir), "/nonexistent/run.csv");
  expect_no_page(dir);
}

// Bug caught: another model's run drawn with this model's bodies (wrong columns): the
// five-axis run has q_J1_rad ..., the four-bar has q_crank_rad ...
TEST(ViewErrors, RunOfAnotherModel) {
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFourBar + " " + five_axis_run() + " -o " + dir), "does not match the model");
  expect_no_page(dir);
}

// Bug caught: a run with a coordinate missing (wrong count of q columns) read with shifted columns.
TEST(ViewErrors, RunWithAColumnMissing) {
  std::istringstream in(read_file(five_axis_run()));
  std::string line, text;
  while (std::getline(in, line)) {  // drop the 3rd field (q_J2_rad) of every line
    std::vector<std::string> fields;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, ',')) fields.push_back(f);
    fields.erase(fields.begin() + 2);
    for (std::size_t k = 0; k < fields.size(); ++k) text += (k ? "," : "") + fields[k];
    text += '\n';
  }
  const std::string run = write_temporary_file("missing_column.csv", text);
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFiveAxis + " " + run + " -o " + dir), "q_J2_rad");
  expect_no_page(dir);
}

// Bug caught: a row shorter than the header (a truncated file) read past its end.
TEST(ViewErrors, RowWithWrongFieldCount) {
  std::string text = read_file(five_axis_run());
  text += "0.06,1,2\n";
  const std::string run = write_temporary_file("short_row.csv", text);
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFiveAxis + " " + run + " -o " + dir), "line 8: 3 fields");
  expect_no_page(dir);
}

// Bug caught: a cell that is not a number read as 0 (or NaN passed to the page).
TEST(ViewErrors, CellNotANumber) {
  std::string text = read_file(five_axis_run());
  const std::size_t second_line = text.find('\n') + 1;
  text.replace(second_line, 1, "nan");  // t_s of the first row: "nan"
  const std::string run = write_temporary_file("nan_cell.csv", text);
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFiveAxis + " " + run + " -o " + dir), "not a finite number");
  expect_no_page(dir);
}

// Bug caught: a file that is not a simulate CSV at all (no header) accepted.
TEST(ViewErrors, NotACsvOfSimulate) {
  const std::string run = write_temporary_file("other.csv", "a,b\n1,2\n");
  const std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kFiveAxis + " " + run + " -o " + dir), "not 't_s'");
  expect_no_page(dir);
}

// Bug caught: a model without bodies producing an empty page (or a crash on body 0).
TEST(ViewErrors, ModelWithNoBodies) {
  const std::string model = write_temporary_file("empty.yaml", "mechdyn: 1\nname: empty\nbodies: []\n");
  const std::string dir = temporary_path("page");
  const CliResult r = run_cli("view " + model + " -o " + dir);
  expect_one_line_failure(r, "bod");
  expect_no_page(dir);
}

// Bug caught: -o pointing at a directory of the user's being emptied or overwritten.
TEST(ViewErrors, RefusesADirectoryItDidNotWrite) {
  const std::string dir = temporary_path("users_dir");
  fs::create_directories(dir);
  std::ofstream(dir + "/notes.txt") << "mine\n";
  expect_one_line_failure(run_cli("view " + kFiveAxis + " -o " + dir), "not written by mechdyn view");
  EXPECT_EQ(read_file(dir + "/notes.txt"), "mine\n");
}

// Bug caught: a failed view destroying the previous good page; a good one not replacing it.
TEST(View, WritesReplacesAndKeepsOnFailure) {
  const std::string dir = temporary_path("page");
  CliResult r = run_cli("view " + kFiveAxis + " " + five_axis_run() + " -o " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* f : {"index.html", "viewer.js", "data.js"}) EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;
  const std::string data = read_file(dir + "/data.js");
  EXPECT_NE(data.find("\"rows\": 6"), std::string::npos);  // t = 0, 0.01, ..., 0.05
  r = run_cli("view " + kFiveAxis + " /nonexistent/run.csv -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(read_file(dir + "/data.js"), data) << "a failed view changed the previous page";
  r = run_cli("view " + kFiveAxis + " -o " + dir);  // no run: replaces the page
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read_file(dir + "/data.js").find("\"run\": null"), std::string::npos);
}

// simulate --poses: the planar 3R arm (joints about z at the origins 0, 0.5, 0.4 along x
// of the previous link) in closed form, link k's origin = Σ_{i<k} L_i (cos θ_i, sin θ_i, 0),
// θ_i = q_1 + … + q_i, its rotation a turn by θ_k about z: qw = cos(θ_k/2), qz = sin(θ_k/2).
// Bug caught: poses of the wrong body, R transposed (qz sign), positions in body coordinates.
TEST(View, SimulatePosesMatchThePlanarArmClosedForm) {
  const std::string run = temporary_path("arm.csv"), poses = temporary_path("arm_poses.csv");
  const CliResult r = run_cli("simulate " + kArm + " --q0 0.3,-0.7,1.1 --v0 1,0.5,-2 --duration 0.2 --step 0.05 --output " +
                              run + " --poses " + poses);
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream runs(read_file(run)), pose_lines(read_file(poses));
  std::string run_line, pose_line;
  std::getline(runs, run_line);
  std::getline(pose_lines, pose_line);
  EXPECT_EQ(pose_line.rfind("t_s,pose_link1_x_m,pose_link1_y_m,pose_link1_z_m,pose_link1_qw,pose_link1_qx,pose_link1_qy,pose_link1_qz,", 0), 0u);
  int rows = 0;
  while (std::getline(runs, run_line)) {
    ASSERT_TRUE(static_cast<bool>(std::getline(pose_lines, pose_line)));
    std::vector<double> a, p;
    for (const auto& pair : {std::make_pair(&run_line, &a), std::make_pair(&pose_line, &p)}) {
      std::stringstream s(*pair.first);
      std::string f;
      while (std::getline(s, f, ',')) pair.second->push_back(std::stod(f));
    }
    EXPECT_EQ(a[0], p[0]);  // same time
    const double lengths[] = {0.0, 0.5, 0.4};
    double theta = 0.0, x = 0.0, y = 0.0;
    for (int k = 0; k < 3; ++k) {
      x += lengths[k] * std::cos(theta), y += lengths[k] * std::sin(theta);
      theta += a[1 + k];  // q_joint{k+1}
      const double* b = &p[1 + 7 * k];
      EXPECT_NEAR(b[0], x, 1e-12);
      EXPECT_NEAR(b[1], y, 1e-12);
      EXPECT_NEAR(b[2], 0.0, 1e-12);
      const double sign = std::cos(theta / 2) < 0 ? -1.0 : 1.0;  // qw ≥ 0
      EXPECT_NEAR(b[3], sign * std::cos(theta / 2), 1e-12);
      EXPECT_NEAR(b[6], sign * std::sin(theta / 2), 1e-12);
      EXPECT_NEAR(std::hypot(b[4], b[5]), 0.0, 1e-12);
    }
    ++rows;
  }
  EXPECT_EQ(rows, 5);
  EXPECT_FALSE(static_cast<bool>(std::getline(pose_lines, pose_line)));
}

// Bug caught: --poses left as a complete-looking file when the run fails.
TEST(View, SimulatePosesRemovedWhenTheRunFails) {
  const std::string run = temporary_path("bad.csv"), poses = temporary_path("bad_poses.csv");
  const CliResult r = run_cli("simulate " + kArm + " --tau 'ln(t-1),0,0' --duration 0.1 --output " + run + " --poses " + poses);
  EXPECT_NE(r.status, 0);
  EXPECT_FALSE(fs::exists(poses));
  EXPECT_FALSE(fs::exists(run));
}

// view --poses: the page takes simulate's pose file, which must be of the model and the run.
// Bugs caught: poses of another model or another run (row count, times) drawn silently;
// the pose file ignored (the page must equal the one computed from q: same poses).
TEST(View, PosesFileOfTheRunAndRefusedOtherwise) {
  const std::string run = temporary_path("arm.csv"), poses = temporary_path("arm_poses.csv");
  ASSERT_EQ(run_cli("simulate " + kArm + " --duration 0.05 --step 0.01 --output " + run + " --poses " + poses).status, 0);
  const std::string from_file = temporary_path("page"), from_q = temporary_path("page");
  ASSERT_EQ(run_cli("view " + kArm + " " + run + " --poses " + poses + " -o " + from_file).status, 0);
  ASSERT_EQ(run_cli("view " + kArm + " " + run + " -o " + from_q).status, 0);
  std::string a = read_file(from_file + "/data.js"), b = read_file(from_q + "/data.js");
  EXPECT_EQ(a, b);  // float32 poses: both round the same doubles (17-digit text reads back exactly)
  // a pose file of another model
  const std::string five_poses = temporary_path("five_poses.csv");
  ASSERT_EQ(run_cli("simulate " + kFiveAxis + " --duration 0.05 --step 0.01 --output " + temporary_path("x.csv") +
                    " --poses " + five_poses).status, 0);
  std::string dir = temporary_path("page");
  expect_one_line_failure(run_cli("view " + kArm + " " + run + " --poses " + five_poses + " -o " + dir),
                          "the poses do not match the model");
  expect_no_page(dir);
  // a pose file of another run of the same model (different times)
  const std::string other = temporary_path("arm_other.csv"), other_poses = temporary_path("arm_other_poses.csv");
  ASSERT_EQ(run_cli("simulate " + kArm + " --duration 0.1 --step 0.02 --output " + other + " --poses " + other_poses).status, 0);
  expect_one_line_failure(run_cli("view " + kArm + " " + run + " --poses " + other_poses + " -o " + dir),
                          "not of this run");
  expect_no_page(dir);
}

}  // namespace
