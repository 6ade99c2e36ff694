// `mechdyn eval --derivatives` (../shared/spec/eval-json.md): the keys, their shapes, one
// value against a centred finite difference of two plain `eval` calls, and the errors.
// The library's derivatives are checked in depth in
// tests/properties/test_dynamics_derivatives.cpp; here only what the command adds.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using Json = nlohmann::json;

const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");

Json eval_json(const std::string& arguments) {
  const CliResult r = run_cli("eval " + kFiveAxis + " " + arguments + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

void expect_square(const Json& json, const char* key, std::size_t nv) {
  ASSERT_TRUE(json.contains(key)) << key;
  ASSERT_EQ(json[key].size(), nv) << key;
  for (const Json& row : json[key]) EXPECT_EQ(row.size(), nv) << key;
}

// Bug caught: a missing or misnamed key, a wrong shape, keys printed without their option,
// or --derivatives changing the contract's other numbers.
TEST(CliDerivatives, KeysAndShapesFollowTheContract) {
  const std::string state = "--q 0.3,-0.7,1.1,0.2,-0.4 --v 0.5,-1,0.25,2,-0.3";
  const Json both = eval_json(state + " --a 1,0.5,-2,0.3,0 --tau 3,-1,0.5,0,2 --derivatives");
  for (const char* key : {"dtau_dq", "dtau_dv", "da_dq", "da_dv", "da_dtau"}) expect_square(both, key, 5);
  const Json inverse_only = eval_json(state + " --a 1,0.5,-2,0.3,0 --derivatives");
  EXPECT_TRUE(inverse_only.contains("dtau_dq"));
  EXPECT_FALSE(inverse_only.contains("da_dq"));
  const Json plain = eval_json(state + " --a 1,0.5,-2,0.3,0 --tau 3,-1,0.5,0,2");
  EXPECT_FALSE(plain.contains("dtau_dq"));
  EXPECT_EQ(plain["tau"], both["tau"]);
  EXPECT_EQ(plain["a"], both["a"]);
  // da_dtau = M⁻¹: times the printed M gives the identity.
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      double sum = 0;
      for (int k = 0; k < 5; ++k) sum += both["da_dtau"][i][k].get<double>() * both["mass_matrix"][k][j].get<double>();
      EXPECT_NEAR(sum, i == j ? 1.0 : 0.0, 1e-10);
    }
}

// Bug caught: rows and columns swapped (row i must be the derivative of tau_i), or a value
// the command prints that differs from what `eval` itself computes. dtau/dq column 1 (q₂)
// against (tau(q + h e₂) − tau(q − h e₂)) / 2h from two plain eval calls; the five-axis
// tree's coordinates are angles, so q ⊕ dq is q + dq. h = 1e-5: truncation h² |τ'''| ~
// 1e-9, the printed 17 digits make rounding ~1e-16 |τ| / h ~ 1e-10; tolerance 1e-6.
TEST(CliDerivatives, OneColumnAgreesWithAFiniteDifferenceOfTwoEvalCalls) {
  const Json at = eval_json("--q 0.3,-0.7,1.1,0.2,-0.4 --v 0.5,-1,0.25,2,-0.3 --a 1,0.5,-2,0.3,0 --derivatives");
  const double h = 1e-5;
  const Json plus = eval_json("--q 0.3,-0.69999,1.1,0.2,-0.4 --v 0.5,-1,0.25,2,-0.3 --a 1,0.5,-2,0.3,0");
  const Json minus = eval_json("--q 0.3,-0.70001,1.1,0.2,-0.4 --v 0.5,-1,0.25,2,-0.3 --a 1,0.5,-2,0.3,0");
  double largest = 0;
  for (int i = 0; i < 5; ++i) {
    const double fd = (plus["tau"][i].get<double>() - minus["tau"][i].get<double>()) / (2 * h);
    EXPECT_NEAR(at["dtau_dq"][i][1].get<double>(), fd, 1e-6) << "row " << i;
    largest = std::max(largest, std::abs(fd));
  }
  EXPECT_GT(largest, 1e-2);  // the column is not trivially zero
  // The optional reaction_derivatives: joint J3's torque about its origin, column q₂,
  // against the two calls' reactions.
  ASSERT_TRUE(at.contains("reaction_derivatives"));
  const Json& j3 = at["reaction_derivatives"][2];
  EXPECT_EQ(j3["joint"], "J3");
  ASSERT_EQ(j3["dtorque_dq"].size(), 3u);
  ASSERT_EQ(j3["dtorque_dq"][0].size(), 5u);
  for (int r = 0; r < 3; ++r) {
    const double fd = (plus["reactions"][2]["torque"][r].get<double>() - minus["reactions"][2]["torque"][r].get<double>()) /
                      (2 * h);
    EXPECT_NEAR(j3["dtorque_dq"][r][1].get<double>(), fd, 1e-6) << "row " << r;
    const double fd_force =
        (plus["reactions"][2]["force"][r].get<double>() - minus["reactions"][2]["force"][r].get<double>()) / (2 * h);
    EXPECT_NEAR(j3["dforce_dq"][r][1].get<double>(), fd_force, 1e-6) << "row " << r;
  }
}

// Bug caught: --derivatives silently ignored without --a or --tau (status 2, one line), or a
// crash instead of the solver-failure status at a singular mass matrix (the lunar-rover
// rocker of EJ Table 3 has one: docs/dynamics.md).
TEST(CliDerivatives, ErrorsGiveOneLineAndTheContractStatus) {
  const CliResult nothing = run_cli("eval " + kFiveAxis + " --derivatives --json");
  EXPECT_EQ(nothing.status, 2);
  EXPECT_TRUE(nothing.out.empty());
  EXPECT_NE(nothing.err.find("--derivatives"), std::string::npos) << nothing.err;
  const CliResult singular =
      run_cli("eval " + source_path("examples/models/lunar_rover_rocker.yaml") + " --tau 0,0,0,0,0 --derivatives --json");
  EXPECT_EQ(singular.status, 3) << singular.err;
  EXPECT_TRUE(singular.out.empty());
}

}  // namespace

