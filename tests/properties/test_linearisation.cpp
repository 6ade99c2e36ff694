// Linear models, equilibria and modes of rigid mechanisms (issue 27; analysis/): against
// differences of the nonlinear right-hand side (trees with every joint type and force
// elements at a moving state; closed chains with elements and couplings through
// assembly), closed forms (single and double pendulum, a spring–mass chain, a servo's
// closed-loop poles, a static deflection, an inverted pendulum), the independence of the
// modes from the choice of independent coordinates, the flexible-body path's
// finite-difference stiffness (a second algorithm), and a nonlinear run's response for a
// small perturbation (second-order agreement). No expected number comes from the code
// under test.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>

#include <Eigen/Eigenvalues>

#include "closed_chain_models.hpp"
#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

// q0 ⊕ dv (the tangent convention of the derivatives: parent rotations at q0).
VecX plus(const Model& model, const VecX& q0, const VecX& dv) {
  Data data(model);
  forward_kinematics(model, data, q0);
  VecX out = q0;
  apply_velocity_increment(model, data, out, dv);
  return out;
}

// q1 ⊖ q0 with q0's parent rotations.
VecX minus(const Model& model, const VecX& q0, const VecX& q1) {
  Data data(model);
  forward_kinematics(model, data, q0);
  VecX out(model.nv);
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[static_cast<std::size_t>(l)];
    const int parent = model.bodies[static_cast<std::size_t>(l)].parent;
    const Mat3 rotation = parent == kGround ? Mat3::Identity() : data.rotation[static_cast<std::size_t>(parent)];
    joint_difference(joint, rotation, q0.data() + joint.q_index, q1.data() + joint.q_index, out.data() + joint.v_index);
  }
  return out;
}

// Four-point central difference of f along e: (−f(2h) + 8 f(h) − 8 f(−h) + f(−2h)) / 12h.
template <class F>
VecX difference(const F& f, double h) {
  return (-f(2.0 * h) + 8.0 * f(h) - 8.0 * f(-h) + f(-2.0 * h)) / (12.0 * h);
}

// The tree's right-hand side at x = (δ, v) about q0: δ̇ = d/ds (q ⊕ s v) ⊖ q0 and
// v̇ = ABA(q, v, τ + Q_f(q, v, t)).
VecX tree_rhs(const Model& model, const VecX& q0, const VecX& delta, const VecX& v, const VecX& tau, double t) {
  const VecX q = plus(model, q0, delta);
  const auto path = [&](double s) { return VecX(minus(model, q0, plus(model, q, VecX(s * v)))); };
  VecX out(2 * model.nv);
  out.head(model.nv) = difference(path, 1e-3);
  Data data(model);
  force_elements(model, data, q, v, t);
  const VecX total = tau + data.applied_force;
  out.tail(model.nv) = aba(model, data, q, v, total);
  return out;
}

// A spring-damper between two bodies and a joint spring-damper, added to a built model.
void add_elements(Model& model) {
  ForceElement spring;
  spring.name = "spring";
  spring.type = ForceElementType::SpringDamper;
  spring.a = BodyPoint{1, Vec3(0.1, -0.05, 0.2)};
  spring.b = BodyPoint{model.num_bodies() - 1, Vec3(-0.1, 0.1, 0.05)};
  spring.stiffness = 40.0;
  spring.damping = 1.5;
  spring.free_length = 0.3;
  model.forces.push_back(spring);
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    if (model.joints[j].nv != 1) continue;
    ForceElement joint_spring;
    joint_spring.name = "joint_spring";
    joint_spring.type = ForceElementType::JointSpringDamper;
    joint_spring.joint = static_cast<int>(j);
    joint_spring.stiffness = 7.0;
    joint_spring.damping = 0.4;
    joint_spring.rest = 0.2;
    model.forces.push_back(joint_spring);
    break;
  }
  finalize_model(model, "with elements");
}

