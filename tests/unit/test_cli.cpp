// The mechdyn command-line tool, run as a program: `eval` per the contract
// ../shared/spec/eval-json.md, `simulate` CSV output, `info`. Each test names the bug
// it would catch.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;
using Json = nlohmann::json;

const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");

// A pendulum hanging along −y from a revolute joint about z, gravity along −y:
// φ̈ = −m g l sin φ / (J_zz + m l²) with m = 2, l = 0.5, J_zz = 0.01.
const char* kPendulum = R"(mechdyn: 1
name: pendulum
gravity: [0, -9.81, 0]
bodies:
  - name: rod
    parent: ground
    joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 2
    com: [0, -0.5, 0]
    inertia: {diag: [0.01, 0.001, 0.01]}
)";

std::vector<double> to_vector(const Json& j) { return j.get<std::vector<double>>(); }

Json eval_json(const std::string& arguments) {
  const CliResult r = run_cli("eval " + arguments + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  return Json::parse(r.out);
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream cell_stream(line);
    std::string cell;
    while (std::getline(cell_stream, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

const std::string kState = "--q 0.3,-0.7,1.1,0.2,-0.4 --v 0.5,-1,0.25,2,-0.3";

// Bug caught: a missing or misnamed contract key, a wrong shape (nv × nv, 3 × 3).
TEST(CliEval, JsonHasTheContractKeysAndShapes) {
  const Json j = eval_json(kFiveAxis + " " + kState + " --a 1,2,3,4,5 --tau 1,0,-1,0,2");
  EXPECT_EQ(j["nq"], 5);
  EXPECT_EQ(j["nv"], 5);
  ASSERT_EQ(j["coordinates"].size(), 5u);
  EXPECT_EQ(j["coordinates"][1]["joint"], "J2");
  EXPECT_EQ(j["coordinates"][1]["type"], "revolute");
  EXPECT_EQ(j["coordinates"][1]["q_index"], 1);
  EXPECT_EQ(j["coordinates"][1]["v_index"], 1);
  ASSERT_EQ(j["mass_matrix"].size(), 5u);
  for (const auto& row : j["mass_matrix"]) EXPECT_EQ(row.size(), 5u);
  EXPECT_EQ(j["bias"].size(), 5u);
  EXPECT_EQ(j["gravity"].size(), 5u);
  ASSERT_EQ(j["body_poses"].size(), 5u);
  for (const auto& pose : j["body_poses"]) {
    EXPECT_TRUE(pose["body"].is_string());
    EXPECT_EQ(pose["position"].size(), 3u);
    ASSERT_EQ(pose["rotation"].size(), 3u);
    // Rows of a rotation: orthonormal.
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        double dot = 0;
        for (int k = 0; k < 3; ++k) dot += pose["rotation"][r][k].get<double>() * pose["rotation"][c][k].get<double>();
        EXPECT_NEAR(dot, r == c ? 1.0 : 0.0, 1e-14);
      }
    }
  }
  EXPECT_EQ(j["tau"].size(), 5u);
  ASSERT_EQ(j["reactions"].size(), 5u);
  EXPECT_EQ(j["reactions"][0]["joint"], "J1");
  EXPECT_EQ(j["reactions"][0]["force"].size(), 3u);
  EXPECT_EQ(j["reactions"][0]["torque"].size(), 3u);
  EXPECT_EQ(j["a"].size(), 5u);
  EXPECT_FALSE(j.contains("loops"));  // a tree
}

// Bug caught: keys printed without being asked for (tau/reactions without --a, a without --tau).
TEST(CliEval, OptionalKeysOnlyWithTheirOptions) {
  const Json j = eval_json(kFiveAxis + " " + kState);
  EXPECT_FALSE(j.contains("tau"));
  EXPECT_FALSE(j.contains("reactions"));
  EXPECT_FALSE(j.contains("a"));
}

// Bug caught: tau not equal to M a + h (inverse dynamics wired to the wrong inputs).
TEST(CliEval, TauEqualsMassMatrixTimesAPlusBias) {
  const std::vector<double> a{1, 2, 3, 4, 5};
  const Json j = eval_json(kFiveAxis + " " + kState + " --a 1,2,3,4,5");
  const auto h = to_vector(j["bias"]);
  const auto tau = to_vector(j["tau"]);
  for (int r = 0; r < 5; ++r) {
    double expected = h[r];
    for (int c = 0; c < 5; ++c) expected += j["mass_matrix"][r][c].get<double>() * a[c];
    EXPECT_NEAR(tau[r], expected, 1e-10 * (1 + std::abs(expected))) << "row " << r;
  }
  // The reactions' projection on a revolute axis is the driving torque (eq. 17): the
  // five-axis tree's axes are all z, so torque_z of every joint equals its tau.
  for (int l = 0; l < 5; ++l) EXPECT_NEAR(j["reactions"][l]["torque"][2].get<double>(), tau[l], 1e-9);
}

// Bug caught: forward dynamics that does not invert M a + h = tau.
TEST(CliEval, ForwardAccelerationSolvesTheEquationOfMotion) {
  const std::vector<double> tau{1, 0, -1, 0, 2};
  const Json j = eval_json(kFiveAxis + " " + kState + " --tau 1,0,-1,0,2");
  const auto h = to_vector(j["bias"]);
  const auto a = to_vector(j["a"]);
  for (int r = 0; r < 5; ++r) {
    double lhs = h[r];
    for (int c = 0; c < 5; ++c) lhs += j["mass_matrix"][r][c].get<double>() * a[c];
    EXPECT_NEAR(lhs, tau[r], 1e-10) << "row " << r;
  }
}

// Bug caught: gravity that is not the h of v = 0.
TEST(CliEval, GravityIsTheBiasAtRest) {
  const Json moving = eval_json(kFiveAxis + " " + kState);
  const Json rest = eval_json(kFiveAxis + " --q 0.3,-0.7,1.1,0.2,-0.4 --v 0,0,0,0,0");
  const auto g = to_vector(moving["gravity"]);
  const auto h0 = to_vector(rest["bias"]);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(g[k], h0[k], 1e-12);
}

// Bug caught: --method recursive wired to a different quantity than explicit.
TEST(CliEval, ExplicitAndRecursiveAgree) {
  const std::string args = kFiveAxis + " " + kState + " --a 1,2,3,4,5 --tau 1,0,-1,0,2";
  const Json e = eval_json(args + " --method explicit");
  const Json r = eval_json(args + " --method recursive");
  for (const char* key : {"bias", "gravity", "tau", "a"}) {
    const auto x = to_vector(e[key]), y = to_vector(r[key]);
    for (std::size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], y[k], 1e-9 * (1 + std::abs(x[k]))) << key << k;
  }
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 5; ++k)
      EXPECT_NEAR(e["mass_matrix"][i][k].get<double>(), r["mass_matrix"][i][k].get<double>(), 1e-12);
}

