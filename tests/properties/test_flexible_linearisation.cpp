// Statics and modes of mechanisms with flexible bodies and force elements
// (flexible/equilibrium.hpp, issue 27): the time of the force elements and constant efforts
// in the equilibrium, its stability, the damped eigenvalues and the modes about a given state.
// References are closed forms:
//  - a mass m on a prismatic joint with a spring k and a damper c (a joint-spring-damper):
//    λ = −ζω ± iω√(1 − ζ²), ω = √(k/m), ζ = c / (2√(k m));
//  - a rigid pendulum (mass m, centre of mass c from the hinge): hanging, the stiffness is
//    m g c > 0 (stable); upright, −m g c (unstable); under a constant torque τ it rests at
//    sin θ = τ / (m g c);
//  - a servo on a joint without gravity holds it at rest where kp (target(t) − q) + kd target_rate(t) = 0;
//  - a cantilever beam with a tip damper: the damping ratios of a lightly damped mode against
//    the first-order perturbation ζ ≈ c φ_tip² / (2 ω) (M-normalised mode φ).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

const double kPi = 3.14159265358979323846;

struct System {
  explicit System(const std::string& text)
      : model(parse_model_string(text, "test.yaml")), system(make_flexible_system(model)), data(model, system) {}
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;
};

std::string spring_mass(double m, double k, double c) {
  char text[1000];
  std::snprintf(text, sizeof text,
                "mechdyn: 3\nname: oscillator\ngravity: [0, 0, -9.81]\nbodies:\n"
                "  - name: block\n    parent: ground\n    joint: {name: slide, type: prismatic, axis: [1, 0, 0]}\n"
                "    mass: %.17g\n    inertia: {diag: [0.01, 0.01, 0.01]}\n"
                "forces:\n  - {name: spring, type: joint-spring-damper, joint: slide, stiffness: %.17g, damping: %.17g, "
                "rest: 0.2}\n",
                m, k, c);
  return text;
}

// Catches: the damping matrix missing or with the wrong sign (growing oscillations), a wrong
// first-order system, the pair's frequency and ratio misread.
TEST(FlexibleLinearisation, DampedOscillatorEigenvalues) {
  const double m = 2.0, k = 800.0, c = 12.0;
  System s(spring_mass(m, k, c));
  const double omega = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m));
  const std::complex<double> expected(-zeta * omega, omega * std::sqrt(1 - zeta * zeta));
  // about the equilibrium (the joint free: lock_actuated false, its holding effort 0 at rest)
  VecX q = VecX::Constant(1, 0.2);
  const ModesResult r = natural_frequencies(s.model, s.system, s.data, q, false);
  ASSERT_TRUE(r.damped_model);
  ASSERT_EQ(r.eigenvalues.size(), 2u);
  EXPECT_LT(std::abs(r.eigenvalues[0] - std::conj(expected)), 1e-7 * omega);
  EXPECT_LT(std::abs(r.eigenvalues[1] - expected), 1e-7 * omega);
  ASSERT_EQ(r.damped.size(), 1u);
  EXPECT_NEAR(r.damped[0].first, expected.imag() / (2 * kPi), 1e-7 * omega);
  EXPECT_NEAR(r.damped[0].second, zeta, 1e-8);
  ASSERT_EQ(r.frequencies.size(), 1u);
  EXPECT_NEAR(r.frequencies[0], omega / (2 * kPi), 1e-8 * omega);
  // about a given moving, displaced state: the system is linear, the same eigenvalues
  const ModesResult at = natural_frequencies_at(s.model, s.system, s.data, VecX::Constant(1, 0.35),
                                                VecX::Constant(1, -1.5), false);
  ASSERT_EQ(at.eigenvalues.size(), 2u);
  EXPECT_LT(std::abs(at.eigenvalues[1] - expected), 1e-7 * omega);
  // without damping: no first-order eigenvalues
  System undamped(spring_mass(m, k, 0.0));
  const ModesResult u = natural_frequencies(undamped.model, undamped.system, undamped.data, q, false);
  EXPECT_FALSE(u.damped_model);
  EXPECT_TRUE(u.eigenvalues.empty());
}

