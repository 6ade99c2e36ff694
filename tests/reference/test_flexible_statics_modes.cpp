// System-level statics and natural frequencies of mechanisms with flexible bodies
// (flexible/equilibrium.hpp: what `mechdyn static` and `mechdyn modes` print) against the
// closed forms of beam theory. Every model goes through the model-file reader, the
// FlexibleSystem (joints on beams, elastic coordinates after the joints'), the static
// Newton iteration and the constrained eigenproblem — the whole path the CLI takes.
//
// Closed forms (L length, m = ρA per length, x = βL):
//   bending ω = x² √(E I / (m L⁴)); clamped–free cos x cosh x = −1 (x = 1.8751041,
//   4.6940911, 7.8547574); free–free cos x cosh x = 1 (x = 4.7300408, 7.8532046);
//   pinned–free (hinge at one end, free at the other, no rotary spring) tan x = tanh x
//   (x = 3.9266023, 7.0685827), plus the rigid rotation about the hinge (a zero mode);
//   axial clamped–free ω = (2k − 1) π/(2L) √(E/ρ); torsion (2k − 1) π/(2L) √(G J/(ρ I_p)).
//   Cantilever under its own weight q = ρ A g: tip w = q L⁴/(8 E I), slope w' = q L³/(6 E I);
//   a tip weight P adds P L³/(3 E I) and P L²/(2 E I) (Euler–Bernoulli statics; Hermite
//   elements with consistent loads are nodally exact for both, so to round-off).
//   A uniform rigid rod hanging from a hinge: ω² = 3 g/(2 L).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

const double kPi = 3.14159265358979323846;
constexpr double kE = 70e9, kG = 26e9, kRho = 2700.0;
// A slender section (I/A ≤ 2e-10 m²): the rotary inertia shifts bending frequencies by
// ≤ 1.2e-8 relative, below the discretisation errors compared here.
constexpr double kArea = 1e-3, kIy = 1e-13, kIz = 2e-13, kTorsion = 2.5e-13;

std::string beam_block(int elements, const std::string& direction = "[1, 0, 0]",
                       const std::string& section_y = "[0, 1, 0]", double length = 1.0) {
  char text[2000];
  std::snprintf(text, sizeof text,
                "    flexible:\n"
                "      type: beam\n"
                "      direction: %s\n"
                "      section_y: %s\n"
                "      length: %.17g\n"
                "      elements: %d\n"
                "      section: {area: %.17g, iy: %.17g, iz: %.17g, torsion: %.17g}\n"
                "      material: {youngs_modulus: %.17g, density: %.17g, shear_modulus: %.17g}\n",
                direction.c_str(), section_y.c_str(), length, elements, kArea, kIy, kIz, kTorsion, kE, kRho, kG);
  return text;
}

Model load(const std::string& text) { return parse_model_string(text, "test.yaml"); }

ModesResult modes(const Model& model, bool locked, const VecX* q = nullptr) {
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  return natural_frequencies(model, system, data, q ? *q : model.neutral_configuration(), locked);
}

StaticResult statics(const Model& model) {
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  return static_equilibrium(model, system, data, model.neutral_configuration(), actuated_velocities(model));
}

// The computed frequency (Hz) nearest to `expected` (Hz).
double nearest(const std::vector<double>& computed, double expected) {
  double best = computed.front();
  for (double f : computed)
    if (std::abs(f - expected) < std::abs(best - expected)) best = f;
  return best;
}

double bending_hz(double x, double inertia) {
  return x * x * std::sqrt(kE * inertia / (kRho * kArea)) / (2 * kPi);  // L = 1
}