// Catches: a wrong sign or a missing term in A (the tangent's kinematic term of spherical
// and free joints at v ≠ 0, the elements' M⁻¹ ∂Q_f), or in B.
TEST(Linearisation, TreeMatchesDifferencesOfTheRightHandSide) {
  for (unsigned seed : {3u, 11u, 29u}) {
    Model model = testing::tree_with_every_joint_type(seed, 6, true);
    add_elements(model);
    std::mt19937 rng(seed);
    const VecX q0 = testing::random_configuration(model, rng);
    const VecX v0 = testing::random_vector(model.nv, rng);
    const VecX tau = testing::random_vector(model.nv, rng);
    LinearizeOptions options;
    options.tau = tau;
    options.time = 0.3;
    const LinearModel lm = linearize(model, q0, v0, options);
    const Eigen::Index nv = model.nv;
    ASSERT_EQ(lm.A.rows(), 2 * nv);
    MatX expected(2 * nv, 2 * nv);
    const VecX zero = VecX::Zero(nv);
    for (Eigen::Index j = 0; j < nv; ++j) {
      VecX e = VecX::Zero(nv);
      e[j] = 1.0;
      expected.col(j) = difference([&](double h) { return tree_rhs(model, q0, VecX(h * e), v0, tau, 0.3); }, 1e-3);
      expected.col(nv + j) = difference([&](double h) { return tree_rhs(model, q0, zero, VecX(v0 + h * e), tau, 0.3); }, 1e-3);
    }
    const double scale = 1.0 + expected.cwiseAbs().maxCoeff();
    EXPECT_LT((lm.A - expected).cwiseAbs().maxCoeff(), 1e-6 * scale) << "seed " << seed << "\n"
                                                                     << lm.A - expected;
    // B: the actuated coordinates' efforts
    Eigen::Index column = 0;
    for (const Joint& joint : model.joints) {
      if (!joint.actuated) continue;
      for (int k = 0; k < joint.nv; ++k, ++column) {
        VecX e = VecX::Zero(nv);
        e[joint.v_index + k] = 1.0;
        const VecX db =
            difference([&](double h) { return tree_rhs(model, q0, zero, v0, VecX(tau + h * e), 0.3); }, 1e-3);
        EXPECT_LT((lm.B.col(column) - db).cwiseAbs().maxCoeff(), 1e-7 * (1.0 + db.cwiseAbs().maxCoeff()))
            << "seed " << seed << " input " << lm.inputs[static_cast<std::size_t>(column)];
      }
    }
    EXPECT_EQ(column, lm.B.cols());
  }
}

// The closed chain's reduced right-hand side at x = (δ_I, v_I): the independent
// coordinates moved and the loops re-assembled (independent ones kept), the dependent
// rates completed, q̈ from the constrained dynamics under τ + Q_f. Independent of analysis/.
VecX closed_rhs(const Model& partitioned, const VecX& q0, const std::vector<int>& coordinates, const VecX& delta,
                const VecX& v_independent, const VecX& tau, double t) {
  const Eigen::Index ni = static_cast<Eigen::Index>(coordinates.size());
  VecX dv = VecX::Zero(partitioned.nv), v = VecX::Zero(partitioned.nv), a = VecX::Zero(partitioned.nv);
  for (Eigen::Index c = 0; c < ni; ++c) {
    dv[coordinates[static_cast<std::size_t>(c)]] = delta[c];
    v[coordinates[static_cast<std::size_t>(c)]] = v_independent[c];
  }
  VecX q = plus(partitioned, q0, dv);
  Data data(partitioned, DenseWorkspace::All);
  closed_chain_inverse_dynamics(partitioned, data, q, v, a);  // assembly, completed v
  force_elements(partitioned, data, q, v, t);
  const VecX total = tau + data.applied_force;
  const VecX acc = constrained_forward_dynamics(partitioned, data, q, v, total);
  VecX out(2 * ni);
  for (Eigen::Index c = 0; c < ni; ++c) {
    out[c] = v[coordinates[static_cast<std::size_t>(c)]];
    out[ni + c] = acc[coordinates[static_cast<std::size_t>(c)]];
  }
  return out;
}

