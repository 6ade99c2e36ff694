// mechdyn simulate --q0 / --v0 by joint name (docs/cli.md, "Initial state by joint name").
// Catches: the slider-crank started at 0.81 rad/s when the crank was stated at 6 (the
// mass-weighted projection of the whole v); a named assignment ignored or applied to the
// wrong coordinate (tree and closed chain); an adjustment made without a warning line, or
// with the wrong numbers; bad input (unknown or repeated joint, bad number, wrong count,
// a mixed list) not refused with one line and status 2; an unassemblable or singular
// start not a solver failure (status 3).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cli_runner.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

// The first data row's value of column `name` (a CSV without quoted names).
double first_row(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string header, row, cell;
  std::getline(in, header);
  std::getline(in, row);
  std::istringstream names(header), cells(row);
  while (std::getline(names, cell, ',')) {
    std::string value;
    std::getline(cells, value, ',');
    if (cell == name) return std::stod(value);
  }
  ADD_FAILURE() << "no column " << name;
  return std::nan("");
}

int line_count(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

const std::string kSliderCrank = source_path("examples/models/slider_crank.yaml");
const std::string kFourBar = source_path("examples/models/four_bar.yaml");

TEST(InitialStateCli, SliderCrankStartsAtTheStatedCrankRate) {
  // θ = 0 (the model's neutral start), ω = 6 rad/s. Slider rate from x(θ) = r cos θ +
  // sqrt(l² − (r sin θ − e)²) (examples/models/slider_crank.yaml): at θ = 0,
  // ẋ = r e ω / sqrt(l² − e²).
  const double r = 0.1, l = 0.3, e = 0.03, omega = 6.0;
  for (const std::string v0 : {"crank_joint=6", "6,0,0", "6,5,-7"}) {  // named, and the full list
    const auto run = run_cli("simulate " + kSliderCrank + " --v0 " + v0 + " --duration 0 --step 0.01");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, "") << "no adjustment: the loops allow the crank at 6 rad/s";
    EXPECT_EQ(first_row(run.out, "v_crank_joint_rad_per_s"), omega) << v0;
    EXPECT_NEAR(first_row(run.out, "v_slider_joint_m_per_s"), r * e * omega / std::sqrt(l * l - e * e), 1e-12) << v0;
  }
}

TEST(InitialStateCli, NamedPassivePositionAndRateAreKept) {
  // The rocker (passive) stated: --q0 rocker=1.7 --v0 rocker=0.8; the crank follows. Its
  // rate from the loop's derivative, a ω2 sin(θ2 − θ3) = c ω4 sin(θ4 − θ3) (Norton §6.7),
  // with the angles of the printed row.
  const auto run = run_cli("simulate " + kFourBar + " --q0 rocker=1.7 --v0 rocker=0.8 --duration 0 --step 0.01");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_row(run.out, "q_rocker_rad"), 1.7);
  EXPECT_EQ(first_row(run.out, "v_rocker_rad_per_s"), 0.8);
  const double theta2 = first_row(run.out, "q_crank_rad"), theta3 = theta2 + first_row(run.out, "q_coupler_rad");
  const double omega2 = 0.3 * 0.8 * std::sin(1.7 - theta3) / (0.1 * std::sin(theta2 - theta3));
  EXPECT_NEAR(first_row(run.out, "v_crank_rad_per_s"), omega2, 1e-9);  // 17 printed digits
  EXPECT_LT(first_row(run.out, "closure_residual"), 1e-12);
}

TEST(InitialStateCli, IncompatibleRatesAreAdjustedWithOneWarningEach) {
  // Crank and rocker both at 1 rad/s at the four-bar's initial configuration: the least
  // change is s (1, ρ), ρ = ω4/ω2, s = (1 + ρ)/(1 + ρ²) (tests/reference/test_initial_state.cpp).
  const auto run = run_cli("simulate " + kFourBar + " --v0 crank=1,rocker=1 --duration 0 --step 0.01");
  ASSERT_EQ(run.status, 0) << run.err;
  const double theta2 = first_row(run.out, "q_crank_rad"), theta3 = theta2 + first_row(run.out, "q_coupler_rad"),
               theta4 = first_row(run.out, "q_rocker_rad");
  const double rho = 0.1 * std::sin(theta2 - theta3) / (0.3 * std::sin(theta4 - theta3));
  const double s = (1 + rho) / (1 + rho * rho);
  EXPECT_NEAR(first_row(run.out, "v_crank_rad_per_s"), s, 1e-9);
  EXPECT_NEAR(first_row(run.out, "v_rocker_rad_per_s"), s * rho, 1e-9);
  EXPECT_EQ(line_count(run.err), 2) << run.err;
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "mechdyn: warning: initial velocity of crank: 1 rad/s given, %.6g rad/s used (difference %.6g rad/s;",
                s, s - 1);
  EXPECT_NE(run.err.find(expected), std::string::npos) << run.err << "\nexpected: " << expected;
  std::snprintf(expected, sizeof expected,
                "mechdyn: warning: initial velocity of rocker: 1 rad/s given, %.6g rad/s used (difference %.6g rad/s;",
                s * rho, s * rho - 1);
  EXPECT_NE(run.err.find(expected), std::string::npos) << run.err << "\nexpected: " << expected;
}