// A beam clamped to the ground by a fixed joint, no gravity: clamped–free frequencies in
// both bending planes, axial and torsional, converging with 1, 2, 4, 8 elements (Rayleigh–
// Ritz: from above; bending order 4, axial/torsion order 2). Catches: wrong elastic
// coordinate order or mass/stiffness assembly in the system, the constraint elimination
// dropping or keeping wrong coordinates, Hz vs rad/s.
TEST(FlexibleModes, CantileverConvergesToEulerBernoulli) {
  const double bound_bending[4] = {5e-3, 5e-4, 3.5e-5, 2.5e-6};
  const double bound_axial[4] = {0.104, 0.026, 6.5e-3, 1.7e-3};
  const int counts[4] = {1, 2, 4, 8};
  for (int c = 0; c < 4; ++c) {
    const int n = counts[c];
    const Model model = load("mechdyn: 2\nname: cantilever\ngravity: [0, 0, 0]\nbodies:\n  - name: beam\n"
                             "    parent: ground\n    joint: {type: fixed}\n" + beam_block(n));
    const ModesResult r = modes(model, true);
    EXPECT_EQ(r.zero_modes, 0);
    EXPECT_EQ(r.unstable_modes, 0);
    ASSERT_EQ(static_cast<int>(r.frequencies.size()), 6 * n);
    EXPECT_TRUE(std::is_sorted(r.frequencies.begin(), r.frequencies.end()));
    // Bending about z (in the x–y plane, I_z) and about y (x–z, I_y): first mode.
    for (double inertia : {kIz, kIy}) {
      const double exact = bending_hz(1.8751040687, inertia);
      const double error = nearest(r.frequencies, exact) / exact - 1.0;
      std::printf("n = %d  bending I = %g: first mode error %.3e\n", n, inertia, error);
      EXPECT_GT(error, -1e-10);  // from above
      EXPECT_LT(error, bound_bending[c]);
    }
    const double axial = kPi / 2 * std::sqrt(kE / kRho) / (2 * kPi);
    const double torsion = kPi / 2 * std::sqrt(kG * kTorsion / (kRho * (kIy + kIz))) / (2 * kPi);
    const double axial_error = nearest(r.frequencies, axial) / axial - 1.0;
    const double torsion_error = nearest(r.frequencies, torsion) / torsion - 1.0;
    std::printf("n = %d  axial error %.3e  torsion error %.3e\n", n, axial_error, torsion_error);
    EXPECT_GT(axial_error, 0.0);
    EXPECT_LT(axial_error, bound_axial[c]);
    EXPECT_GT(torsion_error, 0.0);
    EXPECT_LT(torsion_error, bound_axial[c]);
    if (n == 8) {  // higher bending modes too
      for (double x : {4.6940911330, 7.8547574382}) {
        const double exact = bending_hz(x, kIz);
        EXPECT_NEAR(nearest(r.frequencies, exact) / exact, 1.0, 1e-3) << x;
      }
    }
  }
}

// The same beam on an actuated revolute joint: locked, it is the cantilever (the joint's
// coordinate is eliminated); free (--locked none), the hinge is pinned–free: one zero mode
// (the rotation about the hinge), the
// bending in the hinge's plane becomes pinned–free (tan x = tanh x) while the other plane
// stays clamped–free. Catches: locked actuators not eliminated, zero modes listed as tiny
// frequencies (the solver's round-off, paper's 3.72e-5 Hz), the joint–elastic coupling of M.
TEST(FlexibleModes, HingedBeamLockedAndFree) {
  // No gravity: this slender beam would sag by q L⁴/(8 E I) ≈ 470 m, far outside the
  // linear elastic model, and the free hinge's modes would see that sag through M(e).
  const std::string text = "mechdyn: 2\nname: hinged\ngravity: [0, 0, 0]\nbodies:\n  - name: beam\n"
                           "    parent: ground\n    joint: {name: hinge, type: revolute, axis: [0, 0, 1]}\n" +
                           beam_block(8);
  const Model model = load(text);
  const Model clamped = load("mechdyn: 2\nname: clamped\ngravity: [0, 0, 0]\nbodies:\n  - name: beam\n"
                             "    parent: ground\n    joint: {type: fixed}\n" + beam_block(8));
  const ModesResult locked = modes(model, true), reference = modes(clamped, true);
  ASSERT_EQ(locked.frequencies.size(), reference.frequencies.size());
  ASSERT_EQ(locked.locked.size(), 1u);
  EXPECT_EQ(locked.locked[0], "hinge");
  EXPECT_EQ(locked.zero_modes, 0);
  for (std::size_t k = 0; k < locked.frequencies.size(); ++k)
    EXPECT_NEAR(locked.frequencies[k] / reference.frequencies[k], 1.0, 1e-8) << k;

  const ModesResult free = modes(model, false);
  EXPECT_TRUE(free.locked.empty());
  EXPECT_EQ(free.zero_modes, 1);
  EXPECT_EQ(free.unstable_modes, 0);
  ASSERT_EQ(free.frequencies.size(), 48u);
  // Pinned–free in the x–y plane (I_z), converging with order 4 (8 → 16 elements: the
  // error falls by ~16); the x–z plane stays clamped–free (2.08e-6 at 8 elements).
  const ModesResult finer = modes(load("mechdyn: 2\nname: hinged\ngravity: [0, 0, 0]\nbodies:\n  - name: beam\n"
                                       "    parent: ground\n    joint: {name: hinge, type: revolute, axis: [0, 0, 1]}\n" +
                                       beam_block(16)),
                                  false);
  for (double x : {3.9266023120, 7.0685827500}) {
    const double exact = bending_hz(x, kIz);
    const double coarse = nearest(free.frequencies, exact) / exact - 1, fine = nearest(finer.frequencies, exact) / exact - 1;
    std::printf("pinned-free x = %.4f: error %.3e (8 elements), %.3e (16), ratio %.1f\n", x, coarse, fine, coarse / fine);
    EXPECT_GT(coarse, 0.0);
    EXPECT_LT(coarse, 5e-4);
    EXPECT_GT(coarse / fine, 12.0);
  }
  const double clamped_xz = bending_hz(1.8751040687, kIy);
  EXPECT_NEAR(nearest(free.frequencies, clamped_xz) / clamped_xz, 1.0, 2.5e-6);
}

