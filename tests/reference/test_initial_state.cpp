// consistent_initial_state (constraints/initial_state.hpp): a closed chain's start keeps
// the coordinates the user states, the others from the loops.
// Catches: a kept rate changed when the loops allow it (the mass-weighted projection that
// started the slider-crank at 0.81 rad/s instead of 6); dependent rates or positions off
// the textbook closed forms; a kept passive coordinate moved; an incompatible request
// adjusted by other than the least change, or silently; a NaN state instead of a
// SolverError for an unassemblable or singular start; a branch outside every loop moved.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/initial_state.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

using testing::example_model;

double wrapped(double angle) { return std::atan2(std::sin(angle), std::cos(angle)); }

double closure_rate(const Model& model, const VecX& q, const VecX& v) {
  Data data(model);
  loop_closure(model, data, q);
  return (data.loop_jacobian * v).lpNorm<Eigen::Infinity>();
}

// Slider-crank of examples/models/slider_crank.yaml: crank r = 0.1 m about the origin,
// rod l = 0.3 m, slider on y = e = 0.03 m; q = (θ, ψ, x) with ψ the rod's angle relative
// to the crank, x the slider pin's abscissa. Closure: pin P = (x, e) = B + l (cos φ, sin φ),
// B = r (cos θ, sin θ), φ = θ + ψ. So sin φ = (e − r sin θ) / l (branch cos φ > 0, the
// one assembled from the links along +x) and
//   x(θ) = r cos θ + sqrt(l² − (r sin θ − e)²)                          (Norton §4.6)
//   ẋ = −r ω sin θ − r ω cos θ (r sin θ − e) / sqrt(l² − (r sin θ − e)²)   (d/dt of x(θ))
//   φ̇ = −r ω cos θ / (l cos φ)        (d/dt of l sin φ = e − r sin θ),   ψ̇ = φ̇ − ω.
constexpr double kCrank = 0.1, kRod = 0.3, kOffset = 0.03;

TEST(InitialState, SliderCrankCrankRateKeptExactlyOtherRatesFromTheClosedForm) {
  const Model model = example_model("slider_crank.yaml");
  Data data(model);
  for (double theta : {0.0, 0.7, 2.5, -1.2}) {
    const double omega = 6.0;
    VecX q(3), v = VecX::Zero(3);
    q << theta, -theta, kCrank * std::cos(theta) + kRod;  // guess: the rod along +x (the branch cos φ > 0)
    v[0] = omega;  // --v0 crank_joint=6: the others left to the loops
    const InitialStateResult r = consistent_initial_state(model, data, q, v);
    EXPECT_EQ(q[0], theta);
    EXPECT_EQ(v[0], omega) << "the crank rate must be kept exactly (the defect: 0.81 rad/s)";
    EXPECT_TRUE(r.adjustments.empty());
    const double root = std::sqrt(kRod * kRod - std::pow(kCrank * std::sin(theta) - kOffset, 2));
    const double phi = std::asin((kOffset - kCrank * std::sin(theta)) / kRod);
    EXPECT_NEAR(q[2], kCrank * std::cos(theta) + root, 1e-12) << "θ = " << theta;
    EXPECT_NEAR(wrapped(q[1] - (phi - theta)), 0.0, 1e-12) << "θ = " << theta;
    const double slider_rate =
        -kCrank * omega * std::sin(theta) - kCrank * omega * std::cos(theta) * (kCrank * std::sin(theta) - kOffset) / root;
    const double rod_rate = -kCrank * omega * std::cos(theta) / (kRod * std::cos(phi)) - omega;
    // The assembled q is the closed form's to the assembly tolerance (‖Φ‖∞ ≤ 1e-12): the rates,
    // ω = 6 times O(1) factors of q, agree to a few 1e-12.
    EXPECT_NEAR(v[2], slider_rate, 1e-11) << "θ = " << theta;
    EXPECT_NEAR(v[1], rod_rate, 1e-11) << "θ = " << theta;
    EXPECT_LT(closure_rate(model, q, v), 1e-12);
    EXPECT_LT(r.velocity_residual, 1e-12);
    EXPECT_LT(r.closure_residual, 1e-12);
  }
}

