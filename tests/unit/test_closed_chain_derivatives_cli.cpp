// `mechdyn eval --derivatives --a` on a model with loops: the optional key
// `closed_chain_derivatives` (docs/cli.md) — its shapes, the contract's keys left as they
// were (the spanning tree's), one column of dtau_dq and one of dtau_da against centred
// differences of two eval calls' printed actuated efforts, and the cases where the
// key is not defined (no passive joint, a singular configuration: left out with a warning). The library's derivatives are
// checked in depth in tests/properties/test_closed_chain_derivatives.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "parallel_mechanisms.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using Json = nlohmann::json;

const std::string kFourBar = source_path("examples/models/four_bar.yaml");

Json eval_json(const std::string& model, const std::string& arguments) {
  const CliResult r = run_cli("eval " + model + " " + arguments + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

std::string state(double crank, double crank_rate, double crank_acceleration) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "--q %.17g,1.02645,1.63334 --v %.17g,0,0 --a %.17g,0,0", crank, crank_rate,
                crank_acceleration);
  return buffer;
}

// Bug caught: the key missing or misshaped, coordinates misnamed, the contract's keys
// replaced by the closed chain's (they stay the spanning tree's), the passive coordinates
// not completed by the closure.
TEST(CliClosedChainDerivatives, KeysAndShapes) {
  const Json with = eval_json(kFourBar, state(0.4, 1.3, -0.5) + " --derivatives");
  const Json without = eval_json(kFourBar, state(0.4, 1.3, -0.5));
  ASSERT_TRUE(with.contains("closed_chain_derivatives"));
  EXPECT_FALSE(without.contains("closed_chain_derivatives"));
  EXPECT_EQ(with["tau"], without["tau"]);  // the tree's, as the contract says
  const Json& closed = with["closed_chain_derivatives"];
  ASSERT_EQ(closed["coordinates"].size(), 1u);
  EXPECT_EQ(closed["coordinates"][0], with["coordinates"][0]["joint"]);
  EXPECT_EQ(closed["v_index"][0], 0);
  for (const char* key : {"dtau_dq", "dtau_dv", "dtau_da"}) {
    ASSERT_EQ(closed[key].size(), 1u) << key;
    EXPECT_EQ(closed[key][0].size(), 1u) << key;
  }
  EXPECT_EQ(closed["tau"].size(), 1u);
  EXPECT_EQ(closed["q"].size(), 3u);
  EXPECT_DOUBLE_EQ(closed["q"][0].get<double>(), 0.4);                 // the actuated coordinate as given
  EXPECT_GT(std::abs(closed["q"][1].get<double>() - 1.02645), 1e-3);   // the passive ones assembled
  EXPECT_GT(std::abs(closed["v"][1].get<double>()), 1e-3);             // v_p from the closure
  EXPECT_GT(closed["dtau_da"][0][0].get<double>(), 0.0);               // a reduced mass
}

// Bug caught: a printed derivative that is not the derivative of the printed closed-chain
// efforts (e.g. the tree's ∂τ/∂q, or a partial derivative with the passive coordinates
// held). Centred differences of two eval calls: h = 1e-5 on the crank angle (truncation
// h²|τ'''| ~ 1e-10; the assembly's 1e-12 closure tolerance over 2h: up to ~1e-7),
// tolerance 1e-5 (1 + |value|); dtau_da from a ± 1 (τ_a is affine in a_a: exact).
TEST(CliClosedChainDerivatives, ColumnsAgreeWithFiniteDifferencesOfTwoEvalCalls) {
  const double h = 1e-5;
  const Json at = eval_json(kFourBar, state(0.4, 1.3, -0.5) + " --derivatives");
  const Json plus = eval_json(kFourBar, state(0.4 + h, 1.3, -0.5) + " --derivatives");
  const Json minus = eval_json(kFourBar, state(0.4 - h, 1.3, -0.5) + " --derivatives");
  const double fd = (plus["closed_chain_derivatives"]["tau"][0].get<double>() -
                     minus["closed_chain_derivatives"]["tau"][0].get<double>()) /
                    (2 * h);
  const double analytic = at["closed_chain_derivatives"]["dtau_dq"][0][0].get<double>();
  EXPECT_NEAR(analytic, fd, 1e-5 * (1 + std::abs(fd)));
  EXPECT_GT(std::abs(fd), 1e-2);  // not trivially zero
  // ... and it is not the tree's partial derivative
  EXPECT_GT(std::abs(at["dtau_dq"][0][0].get<double>() - fd), 1e-3);
  const Json a_plus = eval_json(kFourBar, state(0.4, 1.3, 0.5) + " --derivatives");
  const Json a_minus = eval_json(kFourBar, state(0.4, 1.3, -1.5) + " --derivatives");
  const double fd_a = (a_plus["closed_chain_derivatives"]["tau"][0].get<double>() -
                       a_minus["closed_chain_derivatives"]["tau"][0].get<double>()) /
                      2.0;
  EXPECT_NEAR(at["closed_chain_derivatives"]["dtau_da"][0][0].get<double>(), fd_a, 1e-10 * (1 + std::abs(fd_a)));
}

