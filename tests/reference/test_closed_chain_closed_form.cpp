// Closed-chain inverse dynamics against textbook closed forms.
// Catches: a wrong sign or row of Jᵀ λ, a wrong J̇ v (the slider-crank test runs at
// speed, so the velocity-product term decides τ), efforts put on passive joints, and
// assembly on the wrong branch.
#include <gtest/gtest.h>

#include <cmath>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A body made (almost) massless: the closed forms assume massless links.
void make_light(Model& model, const std::string& body) {
  const int b = *model.body_index(body);
  model.bodies[b].mass = 1e-12;
  model.bodies[b].inertia = 1e-14 * Mat3::Identity();
}

TEST(ClosedChainClosedForm, FourBarStaticTorqueHoldsTheRockerAgainstGravity) {
  // Crank a = 0.1 (A = origin), coupler b = 0.35, rocker c = 0.3 (D = [0.3, 0]), ground
  // d = 0.3; only the rocker has mass m (uniform rod, centre at c/2); gravity g along −y.
  // Static: τ₂ = dV/dθ₂ = m g (c/2) cos θ₄ · dθ₄/dθ₂, with the velocity ratio
  //   dθ₄/dθ₂ = a sin(θ₂ − θ₃) / (c sin(θ₄ − θ₃))                  (Norton, eq. 6.18)
  // and θ₄ from the closed-form position analysis (Norton, eqs. 4.10):
  //   K1 = d/a, K2 = d/c, K3 = (a² − b² + c² + d²)/(2ac),
  //   A = cos θ₂ − K1 − K2 cos θ₂ + K3, B = −2 sin θ₂, C = K1 − (K2 + 1) cos θ₂ + K3,
  //   θ₄ = 2 atan2(−B ∓ √(B² − 4AC), 2A);  θ₃ from the coupler's end points.
  Model model = testing::example_model("four_bar.yaml");
  make_light(model, "crank");
  make_light(model, "coupler");
  finalize_model(model, "four_bar_light");
  const double a = 0.1, b = 0.35, c = 0.3, d = 0.3, m = 0.6, g = 9.81;
  Data data(model);
  VecX q(3), v = VecX::Zero(3), acc = VecX::Zero(3);
  q << 0.0, 1.0, 1.2;  // guess near the open branch
  for (double theta2 = 0.0; theta2 < 2 * kPi; theta2 += 0.3) {
    q[0] = theta2;
    closed_chain_inverse_dynamics(model, data, q, v, acc);
    const double k1 = d / a, k2 = d / c, k3 = (a * a - b * b + c * c + d * d) / (2 * a * c);
    const double ca = std::cos(theta2) - k1 - k2 * std::cos(theta2) + k3, cb = -2 * std::sin(theta2);
    const double cc = k1 - (k2 + 1) * std::cos(theta2) + k3;
    const double root = std::sqrt(cb * cb - 4 * ca * cc);
    const double branch1 = 2 * std::atan2(-cb - root, 2 * ca), branch2 = 2 * std::atan2(-cb + root, 2 * ca);
    auto wrapped = [](double x) { return std::remainder(x, 2 * kPi); };
    const double theta4 = std::abs(wrapped(branch1 - q[2])) < std::abs(wrapped(branch2 - q[2])) ? branch1 : branch2;
    ASSERT_NEAR(wrapped(q[2] - theta4), 0.0, 1e-9) << "theta2 " << theta2;
    const double bx = d + c * std::cos(theta4) - a * std::cos(theta2), by = c * std::sin(theta4) - a * std::sin(theta2);
    const double theta3 = std::atan2(by, bx);
    const double ratio = a * std::sin(theta2 - theta3) / (c * std::sin(theta4 - theta3));
    const double expected = m * g * (c / 2) * std::cos(theta4) * ratio;
    EXPECT_NEAR(data.tau[0], expected, 1e-9 * (1 + std::abs(expected))) << "theta2 " << theta2;
    EXPECT_EQ(data.tau[1], 0.0);  // passive joints take no effort
    EXPECT_EQ(data.tau[2], 0.0);
  }
}

TEST(ClosedChainClosedForm, OffsetSliderCrankTorqueAtConstantSpeed) {
  // Crank r = 0.1 at constant speed ω, rod l = 0.3, offset e = 0.03; only the slider has
  // mass m. Slider position x(θ) = r cos θ + D, s = r sin θ − e, D = √(l² − s²):
  //   x' = −r sin θ − s s'/D,  s' = r cos θ,  s'' = −r sin θ,
  //   x'' = −r cos θ − (s'² + s s'')/D − s² s'²/D³.
  // Power balance τ ω = d/dt(½ m ẋ²) = m ẋ ẍ with ẋ = x' ω, ẍ = x'' ω² gives τ = m x' x'' ω².
  // (Gravity is along −y, normal to the slide: no work.)
  Model model = testing::example_model("slider_crank.yaml");
  make_light(model, "crank");
  make_light(model, "rod");
  finalize_model(model, "slider_crank_light");
  const double r = 0.1, l = 0.3, e = 0.03, m = 2.0, omega = 3.0;
  Data data(model);
  VecX q(3), v(3), acc = VecX::Zero(3);
  q << 0.0, 0.0, 0.4;
  for (double theta = 0.0; theta < 2 * kPi; theta += 0.25) {
    q[0] = theta;
    v[0] = omega;
    closed_chain_inverse_dynamics(model, data, q, v, acc);
    const double s = r * std::sin(theta) - e, ds = r * std::cos(theta), dds = -r * std::sin(theta);
    const double dd = std::sqrt(l * l - s * s);
    const double x = r * std::cos(theta) + dd;
    const double x1 = -r * std::sin(theta) - s * ds / dd;
    const double x2 = -r * std::cos(theta) - (ds * ds + s * dds) / dd - s * s * ds * ds / (dd * dd * dd);
    ASSERT_NEAR(q[2], x, 1e-10) << "slider position, theta " << theta;
    EXPECT_NEAR(v[2], x1 * omega, 1e-10) << "slider velocity, theta " << theta;
    EXPECT_NEAR(acc[2], x2 * omega * omega, 1e-9) << "slider acceleration, theta " << theta;
    const double expected = m * x1 * x2 * omega * omega;
    EXPECT_NEAR(data.tau[0], expected, 1e-9 * (1 + std::abs(expected))) << "theta " << theta;
  }
}

}  // namespace
}  // namespace mechdyn
