// Runs with force elements against closed forms (issue 26 item 7): a mass on a spring–
// damper (ω_n, ζ of the free response), the static deflection m g / k, a servo's
// second-order step response with the armature in the inertia, an undamped stop's
// rebound (exit speed = entry speed, contact time π √(m / k)), energy conserved without
// damping, and a gear's reflected inertia in a constrained run. Every expected number is
// a textbook formula computed here, not a number from the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

// x(t) of m ẍ + c ẋ + k x = 0 from (x0, 0), underdamped.
double free_response(double x0, double m, double k, double c, double t) {
  const double wn = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  return x0 * std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(wd * t));
}

// A body on a prismatic joint along x, no gravity; the spring runs along x from the body's
// point to a ground point 1 m further on: L = 1 − x, so the stretch is −x about L0 = 1.
std::string slider_model(const std::string& elements, double armature = 0.0) {
  return "mechdyn: 3\nname: slider\ngravity: [0, 0, 0]\nbodies:\n"
         "  - name: cart\n    parent: ground\n"
         "    joint: {name: X, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0]" +
         (armature > 0.0 ? ", armature: " + std::to_string(armature) : std::string()) +
         "}\n    mass: 2.0\n    com: [0, 0, 0]\n    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}\nforces:\n" + elements;
}

TEST(ForceElementRuns, SpringDamperMassFollowsTheDampedFreeResponse) {
  const double m = 2.0, k = 800.0, c = 6.0;
  const Model model = parse_model_string(
      slider_model("  - {name: S, type: spring-damper, a: {body: cart, point: [0, 0, 0]}, b: {body: ground, point: [1, 0, 0]},"
                   " stiffness: 800, free_length: 1.0, damping: 6}\n"),
      "slider");
  SimulationOptions options;
  options.duration = 1.0;
  options.step = 1e-4;
  VecX q0(1), v0 = VecX::Zero(1);
  q0 << 0.05;
  const SimulationResult run = simulate(model, q0, v0, {}, options);
  for (Eigen::Index r = 0; r < run.time.size(); r += 500)
    EXPECT_NEAR(run.q(r, 0), free_response(0.05, m, k, c, run.time[r]), 1e-9) << "t = " << run.time[r];
}

TEST(ForceElementRuns, JointSpringDamperAndArmatureGiveTheFrequencyOfTheSumOfInertias) {
  // m ẍ = −k x − c ẋ with the armature added to the mass: ω_n = √(k / (m + armature)).
  const double m = 2.0 + 0.5, k = 300.0, c = 2.0;
  const Model model =
      parse_model_string(slider_model("  - {name: K, type: joint-spring-damper, joint: X, stiffness: 300, damping: 2}\n", 0.5),
                         "slider");
  SimulationOptions options;
  options.duration = 2.0;
  options.step = 1e-4;
  VecX q0(1), v0 = VecX::Zero(1);
  q0 << -0.1;
  const SimulationResult run = simulate(model, q0, v0, {}, options);
  for (Eigen::Index r = 0; r < run.time.size(); r += 1000)
    EXPECT_NEAR(run.q(r, 0), free_response(-0.1, m, k, c, run.time[r]), 1e-9) << "t = " << run.time[r];
}

TEST(ForceElementRuns, HeavyBodyOnASpringSettlesAtTheStaticDeflection) {
  // Vertical slider under gravity hanging from a spring to a ground point 1 m above:
  // equilibrium stretch m g / k below the free length.
  const double m = 3.0, g = 9.81, k = 1500.0;
  const Model model = parse_model_string(
      "mechdyn: 3\nname: hanging\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: mass\n    parent: ground\n    joint: {name: Z, type: prismatic, axis: [0, 0, 1], origin: [0, 0, 0]}\n"
      "    mass: 3.0\n    com: [0, 0, 0]\n    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}\n"
      "forces:\n  - {name: S, type: spring-damper, a: {body: mass, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 1]},"
      " stiffness: 1500, free_length: 1.0, damping: 120}\n",
      "hanging");
  SimulationOptions options;
  options.duration = 4.0;
  options.step = 1e-3;
  const SimulationResult run = simulate(model, VecX::Zero(1), VecX::Zero(1), {}, options);
  EXPECT_NEAR(run.q(run.time.size() - 1, 0), -m * g / k, 1e-9);
}