Model with_actuated(const Model& model, const std::vector<int>& joints) {
  Model copy = model;
  for (Joint& joint : copy.joints) joint.actuated = false;
  for (int j : joints) copy.joints[static_cast<std::size_t>(j)].actuated = true;
  finalize_model(copy, "partitioned");
  return copy;
}

// Catches: a missing closure-curvature (λ) term, the elements' derivatives in the closed
// chain, a wrong coordinate map in B, a coupling row treated wrongly.
TEST(Linearisation, ClosedChainsMatchDifferencesOfTheReducedRightHandSide) {
  for (const char* file : {"iftomm_four_bar_spring.yaml", "slider_crank.yaml", "geared_drive.yaml", "four_bar.yaml"}) {
    const Model model = testing::example_model(file);
    const VecX q_start = model.initial_configuration.size() == model.nq ? model.initial_configuration
                                                                        : VecX(VecX::Constant(model.nq, 0.3));
    const std::vector<int> independent = choose_independent_joints(model, q_start, {});
    const std::vector<int> coordinates = joint_coordinates(model, independent);
    const Eigen::Index ni = static_cast<Eigen::Index>(coordinates.size());
    VecX v0 = VecX::Zero(model.nv), tau = VecX::Zero(model.nv);
    for (Eigen::Index c = 0; c < ni; ++c) v0[coordinates[static_cast<std::size_t>(c)]] = 0.7 + 0.2 * static_cast<double>(c);
    for (const Joint& joint : model.joints)
      if (joint.actuated && joint.nv > 0) tau[joint.v_index] = 1.3;
    LinearizeOptions options;
    options.tau = tau;
    const LinearModel lm = linearize(model, q_start, v0, options);
    ASSERT_EQ(lm.A.rows(), 2 * ni) << file;
    const Model partitioned = with_actuated(model, independent);
    VecX v_independent(ni);
    for (Eigen::Index c = 0; c < ni; ++c) v_independent[c] = lm.v[coordinates[static_cast<std::size_t>(c)]];
    MatX expected(2 * ni, 2 * ni);
    const VecX zero = VecX::Zero(ni);
    for (Eigen::Index j = 0; j < ni; ++j) {
      VecX e = VecX::Zero(ni);
      e[j] = 1.0;
      expected.col(j) = difference(
          [&](double h) { return closed_rhs(partitioned, lm.q, coordinates, VecX(h * e), v_independent, tau, 0.0); }, 1e-4);
      expected.col(ni + j) = difference(
          [&](double h) { return closed_rhs(partitioned, lm.q, coordinates, zero, VecX(v_independent + h * e), tau, 0.0); },
          1e-4);
    }
    const double scale = 1.0 + expected.cwiseAbs().maxCoeff();
    EXPECT_LT((lm.A - expected).cwiseAbs().maxCoeff(), 1e-6 * scale) << file << "\n" << lm.A << "\n\n" << expected;
    Eigen::Index column = 0;
    for (const Joint& joint : model.joints) {
      if (!joint.actuated || joint.nv == 0) continue;
      VecX e = VecX::Zero(model.nv);
      e[joint.v_index] = 1.0;
      const VecX db = difference(
          [&](double h) { return closed_rhs(partitioned, lm.q, coordinates, zero, v_independent, VecX(tau + h * e), 0.0); },
          1e-3);
      EXPECT_LT((lm.B.col(column) - db).cwiseAbs().maxCoeff(), 1e-7 * (1.0 + db.cwiseAbs().maxCoeff())) << file;
      ++column;
    }
  }
}