// Four-bar of examples/models/four_bar.yaml: ground A = (0, 0) → D = (d, 0), d = 0.3;
// crank a = 0.1, coupler b = 0.35, rocker c = 0.3. Absolute angles θ2 = q_crank,
// θ3 = q_crank + q_coupler, θ4 = q_rocker; loop a e^{iθ2} + b e^{iθ3} − c e^{iθ4} − d = 0.
// Its time derivative, real and imaginary parts eliminated pairwise (Norton §6.7, eq. 6.18):
//   ω3 = a ω2 sin(θ4 − θ2) / (b sin(θ3 − θ4)),   ω4 = a ω2 sin(θ2 − θ3) / (c sin(θ4 − θ3)).
constexpr double kA = 0.1, kB = 0.35, kC = 0.3, kD = 0.3;

struct FourBarPose {
  double theta2, theta3, theta4;
};

// The elbow-up configuration at crank angle θ2: C on |C − B| = b and |C − D| = c, y > 0.
FourBarPose four_bar_pose(double theta2) {
  const Eigen::Vector2d b_point(kA * std::cos(theta2), kA * std::sin(theta2)), d_point(kD, 0.0);
  const double distance = (d_point - b_point).norm();
  const Eigen::Vector2d u = (d_point - b_point) / distance, normal(-u.y(), u.x());
  const double along = (kB * kB - kC * kC + distance * distance) / (2 * distance);
  const double height = std::sqrt(kB * kB - along * along);
  Eigen::Vector2d c_point = b_point + along * u + height * normal;
  if (c_point.y() < 0) c_point = b_point + along * u - height * normal;
  return {theta2, std::atan2(c_point.y() - b_point.y(), c_point.x() - b_point.x()),
          std::atan2(c_point.y(), c_point.x() - kD)};
}

TEST(InitialState, FourBarCrankKeptRatesFromNortonsClosedForm) {
  const Model model = example_model("four_bar.yaml");
  Data data(model);
  const double theta2 = 0.4, omega2 = 1.3;
  VecX q = model.initial_configuration, v(3);
  q[0] = theta2;
  v << omega2, 0.0, 0.0;
  const InitialStateResult r = consistent_initial_state(model, data, q, v);
  EXPECT_TRUE(r.adjustments.empty());
  const FourBarPose p = four_bar_pose(theta2);
  EXPECT_EQ(q[0], theta2);
  EXPECT_NEAR(wrapped(q[1] - (p.theta3 - p.theta2)), 0.0, 1e-11);
  EXPECT_NEAR(wrapped(q[2] - p.theta4), 0.0, 1e-11);
  const double omega3 = kA * omega2 * std::sin(p.theta4 - p.theta2) / (kB * std::sin(p.theta3 - p.theta4));
  const double omega4 = kA * omega2 * std::sin(p.theta2 - p.theta3) / (kC * std::sin(p.theta4 - p.theta3));
  EXPECT_EQ(v[0], omega2);
  EXPECT_NEAR(v[1], omega3 - omega2, 1e-11);
  EXPECT_NEAR(v[2], omega4, 1e-11);
  EXPECT_LT(closure_rate(model, q, v), 1e-12);
}

TEST(InitialState, FourBarKeptPassiveRockerDrivesTheCrank) {
  // The rocker (passive) stated at 1.7 rad turning at 0.8 rad/s: the crank and the coupler
  // follow. Crank rate from the loop's derivative with ω4 given:
  //   a ω2 sin(θ2 − θ3) = c ω4 sin(θ4 − θ3).
  const Model model = example_model("four_bar.yaml");
  Data data(model);
  const double theta4 = 1.7, omega4 = 0.8;
  VecX q = model.initial_configuration, v = VecX::Zero(3);
  q[2] = theta4;
  v[2] = omega4;
  InitialStateOptions options;
  options.kept_positions = std::vector<int>{2};
  options.kept_velocities = std::vector<int>{2};
  const InitialStateResult r = consistent_initial_state(model, data, q, v, options);
  EXPECT_TRUE(r.adjustments.empty());
  EXPECT_EQ(q[2], theta4);
  EXPECT_EQ(v[2], omega4);
  EXPECT_LT(r.closure_residual, 1e-12);
  // The assembled crank and coupler close the loop at this rocker angle: C = D + c e^{iθ4}
  // is at distance b from B = a e^{iθ2}.
  const double theta2 = q[0], theta3 = q[0] + q[1];
  const Eigen::Vector2d b_point(kA * std::cos(theta2), kA * std::sin(theta2));
  const Eigen::Vector2d c_point(kD + kC * std::cos(theta4), kC * std::sin(theta4));
  EXPECT_NEAR((c_point - b_point).norm(), kB, 1e-12);
  EXPECT_NEAR(wrapped(std::atan2(c_point.y() - b_point.y(), c_point.x() - b_point.x()) - theta3), 0.0, 1e-11);
  const double omega2 = kC * omega4 * std::sin(theta4 - theta3) / (kA * std::sin(theta2 - theta3));
  const double omega3 = kA * omega2 * std::sin(theta4 - theta2) / (kB * std::sin(theta3 - theta4));
  EXPECT_NEAR(v[0], omega2, 1e-11);
  EXPECT_NEAR(v[1], omega3 - omega2, 1e-11);
  EXPECT_LT(closure_rate(model, q, v), 1e-12);
}