// Bug caught: a loop model with no passive joint, or a configuration where the passive
// coordinates are not determined, crashing, printing NaN, or taking the contract's keys
// down with the optional one. The extension is left out with one warning line naming why;
// the contract's keys (the spanning tree's tau, dtau_dq, ...) are printed as without it.
TEST(CliClosedChainDerivatives, UndefinedCasesLeaveTheKeyOutWithAWarning) {
  std::string text = mechdyn::testing::read_file(kFourBar);
  for (std::size_t at; (at = text.find(", actuated: false")) != std::string::npos;) text.erase(at, 17);
  const std::string all_actuated = mechdyn::testing::write_temporary_file("four_bar_all_actuated.yaml", text);
  const CliResult none = run_cli("eval " + all_actuated + " " + state(0.4, 1.3, -0.5) + " --derivatives --json");
  EXPECT_EQ(none.status, 0) << none.err;
  const Json none_json = Json::parse(none.out);
  EXPECT_FALSE(none_json.contains("closed_chain_derivatives"));
  EXPECT_TRUE(none_json.contains("dtau_dq"));
  EXPECT_EQ(none_json["dtau_dq"].size(), none_json["tau"].size());
  EXPECT_EQ(none.err.rfind("mechdyn: warning: ", 0), 0u) << none.err;
  EXPECT_NE(none.err.find("no passive joint"), std::string::npos) << none.err;
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;
  // The spatial RSSR with a spherical cut joint: the coupler spins freely about BC, so the
  // passive coordinates are never determined (J_p rank-deficient): a singular configuration.
  const std::string rssr =
      mechdyn::testing::write_temporary_file("rssr_spherical.yaml", mechdyn::testing::model_yaml(mechdyn::testing::rssr(false)));
  const CliResult singular = run_cli("eval " + rssr + " --a 0,0,0,0,0 --derivatives --json");
  EXPECT_EQ(singular.status, 0) << singular.err;
  EXPECT_FALSE(Json::parse(singular.out).contains("closed_chain_derivatives"));
  EXPECT_NE(singular.err.find("singular"), std::string::npos) << singular.err;
  EXPECT_EQ(std::count(singular.err.begin(), singular.err.end(), '\n'), 1) << singular.err;
}

// The IFToMM four-bar with its diagonal spring-damper (examples/models/iftomm_four_bar_spring.yaml)
// at its equilibrium q = 0, v = 0, a = 0: the closed chain's derivatives are its closed-form
// linearisation, derived in the model file's header (a parallelogram: every joint angle
// moves with the crank's, phi = 2.2343310190175854 rad from +x, L = 2 cos(phi/2), L0 = √2):
//   ∂τ_a/∂a_a = J = 5/3 kg m²,  ∂τ_a/∂v_a = c_e = c sin²(phi/2),
//   ∂τ_a/∂q_a = k_e = −2 m g sin(phi) + k [sin²(phi/2) − (L − L0) cos(phi/2) / 2],
// with m = 1 kg, g = 9.81, k = 25 N/m, c = 1 N s/m. Bug caught: the key left out with force
// elements (as it was before they were derived), the spring's ∂Q_f missing (k_e would be
// −2 m g sin(phi) alone), its damper's missing (c_e = 0).
TEST(CliClosedChainDerivatives, FourBarWithSpringGivesItsClosedFormLinearisation) {
  const CliResult r = run_cli("eval " + source_path("examples/models/iftomm_four_bar_spring.yaml") +
                              " --q 0,0,0 --v 0,0,0 --a 0,0,0 --derivatives --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("closed_chain_derivatives left out"), std::string::npos) << r.err;
  const Json out = Json::parse(r.out);
  ASSERT_TRUE(out.contains("closed_chain_derivatives"));
  const Json& closed = out["closed_chain_derivatives"];
  const double phi = 2.2343310190175854, m = 1.0, g = 9.81, k = 25.0, c = 1.0;
  const double length = 2 * std::cos(phi / 2), free_length = std::sqrt(2.0);
  const double half_sine = std::sin(phi / 2);
  const double stiffness = -2 * m * g * std::sin(phi) + k * (half_sine * half_sine - (length - free_length) * std::cos(phi / 2) / 2);
  const double damping = c * half_sine * half_sine;
  EXPECT_NEAR(closed["tau"][0].get<double>(), 0.0, 1e-10);  // the equilibrium
  EXPECT_NEAR(closed["dtau_da"][0][0].get<double>(), 5.0 / 3.0, 1e-12);
  EXPECT_NEAR(closed["dtau_dv"][0][0].get<double>(), damping, 1e-9 * damping);
  EXPECT_NEAR(closed["dtau_dq"][0][0].get<double>(), stiffness, 1e-8 * stiffness);
}

}  // namespace