// Catches: a linearisation that depends on which coordinates are independent.
TEST(Linearisation, ClosedChainModesDoNotDependOnTheIndependentCoordinates) {
  const Model model = testing::example_model("iftomm_four_bar_spring.yaml");
  std::vector<MechanismModes> results;
  for (const char* joint : {"crank", "coupler", "rocker"}) {
    ModesOptions options;
    options.equilibrium.lock_actuated = false;
    options.equilibrium.independent = {joint};
    results.push_back(mechanism_modes(model, model.initial_configuration, options));
    ASSERT_EQ(results.back().frequencies.size(), 1u) << joint;
    ASSERT_EQ(results.back().eigenvalues.size(), 2u) << joint;
  }
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_NEAR(results[k].frequencies[0], results[0].frequencies[0], 1e-8 * results[0].frequencies[0]);
    for (std::size_t e = 0; e < 2; ++e)
      EXPECT_LT(std::abs(results[k].eigenvalues[e] - results[0].eigenvalues[e]), 1e-7 * std::abs(results[0].eigenvalues[e]));
    // the mode shape in every joint coordinate is the same motion (up to sign)
    const VecX a = results[0].shapes.col(0), b = results[k].shapes.col(0);
    EXPECT_LT(std::min((a - b).norm(), (a + b).norm()), 1e-6 * a.norm());
  }
}

std::string pendulum_chain(int links, double length, double mass) {
  std::string text = "mechdyn: 1\nname: chain\ngravity: [0, -9.81, 0]\nbodies:\n";
  for (int i = 0; i < links; ++i) {
    text += "  - name: b" + std::to_string(i) + "\n    parent: " + (i == 0 ? "ground" : "b" + std::to_string(i - 1)) +
            "\n    joint: {name: j" + std::to_string(i) + ", type: revolute, axis: [0, 0, 1], origin: [0, " +
            (i == 0 ? "0" : std::to_string(-length)) + ", 0], actuated: false}\n    mass: " + std::to_string(mass) +
            "\n    com: [0, " + std::to_string(-length) + ", 0]\n    inertia: {diag: [0, 0, 0]}\n";
  }
  return text;
}

// Catches: a wrong reduced stiffness or mass (gravity's ∂g/∂q, the Rayleigh quotient).
TEST(Linearisation, PendulumsHaveTheirClosedFormFrequencies) {
  const double g = 9.81, l = 0.7, m = 1.3;
  {
    const Model model = parse_model_string(pendulum_chain(1, l, m), "pendulum");
    const MechanismModes modes = mechanism_modes(model, VecX::Constant(1, 0.4));
    ASSERT_EQ(modes.frequencies.size(), 1u);
    EXPECT_NEAR(modes.frequencies[0], std::sqrt(g / l) / (2.0 * kPi), 1e-12);
    EXPECT_FALSE(modes.damped_model);
  }
  {  // two equal point masses on equal massless links: ω² = (g / l)(2 ∓ √2)
    const Model model = parse_model_string(pendulum_chain(2, l, m), "double");
    const MechanismModes modes = mechanism_modes(model, VecX::Constant(2, 0.1));
    ASSERT_EQ(modes.frequencies.size(), 2u);
    EXPECT_NEAR(modes.frequencies[0], std::sqrt(g / l * (2.0 - std::sqrt(2.0))) / (2.0 * kPi), 1e-11);
    EXPECT_NEAR(modes.frequencies[1], std::sqrt(g / l * (2.0 + std::sqrt(2.0))) / (2.0 * kPi), 1e-11);
    EXPECT_NEAR(modes.q[0], 0.0, 1e-10);
    EXPECT_NEAR(modes.q[1], 0.0, 1e-10);
    // linearize at the bottom: A's eigenvalues ±iω
    const LinearModel lm = linearize(model, VecX::Zero(2), VecX::Zero(2));
    const Eigen::EigenSolver<MatX> eigen(lm.A);
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(eigen.eigenvalues()[k].real(), 0.0, 1e-9);
  }
}

