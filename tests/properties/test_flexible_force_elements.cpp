// Force elements, couplings and armature (model format 3) in the flexible-body system
// (flexible/flexible_system.hpp flexible_force_elements; the Newmark run, statics and modes
// that read them). Every reference is independent of the code under test:
//  - the rigid force elements (dynamics/force_elements.hpp, a separate implementation on
//    mechdyn::Data) on a model with only rigid bodies;
//  - −∂V/∂q by central differences of an energy written here from the markers' positions and
//    a child body's pose on the beam (the system kinematics, not the elements' point code);
//  - Euler–Bernoulli closed forms: a cantilever and a spring in parallel, P / (3EI/L³ + k); the
//    frequency equation of a cantilever with a tip spring (derived below);
//  - the pendulum's small-oscillation period with the armature, 2π √((J_O + J_a)/(m g c)).
#include "no_malloc_probe.hpp"  // first: EIGEN_RUNTIME_NO_MALLOC (support/no_malloc_probe.hpp)

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/flexible/newmark.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

const double kPi = 3.14159265358979323846;

struct System {
  explicit System(const std::string& text)
      : model(parse_model_string(text, "test.yaml")), system(make_flexible_system(model)), data(model, system) {}
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;

  // Q_f at (q, v, t) through the flexible system.
  VecX elements(const VecX& q, const VecX& v, double t) {
    flexible_kinematics(model, system, data, q, v);
    flexible_force_elements(model, system, data, q, v, t);
    return data.element_force;
  }
  // q ⊕ dv
  VecX step(const VecX& q, const VecX& dv) {
    flexible_kinematics(model, system, data, q);
    VecX out(model.nq);
    flexible_integrate(model, data, q, dv, out);
    return out;
  }
};

// A rigid chain with every joint kind the elements read (revolute, prismatic, spherical) and
// every element type; planar gravity is irrelevant to Q_f.
const char* kRigidChain =
    "mechdyn: 3\nname: chain\ngravity: [0, 0, -9.81]\nbodies:\n"
    "  - name: base\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 0, 1]}\n"
    "    mass: 2\n    com: [0.2, 0, 0]\n    inertia: {diag: [0.01, 0.02, 0.02]}\n"
    "  - name: slider\n    parent: base\n    joint: {name: J2, type: prismatic, axis: [1, 0, 0], origin: [0.4, 0, 0]}\n"
    "    mass: 1\n    com: [0, 0.05, 0]\n    inertia: {diag: [0.01, 0.01, 0.01]}\n"
    "  - name: ball\n    parent: slider\n    joint: {name: J3, type: spherical, origin: [0.1, 0.1, 0]}\n"
    "    mass: 0.5\n    com: [0.1, 0, 0.05]\n    inertia: {diag: [0.003, 0.004, 0.005]}\n"
    "forces:\n"
    "  - {name: S1, type: spring-damper, a: {body: base, point: [0.3, 0.1, 0]}, b: {body: ball, point: [0.2, -0.1, 0.1]},\n"
    "     stiffness: 300, free_length: 0.2, damping: 4, preload: 2}\n"
    "  - {name: S2, type: spring-damper, a: {body: ground, point: [0, 1, 0.5]}, b: {body: slider, point: [0, 0, 0.1]},\n"
    "     stiffness: 50, free_length: 0.5, damping: 1}\n"
    "  - {name: B1, type: bushing, a: {body: slider, point: [0.1, 0, 0]}, b: {body: ball, point: [0.1, 0.1, 0]},\n"
    "     stiffness: [1e3, 2e3, 3e3, 40, 40, 40], damping: [1, 2, 3, 0.1, 0.1, 0.1]}\n"
    "  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 10, damping: 0.5, rest: 0.1}\n"
    "  - {name: stop, type: joint-stop, joint: J2, lower: 0.05, upper: 0.3, stiffness: 1e4, damping: 20}\n"
    "  - {name: servo, type: joint-servo, joint: J1, target: '0.3*sin(2*t)', stiffness: 40, damping: 3, max_effort: 100}\n"
    "  - {name: load, type: applied, body: ball, point: [0.2, 0, 0], force: ['1', '2*t', '-3'], torque: ['0.5', '0', 'cos(t)']}\n";