TEST(InitialState, OverDeterminedRatesMovedByTheLeastChangeAndReported) {
  // Crank and rocker both stated at 1 rad/s on a one-dof loop: only (ω2, ω4) ∝ (1, ρ),
  // ρ = a sin(θ2 − θ3) / (c sin(θ4 − θ3)), is possible. The nearest such pair to (1, 1) in
  // the 2-norm is s (1, ρ) with s = (1 + ρ) / (1 + ρ²).
  const Model model = example_model("four_bar.yaml");
  Data data(model);
  const double theta2 = 0.4;
  VecX q = model.initial_configuration, v(3);
  q[0] = theta2;
  v << 1.0, 0.0, 1.0;
  InitialStateOptions options;
  options.kept_velocities = std::vector<int>{0, 2};
  const InitialStateResult r = consistent_initial_state(model, data, q, v, options);
  const FourBarPose p = four_bar_pose(theta2);
  const double rho = kA * std::sin(p.theta2 - p.theta3) / (kC * std::sin(p.theta4 - p.theta3));
  const double s = (1.0 + rho) / (1.0 + rho * rho);
  ASSERT_EQ(r.adjustments.size(), 2u);
  EXPECT_EQ(r.adjustments[0].name, "crank");
  EXPECT_EQ(r.adjustments[0].coordinate, 0);
  EXPECT_EQ(r.adjustments[0].unit, "rad");
  EXPECT_EQ(r.adjustments[0].given, 1.0);
  EXPECT_NEAR(r.adjustments[0].used, s, 1e-11);
  EXPECT_NEAR(r.adjustments[0].difference(), s - 1.0, 1e-11);
  EXPECT_EQ(r.adjustments[1].name, "rocker");
  EXPECT_EQ(r.adjustments[1].given, 1.0);
  EXPECT_NEAR(r.adjustments[1].used, s * rho, 1e-11);
  EXPECT_EQ(v[0], r.adjustments[0].used);
  EXPECT_EQ(v[2], r.adjustments[1].used);
  const double omega3 = kA * s * std::sin(p.theta4 - p.theta2) / (kB * std::sin(p.theta3 - p.theta4));
  EXPECT_NEAR(v[1], omega3 - s, 1e-11);
  EXPECT_LT(closure_rate(model, q, v), 1e-12);

  // The same request with adjustment refused: SolverError, v untouched.
  VecX q2 = model.initial_configuration, v2(3);
  q2[0] = theta2;
  v2 << 1.0, 0.0, 1.0;
  options.allow_velocity_adjustment = false;
  try {
    consistent_initial_state(model, data, q2, v2, options);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("impossible initial velocity"), std::string::npos) << message;
    EXPECT_NE(message.find("crank = 1"), std::string::npos) << message;
    EXPECT_NE(message.find("rocker = 1"), std::string::npos) << message;
  }
  EXPECT_EQ(v2[0], 1.0);
  EXPECT_EQ(v2[2], 1.0);
}

TEST(InitialState, CompatibleOverDeterminedRatesAreKeptWithoutAdjustment) {
  // Crank and rocker stated at rates the loop allows (from the closed form): no change.
  const Model model = example_model("four_bar.yaml");
  Data data(model);
  const double theta2 = 0.4;
  const FourBarPose p = four_bar_pose(theta2);
  const double rho = kA * std::sin(p.theta2 - p.theta3) / (kC * std::sin(p.theta4 - p.theta3));
  VecX q = model.initial_configuration, v(3);
  q[0] = theta2;
  v << 2.0, 0.0, 2.0 * rho;
  InitialStateOptions options;
  options.kept_velocities = std::vector<int>{0, 2};
  const InitialStateResult r = consistent_initial_state(model, data, q, v, options);
  EXPECT_TRUE(r.adjustments.empty());
  EXPECT_EQ(v[0], 2.0);
  EXPECT_EQ(v[2], 2.0 * rho);
}

