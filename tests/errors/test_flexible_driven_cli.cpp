// `mechdyn simulate` position-driven runs of models with flexible bodies (mode inverse with
// `positions` or `motion_table`) and the effort table of forward runs (`tau_table`),
// docs/flexible-bodies.md "Position-driven runs":
//  - the actuated coordinates land on the prescription (expressions; a table whose quintic
//    Hermite interpolation is exact for a polynomial of degree 5), efforts and the rigid
//    reference's efforts are written, the deviation of a marker from the rigid arm;
//  - a forward run with tau_table applies the table's efforts (linear between rows);
//  - every bad input of the new keys is one line, exit status 2.
// Catches: a prescription that is not followed, misaligned columns, a wrong interpolation,
// an input error that escapes as a crash, several lines or another status.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace mechdyn {
namespace {

using testing::CliResult;
using testing::run_cli;
using testing::source_path;
using testing::write_temporary_file;

const std::string kArm = source_path("examples/models/flexible_arm.yaml");

// CSV text → column name → values.
std::map<std::string, std::vector<double>> columns(const std::string& text) {
  std::istringstream in(text);
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> names;
  std::istringstream header(line);
  while (std::getline(header, cell, ',')) names.push_back(cell);
  std::map<std::string, std::vector<double>> out;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    for (std::size_t k = 0; std::getline(row, cell, ','); ++k) out[names.at(k)].push_back(std::stod(cell));
  }
  return out;
}

void expect_one_line(const CliResult& r, const std::string& problem) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 200);
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_EQ(r.err.rfind("mechdyn: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
}

TEST(FlexibleDrivenCli, PositionsAreFollowedAndEffortsWritten) {
  const CliResult r =
      run_cli("simulate " + kArm + " --mode inverse --positions '0.3*sin(2*t), 0.1*t*t' --duration 0.05 --step 0.001");
  ASSERT_EQ(r.status, 0) << r.err;
  auto c = columns(r.out);
  ASSERT_EQ(c["t_s"].size(), 51u);
  for (const char* name : {"effort_link1_N_m", "effort_link2_N_m", "rigid_effort_link1_N_m", "rigid_effort_link2_N_m",
                           "deviation_tip_x_m", "deviation_tip_z_m", "constraint_violation"})
    EXPECT_EQ(c[name].size(), 51u) << name;
  double largest_deviation = 0.0;
  for (std::size_t k = 0; k < c["t_s"].size(); ++k) {
    const double t = c["t_s"][k];
    EXPECT_NEAR(c["q_link1_rad"][k], 0.3 * std::sin(2 * t), 1e-12);
    EXPECT_NEAR(c["v_link1_rad_per_s"][k], 0.6 * std::cos(2 * t), 1e-9);
    EXPECT_NEAR(c["q_link2_rad"][k], 0.1 * t * t, 1e-12);
    largest_deviation = std::max(largest_deviation, std::abs(c["deviation_tip_z_m"][k]));
  }
  // Gravity bends the beam (released undeformed): the tip leaves the rigid arm's tip, by
  // up to twice the static cantilever sag q L⁴/(8EI) = 7.57e-4 m (a suddenly applied load;
  // the slow motion adds little).
  EXPECT_GT(largest_deviation, 1e-4);
  EXPECT_LT(largest_deviation, 1.05 * 2 * 7.57e-4);
  // The rigid arm's holding torque of link1 at t = 0: gravity of both links about A.
  EXPECT_LT(c["rigid_effort_link1_N_m"][0], -5.0);
}

TEST(FlexibleDrivenCli, MotionTableIsInterpolatedExactlyForQuintics) {
  // q(t) = t⁵ − t³ on rows 0.01 s apart; the run's 1 ms steps fall between the rows.
  std::string text = "t_s,q_link1_rad,v_link1_rad_per_s,a_link1_rad_per_s2,q_link2_rad,v_link2_rad_per_s,a_link2_rad_per_s2\n";
  for (int k = 0; k <= 10; ++k) {
    const double t = 0.01 * k;
    std::ostringstream row;
    row.precision(17);
    row << t << "," << std::pow(t, 5) - std::pow(t, 3) << "," << 5 * std::pow(t, 4) - 3 * t * t << ","
        << 20 * std::pow(t, 3) - 6 * t << ",0,0,0\n";
    text += row.str();
  }
  const std::string table = write_temporary_file("quintic_motion.csv", text);
  const CliResult r = run_cli("simulate " + kArm + " --mode inverse --motion-table " + table +
                              " --duration 0.1 --step 0.001 --no-rigid-reference");
  ASSERT_EQ(r.status, 0) << r.err;
  auto c = columns(r.out);
  EXPECT_EQ(c.count("deviation_tip_x_m"), 0u);
  ASSERT_EQ(c["t_s"].size(), 101u);
  for (std::size_t k = 0; k < c["t_s"].size(); ++k) {
    const double t = c["t_s"][k];
    EXPECT_NEAR(c["q_link1_rad"][k], std::pow(t, 5) - std::pow(t, 3), 1e-15) << t;
    EXPECT_NEAR(c["v_link1_rad_per_s"][k], 5 * std::pow(t, 4) - 3 * t * t, 1e-13) << t;
  }
  // Past the table's end: one line naming the file and the time.
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --motion-table " + table + " --duration 0.2"),
                  "lies outside the table's times");
}