// N masses m in series on prismatic joints along x, joint springs k (fixed–free):
// ω_n = 2 √(k/m) sin((2n − 1) π / (2 (2N + 1))).
TEST(Linearisation, SpringMassChainHasItsAnalyticalEigenvalues) {
  const int n = 6;
  const double m = 0.8, k = 250.0;
  std::string text = "mechdyn: 3\nname: springs\ngravity: [0, 0, 0]\nbodies:\n";
  for (int i = 0; i < n; ++i)
    text += "  - name: m" + std::to_string(i) + "\n    parent: " + (i == 0 ? "ground" : "m" + std::to_string(i - 1)) +
            "\n    joint: {name: x" + std::to_string(i) + ", type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0], actuated: false}\n"
            "    mass: " + std::to_string(m) + "\n    com: [0, 0, 0]\n    inertia: {diag: [0.01, 0.01, 0.01]}\n";
  text += "forces:\n";
  for (int i = 0; i < n; ++i)
    text += "  - {name: k" + std::to_string(i) + ", type: joint-spring-damper, joint: x" + std::to_string(i) +
            ", stiffness: " + std::to_string(k) + "}\n";
  const Model model = parse_model_string(text, "springs");
  const MechanismModes modes = mechanism_modes(model, VecX::Constant(n, 0.01));
  ASSERT_EQ(modes.frequencies.size(), static_cast<std::size_t>(n));
  for (int i = 1; i <= n; ++i) {
    const double omega = 2.0 * std::sqrt(k / m) * std::sin((2.0 * i - 1.0) * kPi / (2.0 * (2.0 * n + 1.0)));
    EXPECT_NEAR(modes.frequencies[static_cast<std::size_t>(i - 1)], omega / (2.0 * kPi), 1e-10 * omega) << "mode " << i;
  }
}

// A joint of inertia J (+ armature a) under a PD servo: (J + a) s² + k_d s + k_p = 0.
TEST(Linearisation, ServoClosedLoopPolesAreTheRootsOfTheCharacteristicPolynomial) {
  const double inertia = 0.05, armature = 0.01, kp = 30.0, kd = 0.8;
  const Model model = parse_model_string(
      "mechdyn: 3\nname: servo\ngravity: [0, 0, 0]\nbodies:\n"
      "  - name: arm\n    parent: ground\n    joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], armature: 0.01}\n"
      "    mass: 1.0\n    com: [0, 0, 0]\n    inertia: {diag: [0.05, 0.05, 0.05]}\n"
      "forces:\n  - {name: drive, type: joint-servo, joint: J, stiffness: 30, damping: 0.8, target: '0.2'}\n",
      "servo");
  const double j = inertia + armature;
  const std::complex<double> root = (-kd + std::sqrt(std::complex<double>(kd * kd - 4.0 * j * kp))) / (2.0 * j);
  ModesOptions options;
  options.equilibrium.lock_actuated = false;
  const MechanismModes modes = mechanism_modes(model, VecX::Zero(1), options);
  EXPECT_NEAR(modes.q[0], 0.2, 1e-12);  // at rest on the target
  ASSERT_EQ(modes.eigenvalues.size(), 2u);
  ASSERT_EQ(modes.damped.size(), 1u);
  EXPECT_LT(std::abs(modes.eigenvalues[0] - std::conj(root)) + std::abs(modes.eigenvalues[1] - root), 1e-10 * std::abs(root));
  EXPECT_NEAR(modes.damped[0].frequency, root.imag() / (2.0 * kPi), 1e-10);
  EXPECT_NEAR(modes.damped[0].damping_ratio, kd / (2.0 * std::sqrt(kp * j)), 1e-12);
  // the servo's target as the input: B = k_p / J
  LinearizeOptions lo;
  lo.inputs = {"target_drive", "tau_J"};
  const LinearModel lm = linearize(model, VecX::Constant(1, 0.2), VecX::Zero(1), lo);
  EXPECT_NEAR(lm.B(1, 0), kp / j, 1e-10);
  EXPECT_NEAR(lm.B(1, 1), 1.0 / j, 1e-12);
}

