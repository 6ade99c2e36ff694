// The command-line tool with joint friction: eval's joint_loads key and friction keys
// from the library, simulate's friction columns, stick–slip in forward mode, and inverse
// mode's τ_d = M a + h + τ_f agreeing with eval.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;
using Json = nlohmann::json;

const std::string kStribeck = source_path("examples/models/five_axis_tree_stribeck.yaml");
const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");

Json eval_json(const std::string& arguments) {
  const CliResult r = run_cli("eval " + arguments + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

// CSV as columns by name.
std::map<std::string, std::vector<double>> read_csv(const std::string& path) {
  std::stringstream text(read_file(path));
  std::string line;
  std::getline(text, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(text, line)) {
    std::stringstream row(line);
    std::size_t i = 0;
    for (std::string cell; std::getline(row, cell, ','); ++i) columns[names.at(i)].push_back(std::stod(cell));
  }
  return columns;
}

// Catches: joint_loads missing or not the decomposition of the printed reactions
// (revolute: τ_r = |τ − n nᵀτ|, f_r = |f − n nᵀf|, f_m = |nᵀf| with n = z for every
// joint of the five-axis tree), a normal_load entry that disagrees with the contract.
TEST(CliFriction, EvalJointLoadsDecomposeTheReactions) {
  const Json j = eval_json(kStribeck + " --q 0.3,-0.2,0.5,0.1,-0.4 --v 0.5,0,-0.2,0.01,0 --a 0.2,0.2,0.2,0.2,0.2");
  ASSERT_TRUE(j.contains("joint_loads"));
  ASSERT_EQ(j["joint_loads"].size(), 5u);
  for (std::size_t l = 0; l < 5; ++l) {
    const auto f = j["reactions"][l]["force"].get<std::vector<double>>();
    const auto t = j["reactions"][l]["torque"].get<std::vector<double>>();
    const Json& loads = j["joint_loads"][l];
    EXPECT_NEAR(loads["constraint_torque"].get<double>(), std::hypot(t[0], t[1]), 1e-12);
    EXPECT_NEAR(loads["constraint_force"].get<double>(), std::hypot(f[0], f[1]), 1e-12);
    EXPECT_NEAR(loads["axial_load"].get<double>(), std::abs(f[2]), 1e-12);
    const double normal = 0.01 * (std::hypot(f[0], f[1]) + std::hypot(t[0], t[1]) / 0.02) + 0.015 * std::abs(f[2]);
    EXPECT_NEAR(loads["normal_load"].get<double>(), normal, 1e-12);
    EXPECT_NEAR(j["normal_load"][l]["value"].get<double>(), normal, 1e-12);
  }
  EXPECT_FALSE(eval_json(kStribeck + " --q 0,0,0,0,0").contains("joint_loads"));
}

// A block on a prismatic joint inclined 25° with μ_s = 0.5 > tan 25°: forward simulation
// from rest must hold it exactly (q printed as 0 in every row, with both integrators),
// with the friction column holding m g sin θ. Catches: creep or chatter in the CLI path,
// missing friction columns.
TEST(CliFriction, SimulateForwardHoldsABlockBelowTheFrictionAngle) {
  const std::string model = write_temporary_file("incline.yaml", R"(mechdyn: 1
name: incline
gravity: [0, 0, -9.81]
bodies:
  - name: block
    parent: ground
    joint:
      name: slide
      type: prismatic
      axis: [0.90630778703665, 0, 0.42261826174070]
      friction: {model: stribeck, coulomb: 0.3, static: 0.5, stribeck_velocity: 0.01,
                 load: {bending_arm: 0.05, friction_arm: 0.05}}
    mass: 2
    inertia: {diag: [0.01, 0.01, 0.01]}
)");
  for (const char* integrator : {"rk4", "dopri5"}) {
    const std::string out = temporary_path("incline.csv");
    const CliResult r = run_cli("simulate " + model + " --duration 1 --step 0.001 --every 10 --integrator " +
                                integrator + " --output " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    auto columns = read_csv(out);
    ASSERT_TRUE(columns.count("friction_slide_N")) << integrator;
    ASSERT_TRUE(columns.count("normal_load_slide_N")) << integrator;
    for (std::size_t i = 0; i < columns["t_s"].size(); ++i) {
      EXPECT_EQ(columns["q_slide_m"][i], 0.0) << integrator << " row " << i;
      EXPECT_NEAR(columns["friction_slide_N"][i], -2 * 9.81 * 0.42261826174070, 1e-9);
      EXPECT_NEAR(columns["normal_load_slide_N"][i], 2 * 9.81 * 0.90630778703665, 1e-9);
    }
  }
}

// Inverse mode on the Stribeck five-axis tree: the tau columns are τ_d = M a + h + τ_f and
// agree with eval's tau_with_friction at the same state (t = 0.5 s: q = 0.025, v = 0.1,
// a = 0.2 on every joint). Catches: simulate ignoring friction, or using other loads.
TEST(CliFriction, SimulateInverseMatchesEvalTauWithFriction) {
  const std::string out = temporary_path("stribeck.csv");
  const CliResult r = run_cli("simulate " + kStribeck +
                              " --mode inverse --accelerations 0.2,0.2,0.2,0.2,0.2 --duration 0.5 --step 0.001 --every 500 --output " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  auto columns = read_csv(out);
  ASSERT_EQ(columns["t_s"].size(), 2u);
  const Json j = eval_json(kStribeck + " --q 0.025,0.025,0.025,0.025,0.025 --v 0.1,0.1,0.1,0.1,0.1 --a 0.2,0.2,0.2,0.2,0.2");
  for (int k = 0; k < 5; ++k) {
    const std::string name = "J" + std::to_string(k + 1);
    EXPECT_NEAR(columns["tau_" + name + "_N_m"][1], j["tau_with_friction"][k].get<double>(), 1e-9) << name;
    EXPECT_NEAR(columns["normal_load_" + name + "_N_m"][1], j["normal_load"][k]["value"].get<double>(), 1e-9) << name;
  }
  // Without friction, --joint-loads adds the decomposition columns only.
  const std::string plain = temporary_path("plain.csv");
  ASSERT_EQ(run_cli("simulate " + kFiveAxis + " --mode inverse --duration 0.01 --joint-loads --output " + plain).status, 0);
  auto plain_columns = read_csv(plain);
  EXPECT_TRUE(plain_columns.count("constraint_torque_J1_N_m"));
  EXPECT_FALSE(plain_columns.count("friction_J1_N_m"));
}

}  // namespace