// An over-damped oscillator has no oscillatory pair: two negative real eigenvalues
// −ω (ζ ∓ √(ζ² − 1)). Catches: real eigenvalues listed as damped pairs.
TEST(FlexibleLinearisation, OverdampedOscillatorHasNoPair) {
  const double m = 1.0, k = 100.0, c = 50.0;  // ζ = 2.5
  System s(spring_mass(m, k, c));
  const ModesResult r = natural_frequencies(s.model, s.system, s.data, VecX::Constant(1, 0.2), false);
  const double omega = 10.0, zeta = 2.5;
  ASSERT_EQ(r.eigenvalues.size(), 2u);
  EXPECT_TRUE(r.damped.empty());
  EXPECT_NEAR(r.eigenvalues[0].real(), -omega * (zeta + std::sqrt(zeta * zeta - 1)), 1e-6);
  EXPECT_NEAR(r.eigenvalues[1].real(), -omega * (zeta - std::sqrt(zeta * zeta - 1)), 1e-6);
}

std::string pendulum(double com_z, const std::string& extra = "") {
  char text[1000];
  std::snprintf(text, sizeof text,
                "mechdyn: 3\nname: pendulum\ngravity: [0, 0, -9.81]\nbodies:\n"
                "  - name: rod\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 1, 0], actuated: false}\n"
                "    mass: 1.5\n    com: [0, 0, %.17g]\n    inertia: {diag: [0.02, 0.02, 0.001]}\n%s",
                com_z, extra.c_str());
  return text;
}

// Catches: stability read from the wrong sign of the stiffness, the held rows not removed.
TEST(FlexibleLinearisation, UprightPendulumIsUnstableHangingIsStable) {
  const double m = 1.5, c = 0.3, g = 9.81;
  System hanging(pendulum(-c));
  const StaticResult down = static_equilibrium(hanging.model, hanging.system, hanging.data, VecX::Zero(1), {});
  EXPECT_TRUE(down.stable);
  ASSERT_EQ(down.stiffness_eigenvalues.size(), 1);
  EXPECT_NEAR(down.stiffness_eigenvalues[0], m * g * c, 1e-7 * m * g * c);
  System upright(pendulum(c));
  const StaticResult up = static_equilibrium(upright.model, upright.system, upright.data, VecX::Zero(1), {});
  EXPECT_FALSE(up.stable);
  EXPECT_NEAR(up.stiffness_eigenvalues[0], -m * g * c, 1e-7 * m * g * c);
  // held: nothing free, trivially stable
  const StaticResult held = static_equilibrium(upright.model, upright.system, upright.data, VecX::Zero(1), {0});
  EXPECT_TRUE(held.stable);
  EXPECT_EQ(held.stiffness_eigenvalues.size(), 0);
}

