// mechdyn info / simulate on models with loops.
// Catches: info not reporting rank and mobility; simulate refusing loops or writing the
// wrong columns; a closure residual that grows in the CSV; wrong effort counts accepted;
// a solver failure reported as bad input (or the reverse).
#include <gtest/gtest.h>

#include <sstream>

#include "cli_runner.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

// Column `name` of a CSV text as numbers.
std::vector<double> column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line, cell;
  std::getline(in, line);
  std::istringstream header(line);
  int index = -1;
  for (int i = 0; std::getline(header, cell, ','); ++i)
    if (cell == name) index = i;
  EXPECT_GE(index, 0) << "no column " << name;
  std::vector<double> out;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    for (int i = 0; std::getline(row, cell, ','); ++i)
      if (i == index) out.push_back(std::stod(cell));
  }
  return out;
}

TEST(ClosedChainCli, InfoReportsRankRedundancyAndMobility) {
  const auto r = run_cli("info " + source_path("examples/models/three_loop_mechanism.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("closure rows 6, rank 6, redundant rows none, mobility 1"), std::string::npos) << r.out;
}

TEST(ClosedChainCli, InverseSimulationOfTheThreeLoopMechanism) {
  const auto r = run_cli("simulate " + source_path("examples/models/three_loop_mechanism.yaml") +
                         " --mode inverse --velocities 0.1 --duration 1 --step 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto crank = column(r.out, "q_J1pp_rad");
  ASSERT_EQ(crank.size(), 11u);
  EXPECT_NEAR(crank.back(), 0.1, 1e-12);  // 0.1 rad/s for 1 s
  for (double x : column(r.out, "closure_residual")) EXPECT_LT(x, 1e-12);
  const auto with = column(r.out, "tau_with_friction_J1pp_N_m"), without = column(r.out, "tau_J1pp_N_m");
  const auto friction = column(r.out, "friction_J1pp_N_m");
  for (std::size_t i = 0; i < with.size(); ++i) {
    EXPECT_NEAR(with[i], without[i] + friction[i], 1e-12);
    EXPECT_GT(friction[i], 0.0);  // opposes the positive crank velocity
  }
  column(r.out, "cut_C3_fx_N");
}

TEST(ClosedChainCli, ForwardSimulationKeepsTheFourBarClosed) {
  const auto r = run_cli("simulate " + source_path("examples/models/four_bar.yaml") +
                         " --q0 0.3,1,1.5 --tau 0 --duration 2 --step 0.001 --every 100 --integrator dopri5");
  ASSERT_EQ(r.status, 0) << r.err;
  for (double x : column(r.out, "closure_residual")) EXPECT_LT(x, 1e-9);
}

TEST(ClosedChainCli, EffortsForEveryCoordinateAreRefused) {
  const auto r = run_cli("simulate " + source_path("examples/models/four_bar.yaml") + " --q0 0.3,1,1.5 --tau 0,0,0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("one per actuated coordinate (1)"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(ClosedChainCli, CrankBeyondTheLimitPositionIsASolverError) {
  // The reconstructed three-loop crank cannot pass ≈ 1.58 rad: exit status 3. Without
  // --output the rows stream to stdout (docs/cli.md), so the rows before the limit are
  // there — whole rows only, none at or past the failure.
  const auto r = run_cli("simulate " + source_path("examples/models/three_loop_mechanism.yaml") +
                         " --mode inverse --velocities 1 --duration 3 --step 0.05");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("cannot be assembled"), std::string::npos) << r.err;
  const std::vector<double> times = column(r.out, "t_s");
  ASSERT_FALSE(times.empty());
  EXPECT_LT(times.back(), 1.6);
  EXPECT_EQ(r.out.back(), '\n');
  // With --output the file is all or nothing.
  const std::string csv = ::testing::TempDir() + "crank_limit.csv";
  const auto to_file = run_cli("simulate " + source_path("examples/models/three_loop_mechanism.yaml") +
                               " --mode inverse --velocities 1 --duration 3 --step 0.05 --output " + csv);
  EXPECT_EQ(to_file.status, 3);
  EXPECT_TRUE(to_file.out.empty());
  EXPECT_EQ(std::fopen(csv.c_str(), "r"), nullptr);
}

}  // namespace
}  // namespace mechdyn