namespace {

// Bug caught: the optional friction keys missing for a model with friction, or holding ∂τ_f
// alone instead of ∂ tau_with_friction. One column (v₃) against two eval calls' printed
// tau_with_friction, velocities away from zero (the Stribeck law's kink).
TEST(CliDerivatives, FrictionKeysAgreeWithTwoEvalCalls) {
  const std::string model = source_path("examples/models/five_axis_tree_stribeck.yaml");
  const std::string rest = " --q 0.3,-0.7,1.1,0.2,-0.4 --a 1,0.5,-2,0.3,0 --json";
  const auto eval = [&](const std::string& v, const std::string& extra) {
    const CliResult r = run_cli("eval " + model + " --v " + v + rest + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    return Json::parse(r.out);
  };
  const Json at = eval("0.5,-1,0.25,2,-0.3", " --derivatives");
  ASSERT_TRUE(at.contains("dtau_with_friction_dq"));
  ASSERT_TRUE(at.contains("dtau_with_friction_dv"));
  const double h = 1e-5;
  const Json plus = eval("0.5,-1,0.25001,2,-0.3", ""), minus = eval("0.5,-1,0.24999,2,-0.3", "");
  double largest = 0;
  for (int i = 0; i < 5; ++i) {
    const double fd =
        (plus["tau_with_friction"][i].get<double>() - minus["tau_with_friction"][i].get<double>()) / (2 * h);
    EXPECT_NEAR(at["dtau_with_friction_dv"][i][2].get<double>(), fd, 1e-6 * (1 + std::abs(fd))) << "row " << i;
    largest = std::max(largest, std::abs(fd));
  }
  EXPECT_GT(largest, 1e-2);
}

}  // namespace