TEST(InitialStateCli, TreeNamedAssignmentsSetThoseCoordinates) {
  const auto run = run_cli("simulate " + source_path("examples/models/five_axis_tree.yaml") +
                           " --q0 J2=0.25,J5=-0.5 --v0 'J3=1.5' --duration 0 --step 0.01");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_row(run.out, "q_J1_rad"), 0.0);
  EXPECT_EQ(first_row(run.out, "q_J2_rad"), 0.25);
  EXPECT_EQ(first_row(run.out, "q_J5_rad"), -0.5);
  EXPECT_EQ(first_row(run.out, "v_J3_rad_per_s"), 1.5);
  EXPECT_EQ(first_row(run.out, "v_J1_rad_per_s"), 0.0);
}

TEST(InitialStateCli, MultiCoordinateJointsByListOrIndex) {
  // floating_base.yaml: a free joint (q: x, y, z, qw, qx, qy, qz; v: x, y, z, rx, ry, rz).
  const std::string model = source_path("examples/models/floating_base.yaml");
  const auto run = run_cli("simulate " + model +
                           " --q0 'root[3]=0.7,left_knee=-0.4' --v0 'root=(1;2;3;0.1;0.2;0.3)' --duration 0 --step 0.01");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(first_row(run.out, "q_root_z_m"), 0.7);
  EXPECT_EQ(first_row(run.out, "q_root_x_m"), 0.0);
  EXPECT_EQ(first_row(run.out, "q_root_qw"), 1.0);
  EXPECT_EQ(first_row(run.out, "q_left_knee_rad"), -0.4);
  EXPECT_EQ(first_row(run.out, "v_root_y_m_per_s"), 2.0);
  EXPECT_EQ(first_row(run.out, "v_root_rz_rad_per_s"), 0.3);
  // The orientation whole, in parentheses with commas too.
  const auto whole = run_cli("simulate " + model + " --q0 'root=(0,0,1,0,1,0,0)' --duration 0 --step 0.01");
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(first_row(whole.out, "q_root_qx"), 1.0);
  EXPECT_EQ(first_row(whole.out, "q_root_qw"), 0.0);
  // A quaternion component alone is refused.
  const auto alone = run_cli("simulate " + model + " --q0 'root[4]=1' --duration 0");
  EXPECT_EQ(alone.status, 2);
  EXPECT_NE(alone.err.find("a quaternion component cannot be set alone"), std::string::npos) << alone.err;
}

TEST(InitialStateCli, BrokenInputIsOneLineAndStatus2) {
  struct Case {
    std::string arguments, message;
  };
  const std::vector<Case> cases = {
      {"--v0 nope=1", "v0: model 'slider_crank' has no joint 'nope' (joints: crank_joint, rod_joint, slider_joint)"},
      {"--v0 crank_joint=1,crank_joint=2", "v0: crank_joint of joint 'crank_joint' is assigned twice"},
      {"--q0 crank_joint=abc", "q0 crank_joint 'abc' is not a number"},
      {"--v0 crank_joint=1e999", "v0 crank_joint '1e999' is not finite"},
      {"--v0 crank_joint=", "v0 crank_joint is empty"},
      {"--v0 'crank_joint=(1;2)'", "v0 crank_joint has 2 values, the joint has 1 coordinate (v)"},
      {"--v0 'crank_joint[2]=1'", "v0 crank_joint[2]: joint 'crank_joint' has 1 coordinate (v)"},
      {"--v0 6,rod_joint=1", "v0[0] '6' is a plain number among joint assignments"},
      {"--v0 1,2,3,4", "v0 has 4 numbers, the model needs 3 (nv)"},
      {"--q0 =1", "q0 '=1': no joint name before '='"},
  };
  for (const Case& c : cases) {
    const auto run = run_cli("simulate " + kSliderCrank + " " + c.arguments + " --duration 0");
    EXPECT_EQ(run.status, 2) << c.arguments << ": " << run.err;
    EXPECT_EQ(run.out, "") << c.arguments;
    EXPECT_EQ(line_count(run.err), 1) << c.arguments << ": " << run.err;
    EXPECT_EQ(run.err.rfind("mechdyn: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << c.arguments << ": " << run.err;
  }
  // The same parser serves a tree.
  const auto tree = run_cli("simulate " + source_path("examples/models/five_axis_tree.yaml") + " --v0 J9=1 --duration 0");
  EXPECT_EQ(tree.status, 2);
  EXPECT_NE(tree.err.find("has no joint 'J9'"), std::string::npos) << tree.err;
}

TEST(InitialStateCli, UnassemblableAndSingularStartsAreSolverFailures) {
  // The slider at 0.5 m, beyond the reach r + l = 0.4 m.
  const auto far = run_cli("simulate " + kSliderCrank + " --q0 slider_joint=0.5 --duration 0");
  EXPECT_EQ(far.status, 3) << far.err;
  EXPECT_EQ(far.out, "");
  EXPECT_NE(far.err.find("unassemblable start"), std::string::npos) << far.err;
  // The dead point (crank and rod collinear, θ* = asin(e/(r + l))) with only the slider's
  // rate stated: the crank and rod rates are not determined.
  const double theta = std::asin(0.03 / 0.4);
  char arguments[256];
  std::snprintf(arguments, sizeof arguments, " --q0 crank_joint=%.17g,rod_joint=0,slider_joint=%.17g --v0 slider_joint=1",
                theta, 0.4 * std::cos(theta));
  const auto dead = run_cli("simulate " + kSliderCrank + arguments + " --duration 0");
  EXPECT_EQ(dead.status, 3) << dead.err;
  EXPECT_NE(dead.err.find("singular start: the rates of crank_joint, rod_joint are not determined"), std::string::npos)
      << dead.err;
}

}  // namespace
}  // namespace mechdyn