// The slider-crank's dead point: crank and rod collinear, θ* = asin(e / (r + l)), ψ = 0,
// x* = (r + l) cos θ*. There the slider's motion does not determine the crank and rod.
VecX dead_point() {
  VecX q(3);
  q << std::asin(kOffset / (kCrank + kRod)), 0.0, (kCrank + kRod) * std::cos(std::asin(kOffset / (kCrank + kRod)));
  return q;
}

TEST(InitialState, SingularStartNamesTheUndeterminedRates) {
  const Model model = example_model("slider_crank.yaml");
  Data data(model);
  VecX q = dead_point(), v(3);
  v << 0.0, 0.0, 1.0;
  InitialStateOptions options;
  options.kept_velocities = std::vector<int>{2};  // the slider's rate only
  try {
    consistent_initial_state(model, data, q, v, options);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("singular start: the rates of crank_joint, rod_joint are not determined"), std::string::npos)
        << message;
    EXPECT_NE(message.find("(slider_joint)"), std::string::npos) << message;
  }
  EXPECT_TRUE(v.allFinite());
  // Kept at the dead point by position too: the positions are not determined either.
  options.kept_positions = std::vector<int>{2};
  try {
    consistent_initial_state(model, data, q, v, options);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("singular start: the positions of crank_joint, rod_joint"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(q.allFinite());
}

TEST(InitialState, UnassemblableStartIsASolverError) {
  // The slider kept at x = 0.5 m: beyond the reach r + l = 0.4 m of crank and rod.
  const Model model = example_model("slider_crank.yaml");
  Data data(model);
  VecX q = VecX::Zero(3), v = VecX::Zero(3);
  q[2] = 0.5;
  InitialStateOptions options;
  options.kept_positions = std::vector<int>{2};
  try {
    consistent_initial_state(model, data, q, v, options);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("unassemblable start: the loops cannot close with the positions of "
                                         "slider_joint as given"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(q.allFinite());
}

TEST(InitialState, BadKeptSetsAreInvalidArguments) {
  const Model model = example_model("slider_crank.yaml");
  Data data(model);
  VecX q = VecX::Zero(3), v = VecX::Zero(3);
  InitialStateOptions options;
  options.kept_velocities = std::vector<int>{0, 3};
  EXPECT_THROW(consistent_initial_state(model, data, q, v, options), InvalidArgument);
  options.kept_velocities = std::vector<int>{1, 1};
  EXPECT_THROW(consistent_initial_state(model, data, q, v, options), InvalidArgument);
  options.kept_velocities.reset();
  v[1] = std::nan("");
  EXPECT_THROW(consistent_initial_state(model, data, q, v, options), InvalidArgument);
}

TEST(InitialState, ABranchOutsideTheLoopsKeepsItsStatedState) {
  // The slider-crank with a pendulum hanging from the crank (not in the loop): named the
  // crank only, the pendulum's 0.2 rad and 3 rad/s are neither solved nor moved, and its
  // zero column in J does not make the start "singular".
  std::ifstream file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/slider_crank.yaml");
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string text = buffer.str();
  const std::string loops = "loops:";
  text.insert(text.find(loops),
              "  - name: bob\n    parent: crank\n"
              "    joint: {name: bob_joint, type: revolute, axis: [0, 0, 1], origin: [0.05, 0, 0], actuated: false}\n"
              "    mass: 0.1\n    com: [0.1, 0, 0]\n    inertia: {diag: [0.0001, 0.0001, 0.0001]}\n");
  const Model model = parse_model_string(text, "slider_crank_with_bob");
  ASSERT_EQ(model.nv, 4);
  Data data(model);
  const int bob = model.joints[static_cast<std::size_t>(*model.joint_index("bob_joint"))].v_index;
  VecX q = VecX::Zero(4), v = VecX::Zero(4);
  q[bob] = 0.2;
  v[0] = 6.0;
  v[bob] = 3.0;
  InitialStateOptions options;
  options.kept_positions = std::vector<int>{0};
  options.kept_velocities = std::vector<int>{0};
  const InitialStateResult r = consistent_initial_state(model, data, q, v, options);
  EXPECT_TRUE(r.adjustments.empty());
  EXPECT_EQ(q[bob], 0.2);
  EXPECT_EQ(v[bob], 3.0);
  EXPECT_EQ(v[0], 6.0);
  EXPECT_LT(closure_rate(model, q, v), 1e-12);
}

}  // namespace
}  // namespace mechdyn