// Catches: a wrong sign of the static balance or of the stability verdict.
TEST(Linearisation, StaticDeflectionAndStability) {
  const double m = 2.0, g = 9.81, k = 500.0, rest = 0.1;
  const Model model = parse_model_string(
      "mechdyn: 3\nname: hanging\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: mass\n    parent: ground\n    joint: {name: z, type: prismatic, axis: [0, 0, 1], origin: [0, 0, 0]}\n"
      "    mass: 2.0\n    com: [0, 0, 0]\n    inertia: {diag: [0.01, 0.01, 0.01]}\n"
      "forces:\n  - {name: spring, type: joint-spring-damper, joint: z, stiffness: 500, rest: 0.1}\n",
      "hanging");
  EquilibriumOptions options;
  options.lock_actuated = false;
  const MechanismEquilibrium eq = mechanism_equilibrium(model, VecX::Zero(1), options);
  EXPECT_NEAR(eq.q[0], rest - m * g / k, 1e-12);
  EXPECT_TRUE(eq.stable);
  EXPECT_NEAR(eq.stiffness_eigenvalues[0], k, 1e-9);
  // a constant effort: q = rest + (τ − m g) / k
  options.tau = VecX::Constant(1, 5.0);
  EXPECT_NEAR(mechanism_equilibrium(model, VecX::Zero(1), options).q[0], rest + (5.0 - m * g) / k, 1e-12);
  // held (the default): the effort the lock supplies is m g − k (rest − q)
  const MechanismEquilibrium held = mechanism_equilibrium(model, VecX::Constant(1, 0.3), EquilibriumOptions{});
  EXPECT_NEAR(held.q[0], 0.3, 0.0);
  EXPECT_NEAR(held.held_efforts[0], m * g - k * (rest - 0.3), 1e-10);

  // An inverted pendulum started near the top converges to the top: not stable.
  const Model pendulum = parse_model_string(pendulum_chain(1, 0.5, 1.0), "pendulum");
  const MechanismEquilibrium top = mechanism_equilibrium(pendulum, VecX::Constant(1, 3.0), options = EquilibriumOptions{});
  EXPECT_NEAR(std::abs(top.q[0]), kPi, 1e-9);
  EXPECT_FALSE(top.stable);
  ModesOptions mo;
  mo.equilibrium.lock_actuated = false;
  const MechanismModes modes = mechanism_modes(pendulum, VecX::Constant(1, 3.0), mo);
  EXPECT_EQ(modes.unstable_modes, 1);
  EXPECT_TRUE(modes.frequencies.empty());
}