// Catches: a wrong mapping of a body wrench through B_iᵀ, a wrong law or sign, the time
// functions at the wrong t, an element left out, or the wrong point velocity in a damper.
TEST(FlexibleForceElements, RigidModelMatchesTheRigidForceElements) {
  System s(kRigidChain);
  Data rigid(s.model);
  std::srand(7);
  for (int trial = 0; trial < 5; ++trial) {
    VecX q = s.step(s.model.neutral_configuration(), VecX::Random(s.model.nv) * 0.8);
    q[1] = trial % 3 == 0 ? 0.02 : trial % 3 == 1 ? 0.4 : 0.15;  // the stop: below, above, free
    const VecX v = VecX::Random(s.model.nv);
    const double t = 0.3 + trial;
    const VecX flexible = s.elements(q, v, t);
    force_elements(s.model, rigid, q, v, t);
    EXPECT_LT((flexible - rigid.applied_force).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + rigid.applied_force.norm()))
        << "trial " << trial << "\nflexible " << flexible.transpose() << "\nrigid    " << rigid.applied_force.transpose();
    EXPECT_LT((s.data.element_value - rigid.element_value).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((s.data.element_energy - rigid.element_energy).cwiseAbs().maxCoeff(), 1e-10);
    if (trial % 3 != 2) EXPECT_NE(rigid.element_value[4], 0.0) << "the stop should be in contact";
  }
}

// A beam on a revolute joint with a tag body welded at an on-axis point (its pose is the
// section's frame, from the system kinematics) and a marker at an off-axis point: a spring from
// that marker to the ground, a bushing from the tag's point to the ground (isotropic rotation),
// a constant force at the tip, a joint spring.
std::string beam_with_elements(double c_spring, double c_bushing) {
  char text[4000];
  std::snprintf(
      text, sizeof text,
      "mechdyn: 3\nname: beam\ngravity: [0, 0, 0]\nbodies:\n"
      "  - name: beam\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 1, 0]}\n"
      "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: 2,\n"
      "               section: {circle: 0.01}, material: {youngs_modulus: 2e8, density: 2700, poisson_ratio: 0.3},\n"
      "               geometric_stiffening: false}\n"
      "  - name: tag\n    parent: beam\n    joint: {name: weld, type: fixed, origin: [0.5, 0, 0]}\n"
      "    mass: 0.01\n    inertia: {diag: [1e-6, 1e-6, 1e-6]}\n"
      "markers:\n  - {name: off, body: beam, point: [0.3, 0.02, 0.03]}\n  - {name: tip, body: beam, point: [0.8, 0, 0]}\n"
      "forces:\n"
      "  - {name: S1, type: spring-damper, a: {body: beam, point: [0.3, 0.02, 0.03]}, b: {body: ground, point: [0.3, 0.4, 0.5]},\n"
      "     stiffness: 200, free_length: 0.3, damping: %g}\n"
      "  - {name: B1, type: bushing, a: {body: beam, point: [0.5, 0, 0]}, b: {body: ground, point: [0.5, 0, 0]},\n"
      "     stiffness: [300, 500, 700, 20, 20, 20], damping: [%g, %g, %g, %g, %g, %g]}\n"
      "  - {name: P, type: applied, body: beam, point: [0.8, 0, 0], force: ['1.5', '-2', '3']}\n"
      "  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 5, rest: 0.2}\n",
      c_spring, c_bushing, 2 * c_bushing, 3 * c_bushing, 0.1 * c_bushing, 0.1 * c_bushing, 0.1 * c_bushing);
  return text;
}

// The elements' energy written from the system kinematics: markers (spring, load) and the tag
// body's pose (the bushing's frame on the beam's section at s = 0.5).
double independent_energy(System& s, const VecX& q) {
  flexible_kinematics(s.model, s.system, s.data, q);
  const Vec3 off = s.data.marker_position[0], tip = s.data.marker_position[1];
  const double stretch = (off - Vec3(0.3, 0.4, 0.5)).norm() - 0.3;
  double energy = 0.5 * 200 * stretch * stretch;
  energy -= Vec3(1.5, -2, 3).dot(tip);
  const Mat3& ra = s.data.rotation[1];  // the tag: R Λ at the section
  const Vec3 translation = ra.transpose() * (Vec3(0.5, 0, 0) - s.data.position[1]);  // d⁰ = 0
  const Eigen::AngleAxisd turn(Mat3(ra.transpose()));
  energy += 0.5 * (300 * translation.x() * translation.x() + 500 * translation.y() * translation.y() +
                   700 * translation.z() * translation.z()) +
            0.5 * 20 * turn.angle() * turn.angle();
  energy += 0.5 * 5 * (q[0] - 0.2) * (q[0] - 0.2);
  return energy;
}