TEST(FlexibleDrivenCli, TauTableDrivesAForwardRun) {
  const std::string table =
      write_temporary_file("efforts.csv", "t_s,effort_link1_N_m,effort_link2_N_m\n0,1,0\n0.01,3,0\n0.02,3,-1\n");
  const CliResult r = run_cli("simulate " + kArm + " --tau-table " + table + " --duration 0.02 --step 0.005");
  ASSERT_EQ(r.status, 0) << r.err;
  auto c = columns(r.out);
  const std::vector<double> link1{1, 2, 3, 3, 3}, link2{0, 0, 0, -0.5, -1};
  ASSERT_EQ(c["effort_link1_N_m"].size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_DOUBLE_EQ(c["effort_link1_N_m"][k], link1[k]);
    EXPECT_DOUBLE_EQ(c["effort_link2_N_m"][k], link2[k]);
  }
}

// The 3-RRRU falling with zero torques: the rigid reference's Newmark step fails when the
// rigid robot moves fast (t = 0.383 s); the run goes on with one warning and empty reference
// columns. Catches: an auxiliary run that kills the main one, or NaN written for its columns.
TEST(FlexibleDrivenCli, AFailingRigidReferenceStopsWithAWarning) {
  const CliResult r = run_cli("simulate " + source_path("examples/models/rrru_3_flexible.yaml") +
                              " --duration 0.5 --step 0.001 --every 100");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("mechdyn: warning: the rigid reference stopped at t = ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos);
  const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_NE(last.find(",,,"), std::string::npos) << last;  // the three deviation fields, empty
}

TEST(FlexibleDrivenCli, BadInputIsOneLine) {
  const std::string table = write_temporary_file("short.csv", "t_s,q_link1_rad\n0,0\n1,0\n");
  const std::string efforts = write_temporary_file("efforts_ok.csv", "t_s,effort_link1_N_m,effort_link2_N_m\n0,0,0\n1,0,0\n");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --positions 0 --duration 0.01"),
                  "positions has 1 expressions, the model has 2 actuated coordinates");
  expect_one_line(run_cli("simulate " + kArm + " --positions 0,0 --duration 0.01"),
                  "positions and motion_table are for mode inverse");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --positions 'abs(t),0' --duration 0.01"),
                  "is not smooth at t = 0 s");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --positions 'x,0' --duration 0.01"), "positions");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --motion-table /nonexistent/motion.csv --duration 0.01"),
                  "/nonexistent/motion.csv");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --motion-table " + table + " --duration 0.01"),
                  "no column 'v_link1_");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --motion-table " + table + " --positions 0,0"),
                  "give positions or motion_table, not both");
  expect_one_line(run_cli("simulate " + kArm + " --tau 0,0 --tau-table " + efforts), "give tau or tau_table, not both");
  expect_one_line(run_cli("simulate " + kArm + " --mode inverse --tau-table " + efforts),
                  "tau_table is for mode forward");
  expect_one_line(run_cli("simulate " + kArm + " --tau-table " + table + " --duration 0.01"), "no column 'effort_link1_");
  expect_one_line(run_cli("simulate " + source_path("examples/models/four_bar.yaml") + " --mode inverse --positions 0"),
                  "are for models with flexible bodies");
  const std::string scenario = write_temporary_file(
      "driven.yaml", "model: " + kArm + "\nmode: inverse\npositions: [0, 0]\nrigid_reference: maybe\n");
  expect_one_line(run_cli("simulate --scenario " + scenario), "rigid_reference: 'maybe' is not true or false");
}

}  // namespace
}  // namespace mechdyn