// Catches: a linear model that is not the first-order part of the nonlinear dynamics: the
// difference of the two responses must shrink as the square of the perturbation.
TEST(Linearisation, LinearResponseAgreesWithTheNonlinearRunToSecondOrder) {
  std::string text = pendulum_chain(2, 0.6, 1.0);
  text.replace(text.find("mechdyn: 1"), 10, "mechdyn: 3");
  // A damper, and a spring whose rest angle makes the equilibrium asymmetric (at a
  // symmetric one the quadratic terms vanish and the agreement would be of third order).
  text += "forces:\n  - {name: d0, type: joint-spring-damper, joint: j0, stiffness: 0, damping: 0.3}\n"
          "  - {name: k1, type: joint-spring-damper, joint: j1, stiffness: 4, rest: 0.8}\n";
  const Model model = parse_model_string(text, "damped double");
  EquilibriumOptions free;
  free.lock_actuated = false;
  const VecX q_eq = mechanism_equilibrium(model, VecX::Zero(2), free).q;
  ASSERT_GT(std::abs(q_eq[1]), 0.1);
  const LinearModel lm = linearize(model, q_eq, VecX::Zero(2));
  const double duration = 1.0, step = 1e-3;
  auto error_for = [&](double epsilon) {
    VecX x0(4);
    x0 << 0.6, -0.8, 0.2, 0.5;
    x0 *= epsilon;
    SimulationOptions options;
    options.duration = duration;
    options.step = step;
    const SimulationResult run = simulate(model, VecX(q_eq + x0.head(2)), x0.tail(2), {}, options);
    // the linear model by RK4 on the same grid
    VecX x = x0;
    double largest = 0.0;
    for (Eigen::Index r = 0; r < run.time.size(); ++r) {
      if (r > 0) {
        const VecX k1 = lm.A * x, k2 = lm.A * (x + 0.5 * step * k1), k3 = lm.A * (x + 0.5 * step * k2),
                   k4 = lm.A * (x + step * k3);
        x += step / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
      }
      largest = std::max(largest, (run.q.row(r).transpose() - q_eq - x.head(2)).cwiseAbs().maxCoeff());
    }
    return largest;
  };
  const double e1 = error_for(1e-3), e2 = error_for(2e-3);
  EXPECT_LT(e1, 1e-3 * 1e-3);  // far below the perturbation itself (second order: ~ε²)
  EXPECT_GT(e2 / e1, 3.5);     // second order: ×4
  EXPECT_LT(e2 / e1, 4.5);
}

// A second algorithm: the flexible-body path (FFR system, finite-difference stiffness,
// null-space reduction) on a rigid tree at its equilibrium.
TEST(Linearisation, AgreesWithTheFlexibleBodyPathOnARigidTree) {
  const Model model = testing::example_model("planar_3dof_arm.yaml");
  EquilibriumOptions options;
  options.lock_actuated = false;
  // The equilibrium first (both paths hang the arm down), then the modes about it.
  const MechanismEquilibrium eq = mechanism_equilibrium(model, VecX::Constant(model.nq, 0.1), options);
  ModesOptions mo;
  mo.equilibrium = options;
  const MechanismModes modes = mechanism_modes(model, eq.q, mo);
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const ModesResult reference = natural_frequencies(model, system, data, eq.q, false);
  ASSERT_EQ(modes.frequencies.size(), reference.frequencies.size());
  for (std::size_t k = 0; k < modes.frequencies.size(); ++k)
    EXPECT_NEAR(modes.frequencies[k], reference.frequencies[k], 1e-6 * reference.frequencies[k]) << "mode " << k;
  EXPECT_EQ(modes.zero_modes, reference.zero_modes);
}