// A beam on a free joint in zero gravity: locked, the cantilever; free, the free–free beam
// with exactly six rigid-body zero modes. Catches: rigid modes reported as frequencies,
// free-joint (quaternion) coordinates in the linearisation.
TEST(FlexibleModes, FreeFreeBeamHasSixZeroModes) {
  const Model model = load("mechdyn: 2\nname: floating\ngravity: [0, 0, 0]\nbodies:\n  - name: beam\n"
                           "    parent: ground\n    joint: {type: free}\n" + beam_block(8));
  const ModesResult free = modes(model, false);
  EXPECT_EQ(free.zero_modes, 6);
  EXPECT_EQ(free.unstable_modes, 0);
  ASSERT_EQ(free.frequencies.size(), 48u);
  for (double inertia : {kIz, kIy}) {
    const double exact = bending_hz(4.7300407449, inertia);
    EXPECT_NEAR(nearest(free.frequencies, exact) / exact, 1.0, 1e-4);
  }
  const ModesResult locked = modes(model, true);
  EXPECT_EQ(locked.zero_modes, 0);
  const double exact = bending_hz(1.8751040687, kIy);  // the lower plane: I_y < I_z
  EXPECT_NEAR(locked.frequencies.front() / exact, 1.0, 2.5e-6);
}

// A flexible pendulum hanging from a passive hinge under gravity: the static equilibrium
// hangs it straight down from a horizontal start; the lowest mode is the rigid pendulum
// √(3g/2L)/(2π) (the stiff axial and bending modes barely change it); the bending modes
// of the hanging cantilever (hinge locked: the rod clamped at the top) are raised by the
// gravity tension, Δω² = 1.5708782 g/L for the first (Rayleigh quotient of the exact
// mode with N(s) = ρ A g (L − s), first order in g). Catches: gravity stiffness of the
// joints, the static path through a passive joint, the geometric stiffness of gravity
// in the system (body-frame g), the equilibrium's sign.
TEST(FlexibleModes, HangingPendulum) {
  // A round rod (r = 0.01 m); E 1000 times aluminium's for the pendulum frequency, so that
  // the bending (ω_b ≈ 2.8e3 rad/s) shifts the pendulum (3.8 rad/s) by (ω/ω_b)² ≈ 2e-6 only.
  auto rod = [](double youngs, const char* actuated, double gravity = 9.81, const char* axis = "[0, 1, 0]") {
    char text[900];
    std::snprintf(text, sizeof text,
                  "mechdyn: 2\nname: pendulum\ngravity: [0, 0, %.17g]\nbodies:\n  - name: rod\n    parent: ground\n"
                  "    joint: {name: hinge, type: revolute, axis: %s, actuated: %s}\n"
                  "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1, elements: 8,\n"
                  "               section: {circle: 0.01}, material: {youngs_modulus: %.17g, density: 2700, "
                  "shear_modulus: %.17g}}\n"
                  "markers:\n  - {name: tip, body: rod, point: [1, 0, 0]}\n",
                  -gravity, axis, actuated, youngs, youngs / 2.6);
    return load(text);
  };
  const double area = kPi * 1e-4, iy = kPi * 1e-8 / 4;
  const Model model = rod(7e13, "false");
  VecX start = model.neutral_configuration();
  start[0] = 1.2;  // Newton from where gravity's tangent stiffness is positive (not the inverted branch)
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const StaticResult s = static_equilibrium(model, system, data, start, actuated_velocities(model));
  EXPECT_NEAR(s.q[0], kPi / 2, 1e-9);  // rotation +π/2 about y takes x to −z
  EXPECT_NEAR(s.markers[0].z(), -1.0, 1e-9);
  EXPECT_NEAR(s.markers[0].x(), 0.0, 1e-9);

  const ModesResult r = modes(model, false, &start);
  EXPECT_EQ(r.zero_modes, 0);
  // Rigid pendulum with the section's rotary inertia ρ I_y L about the hinge axis.
  const double pendulum =
      std::sqrt(kRho * area * 9.81 * 0.5 / (kRho * area / 3 + kRho * iy)) / (2 * kPi);
  EXPECT_NEAR(r.frequencies.front() / pendulum, 1.0, 1e-5);

  const Model held = rod(kE, "true");
  VecX q = held.neutral_configuration();
  q[0] = kPi / 2;
  const ModesResult hanging = modes(held, true, &q);
  const ModesResult weightless = modes(rod(kE, "true", 0.0), true, &q);
  const double w0 = 2 * kPi * weightless.frequencies.front();  // clamped–free in both planes (round section)
  const double w = 2 * kPi * nearest(hanging.frequencies, w0 / (2 * kPi) * (1 + 1e-3));
  const double rise = (w * w - w0 * w0) / (1.5708782 * 9.81);
  std::printf("hanging cantilever: Δω² / (1.5708782 g/L) = %.6f (ω0² = %.4f)\n", rise, w0 * w0);
  EXPECT_NEAR(rise, 1.0, 0.02);

  // The hinge vertical, the rod horizontal and sagging under gravity, actuator free: the
  // turn about the hinge is exactly neutral (one zero mode, not a tiny frequency); locked: none.
  const Model turning = rod(kE, "true", 9.81, "[0, 0, 1]");
  EXPECT_EQ(modes(turning, false).zero_modes, 1);
  EXPECT_EQ(modes(turning, true).zero_modes, 0);
}

