// mechdyn linearize / static / modes on rigid models (issue 27): the JSON keys of
// ../shared/spec/linearisation.md, checked against closed forms, and bad input as one
// line with exit status 2 (3 when there is no equilibrium or the state is singular).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <string>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace mechdyn::testing {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string format_17g_text(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

void expect_one_line(const CliResult& r, int status, const std::string& fragment) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

const std::string kPendulum = source_path("examples/models/iftomm_a01_pendulum.yaml");
const std::string kFourBar = source_path("examples/models/iftomm_four_bar_spring.yaml");

// Catches: wrong keys or shapes of the contract, a state not in the tangent order.
TEST(LinearisationCli, LinearizeGivesTheContractKeysAndThePendulumClosedForm) {
  // a point mass of 1 kg at 1 m (IFToMM A01): hanging at q = −π/2, A = [[0, 1], [−g/l, 0]], B = [0; 1/(m l²)]
  const CliResult r = run_cli("linearize " + kPendulum + " --q=-1.5707963267948966 --v 0 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["state"], nlohmann::json::array({"q_pivot", "v_pivot"}));
  EXPECT_EQ(j["inputs"], nlohmann::json::array({"tau_pivot"}));
  EXPECT_EQ(j["outputs"], j["state"]);
  EXPECT_NEAR(j["A"][1][0].get<double>(), -9.81, 1e-12);
  EXPECT_EQ(j["A"][0][1].get<double>(), 1.0);
  EXPECT_NEAR(j["B"][1][0].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(j["C"], nlohmann::json::parse("[[1,0],[0,1]]"));
  EXPECT_EQ(j["D"], nlohmann::json::parse("[[0],[0]]"));
  // no input: B is nx × 0 (nx empty rows)
  const CliResult none = run_cli("linearize " + kFourBar + " --inputs none --json");
  ASSERT_EQ(none.status, 0) << none.err;
  const nlohmann::json n = nlohmann::json::parse(none.out);
  EXPECT_EQ(n["state"], nlohmann::json::array({"q_crank", "v_crank"}));
  EXPECT_TRUE(n["inputs"].empty());
  EXPECT_EQ(n["B"], nlohmann::json::parse("[[],[]]"));
  EXPECT_EQ(n["D"], nlohmann::json::parse("[[],[]]"));
}

// Catches: static/modes keys of the contract, the stability verdict, damping output.
TEST(LinearisationCli, StaticAndModesOfARigidModelFollowTheContract) {
  const CliResult s = run_cli("static " + kPendulum + " --locked none --q=-1.2 --json");
  ASSERT_EQ(s.status, 0) << s.err;
  const nlohmann::json st = nlohmann::json::parse(s.out);
  EXPECT_NEAR(st["q"][0].get<double>(), -kPi / 2.0, 1e-9);
  EXPECT_TRUE(st["stable"].get<bool>());
  EXPECT_NEAR(st["markers"][0]["position"][1].get<double>(), -1.0, 1e-12);
  const CliResult up = run_cli("static " + kPendulum + " --locked none --q 1.4 --json");
  ASSERT_EQ(up.status, 0) << up.err;
  EXPECT_FALSE(nlohmann::json::parse(up.out)["stable"].get<bool>());

  const CliResult m = run_cli("modes " + kPendulum + " --locked none --q=-1.2 --json");
  ASSERT_EQ(m.status, 0) << m.err;
  const nlohmann::json mo = nlohmann::json::parse(m.out);
  ASSERT_EQ(mo["frequencies"].size(), 1u);
  EXPECT_NEAR(mo["frequencies"][0].get<double>(), std::sqrt(9.81) / (2.0 * kPi), 1e-12);
  EXPECT_EQ(mo["zero_modes"], 0);
  EXPECT_TRUE(mo["locked"].empty());
  EXPECT_FALSE(mo.contains("damped"));  // no damping in the model
  // locked (the default): the pendulum's only joint is actuated, so no mode is left
  const CliResult locked = run_cli("modes " + kPendulum + " --json");
  ASSERT_EQ(locked.status, 0) << locked.err;
  EXPECT_EQ(nlohmann::json::parse(locked.out)["locked"], nlohmann::json::array({"pivot"}));
  // the four-bar with a spring-damper: damped pairs and every eigenvalue
  const CliResult d = run_cli("modes " + kFourBar + " --locked none --json");
  ASSERT_EQ(d.status, 0) << d.err;
  const nlohmann::json dm = nlohmann::json::parse(d.out);
  ASSERT_EQ(dm["damped"].size(), 1u);
  ASSERT_EQ(dm["eigenvalues"].size(), 2u);
  const double re = dm["eigenvalues"][1][0].get<double>(), im = dm["eigenvalues"][1][1].get<double>();
  EXPECT_NEAR(dm["damped"][0]["frequency"].get<double>(), std::abs(im) / (2.0 * kPi), 1e-12);
  EXPECT_NEAR(dm["damped"][0]["damping_ratio"].get<double>(), -re / std::hypot(re, im), 1e-12);
}

TEST(LinearisationCli, BadInputIsOneLineWithStatusTwo) {
  expect_one_line(run_cli("linearize " + kPendulum + " --q 0,0"), 2, "--q");
  expect_one_line(run_cli("linearize " + kFourBar + " --inputs tau_nowhere"), 2, "tau_nowhere");
  expect_one_line(run_cli("linearize " + kFourBar + " --outputs nothing"), 2, "nothing");
  expect_one_line(run_cli("linearize " + kFourBar + " --independent crank,rocker"), 2, "degrees of freedom");
  expect_one_line(run_cli("linearize " + kFourBar + " --tau 1,2"), 2, "--tau");
  expect_one_line(run_cli("linearize " + source_path("examples/models/five_axis_tree_coulomb_viscous.yaml")), 2,
                  "friction");
  expect_one_line(run_cli("linearize " + source_path("examples/models/flexible_arm.yaml") + " --outputs tip"), 2,
                  "flexible");
  expect_one_line(run_cli("static " + kPendulum + " --locked sometimes"), 2, "--locked");
  expect_one_line(run_cli("modes " + kPendulum + " --friction sticky"), 2, "--friction");
  // friction refused by default, accepted with its viscous part only
  const std::string rubbing = source_path("examples/models/five_axis_tree_coulomb_viscous.yaml");
  expect_one_line(run_cli("modes " + rubbing + " --locked none"), 2, "--friction viscous");
  EXPECT_EQ(run_cli("linearize " + rubbing + " --friction viscous --json").status, 0);
  expect_one_line(run_cli("modes " + kPendulum + " --t nan"), 2, "--t");
  expect_one_line(run_cli("static " + source_path("examples/models/flexible_arm.yaml") + " --tau 1"), 2, "--tau");
  const std::string missing = temporary_path("missing.yaml");
  expect_one_line(run_cli("linearize " + missing), 2, missing);
}

// A model with flexible bodies: linearize's A over every coordinate against the modes'
// first-order eigenvalues, computed by the null-space reduction of flexible/ (another
// assembly of the same linearisation). Catches a wrong sign or block of A, or a state that
// is not the contract's (joints, then elastic coordinates).
TEST(LinearisationCli, FlexibleArmLinearModelHasTheModesEigenvalues) {
  const std::string arm = source_path("examples/models/flexible_arm.yaml");
  const CliResult m = run_cli("modes " + arm + " --locked none --json");
  ASSERT_EQ(m.status, 0) << m.err;
  const nlohmann::json modes = nlohmann::json::parse(m.out);
  std::string q;
  for (const auto& x : modes["q"]) q += (q.empty() ? "" : ",") + format_17g_text(x.get<double>());
  const CliResult l = run_cli("linearize " + arm + " --q=" + q + " --json");
  ASSERT_EQ(l.status, 0) << l.err;
  const nlohmann::json lin = nlohmann::json::parse(l.out);
  const std::size_t n = lin["state"].size();
  ASSERT_EQ(n, 2u * 26u);
  EXPECT_EQ(lin["state"][0], "q_link1");
  EXPECT_EQ(lin["state"][2], "q_link2_n2_ux");
  EXPECT_EQ(lin["state"][26], "v_link1");
  Eigen::MatrixXd a(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) a(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = lin["A"][r][c];
  const Eigen::EigenSolver<Eigen::MatrixXd> eigen(a, false);
  ASSERT_EQ(modes["eigenvalues"].size(), n);
  for (const auto& e : modes["eigenvalues"]) {  // every eigenvalue of the modes is one of A's
    const std::complex<double> lambda(e[0].get<double>(), e[1].get<double>());
    double nearest = 1e300;
    for (Eigen::Index k = 0; k < eigen.eigenvalues().size(); ++k) nearest = std::min(nearest, std::abs(eigen.eigenvalues()[k] - lambda));
    EXPECT_LT(nearest, 1e-5 * (1.0 + std::abs(lambda))) << lambda;
  }
}

TEST(LinearisationCli, NoEquilibriumIsStatusThree) {
  expect_one_line(run_cli("static " + source_path("examples/models/floating_base.yaml") + " --locked none"), 3,
                  "equilibrium");
}

}  // namespace
}  // namespace mechdyn::testing