// Catches: a point on a beam that does not follow the deformation (N(s) e, the section's
// rotation carrying an off-axis point), a missing elastic part J_pᵀ Rᵀ F + J_θᵀ Rᵀ M, the
// bushing's section frame.
TEST(FlexibleForceElements, BeamPointsGiveTheGradientOfTheEnergy) {
  System s(beam_with_elements(0.0, 0.0));
  std::srand(11);
  for (int trial = 0; trial < 3; ++trial) {
    VecX q = VecX::Zero(s.model.nq);
    q[0] = 0.3 * trial - 0.2;
    q.tail(s.model.nq - s.model.rigid_nq) = VecX::Random(s.model.nq - s.model.rigid_nq) * 0.02;
    const VecX force = s.elements(q, VecX::Zero(s.model.nv), 0.0);
    VecX gradient(s.model.nv), dv = VecX::Zero(s.model.nv);
    const double h = 1e-6;
    for (int k = 0; k < s.model.nv; ++k) {
      dv[k] = h;
      const double plus = independent_energy(s, s.step(q, dv));
      dv[k] = -h;
      const double minus = independent_energy(s, s.step(q, dv));
      dv[k] = 0.0;
      gradient[k] = (plus - minus) / (2 * h);
    }
    EXPECT_LT((force + gradient).cwiseAbs().maxCoeff(), 2e-7 * force.cwiseAbs().maxCoeff())
        << "Q_f  " << force.transpose() << "\n-dV  " << -gradient.transpose();
  }
}

// Catches: a damping tangent that is not −∂Q_f/∂v (Newmark's iteration would converge slowly
// or not at all), a stiffness tangent wrong where it is exact (the elements unloaded).
TEST(FlexibleForceElements, TangentMatchesDifferencesOfTheForce) {
  System s(beam_with_elements(3.0, 1.0));
  std::srand(5);
  VecX q = VecX::Zero(s.model.nq);
  q[0] = 0.4;
  q.tail(s.model.nq - s.model.rigid_nq) = VecX::Random(s.model.nq - s.model.rigid_nq) * 0.02;
  const VecX v = VecX::Random(s.model.nv);
  s.elements(q, v, 0.0);
  flexible_force_element_tangent(s.model, s.system, s.data, q, v);
  const MatX damping = s.data.element_damping;
  MatX reference(s.model.nv, s.model.nv);
  const double h = 1e-6;
  for (int k = 0; k < s.model.nv; ++k) {
    VecX plus = v, minus = v;
    plus[k] += h;
    minus[k] -= h;
    reference.col(k) = -(s.elements(q, plus, 0.0) - s.elements(q, minus, 0.0)) / (2 * h);
  }
  EXPECT_LT((damping - reference).cwiseAbs().maxCoeff(), 1e-7 * reference.cwiseAbs().maxCoeff());

  // Unloaded (q = 0: the bushing at δ = 0, the spring's free length set to its length there,
  // the joint spring's rest at q, no load), v = 0: the material stiffness is −∂Q_f/∂q exactly.
  std::string text = beam_with_elements(3.0, 1.0);
  const double length = (Vec3(0.3, 0.02, 0.03) - Vec3(0.3, 0.4, 0.5)).norm();
  char free_length[64];
  std::snprintf(free_length, sizeof free_length, "free_length: %.17g", length);
  text.replace(text.find("free_length: 0.3"), 16, free_length);
  text.replace(text.find("rest: 0.2"), 9, "rest: 0");
  text.replace(text.find("['1.5', '-2', '3']"), 18, "['0', '0', '0']");
  System u(text);
  const VecX zero_q = VecX::Zero(u.model.nq), zero_v = VecX::Zero(u.model.nv);
  EXPECT_LT(u.elements(zero_q, zero_v, 0.0).cwiseAbs().maxCoeff(), 1e-12);
  flexible_force_element_tangent(u.model, u.system, u.data, zero_q, zero_v);
  const MatX stiffness = u.data.element_stiffness;
  for (int k = 0; k < u.model.nv; ++k) {
    VecX dv = VecX::Zero(u.model.nv);
    dv[k] = h;
    const VecX plus = u.elements(u.step(zero_q, dv), zero_v, 0.0);
    dv[k] = -h;
    const VecX minus = u.elements(u.step(zero_q, dv), zero_v, 0.0);
    reference.col(k) = -(plus - minus) / (2 * h);
  }
  EXPECT_LT((stiffness - reference).cwiseAbs().maxCoeff(), 1e-7 * reference.cwiseAbs().maxCoeff());
}