TEST(ForceElementRuns, ServoStepResponseIsTheSecondOrderClosedForm) {
  // One revolute joint about z, no gravity: (I + armature) q̈ = kp (1 − q) − kd q̇ from rest:
  // q = 1 − e^{−ζ ω t} (cos ω_d t + ζ / √(1 − ζ²) sin ω_d t).
  const double inertia = 0.3 + 2.0 * 0.25 + 0.05;  // izz + m r² (com 0.5 m off the axis) + armature
  const double kp = 40.0, kd = 2.0;
  const Model model = parse_model_string(
      "mechdyn: 3\nname: servo\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: arm\n    parent: ground\n    joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], armature: 0.05}\n"
      "    mass: 2.0\n    com: [0.5, 0, 0]\n    inertia: {ixx: 0.1, iyy: 0.3, izz: 0.3}\n"
      "forces:\n  - {name: servo, type: joint-servo, joint: J, target: \"1\", stiffness: 40, damping: 2}\n",
      "servo");
  SimulationOptions options;
  options.duration = 3.0;
  options.step = 1e-4;
  const SimulationResult run = simulate(model, VecX::Zero(1), VecX::Zero(1), {}, options);
  for (Eigen::Index r = 0; r < run.time.size(); r += 1000)
    EXPECT_NEAR(run.q(r, 0), 1.0 - free_response(1.0, inertia, kp, kd, run.time[r]), 1e-9) << "t = " << run.time[r];
}

TEST(ForceElementRuns, UndampedStopReboundsWithTheEntrySpeedAfterHalfAPeriod) {
  // The cart moves at −1 m/s into a stop at x = 0 (no gravity): in contact m ẍ = −k x, so it
  // leaves after π √(m / k) at +1 m/s.
  const double m = 2.0, k = 2e4;
  const Model model = parse_model_string(
      slider_model("  - {name: stop, type: joint-stop, joint: X, lower: 0.0, stiffness: 2e4}\n"), "stop");
  SimulationOptions options;
  options.duration = 0.2;
  options.step = 1e-5;
  options.adaptive = true;
  options.relative_tolerance = 1e-12;
  options.absolute_tolerance = 1e-14;
  VecX q0(1), v0(1);
  q0 << 0.05;
  v0 << -1.0;
  const SimulationResult run = simulate(model, q0, v0, {}, options);
  double entry = -1.0, exit = -1.0;
  for (Eigen::Index r = 1; r < run.time.size(); ++r) {
    if (entry < 0.0 && run.q(r, 0) < 0.0) entry = run.time[r - 1] + run.q(r - 1, 0) / (run.q(r - 1, 0) - run.q(r, 0)) * 1e-5;
    if (entry >= 0.0 && exit < 0.0 && run.q(r, 0) >= 0.0 && run.q(r - 1, 0) < 0.0)
      exit = run.time[r - 1] + run.q(r - 1, 0) / (run.q(r - 1, 0) - run.q(r, 0)) * 1e-5;
  }
  ASSERT_GT(exit, 0.0);
  EXPECT_NEAR(exit - entry, kPi * std::sqrt(m / k), 1e-7);
  EXPECT_NEAR(run.v(run.time.size() - 1, 0), 1.0, 1e-7);
}

TEST(ForceElementRuns, EnergyIsConservedWithoutDamping) {
  // A double pendulum with a spring-damper (c = 0, preload) to ground, a joint spring and
  // armature: T + V_gravity + V_elements constant (force-elements.md).
  const Model model = parse_model_string(
      "mechdyn: 3\nname: double\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: upper\n    parent: ground\n    joint: {name: J1, type: revolute, axis: [0, 1, 0], origin: [0, 0, 0], armature: 0.03}\n"
      "    mass: 1.5\n    com: [0.4, 0, 0]\n    inertia: {ixx: 0.01, iyy: 0.08, izz: 0.08}\n"
      "  - name: lower\n    parent: upper\n    joint: {name: J2, type: revolute, axis: [0, 1, 0], origin: [0.8, 0, 0]}\n"
      "    mass: 1.0\n    com: [0.3, 0, 0]\n    inertia: {ixx: 0.01, iyy: 0.04, izz: 0.04}\n"
      "forces:\n  - {name: S, type: spring-damper, a: {body: lower, point: [0.6, 0, 0]}, b: {body: ground, point: [1.0, 0, 0.8]},"
      " stiffness: 60, free_length: 0.4, preload: 2}\n"
      "  - {name: K, type: joint-spring-damper, joint: J2, stiffness: 5, rest: 0.3}\n",
      "double");
  SimulationOptions options;
  options.duration = 3.0;
  options.step = 1e-3;
  options.adaptive = true;
  options.relative_tolerance = 1e-11;
  options.absolute_tolerance = 1e-13;
  VecX q0(2), v0(2);
  q0 << 0.4, -0.7;
  v0 << 1.0, 0.5;
  Data data(model);
  double first = 0.0, worst = 0.0;
  simulate(model, q0, v0, {}, options, [&](SimulationRow& row) {
    force_elements(model, data, row.q, row.v, row.time);
    const double energy = kinetic_energy(model, data, row.q, row.v) + potential_energy(model, data, row.q) +
                          force_element_potential_energy(data);
    if (row.time == 0.0) first = energy;
    worst = std::max(worst, std::abs(energy - first));
  });
  EXPECT_LT(worst, 1e-7 * std::abs(first) + 1e-9) << "energy " << first;
}