// Catches: the efforts or the time not reaching the residual.
TEST(FlexibleLinearisation, ConstantEffortAndServoTime) {
  const double m = 1.5, c = 0.3, g = 9.81, tau = 1.2;
  System s(pendulum(-c));
  StaticOptions options;
  options.efforts = VecX::Constant(1, tau);
  const StaticResult r = static_equilibrium(s.model, s.system, s.data, VecX::Zero(1), {}, options);
  // rotating by θ about y moves the com (0, 0, −c) to (−c sin θ, 0, −c cos θ): gravity's
  // torque about y is −m g c sin θ, so τ = m g c sin θ
  EXPECT_NEAR(std::sin(r.q[0]), tau / (m * g * c), 1e-9);
  EXPECT_TRUE(r.stable);

  System servo("mechdyn: 3\nname: servo\ngravity: [0, 0, 0]\nbodies:\n"
               "  - name: rod\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 0, 1], actuated: false}\n"
               "    mass: 1\n    com: [0.2, 0, 0]\n    inertia: {diag: [0.01, 0.01, 0.01]}\n"
               "forces:\n  - {name: s, type: joint-servo, joint: J1, target: '0.5*t', stiffness: 20, damping: 1}\n");
  StaticOptions at;
  at.time = 0.8;
  const StaticResult held = static_equilibrium(servo.model, servo.system, servo.data, VecX::Zero(1), {}, at);
  // at rest (v = 0) the servo's effort kp (target − q) + kd target_rate vanishes at
  // q = target(t) + kd target_rate / kp = 0.4 + 1 · 0.5 / 20
  EXPECT_NEAR(held.q[0], 0.425, 1e-10);
  EXPECT_NEAR(held.stiffness_eigenvalues[0], 20.0, 1e-6);
  // the servo's damping kd − its target rate does not enter C (a constant in v)
  const ModesResult modes = natural_frequencies(servo.model, servo.system, servo.data, VecX::Zero(1), false, at);
  ASSERT_EQ(modes.damped.size(), 1u);
  const double inertia = 0.01 + 1 * 0.2 * 0.2, omega = std::sqrt(20 / inertia), zeta = 1 / (2 * std::sqrt(20 * inertia));
  EXPECT_NEAR(modes.damped[0].first, omega * std::sqrt(1 - zeta * zeta) / (2 * kPi), 1e-7 * omega);
  EXPECT_NEAR(modes.damped[0].second, zeta, 1e-8);
}

// A clamped beam (fixed joint, 8 elements, no gravity) with a weak damper at its tip along z:
// the lowest z-bending mode's damping ratio against the first-order perturbation
// ζ = c φ_z(tip)² / (2 ω) of the undamped M-normalised mode φ (Rayleigh), and its damped
// frequency ω √(1 − ζ²) ≈ ω. Catches: a damper on a beam point not mapped to the elastic
// coordinates in C.
TEST(FlexibleLinearisation, TipDamperOnACantilever) {
  const char* text =
      "mechdyn: 3\nname: cantilever\ngravity: [0, 0, 0]\nbodies:\n"
      "  - name: beam\n    parent: ground\n    joint: {type: fixed}\n"
      "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.0, elements: 8,\n"
      "               section: {area: 1e-3, iy: 2e-10, iz: 8e-10, torsion: 5e-10},\n"
      "               material: {youngs_modulus: 7e10, density: 2700, shear_modulus: 2.6e10}}\n"
      "forces:\n"
      "  - {name: damper, type: spring-damper, a: {body: beam, point: [1.0, 0, 0]},\n"
      "     b: {body: ground, point: [1.0, 0, 1]}, stiffness: 0, free_length: 1, damping: 0.01}\n";
  System s(text);
  const ModesResult r = natural_frequencies(s.model, s.system, s.data, VecX::Zero(s.model.nq), false);
  ASSERT_TRUE(r.damped_model);
  ASSERT_FALSE(r.damped.empty());
  // the lowest mode bends in z (I_y = 2e-10 < I_z): its tip u_z is the last node's entry 2
  const VecX shape = r.shapes.col(0);
  const double tip = shape[s.model.nv - 4], omega = 2 * kPi * r.frequencies[0];
  const double zeta = 0.01 * tip * tip / (2 * omega);
  std::printf("ω %.6f rad/s, tip %.6f, ζ first order %.6e, computed %.6e\n", omega, tip, zeta, r.damped[0].second);
  EXPECT_NEAR(r.damped[0].second, zeta, 1e-3 * zeta);  // second order in c: (ζ)² relative
  EXPECT_NEAR(r.damped[0].first, r.frequencies[0], 1e-6 * r.frequencies[0]);
}

// Catches: a bad effort vector silently used.
TEST(FlexibleLinearisation, BadEffortsAreRefused) {
  System s(pendulum(-0.3));
  StaticOptions options;
  options.efforts = VecX::Constant(2, 1.0);
  EXPECT_THROW(static_equilibrium(s.model, s.system, s.data, VecX::Zero(1), {}, options), InvalidArgument);
  EXPECT_THROW(natural_frequencies_at(s.model, s.system, s.data, VecX::Zero(1), VecX::Zero(2), false), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