// A cantilever (fixed joint, no gravity) of E I_y along x, a tip load P along −z and a
// spring from the tip to a ground point straight above it, at its free length: the spring
// stays vertical, so beam and spring act in parallel, δ = P / (3 E I_y / L³ + k). Cubic
// Hermite elements are nodally exact for a tip load, so to the static tolerance.
// Catches: a spring that does not follow the beam's tip, a wrong elastic generalized force.
std::string cantilever(int elements, double k, double load, const std::string& extra = "") {
  char text[3000];
  std::snprintf(text, sizeof text,
                "mechdyn: 3\nname: cantilever\ngravity: [0, 0, 0]\nbodies:\n"
                "  - name: beam\n    parent: ground\n    joint: {type: fixed}\n"
                "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.2, elements: %d,\n"
                "               section: {area: 1e-3, iy: 2e-10, iz: 8e-10, torsion: 5e-10},\n"
                "               material: {youngs_modulus: 7e10, density: 2700, shear_modulus: 2.6e10}}\n"
                "markers:\n  - {name: tip, body: beam, point: [1.2, 0, 0]}\n"
                "forces:\n"
                "  - {name: spring, type: spring-damper, a: {body: beam, point: [1.2, 0, 0]},\n"
                "     b: {body: ground, point: [1.2, 0, 1]}, stiffness: %.17g, free_length: 1}\n"
                "  - {name: P, type: applied, body: beam, point: [1.2, 0, 0], force: ['0', '0', '%.17g']}\n%s",
                elements, k, -load, extra.c_str());
  return text;
}

TEST(FlexibleForceElements, CantileverAndTipSpringInParallel) {
  const double E = 7e10, I = 2e-10, L = 1.2, P = 3.0;
  for (double k : {0.0, 10.0, 100.0}) {
    for (int n : {1, 3}) {
      System s(cantilever(n, k, P));
      const StaticResult r = static_equilibrium(s.model, s.system, s.data, VecX::Zero(s.model.nq), {});
      const double expected = P / (3 * E * I / (L * L * L) + k);
      EXPECT_NEAR(-r.markers[0].z(), expected, 1e-9 * expected) << "k " << k << " elements " << n;
      EXPECT_NEAR(r.markers[0].y(), 0.0, 1e-12);
    }
  }
}