TEST(ForceElementRuns, GearCouplingReflectsTheDrivenInertia) {
  // Motor (izz 0.2 + armature 0.01) geared to a wheel (izz 0.3) with q_w = −2.5 q_m: under a
  // constant torque τ the motor accelerates at τ / (0.21 + 2.5² · 0.3).
  const Model model = parse_model_string(
      "mechdyn: 3\nname: gear\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: motor\n    parent: ground\n    joint: {name: M, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], armature: 0.01}\n"
      "    mass: 1.0\n    com: [0, 0, 0]\n    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.2}\n"
      "  - name: wheel\n    parent: ground\n    joint: {name: W, type: revolute, axis: [0, 0, 1], origin: [1, 0, 0], actuated: false}\n"
      "    mass: 1.0\n    com: [0, 0, 0]\n    inertia: {ixx: 0.15, iyy: 0.15, izz: 0.3}\n"
      "couplings:\n  - {name: g, type: gear, a: M, b: W, ratio: -2.5}\n",
      "gear");
  const double tau = 1.5, accel = tau / (0.21 + 6.25 * 0.3);
  SimulationOptions options;
  options.duration = 1.0;
  options.step = 1e-3;
  const SimulationResult run = simulate(
      model, VecX::Zero(2), VecX::Zero(2),
      [&](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
        out.setZero();
        out[0] = tau;
      },
      options);
  const Eigen::Index last = run.time.size() - 1;
  EXPECT_NEAR(run.q(last, 0), 0.5 * accel, 1e-9);
  EXPECT_NEAR(run.q(last, 1), -2.5 * 0.5 * accel, 1e-9);
  EXPECT_NEAR(run.a(last, 0), accel, 1e-9);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

TEST(ForceElementModelChanges, ADataMadeBeforeAnElementWasAddedIsRefused) {
  Model model = parse_model_string(
      slider_model("  - {name: K, type: joint-spring-damper, joint: X, stiffness: 300}\n"), "slider");
  Data old_data(model);
  ForceElement extra;
  extra.name = "K2";
  extra.type = ForceElementType::JointSpringDamper;
  extra.joint = 0;
  extra.stiffness = 10.0;
  model.forces.push_back(extra);
  finalize_model(model, "slider");
  const VecX q = VecX::Zero(1), v = VecX::Zero(1);
  EXPECT_THROW(force_elements(model, old_data, q, v, 0.0), InvalidArgument);
  Data fresh(model);
  force_elements(model, fresh, q, v, 0.0);
  EXPECT_EQ(fresh.element_value.size(), 2);
}

TEST(ForceElementModelChanges, AModelBuiltInCodeWithABadExpressionIsRefusedNamingTheElement) {
  Model model = parse_model_string(slider_model("  - {name: K, type: joint-spring-damper, joint: X, stiffness: 1}\n"), "code");
  ForceElement servo;
  servo.name = "drive";
  servo.type = ForceElementType::JointServo;
  servo.joint = 0;
  servo.stiffness = 10.0;
  servo.target = "sin(t";
  model.forces.push_back(servo);
  try {
    finalize_model(model, "code");
    FAIL() << "no ModelError";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("force 'drive'"), std::string::npos) << message;
    EXPECT_NE(message.find("target"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// ∂Q_f/∂q, ∂Q_f/∂v of force_element_derivatives on a free base carrying a ball joint and a
// hinge (world-direction and world axes, dynamics/force_elements.cpp axis_rate) against
// central differences of Q_f along the tangent (q ⊕ ±h e_j, apply_velocity_increment).
TEST(ForceElementDerivatives, FreeAndSphericalChainsMatchTangentDifferences) {
  const Model model = parse_model_string(
      "mechdyn: 3\nname: floating\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: base\n    parent: ground\n    joint: {name: F, type: free}\n"
      "    mass: 4.0\n    com: [0.05, 0, 0]\n    inertia: {ixx: 0.1, iyy: 0.12, izz: 0.14}\n"
      "  - name: arm\n    parent: base\n    joint: {name: B, type: spherical, origin: [0.2, 0.1, 0]}\n"
      "    mass: 1.0\n    com: [0.2, 0, 0]\n    inertia: {ixx: 0.01, iyy: 0.03, izz: 0.03}\n"
      "  - name: hand\n    parent: arm\n    joint: {name: H, type: revolute, axis: [0, 0.6, 0.8], origin: [0.4, 0, 0]}\n"
      "    mass: 0.5\n    com: [0.1, 0, 0]\n    inertia: {ixx: 0.005, iyy: 0.01, izz: 0.01}\n"
      "forces:\n"
      "  - {name: S1, type: spring-damper, a: {body: hand, point: [0.2, 0.05, 0]}, b: {body: ground, point: [1, 0.5, 1]},"
      " stiffness: 300, free_length: 0.4, damping: 4, preload: 2}\n"
      "  - {name: S2, type: spring-damper, a: {body: base, point: [-0.1, 0.1, 0.05]}, b: {body: hand, point: [0.1, 0, 0.1]},"
      " stiffness: 120, free_length: 0.3, damping: 1.5}\n"
      "  - {name: L, type: applied, body: arm, point: [0.3, 0, 0.02], force: [\"1\", \"-2\", \"3\"], torque: [\"0.5\", \"0\", \"-0.4\"]}\n"
      "  - {name: K, type: joint-spring-damper, joint: H, stiffness: 7, damping: 0.2, rest: 0.1}\n",
      "floating");
  VecX q = model.neutral_configuration();
  q.head<3>() << 0.1, -0.2, 0.3;
  {
    Data d(model);
    forward_kinematics(model, d, q);
    VecX dv(model.nv);
    dv << 0.2, -0.1, 0.3, 0.4, -0.3, 0.2, 0.5, -0.6, 0.3, 0.7;
    apply_velocity_increment(model, d, q, dv);  // a general configuration
  }
  VecX v(model.nv);
  v << 0.3, -0.2, 0.1, 0.5, 0.4, -0.6, 0.7, 0.2, -0.3, 1.1;
  Data data(model);
  force_elements(model, data, q, v, 0.0);
  MatX dq = MatX::Zero(model.nv, model.nv), dv = MatX::Zero(model.nv, model.nv);
  force_element_derivatives(model, data, q, v, dq, dv);
  const auto q_f = [&](const VecX& qq, const VecX& vv) {
    Data d(model);
    force_elements(model, d, qq, vv, 0.0);
    return VecX(d.applied_force);
  };
  const double h = 1e-6;
  double worst_q = 0.0, worst_v = 0.0, scale = 1.0;
  for (int j = 0; j < model.nv; ++j) {
    VecX step = VecX::Zero(model.nv);
    step[j] = h;
    VecX plus = q, minus = q;
    {
      Data d(model);
      forward_kinematics(model, d, q);
      apply_velocity_increment(model, d, plus, step);
      apply_velocity_increment(model, d, minus, -step);
    }
    const VecX column_q = (q_f(plus, v) - q_f(minus, v)) / (2 * h);
    const VecX column_v = (q_f(q, v + step) - q_f(q, v - step)) / (2 * h);
    scale = std::max(scale, column_q.cwiseAbs().maxCoeff());
    worst_q = std::max(worst_q, (column_q - dq.col(j)).cwiseAbs().maxCoeff());
    worst_v = std::max(worst_v, (column_v - dv.col(j)).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst_q, 1e-6 * scale) << "scale " << scale;
  EXPECT_LT(worst_v, 1e-6 * scale);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// ---- load-dependent friction whose normal load comes from a spring-damper --------------
//
// A block (mass 2 kg, centre of mass at its frame origin) on a prismatic joint along x, no
// gravity, load-dependent Coulomb friction k_c = μ = 0.5 (prismatic: N = f_p + τ_p/R_b +
// τ_m/R_n, model-format.md), and a spring-damper (k = 100 N/m, L0 = 0.5 m) from the block's
// origin to the ground point (b_x, 1, 0). The joint's reaction is the subtree's inertial force
// minus the spring's T u (force through the block's origin: no reaction torque), so its
// normal load is N = T |u_y| (free-body balance of the block) and the spring pulls along the
// axis with T u_x. Static friction holds the block while |T u_x| ≤ μ T |u_y|, i.e. while
// |u_x / u_y| = |b_x − x| ≤ μ: a wedge whose breakaway depends on the direction only.
//   b_x = 0.3: 0.3 < 0.5, the block stays put (q = v = 0 exactly for the whole run);
//   b_x = 0.8: 0.8 > 0.5, it slips, from rest with q̈ = T (u_x − μ u_y) / m at t = 0.
// Without the spring's wrench in the friction's joint loads (before this was fixed) N = 0:
// no friction at all, and the block below breakaway slid away.
std::string wedged_slider(double anchor_x) {
  return "mechdyn: 3\nname: wedged_slider\ngravity: [0, 0, 0]\nbodies:\n"
         "  - name: block\n    parent: ground\n"
         "    joint: {name: X, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0], friction: {model: coulomb_viscous,"
         " coulomb: 0.5, load: {bending_arm: 0.05, friction_arm: 0.05}}}\n"
         "    mass: 2\n    com: [0, 0, 0]\n    inertia: {diag: [0.01, 0.01, 0.01]}\n"
         "forces:\n"
         "  - {name: S, type: spring-damper, a: {body: block, point: [0, 0, 0]}, b: {body: ground, point: [" +
         std::to_string(anchor_x) + ", 1, 0]}, stiffness: 100, free_length: 0.5}\n";
}

// Catches: the friction simulation's joint loads without the elements' body wrenches (the
// block below breakaway slides, the one above accelerates without friction), Q_f counted
// twice or not at all in the stick test (data.tau against τ + Q_f), the inverse run's friction
// without the spring's load.
TEST(ForceElementRuns, StaticFrictionLoadedBySpringHoldsBelowBreakawayAndSlipsAbove) {
  const double mu = 0.5, mass = 2.0, k = 100.0, free_length = 0.5;
  SimulationOptions options;
  options.duration = 1.0;
  options.step = 1e-3;
  {  // below breakaway: stays put
    const Model model = parse_model_string(wedged_slider(0.3), "wedge 0.3");
    const SimulationResult run = simulate(model, VecX::Zero(1), VecX::Zero(1), {}, options);
    EXPECT_EQ(run.q.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(run.v.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(run.a.cwiseAbs().maxCoeff(), 0.0);
  }
  {  // above breakaway: slips, with the closed-form acceleration at the start
    const Model model = parse_model_string(wedged_slider(0.8), "wedge 0.8");
    const SimulationResult run = simulate(model, VecX::Zero(1), VecX::Zero(1), {}, options);
    const double length = std::sqrt(0.8 * 0.8 + 1.0), tension = k * (length - free_length);
    const double start = tension * (0.8 - mu * 1.0) / length / mass;  // T (u_x − μ u_y) / m
    EXPECT_NEAR(run.a(0, 0), start, 1e-12 * start);
    EXPECT_GT(run.q(run.q.rows() - 1, 0), 0.01);  // it moved toward the anchor
    // Along the run, while it slides forward, q̈ = T (u_x − μ |u_y|) / m at each row's position.
    for (Eigen::Index r = 1; r < run.time.size(); ++r) {
      if (!(run.v(r, 0) > 1e-6)) continue;
      const double x = run.q(r, 0), dx = 0.8 - x, l = std::sqrt(dx * dx + 1.0);
      const double expected = k * (l - free_length) * (dx - mu * 1.0) / l / mass;
      ASSERT_NEAR(run.a(r, 0), expected, 1e-9 * (1 + std::abs(expected))) << "t " << run.time[r];
    }
  }
  {  // the inverse run: the actuator's effort that moves the block at v = 0.2, q̈ = 0 against
     // the spring and the friction it loads: τ = −T u_x + μ T |u_y| (sgn v = +1) at t = 0
    const Model model = parse_model_string(wedged_slider(0.3), "wedge 0.3");
    SimulationOptions inverse = options;
    inverse.duration = 0.01;
    const SimulationResult run = simulate_inverse(model, VecX::Zero(1), VecX::Constant(1, 0.2),
                                                  [](double, Eigen::Ref<VecX> a) { a.setZero(); }, inverse);
    const double length = std::sqrt(0.3 * 0.3 + 1.0), tension = k * (length - free_length);
    const double expected = tension * (-0.3 + mu * 1.0) / length;
    EXPECT_NEAR(run.tau(0, 0), expected, 1e-12 * std::abs(expected));
  }
}

}  // namespace
}  // namespace mechdyn