// Bug caught: numbers printed shortest-round-trip or with fewer digits (the contract
// asks for at least 17 significant digits): every number token is exactly %.17g of
// its value, so it reparses to the same double.
TEST(CliEval, NumbersArePrintedWith17SignificantDigits) {
  const CliResult r = run_cli("eval " + kFiveAxis + " --q 0.1,0.2,0.3,0.4,0.5 --v 0.1,0,0,0,0 --a 0.1,0,0,0,0 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex number(R"([-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  int checked = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), number); it != std::sregex_iterator(); ++it) {
    const std::string token = it->str();
    const double value = std::strtod(token.c_str(), nullptr);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    EXPECT_EQ(token, buffer);
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// Bug caught: "--q -0.5,0.2" read as an unknown option "-0" (the contract requires it).
TEST(CliEval, NegativeNumbersAsTheNextArgument) {
  const CliResult separate = run_cli("eval " + kFiveAxis + " --q -0.5,0.2,-1,0,0 --v -1,0,0,0,0 --json");
  const CliResult joined = run_cli("eval " + kFiveAxis + " --q=-0.5,0.2,-1,0,0 --v=-1,0,0,0,0 --json");
  const CliResult dot = run_cli("eval " + kFiveAxis + " --q -.5,0.2,-1,0,0 --v -1,0,0,0,0 --json");
  ASSERT_EQ(separate.status, 0) << separate.err;
  ASSERT_EQ(joined.status, 0) << joined.err;
  ASSERT_EQ(dot.status, 0) << dot.err;
  EXPECT_EQ(separate.out, joined.out);
  EXPECT_EQ(separate.out, dot.out);
}

// Bug caught: the loops key missing for a model with cut joints, or a Jacobian of the wrong width.
TEST(CliEval, LoopsKeyForAModelWithLoops) {
  const Json j = eval_json(source_path("examples/models/four_bar.yaml"));
  ASSERT_TRUE(j.contains("loops"));
  const auto residual = to_vector(j["loops"]["residual"]);
  ASSERT_EQ(j["loops"]["jacobian"].size(), residual.size());
  for (const auto& row : j["loops"]["jacobian"]) EXPECT_EQ(row.size(), j["nv"].get<std::size_t>());
}

// Bug caught: a free joint's quaternion not accepted at unit norm, or positions not
// taken from q (the torso frame origin is q[0..2] + origin).
TEST(CliEval, FloatingBasePoseFollowsQ) {
  const Json j = eval_json(source_path("examples/models/floating_base.yaml") +
                           " --q 0.5,-0.25,0.125,1,0,0,0,0,0,0,0 --v 0,0,0,0,0,0,0,0,0,0");
  EXPECT_EQ(j["nq"], 11);
  EXPECT_EQ(j["nv"], 10);
  EXPECT_NEAR(j["body_poses"][0]["position"][0].get<double>(), 0.5, 1e-15);
  EXPECT_NEAR(j["body_poses"][0]["position"][1].get<double>(), -0.25, 1e-15);
  EXPECT_NEAR(j["body_poses"][0]["position"][2].get<double>(), 1.125, 1e-15);
}

// Bug caught: text mode printing JSON, or nothing.
TEST(CliEval, TextModeIsReadable) {
  const CliResult r = run_cli("eval " + kFiveAxis + " " + kState + " --a 1,2,3,4,5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("mass matrix"), std::string::npos);
  EXPECT_NE(r.out.find("joint reactions"), std::string::npos);
  EXPECT_EQ(r.out.find('{'), std::string::npos);
}

// Bug caught: friction keys missing for a model with friction, a normal load not from
// the printed reaction (contract formula, revolute), or a friction effort off eq. (52).
// five_axis_tree_stribeck.yaml: k_c = 0.005, k_s = 0.05, k_v = 0.01, v_s = 0.03,
// R_p = 0.01, R_b = 0.02, R_n = 0.015 on every joint; all axes z.
TEST(CliEval, FrictionKeysFollowTheContractFormulas) {
  const Json j = eval_json(source_path("examples/models/five_axis_tree_stribeck.yaml") +
                           " --q 0.1,0.2,0.3,0.4,0.5 --v 0.01,-0.02,0,0.05,0 --a 0.2,0.2,-0.3,0.2,0");
  ASSERT_TRUE(j.contains("tau_with_friction"));
  ASSERT_TRUE(j.contains("normal_load"));
  ASSERT_EQ(j["normal_load"].size(), 5u);
  const std::vector<double> v{0.01, -0.02, 0, 0.05, 0}, a{0.2, 0.2, -0.3, 0.2, 0};
  for (int k = 0; k < 5; ++k) {
    const auto f = to_vector(j["reactions"][k]["force"]), t = to_vector(j["reactions"][k]["torque"]);
    const double f_axial = std::abs(f[2]), f_radial = std::hypot(f[0], f[1]), t_radial = std::hypot(t[0], t[1]);
    const double normal = 0.01 * (f_radial + t_radial / 0.02) + 0.015 * f_axial;
    EXPECT_EQ(j["normal_load"][k]["joint"], "J" + std::to_string(k + 1));
    EXPECT_NEAR(j["normal_load"][k]["value"].get<double>(), normal, 1e-12 * normal);
    const double direction = v[k] != 0 ? v[k] : a[k];
    const double sign = direction > 0 ? 1 : (direction < 0 ? -1 : 0);
    const double ratio = v[k] / 0.03;
    const double friction = (0.005 * normal + (0.05 - 0.005) * normal * std::exp(-ratio * ratio)) * sign + 0.01 * v[k];
    EXPECT_NEAR(j["tau_with_friction"][k].get<double>() - j["tau"][k].get<double>(), friction, 1e-12) << k;
  }
  EXPECT_FALSE(eval_json(kFiveAxis + " " + kState + " --a 1,2,3,4,5").contains("tau_with_friction"));
}

// ---- simulate --------------------------------------------------------------------

// Bug caught: a missing or misnamed column, a wrong row count, a row of the wrong width.
TEST(CliSimulate, CsvHeaderAndRowCount) {
  const std::string csv = temporary_path("five.csv");
  const CliResult r = run_cli("simulate " + kFiveAxis + " --tau 0,0,0,0,0 --duration 0.1 --step 0.01 --output " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parse_csv(mechdyn::testing::read_file(csv));
  ASSERT_EQ(rows.size(), 1u + 11u);  // header + t = 0, 0.01, ..., 0.1
  const auto& header = rows[0];
  ASSERT_EQ(header.size(), 1u + 5u + 3u * 5u + 6u * 5u + 2u);  // t, q, v a tau, reactions, energies
  EXPECT_EQ(header[0], "t_s");
  EXPECT_EQ(header[1], "q_J1_rad");
  EXPECT_EQ(header[6], "v_J1_rad_per_s");
  EXPECT_EQ(header[11], "a_J1_rad_per_s2");
  EXPECT_EQ(header[16], "tau_J1_N_m");
  EXPECT_EQ(header[21], "reaction_J1_fx_N");
  EXPECT_EQ(header[24], "reaction_J1_tx_N_m");
  EXPECT_EQ(header[header.size() - 2], "kinetic_energy_J");
  EXPECT_EQ(header[header.size() - 1], "potential_energy_J");
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i].size(), header.size());
  EXPECT_DOUBLE_EQ(std::stod(rows.back()[0]), 0.1);
}

// Bug caught: --every dropping the final time or counting rows wrongly.
TEST(CliSimulate, EveryKeepsTheLastTime) {
  const CliResult r = run_cli("simulate " + kFiveAxis + " --duration 0.1 --step 0.01 --every 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parse_csv(r.out);
  ASSERT_EQ(rows.size(), 1u + 5u);  // t = 0, 0.03, 0.06, 0.09, 0.1
  EXPECT_DOUBLE_EQ(std::stod(rows[2][0]), 0.03);
  EXPECT_DOUBLE_EQ(std::stod(rows.back()[0]), 0.1);
}

// Bug caught: RK4 or DOPRI5 integrating a different system (or wrong stages):
// both must agree on a swinging pendulum to well within their error.
TEST(CliSimulate, Rk4AndDopri5AgreeOnAPendulum) {
  const std::string model = write_temporary_file("pendulum.yaml", kPendulum);
  const std::string common = "simulate " + model + " --q0 1.0 --v0 0 --duration 2 --step 0.01";
  const CliResult rk4 = run_cli(common + " --integrator rk4");
  const CliResult dopri5 = run_cli(common + " --integrator dopri5 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(rk4.status, 0) << rk4.err;
  ASSERT_EQ(dopri5.status, 0) << dopri5.err;
  const auto a = parse_csv(rk4.out), b = parse_csv(dopri5.out);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(a.size(), 202u);
  double largest = 0;
  for (std::size_t i = 1; i < a.size(); ++i) {
    EXPECT_EQ(a[i][0], b[i][0]);  // the same output times, hit exactly
    largest = std::max(largest, std::abs(std::stod(a[i][1]) - std::stod(b[i][1])));
  }
  EXPECT_LT(largest, 1e-6);  // RK4 at h = 0.01: global error ~ 2e-7 here (test_integrators)
  EXPECT_GT(std::abs(std::stod(a.back()[1]) - 1.0), 0.1);  // it did swing
  // Energy is conserved without effort: T + V at the end equals its start.
  const double e0 = std::stod(a[1][a[1].size() - 2]) + std::stod(a[1].back());
  const double e1 = std::stod(a.back()[a.back().size() - 2]) + std::stod(a.back().back());
  EXPECT_NEAR(e0, e1, 1e-7);
}

// Bug caught: inverse mode not integrating the prescribed accelerations: with constant
// a from rest, q = a t²/2 and v = a t, and tau equals M a + h of eval at that state.
TEST(CliSimulate, InverseModeFollowsThePrescribedMotion) {
  const CliResult r = run_cli("simulate --scenario " + source_path("examples/scenarios/five_axis_constant_accel.yaml") +
                              " --duration 0.5 --step 0.01 --every 50");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parse_csv(r.out);
  ASSERT_EQ(rows.size(), 1u + 2u);
  const auto& last = rows.back();
  EXPECT_DOUBLE_EQ(std::stod(last[0]), 0.5);
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(std::stod(last[1 + k]), 0.5 * 0.2 * 0.25, 1e-14);
    EXPECT_NEAR(std::stod(last[6 + k]), 0.2 * 0.5, 1e-14);
  }
  std::string q, v;
  for (int k = 0; k < 5; ++k) {
    q += (k ? "," : "") + last[1 + k];
    v += (k ? "," : "") + last[6 + k];
  }
  const Json j = eval_json(kFiveAxis + " --q " + q + " --v " + v + " --a 0.2,0.2,0.2,0.2,0.2");
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(std::stod(last[16 + k]), j["tau"][k].get<double>(), 1e-12);
}

// Bug caught: a flag not overriding the scenario, or the scenario's model path taken
// relative to the working directory instead of the scenario file.
TEST(CliSimulate, FlagsOverrideTheScenario) {
  const std::string scenario = source_path("examples/scenarios/five_axis_constant_accel.yaml");
  const CliResult r = run_cli("simulate --scenario " + scenario + " --duration 0.02 --step 0.01 --accelerations 1,0,0,0,0");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parse_csv(r.out);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_NEAR(std::stod(rows.back()[1]), 0.5 * 1.0 * 0.02 * 0.02, 1e-15);
  EXPECT_NEAR(std::stod(rows.back()[2]), 0.0, 1e-15);
}

// Bug caught: expressions of t not evaluated at the stage times (or not at all):
// a pendulum-free prismatic mass under tau = 2 t moves as x = t³/(3 m).
TEST(CliSimulate, EffortExpressionsOfTime) {
  const std::string model = write_temporary_file("slider.yaml", R"(mechdyn: 1
name: slider
gravity: [0, 0, -9.81]
bodies:
  - name: block
    parent: ground
    joint: {name: X, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0]}
    mass: 2
    com: [0, 0, 0]
    inertia: {diag: [0.1, 0.1, 0.1]}
)");
  const CliResult r = run_cli("simulate " + model + " --tau '2*t' --duration 1 --step 0.1 --integrator dopri5");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parse_csv(r.out);
  EXPECT_EQ(rows[0][1], "q_X_m");
  EXPECT_EQ(rows[0][2], "v_X_m_per_s");
  EXPECT_EQ(rows[0][4], "tau_X_N");
  EXPECT_NEAR(std::stod(rows.back()[1]), 1.0 / 6.0, 1e-12);  // x = t³ / (3 m), m = 2
  EXPECT_NEAR(std::stod(rows.back()[2]), 0.5, 1e-12);        // v = t² / m
  EXPECT_NEAR(std::stod(rows.back()[4]), 2.0, 1e-15);        // the applied effort at t = 1

  // Bug caught: "min(t, 0.5)" split at its inner comma; the ternary operator refused.
  const CliResult min = run_cli("simulate " + model + " --tau 'min(t, 0.5)' --duration 1 --step 0.25");
  ASSERT_EQ(min.status, 0) << min.err;
  const auto min_rows = parse_csv(min.out);
  ASSERT_EQ(min_rows.size(), 6u);
  EXPECT_DOUBLE_EQ(std::stod(min_rows[2][4]), 0.25);
  EXPECT_DOUBLE_EQ(std::stod(min_rows[5][4]), 0.5);
  const CliResult ternary = run_cli("simulate " + model + " --tau 't < 0.5 ? 3 : -1' --duration 1 --step 0.25");
  ASSERT_EQ(ternary.status, 0) << ternary.err;
  const auto ternary_rows = parse_csv(ternary.out);
  EXPECT_DOUBLE_EQ(std::stod(ternary_rows[1][4]), 3.0);
  EXPECT_DOUBLE_EQ(std::stod(ternary_rows[5][4]), -1.0);
}

// ---- info --------------------------------------------------------------------------

// Bug caught: info missing the structure a user asks for.
TEST(CliInfo, PrintsBodiesChainsAndTotalMass) {
  const CliResult r = run_cli("info " + kFiveAxis);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("five_axis_tree"), std::string::npos);
  EXPECT_NE(r.out.find("ground -> L1 -> L2 -> L3"), std::string::npos);
  EXPECT_NE(r.out.find("ground -> L1 -> L4 -> L5"), std::string::npos);
  EXPECT_NE(r.out.find("total mass 11 kg"), std::string::npos);
  const CliResult loops = run_cli("info " + source_path("examples/models/four_bar.yaml"));
  ASSERT_EQ(loops.status, 0) << loops.err;
  EXPECT_NE(loops.out.find("closure rows 2, rank 2, redundant rows none, mobility 1"), std::string::npos) << loops.out;
}

// Bug caught: --help failing or printing no examples.
TEST(CliHelp, EveryCommandHasHelpWithExamples) {
  for (const char* command : {"", "eval", "simulate", "info"}) {
    const CliResult r = run_cli(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_NE(r.out.find("Examples"), std::string::npos) << command;
  }
}

}  // namespace