// The frequency equation of a clamped beam with a translational spring k at its free end
// (w = A (cosh βx − cos βx) + B (sinh βx − sin βx); w''(L) = 0 and E I w'''(L) = k w(L)):
//   1 + cos x cosh x + κ (sin x cosh x − cos x sinh x) = 0,  x = βL, κ = k L³ / (E I x³),
// ω = β² √(E I / (ρ A)). κ = 0 gives the cantilever, κ → ∞ clamped–pinned (tan x = tanh x).
double tip_spring_root(double k_ratio) {  // k_ratio = k L³ / (E I); the first root in (1, 4)
  const auto f = [&](double x) {
    return 1 + std::cos(x) * std::cosh(x) + k_ratio / (x * x * x) * (std::sin(x) * std::cosh(x) - std::cos(x) * std::sinh(x));
  };
  double lo = 1.0, hi = 3.9;  // f(1) > 0, f(3.9) < 0 for every κ ≥ 0
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(lo) * f(mid) <= 0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// Catches: the modes' stiffness without the elements' (the spring would not raise the
// z-bending frequency), a spring acting in the wrong plane (the y-bending must stay the plain
// cantilever's).
TEST(FlexibleForceElements, CantileverWithTipSpringFrequencies) {
  const double E = 7e10, Iy = 2e-10, Iz = 8e-10, L = 1.2, rhoA = 2700 * 1e-3;
  const double k = 3 * E * Iy / (L * L * L);  // as stiff as the beam's tip
  System s(cantilever(16, k, 0.0));
  const ModesResult r = natural_frequencies(s.model, s.system, s.data, VecX::Zero(s.model.nq), true);
  const double x_spring = tip_spring_root(k * L * L * L / (E * Iy)), x_free = 1.8751040687119611;
  const double f_z = x_spring * x_spring / (L * L) * std::sqrt(E * Iy / rhoA) / (2 * kPi);
  const double f_plain_z = x_free * x_free / (L * L) * std::sqrt(E * Iy / rhoA) / (2 * kPi);
  const double f_y = x_free * x_free / (L * L) * std::sqrt(E * Iz / rhoA) / (2 * kPi);
  std::printf("x = %.10f; f_z %.8f Hz (without the spring %.8f), f_y %.8f Hz; FE: %.8f %.8f\n", x_spring, f_z,
              f_plain_z, f_y, r.frequencies[0], r.frequencies[1]);
  ASSERT_GE(r.frequencies.size(), 2u);
  // 16 cubic elements: the clamped–free error is 1.3e-7 (docs/flexible-bodies.md); the
  // rotary inertia of this section (I/A ≤ 8e-7 m², Rayleigh beam) lowers it by ~(βL)² I/(A L²)
  // ≈ 1.5e-6 relative, which Euler–Bernoulli's closed form leaves out.
  EXPECT_NEAR(r.frequencies[0], f_z, 3e-6 * f_z);
  EXPECT_NEAR(r.frequencies[1], f_y, 3e-6 * f_y);
  EXPECT_GT(f_z, 1.3 * f_plain_z);
}

// An arm (hinge about y, a rigid link, then a flexible beam on a second hinge), a spring
// from the beam's tip to the ground and a joint spring; gravity on, no damping, no geometric
// stiffening (so the system is conservative). Newmark's average acceleration keeps
// T + V_g + V_strain + V_elements to its O(Δt²) error: halving the step quarters the drift.
// Catches: Q_f missing from the residual (the spring's energy would not be exchanged), the
// elements at the wrong time or state, the element energy left out of the total.
const char* kArmWithSpring =
    "mechdyn: 3\nname: arm\ngravity: [0, 0, -9.81]\nbodies:\n"
    "  - name: link1\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 1, 0]}\n"
    "    mass: 2.0\n    com: [0.2, 0, 0]\n    inertia: {diag: [1.0e-4, 0.02672, 0.02672]}\n"
    "  - name: beam\n    parent: link1\n    joint: {name: J2, type: revolute, axis: [0, 1, 0], origin: [0.4, 0, 0]}\n"
    "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: 2,\n"
    "               section: {circle: 0.01}, material: {youngs_modulus: 7e10, density: 2700, poisson_ratio: 0.3},\n"
    "               geometric_stiffening: false}\n"
    "forces:\n"
    "  - {name: S1, type: spring-damper, a: {body: beam, point: [0.8, 0, 0]}, b: {body: ground, point: [0.6, 0, 1.2]},\n"
    "     stiffness: 80, free_length: 0.6}\n"
    "  - {name: K2, type: joint-spring-damper, joint: J2, stiffness: 3, rest: 0.1}\n";

double run_energy_drift(System& s, double dt, double duration, double* element_swing) {
  NewmarkState state;
  state.q = VecX::Zero(s.model.nq);
  state.q[0] = 0.3;
  state.v = VecX::Zero(s.model.nv);
  const VecX effort = VecX::Zero(s.model.nv);
  FlexibleNewmark newmark(s.model, s.system);
  newmark.initialize(s.data, state, effort);
  auto total = [&] {
    flexible_kinematics(s.model, s.system, s.data, state.q, state.v);
    flexible_mass_matrix(s.model, s.system, s.data, state.q);
    flexible_force_elements(s.model, s.system, s.data, state.q, state.v, state.time);
    const FlexibleEnergies e = flexible_energies(s.model, s.system, s.data, state.q, state.v);
    return std::make_pair(e.kinetic + e.gravity + e.strain + e.elements, e.elements);
  };
  const double e0 = total().first;
  double drift = 0.0, lowest = 1e300, highest = -1e300;
  for (int k = 0; k < static_cast<int>(std::lround(duration / dt)); ++k) {
    newmark.step(s.data, state, dt, effort);
    const auto [energy, elements] = total();
    drift = std::max(drift, std::abs(energy - e0));
    lowest = std::min(lowest, elements), highest = std::max(highest, elements);
  }
  *element_swing = highest - lowest;
  return drift;
}

TEST(FlexibleForceElements, NewmarkConservesEnergyWithASpring) {
  System s(kArmWithSpring);
  double swing = 0.0, swing2 = 0.0;
  const double coarse = run_energy_drift(s, 1e-3, 0.5, &swing);
  const double fine = run_energy_drift(s, 5e-4, 0.5, &swing2);
  std::printf("element energy swing %.4e J; largest |ΔE| %.3e J (dt 1e-3), %.3e J (dt 5e-4), ratio %.2f\n", swing,
              coarse, fine, coarse / fine);
  EXPECT_GT(swing, 0.1);              // the spring exchanges energy
  EXPECT_LT(coarse, 1e-3 * swing);    // and the total stays
  EXPECT_GT(coarse / fine, 3.0);      // O(Δt²)
}

// Two hinges on the ground, each carrying a beam, geared: q_b = −2 q_a + 0.1. A torque on a
// drives both; the gear's row holds to the Newton tolerance during the run (Baumgarte only
// corrects round-off). Catches: the coupling rows missing from the flexible closure (the
// beams would move independently), a wrong Jacobian row.
TEST(FlexibleForceElements, CouplingHoldsDuringARun) {
  const std::string beam =
      "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.5, elements: 2,\n"
      "               section: {circle: 0.01}, material: {youngs_modulus: 1e9, density: 2700, poisson_ratio: 0.3}}\n";
  System s("mechdyn: 3\nname: geared\ngravity: [0, 0, -9.81]\nbodies:\n"
           "  - name: A\n    parent: ground\n    joint: {name: Ja, type: revolute, axis: [0, 1, 0]}\n" + beam +
           "  - name: B\n    parent: ground\n    joint: {name: Jb, type: revolute, axis: [0, 1, 0], origin: [0, 1, 0]}\n" +
           beam + "couplings:\n  - {name: gear, type: gear, a: Ja, b: Jb, ratio: -2, offset: 0.1}\n");
  NewmarkState state;
  state.q = VecX::Zero(s.model.nq);
  state.q[1] = 0.1;  // on the gear
  state.v = VecX::Zero(s.model.nv);
  VecX effort = VecX::Zero(s.model.nv);
  effort[0] = 0.5;
  FlexibleNewmark newmark(s.model, s.system);
  newmark.initialize(s.data, state, effort);
  double worst = 0.0;
  for (int k = 0; k < 300; ++k) {
    newmark.step(s.data, state, 1e-3, effort);
    worst = std::max(worst, std::abs(state.q[1] + 2 * state.q[0] - 0.1));
    ASSERT_NEAR(state.v[1], -2 * state.v[0], 1e-9 * (1 + std::abs(state.v[0])));
  }
  std::printf("after 0.3 s: q_a %.6f, q_b %.6f, largest |g| %.2e, gear effort %.4f N m\n", state.q[0], state.q[1],
              worst, state.multipliers[s.model.coupling_row_index]);
  EXPECT_GT(std::abs(state.q[0]), 0.05);  // it moved
  EXPECT_LT(worst, 1e-10);
}

// A rigid pendulum (m = 1.5 kg, com 0.3 m from the hinge, J_O = 0.02 + m c²) with armature
// J_a = 0.05 kg m², through the flexible path (a model without beams): small oscillations have
// the period 2π √((J_O + J_a)/(m g c)). Catches: the armature missing from M or from M a (the
// period would be that of J_O alone, 27 % shorter).
TEST(FlexibleForceElements, ArmatureRaisesThePendulumsInertia) {
  System s("mechdyn: 3\nname: pendulum\ngravity: [0, 0, -9.81]\nbodies:\n"
           "  - name: rod\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 1, 0], armature: 0.05}\n"
           "    mass: 1.5\n    com: [0, 0, -0.3]\n    inertia: {diag: [0.02, 0.02, 0.001]}\n");
  const double m = 1.5, c = 0.3, g = 9.81, inertia = 0.02 + m * c * c + 0.05;
  const double period = 2 * kPi * std::sqrt(inertia / (m * g * c));
  NewmarkState state;
  state.q = VecX::Constant(1, 1e-3);
  state.v = VecX::Zero(1);
  const VecX effort = VecX::Zero(1);
  FlexibleNewmark newmark(s.model, s.system);
  newmark.initialize(s.data, state, effort);
  const double dt = 1e-4;
  std::vector<double> crossings;  // downward zero crossings of q, linearly interpolated
  double previous = state.q[0];
  while (crossings.size() < 4) {
    newmark.step(s.data, state, dt, effort);
    if (previous > 0 && state.q[0] <= 0) crossings.push_back(state.time - dt * state.q[0] / (state.q[0] - previous));
    previous = state.q[0];
    ASSERT_LT(state.time, 10 * period);
  }
  const double measured = (crossings[3] - crossings[0]) / 3;
  std::printf("period %.8f s, closed form %.8f s (without the armature %.8f s)\n", measured, period,
              2 * kPi * std::sqrt((inertia - 0.05) / (m * g * c)));
  // Newmark's period elongation (ω Δt)²/12 ≈ 3e-8, the amplitude's (θ²/16) 6e-8: 1e-6 is ample.
  EXPECT_NEAR(measured, period, 1e-6 * period);
  // The same through the modes (the pencil's mass includes the armature).
  const ModesResult modes = natural_frequencies(s.model, s.system, s.data, VecX::Zero(1), false);
  ASSERT_EQ(modes.frequencies.size(), 1u);
  EXPECT_NEAR(modes.frequencies[0], 1.0 / period, 1e-7 / period);
}

// The time functions evaluated at the step's time: a servo whose target ramps holds a beam
// hinge on its target (with its stiffness), and a bad expression names the element.
TEST(FlexibleForceElements, NonFiniteTimeFunctionNamesTheElement) {
  System s(std::string(kArmWithSpring) +
           "  - {name: push, type: applied, body: beam, point: [0.4, 0, 0], force: ['0', '0', '1/(t-1)']}\n");
  const VecX q = VecX::Zero(s.model.nq), v = VecX::Zero(s.model.nv);
  try {
    s.elements(q, v, 1.0);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("force 'push'"), std::string::npos) << e.what();
  }
}