// A horizontal cantilever (fixed joint, gravity −z) under its own weight and a tip mass on
// a child body fixed to the beam's end: tip deflection and slope against Euler–Bernoulli
// statics, to round-off, for 1, 2 and 8 elements, on an oblique beam too (direction in the
// x–y plane: the x–z bending uses the section's I about its y axis). Catches: gravity on
// the distributed mass, the child's joint not following the deformed tip, the markers'
// world positions, the static iteration's tolerance.
TEST(FlexibleStatics, CantileverUnderSelfWeightAndTipMass) {
  const double q_load = kRho * kArea * 9.81, tip_mass = 0.02, p = tip_mass * 9.81;
  for (int n : {1, 2, 8}) {
    for (const char* direction : {"[1, 0, 0]", "[0.6, 0.8, 0]"}) {
      const std::string dir = direction;
      const std::string section_y = dir == "[1, 0, 0]" ? "[0, 1, 0]" : "[-0.8, 0.6, 0]";
      const Vec3 d = dir == "[1, 0, 0]" ? Vec3(1, 0, 0) : Vec3(0.6, 0.8, 0);
      // Which I: the section's z axis is d × y = e_z, so the vertical deflection w is
      // bending about the section's y axis (I_y); on the axis the point is s d + w e_z.
      char tip[1000];
      std::snprintf(tip, sizeof tip,
                    "  - name: weight\n    parent: beam\n    joint: {type: fixed, origin: [%.17g, %.17g, 0]}\n"
                    "    mass: %.17g\n    inertia: {diag: [1e-9, 1e-9, 1e-9]}\n"
                    "markers:\n  - {name: tip, body: beam, point: [%.17g, %.17g, 0]}\n"
                    "  - {name: weight, body: weight, point: [0, 0, 0]}\n",
                    d.x(), d.y(), tip_mass, d.x(), d.y());
      const Model model = load("mechdyn: 2\nname: cantilever\ngravity: [0, 0, -9.81]\nbodies:\n  - name: beam\n"
                               "    parent: ground\n    joint: {type: fixed}\n" + beam_block(n, dir, section_y) + tip);
      const StaticResult s = statics(model);
      const double w = -(q_load / (8 * kE * kIy) + p / (3 * kE * kIy));  // L = 1
      EXPECT_NEAR(s.markers[0].z() / w, 1.0, 1e-9) << n << " " << dir;
      EXPECT_NEAR((s.markers[0].head<2>() - d.head<2>()).norm(), 0.0, 1e-12) << n << " " << dir;
      EXPECT_NEAR(s.markers[1].z() / w, 1.0, 1e-9) << "the child follows the deformed tip";
      // The tip node's section rotation: slope w' (negative), rotation about the section y
      // axis θ_y = −w' (body components: θ = θ_y y).
      const double slope = -(q_load / (6 * kE * kIy) + p / (2 * kE * kIy));
      const int last = model.rigid_nq + 6 * (n - 1);
      const Vec3 theta = s.q.segment<3>(last + 3);
      const Vec3 y_axis = dir == "[1, 0, 0]" ? Vec3(0, 1, 0) : Vec3(-0.8, 0.6, 0);
      EXPECT_NEAR(theta.dot(y_axis) / -slope, 1.0, 1e-9);
    }
  }
}

}  // namespace
}  // namespace mechdyn