TEST(Linearisation, BadInputIsRefused) {
  const Model model = testing::example_model("iftomm_four_bar_spring.yaml");
  const VecX q = model.initial_configuration, v = VecX::Zero(model.nv);
  EXPECT_THROW(linearize(model, VecX::Zero(model.nq + 1), v), InvalidArgument);
  LinearizeOptions options;
  options.independent = {"nonexistent"};
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  options.independent = {"crank", "rocker"};  // two for one degree of freedom
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  options.independent.clear();
  options.inputs = {"tau_nowhere"};
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  options.inputs = {"speed_crank"};
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  options.inputs.clear();
  options.outputs = {"nothing"};
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  options.outputs.clear();
  options.tau = VecX::Constant(model.nv, std::nan(""));
  EXPECT_THROW(linearize(model, q, v, options), InvalidArgument);
  // joint friction: not differentiable
  const Model friction = testing::example_model("five_axis_tree_coulomb_viscous.yaml");
  EXPECT_THROW(linearize(friction, friction.neutral_configuration(), VecX::Zero(friction.nv)), InvalidArgument);
  // a free body under gravity has no equilibrium
  const Model floating = testing::example_model("floating_base.yaml");
  EquilibriumOptions free;
  free.lock_actuated = false;
  EXPECT_THROW(mechanism_equilibrium(floating, floating.neutral_configuration(), free), SolverError);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// A point-mass arm under gravity held by a stiff, clamped servo, started far from its
// target: the servo is saturated there (a plateau of the residual). Catches an iteration
// that stalls on the plateau. Expected: k_p (target − q) = m g l cos q, solved here by
// bisection on the unsaturated band.
TEST(Linearisation, StaticLeavesTheSaturatedPlateauOfAServo) {
  const double m = 2.0, g = 9.81, l = 0.5, kp = 2000.0, target = 0.6, clamp = 12.0;
  const Model model = parse_model_string(
      "mechdyn: 3\nname: clamped\ngravity: [0, -9.81, 0]\nbodies:\n"
      "  - name: arm\n    parent: ground\n    joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}\n"
      "    mass: 2.0\n    com: [0.5, 0, 0]\n    inertia: {diag: [0, 0, 0]}\n"
      "forces:\n  - {name: servo, type: joint-servo, joint: J, stiffness: 2000, damping: 10, max_effort: 12, target: '0.6'}\n",
      "clamped");
  double lo = target - clamp / kp - 0.01, hi = target + clamp / kp + 0.01;
  auto f = [&](double q) { return kp * (target - q) - m * g * l * std::cos(q); };
  for (int k = 0; k < 200; ++k) (f(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  EquilibriumOptions options;
  options.lock_actuated = false;
  const MechanismEquilibrium eq = mechanism_equilibrium(model, VecX::Constant(1, -0.4), options);
  EXPECT_NEAR(eq.q[0], 0.5 * (lo + hi), 1e-10);
  EXPECT_TRUE(eq.stable);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// Joint friction with FrictionTreatment::ViscousOnly: the Coulomb part left out, k_v a
// linear damper. A point-mass pendulum (m, l) with coulomb_viscous friction: the damped
// eigenvalues are the roots of m l² s² + k_v s + m g l = 0. Refused by default.
TEST(Linearisation, ViscousPartOfJointFrictionIsALinearDamper) {
  const double m = 1.5, l = 0.8, g = 9.81, kv = 0.9;
  const Model model = parse_model_string(
      "mechdyn: 1\nname: rubbing\ngravity: [0, -9.81, 0]\nbodies:\n"
      "  - name: bob\n    parent: ground\n"
      "    joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], actuated: false,\n"
      "            friction: {model: coulomb_viscous, coulomb: 0.3, viscous: 0.9}}\n"
      "    mass: 1.5\n    com: [0, -0.8, 0]\n    inertia: {diag: [0, 0, 0]}\n",
      "rubbing");
  ModesOptions options;
  options.equilibrium.lock_actuated = false;
  EXPECT_THROW(mechanism_modes(model, VecX::Constant(1, 0.2), options), InvalidArgument);
  options.equilibrium.friction = FrictionTreatment::ViscousOnly;
  const MechanismModes modes = mechanism_modes(model, VecX::Constant(1, 0.2), options);
  const double j = m * l * l;
  const std::complex<double> root = (-kv + std::sqrt(std::complex<double>(kv * kv - 4.0 * j * m * g * l))) / (2.0 * j);
  ASSERT_EQ(modes.eigenvalues.size(), 2u);
  EXPECT_LT(std::abs(modes.eigenvalues[1] - root), 1e-10 * std::abs(root)) << modes.eigenvalues[1];
  EXPECT_NEAR(modes.q[0], 0.0, 1e-12);
  LinearizeOptions lo;
  lo.friction = FrictionTreatment::ViscousOnly;
  const LinearModel lm = linearize(model, VecX::Zero(1), VecX::Zero(1), lo);
  EXPECT_NEAR(lm.A(1, 1), -kv / j, 1e-12);
  EXPECT_NEAR(lm.A(1, 0), -g / l, 1e-12);
}

}  // namespace
}  // namespace mechdyn