// A point of an element beyond the beam is refused when the model is built, naming it.
TEST(FlexibleForceElements, PointBeyondTheBeamIsRefused) {
  std::string text = kArmWithSpring;
  text.replace(text.find("point: [0.8, 0, 0]}, b: {body: ground"), 18, "point: [0.9, 0, 0]");
  try {
    parse_model_string(text, "test.yaml");
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("force 'S1' a.point"), std::string::npos) << e.what();
  }
}

// Catches: an Eigen temporary, a vector growth or a parser allocation in the elements' forces,
// their tangent or a Newmark step that reads them (evaluation paths allocate nothing).
TEST(FlexibleForceElements, EvaluationAndStepAllocateNothing) {
  System s(beam_with_elements(3.0, 1.0) +
           "  - {name: servo, type: joint-servo, joint: J1, target: '0.2*sin(t)', stiffness: 30, damping: 2}\n"
           "  - {name: pull, type: applied, body: beam, point: [0.6, 0.01, 0], force: ['sin(t)', '0', '1'], "
           "torque: ['0', 't', '0']}\n");
  std::srand(3);
  VecX q = VecX::Zero(s.model.nq);
  q.tail(s.model.nq - s.model.rigid_nq) = VecX::Random(s.model.nq - s.model.rigid_nq) * 0.01;
  const VecX v = VecX::Random(s.model.nv), a = VecX::Random(s.model.nv);
  NewmarkState state;
  state.q = q;
  state.v = v;
  const VecX effort = VecX::Zero(s.model.nv);
  FlexibleNewmark newmark(s.model, s.system);
  newmark.initialize(s.data, state, effort);
  newmark.step(s.data, state, 1e-3, effort);  // the first step may size its workspace
  const long seen = testing::allocations_during([&] {
    flexible_kinematics(s.model, s.system, s.data, q, v);
    flexible_bias_force(s.model, s.system, s.data, q, v, a, 0.7);
    flexible_force_element_tangent(s.model, s.system, s.data, q, v);
    newmark.step(s.data, state, 1e-3, effort);
  });
  EXPECT_LE(seen, 0);
}

}  // namespace
}  // namespace mechdyn
