// Analytical derivatives of inverse and forward dynamics (dynamics/rnea_derivatives.hpp,
// dynamics/aba_derivatives.hpp) against centred finite differences of mechdyn's own RNEA
// and ABA, on seeded random trees with every joint type (revolute and prismatic about
// general and coordinate axes, universal, spherical, free at a root and inside the tree,
// cylindrical, fixed), q perturbed by the model's own q ⊕ dq (apply_velocity_increment →
// joint_integrate), at several random states.
//
// Tolerance: a centred difference with step h has truncation error h²/6 |f'''| and
// rounding error ~ ε |f| / h; with h = 1e-6, |f| ~ 10² and ε = 2.2e-16 that is
// ~1e-8 absolute. We allow 1e-6 · (1 + |column|∞): 100× the expected error, and far below the
// size of every column (checked: a flipped sign or a dropped term would fail).
#include "no_malloc_probe.hpp"  // first: it configures Eigen (no_malloc_probe.hpp)

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/friction/friction_effort_derivatives.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

constexpr double kStep = 1e-6;

using testing::tree_with_every_joint_type;

/// A tree of revolute, prismatic (and with `fixed`, welded) joints only; defined below.
Model single_axis_tree(unsigned seed, int bodies, bool branching, bool depth_first, bool fixed = false);

/// q ⊕ h e_j (the model's own integrate).
VecX shifted(const Model& model, Data& data, const VecX& q, Eigen::Index j, double h) {
  forward_kinematics(model, data, q);
  VecX dv = VecX::Zero(model.nv);
  dv[j] = h;
  VecX out = q;
  apply_velocity_increment(model, data, out, dv);
  return out;
}

/// Largest |analytic − centred difference| against 1e-6 (1 + |difference matrix|max).
/// Returns the largest ratio error / allowance (< 1 passes). The scale is the whole
/// matrix's, not the column's: a column that is exactly zero (a free root's translation
/// under uniform gravity) carries the rounding noise of the difference, ε |f| κ(M) / h,
/// which on the random trees' badly conditioned mass matrices reaches 3e-5.
template <typename F>
double worst_ratio(const MatX& analytic, const F& column_difference, Eigen::Index nv) {
  MatX fd_matrix(analytic.rows(), nv);
  for (Eigen::Index j = 0; j < nv; ++j) fd_matrix.col(j) = column_difference(j);
  const double allowance = 1e-6 * (1.0 + fd_matrix.cwiseAbs().maxCoeff());
  double worst = 0.0;
  for (Eigen::Index j = 0; j < nv; ++j) {
    const VecX fd = fd_matrix.col(j);
    const double ratio = (analytic.col(j) - fd).cwiseAbs().maxCoeff() / allowance;
    if (ratio > 1 && std::getenv("DEBUG_DERIV")) {
      std::fprintf(stderr, "column %ld ratio %g\n", static_cast<long>(j), ratio);
      for (Eigen::Index i = 0; i < fd.size(); ++i)
        std::fprintf(stderr, "  row %ld analytic %.9g fd %.9g\n", static_cast<long>(i), analytic(i, j), fd[i]);
    }
    worst = std::max(worst, ratio);
  }
  return worst;
}

struct State {
  VecX q, v, a;
};

State random_state(const Model& model, std::mt19937& rng) {
  return {testing::random_configuration(model, rng), testing::random_vector(model.nv, rng, 2.0),
          testing::random_vector(model.nv, rng, 3.0)};
}

// Bug caught: any wrong term of the derivative recursion — a missing axis variation for a
// joint kind (spherical and free turn about world-fixed directions, the universal's second
// axis is carried by the child), a sign, gravity left out of the base acceleration, a
// wrong tangent convention (world vs parent components of dq) — shows as a column of
// ∂τ/∂q or ∂τ/∂v that disagrees with the finite difference of RNEA itself.
TEST(DynamicsDerivatives, InverseDynamicsMatchesCentredDifferencesOnEveryJointType) {
  int models = 0;
  for (unsigned seed = 1; seed <= 24; ++seed) {  // odd seeds: world axes (general form), even: rigid only (fast)
    const Model model = tree_with_every_joint_type(seed, 3 + static_cast<int>(seed % 9), seed % 2 == 1);
    Data data(model), scratch(model);
  DerivativeData work(model);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 3; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      rnea_derivatives(model, data, work, s.q, s.v, s.a);
      EXPECT_LT((work.tau - rnea(model, scratch, s.q, s.v, s.a)).cwiseAbs().maxCoeff(), 1e-10);
      const double q_ratio = worst_ratio(
          work.dtau_dq,
          [&](Eigen::Index j) {
            const VecX plus = rnea(model, scratch, shifted(model, scratch, s.q, j, kStep), s.v, s.a);
            const VecX minus = rnea(model, scratch, shifted(model, scratch, s.q, j, -kStep), s.v, s.a);
            return VecX((plus - minus) / (2 * kStep));
          },
          model.nv);
      const double v_ratio = worst_ratio(
          work.dtau_dv,
          [&](Eigen::Index j) {
            VecX vp = s.v, vm = s.v;
            vp[j] += kStep, vm[j] -= kStep;
            const VecX plus = rnea(model, scratch, s.q, vp, s.a);  // a copy: rnea returns a view of scratch.tau
            return VecX((plus - rnea(model, scratch, s.q, vm, s.a)) / (2 * kStep));
          },
          model.nv);
      EXPECT_LT(q_ratio, 1.0);
      EXPECT_LT(v_ratio, 1.0);
    }
    ++models;
  }
  EXPECT_EQ(models, 24);
}

// (Both forms of rnea_derivatives run here: the fast one for every coordinate with only
// rigidly carried axes below it, the general one above spherical and free joints.)

// Bug caught: a wrong identity in forward dynamics (a missing minus sign, M instead of
// M⁻¹, ∂τ/∂q taken at the given a instead of a = q̈): ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ against centred
// differences of ABA.
TEST(DynamicsDerivatives, ForwardDynamicsMatchesCentredDifferencesOfAba) {
  for (unsigned seed = 21; seed <= 28; ++seed) {
    const Model model = tree_with_every_joint_type(seed, 2 + static_cast<int>(seed % 8));
    Data data(model), scratch(model);
  DerivativeData work(model);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 3; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      const VecX& tau = s.a;  // any efforts
      aba_derivatives(model, data, work, s.q, s.v, tau);
      EXPECT_LT((data.ddq - aba(model, scratch, s.q, s.v, tau)).cwiseAbs().maxCoeff(), 1e-9);
      const auto velocity_difference = [&](const VecX& x, Eigen::Index j, bool effort) {
        VecX plus = x, minus = x;
        plus[j] += kStep, minus[j] -= kStep;
        const VecX fp = effort ? aba(model, scratch, s.q, s.v, plus) : aba(model, scratch, s.q, plus, tau);
        const VecX fm = effort ? aba(model, scratch, s.q, s.v, minus) : aba(model, scratch, s.q, minus, tau);
        return VecX((fp - fm) / (2 * kStep));
      };
      EXPECT_LT(worst_ratio(
                    work.da_dq,
                    [&](Eigen::Index j) {
                      const VecX plus = aba(model, scratch, shifted(model, scratch, s.q, j, kStep), s.v, tau);
                      const VecX minus = aba(model, scratch, shifted(model, scratch, s.q, j, -kStep), s.v, tau);
                      return VecX((plus - minus) / (2 * kStep));
                    },
                    model.nv),
                1.0);
      EXPECT_LT(worst_ratio(work.da_dv, [&](Eigen::Index j) { return velocity_difference(s.v, j, false); }, model.nv),
                1.0);
      EXPECT_LT(worst_ratio(work.da_dtau, [&](Eigen::Index j) { return velocity_difference(tau, j, true); }, model.nv),
                1.0);
    }
  }
}

// Bug caught: a comparison too weak to see an error. The same check must FAIL for a
// derivative with one flipped sign (the mutation a wrong cross-product order makes): every
// entry of at least 1 % of the matrix's largest is flipped in turn.
TEST(DynamicsDerivatives, AFlippedSignFailsTheComparison) {
  const Model model = tree_with_every_joint_type(5, 8);
  Data data(model), scratch(model);
  DerivativeData work(model);
  std::mt19937 rng(5);
  const State s = random_state(model, rng);
  rnea_derivatives(model, data, work, s.q, s.v, s.a);
  const auto q_difference = [&](Eigen::Index j) {
    const VecX plus = rnea(model, scratch, shifted(model, scratch, s.q, j, kStep), s.v, s.a);
    const VecX minus = rnea(model, scratch, shifted(model, scratch, s.q, j, -kStep), s.v, s.a);
    return VecX((plus - minus) / (2 * kStep));
  };
  EXPECT_LT(worst_ratio(work.dtau_dq, q_difference, model.nv), 1.0);
  const double largest = work.dtau_dq.cwiseAbs().maxCoeff();
  int flipped = 0;
  for (Eigen::Index j = 0; j < model.nv; ++j) {
    MatX mutated = work.dtau_dq;
    Eigen::Index row = 0;
    mutated.col(j).cwiseAbs().maxCoeff(&row);
    if (std::abs(mutated(row, j)) < 1e-2 * largest) continue;  // an (almost) zero column has no sign to flip
    mutated(row, j) = -mutated(row, j);
    EXPECT_GT(worst_ratio(mutated, q_difference, model.nv), 100.0) << "column " << j;
    ++flipped;
  }
  EXPECT_GE(flipped, model.nv / 2);
}

// Bug caught: ∂τ/∂v wrong for a chain of revolute joints in closed form. Planar double
// pendulum (links of length l along x, point masses m at the tips, both axes z, no
// gravity): τ₁ = … − m l² sin q₂ (2 q̇₁ q̇₂ + q̇₂²), τ₂ = m l² sin q₂ q̇₁² + …, so
// ∂τ₁/∂q̇₂ = −2 m l² sin q₂ (q̇₁ + q̇₂), ∂τ₂/∂q̇₁ = 2 m l² sin q₂ q̇₁ (textbook Lagrangian with
// M = m l² [[3 + 2 c₂, 1 + c₂], [1 + c₂, 1]]).
TEST(DynamicsDerivatives, DoublePendulumVelocityDerivativesInClosedForm) {
  Model model;
  model.gravity = Vec3::Zero();
  const double length = 0.7, mass = 1.3;
  for (int i = 0; i < 2; ++i) {
    Body body;
    body.name = "L" + std::to_string(i);
    body.parent = i - 1;
    body.mass = mass;
    body.com = Vec3(length, 0, 0);
    model.bodies.push_back(body);
    Joint joint;
    joint.name = "J" + std::to_string(i);
    joint.type = JointType::Revolute;
    joint.axis = Vec3::UnitZ();
    joint.origin = i == 0 ? Vec3::Zero() : Vec3(length, 0, 0);
    model.joints.push_back(joint);
  }
  finalize_model(model);
  Data data(model);
  DerivativeData work(model);
  const VecX q = (VecX(2) << 0.4, 0.9).finished(), v = (VecX(2) << 1.1, -0.6).finished(), a = VecX::Zero(2);
  rnea_derivatives(model, data, work, q, v, a);
  const double ml2 = mass * length * length, s2 = std::sin(q[1]);
  EXPECT_NEAR(work.dtau_dv(0, 1), -2 * ml2 * s2 * (v[0] + v[1]), 1e-12);
  EXPECT_NEAR(work.dtau_dv(1, 0), 2 * ml2 * s2 * v[0], 1e-12);
  EXPECT_NEAR(work.dtau_dv(0, 0), -2 * ml2 * s2 * v[1], 1e-12);  // ∂/∂q̇₁ of −2 m l² s₂ q̇₁ q̇₂
  EXPECT_NEAR(work.dtau_dv(1, 1), 0.0, 1e-12);
  // ∂τ/∂q₁ = 0: nothing depends on the absolute angle without gravity.
  EXPECT_NEAR(work.dtau_dq.col(0).norm(), 0.0, 1e-12);
}

// Bug caught: an allocation in the evaluation path (an Eigen temporary of dynamic size, a
// vector growing); and forward dynamics at a singular mass matrix must throw SolverError.
TEST(DynamicsDerivatives, AllocatesNothingAndRefusesASingularMassMatrix) {
  const Model model = tree_with_every_joint_type(9, 12);
  Data data(model, DenseWorkspace::None);
  DerivativeData work(model);
  std::mt19937 rng(9);
  const State s = random_state(model, rng);
  rnea_derivatives(model, data, work, s.q, s.v, s.a);
  aba_derivatives(model, data, work, s.q, s.v, s.a);  // the first call reserves MassMatrix, MassMatrixFactor
  const long allocations = testing::allocations_during([&] {
    rnea_derivatives(model, data, work, s.q, s.v, s.a);
    aba_derivatives(model, data, work, s.q, s.v, s.a);
  });
  if (allocations >= 0) EXPECT_EQ(allocations, 0);
  {  // the one loop over the columns of an all-one-axis tree (every_single_axis), with reactions
    const Model arm = single_axis_tree(5, 7, true, true, true);
    Data arm_data(arm, DenseWorkspace::None);
    DerivativeData arm_work(arm, true);
    ASSERT_TRUE(arm_work.every_single_axis);
    const State t = random_state(arm, rng);
    joint_reaction_derivatives(arm, arm_data, arm_work, t.q, t.v, t.a);
    aba_derivatives(arm, arm_data, arm_work, t.q, t.v, t.a);
    const long arm_allocations = testing::allocations_during([&] {
      rnea_derivatives(arm, arm_data, arm_work, t.q, t.v, t.a);
      joint_reaction_derivatives(arm, arm_data, arm_work, t.q, t.v, t.a);
      aba_derivatives(arm, arm_data, arm_work, t.q, t.v, t.a);
    });
    if (arm_allocations >= 0) EXPECT_EQ(arm_allocations, 0);
  }

  // The lunar-rover rocker of EJ Table 3: links with no inertia about their own axes, M
  // singular (docs/dynamics.md).
  const Model rocker = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/lunar_rover_rocker.yaml");
  Data singular(rocker);
  DerivativeData singular_work(rocker);
  const VecX zero = VecX::Zero(rocker.nv);
  EXPECT_THROW(aba_derivatives(rocker, singular, singular_work, rocker.neutral_configuration(), zero, zero),
               SolverError);
  EXPECT_THROW(rnea_derivatives(model, data, work, s.q.head(1), s.v, s.a), InvalidArgument);
  DerivativeData other(rocker);
  EXPECT_THROW(rnea_derivatives(model, data, other, s.q, s.v, s.a), InvalidArgument);  // made for another model
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// Bug caught: a wrong derivative of the joint reactions (eval's `reactions`): the moment
// arm's own motion (∂o_u × f) forgotten, the rows of the joints above the moved one left
// at zero, force and torque rows swapped. Against centred differences of joint_reactions
// (the explicit resultant iteration, EC eq. 17 — a different algorithm from the one
// differentiated), on trees of every joint type, both forms of the recursion.
TEST(DynamicsDerivatives, JointReactionDerivativesMatchCentredDifferences) {
  for (unsigned seed = 41; seed <= 50; ++seed) {
    const Model model = tree_with_every_joint_type(seed, 3 + static_cast<int>(seed % 7), seed % 2 == 1);
    Data data(model), scratch(model);
    DerivativeData work(model, true);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      joint_reaction_derivatives(model, data, work, s.q, s.v, s.a);
      const auto reactions = [&](const VecX& q, const VecX& v) {
        joint_reactions(model, scratch, q, v, s.a);
        VecX out(6 * model.num_bodies());
        for (int u = 0; u < model.num_bodies(); ++u) out.segment<6>(6 * u) << scratch.reaction_force[u], scratch.reaction_torque[u];
        return out;
      };
      const auto column_q = [&](Eigen::Index j) {
        return VecX((reactions(shifted(model, scratch, s.q, j, kStep), s.v) -
                     reactions(shifted(model, scratch, s.q, j, -kStep), s.v)) / (2 * kStep));
      };
      const auto column_v = [&](Eigen::Index j) {
        VecX vp = s.v, vm = s.v;
        vp[j] += kStep, vm[j] -= kStep;
        return VecX((reactions(s.q, vp) - reactions(s.q, vm)) / (2 * kStep));
      };
      EXPECT_LT(worst_ratio(work.dreaction_dq, column_q, model.nv), 1.0);
      EXPECT_LT(worst_ratio(work.dreaction_dv, column_v, model.nv), 1.0);
    }
  }
  const Model model = tree_with_every_joint_type(3, 4);
  Data data(model);
  DerivativeData without(model);
  const VecX q = model.neutral_configuration(), zero = VecX::Zero(model.nv);
  EXPECT_THROW(joint_reaction_derivatives(model, data, without, q, zero, zero), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// Bug caught: a wrong derivative of the friction efforts: the normal load's dependence on
// the reaction (∂|P x|, ∂|n·x|) or on the turning axis (∂n = ω_j × n) left out, the
// slope of a law (Stribeck's exponential, Brown–McPhee's tanh and rational term) wrong,
// the N-linear part φ(v) confused with τ_f. Against centred differences of
// inverse_dynamics_with_friction's data.friction_effort (the steady-state LuGre), on
// revolute/prismatic trees with every friction law, with and without a load block, at
// velocities kept away from the v = 0 kink (|v| ≥ 0.3).
TEST(DynamicsDerivatives, FrictionEffortDerivativesMatchCentredDifferences) {
  const FrictionModel laws[] = {FrictionModel::CoulombViscous, FrictionModel::Stribeck, FrictionModel::LuGre,
                                FrictionModel::BrownMcPhee};
  for (unsigned seed = 61; seed <= 68; ++seed) {
    Model model = testing::random_tree(seed, {3 + static_cast<int>(seed % 5), false});
    int law = static_cast<int>(seed);
    for (Joint& joint : model.joints) {
      JointFriction friction;
      friction.model = laws[law++ % 4];
      friction.coulomb = 0.3, friction.static_coefficient = 0.5, friction.viscous = 0.1;
      friction.stribeck_velocity = 0.4, friction.bristle_stiffness = 1e3, friction.bristle_damping = 1.0;
      if (law % 3 != 0)
        friction.load = FrictionLoad{joint.type == JointType::Revolute ? 0.02 : 0.0, 0.05, 0.03};
      joint.friction = friction;
    }
    finalize_model(model, "friction tree");
    Data data(model), scratch(model);
    DerivativeData work(model, true);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      State s = random_state(model, rng);
      for (Eigen::Index k = 0; k < model.nv; ++k) s.v[k] += s.v[k] >= 0 ? 0.3 : -0.3;  // away from the kink
      friction_effort_derivatives(model, data, work, s.q, s.v, s.a);
      const auto effort = [&](const VecX& q, const VecX& v) {
        return VecX(inverse_dynamics_with_friction(model, scratch, q, v, s.a, LuGreEvaluation::SteadyState) -
                    scratch.tau);
      };
      EXPECT_LT(worst_ratio(
                    work.dfriction_dq,
                    [&](Eigen::Index j) {
                      return VecX((effort(shifted(model, scratch, s.q, j, kStep), s.v) -
                                   effort(shifted(model, scratch, s.q, j, -kStep), s.v)) /
                                  (2 * kStep));
                    },
                    model.nv),
                1.0);
      EXPECT_LT(worst_ratio(
                    work.dfriction_dv,
                    [&](Eigen::Index j) {
                      VecX vp = s.v, vm = s.v;
                      vp[j] += kStep, vm[j] -= kStep;
                      return VecX((effort(s.q, vp) - effort(s.q, vm)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
    }
  }
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

/// A tree of revolute and prismatic joints only (general axes and the coordinate axes of
/// the specialised kinds), random masses, centres of mass and inertias. `depth_first`:
/// bodies numbered so that every subtree's coordinates are one range (a chain when
/// `branching` is false); otherwise numbered breadth first (children of the root first), so
/// that subtrees are not ranges. `fixed`: every joint i with i % 3 == 2 welded instead
/// (JointType::Fixed, no coordinate).
Model single_axis_tree(unsigned seed, int bodies, bool branching, bool depth_first, bool fixed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> kind(0, 5);
  std::vector<int> parent(static_cast<std::size_t>(bodies), kGround);
  for (int i = 1; i < bodies; ++i) {
    if (!branching) parent[i] = i - 1;
    else if (depth_first) parent[i] = std::uniform_int_distribution<int>(std::max(0, i - 2), i - 1)(rng);
    else parent[i] = (i - 1) / 2;  // heap order: siblings before the children of either
  }
  Model model;
  model.gravity = Vec3(0.3, -0.2, -9.81);
  for (int i = 0; i < bodies; ++i) {
    Body body;
    body.name = "b" + std::to_string(i);
    body.parent = parent[i];
    body.mass = 0.5 + 0.5 * (unit(rng) + 1.0);
    body.com = 0.2 * Vec3(unit(rng), unit(rng), unit(rng));
    const Vec3 moments = Vec3(0.05, 0.06, 0.07) + 0.02 * Vec3(unit(rng), unit(rng), unit(rng)).cwiseAbs();
    const Mat3 turn = Quat(unit(rng), unit(rng), unit(rng), 1.0).normalized().toRotationMatrix();
    body.inertia = turn * moments.asDiagonal() * turn.transpose();
    Joint joint;
    joint.name = "j" + std::to_string(i);
    const int k = kind(rng);
    joint.type = k < 4 ? JointType::Revolute : JointType::Prismatic;
    joint.axis = (k % 2 == 0) ? Vec3(Vec3::Unit(k / 2 % 3) * (k == 2 ? -1.0 : 1.0))
                              : Vec3(Vec3(unit(rng), unit(rng), 0.5).normalized());
    joint.origin = 0.3 * Vec3(unit(rng), unit(rng), unit(rng));
    if (fixed && i % 3 == 2) joint.type = JointType::Fixed;
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, "single-axis tree");
  return model;
}

// Bug caught: a wrong closed form in the one-axis fast step (eq. D16: β = V_λ × s,
// α = A^g_λ × s + V_λ × β, α_v = 2β — e.g. α_v = β, or A_λ without gravity), a wrong row
// range when the subtree's coordinates are taken as one range, a wrong ancestor walk, or a
// wrong M built from the composite rows (∂q̈). Every coordinate of these models takes
// that step (revolute and prismatic joints only); chains and depth-first trees take the
// range loop, the breadth-first trees the body-by-body loop (asserted). Mutation check: with
// α_v = β instead of 2β, the ∂τ/∂v comparison fails by a ratio > 10³ (run by hand when
// the step was written).
TEST(DynamicsDerivatives, SingleAxisFastStepMatchesCentredDifferences) {
  int ranges = 0, scattered = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const bool branching = seed % 3 != 0, depth_first = seed % 2 == 0;
    const Model model = single_axis_tree(seed, 3 + static_cast<int>(seed % 7), branching, depth_first || !branching);
    Data data(model), scratch(model);
    DerivativeData work(model);
    for (int b = 0; b < model.num_bodies(); ++b) (work.subtree_dof_end[b] >= 0 ? ranges : scattered) += 1;
    std::mt19937 rng(seed + 50);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      rnea_derivatives(model, data, work, s.q, s.v, s.a);
      EXPECT_LT(worst_ratio(
                    work.dtau_dq,
                    [&](Eigen::Index j) {
                      VecX qp = s.q, qm = s.q;  // one coordinate per joint: q ⊕ h e_j = q + h e_j
                      qp[j] += kStep, qm[j] -= kStep;
                      const VecX plus = rnea(model, scratch, qp, s.v, s.a);
                      return VecX((plus - rnea(model, scratch, qm, s.v, s.a)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
      EXPECT_LT(worst_ratio(
                    work.dtau_dv,
                    [&](Eigen::Index j) {
                      VecX vp = s.v, vm = s.v;
                      vp[j] += kStep, vm[j] -= kStep;
                      const VecX plus = rnea(model, scratch, s.q, vp, s.a);
                      return VecX((plus - rnea(model, scratch, s.q, vm, s.a)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
      aba_derivatives(model, data, work, s.q, s.v, s.a);
      EXPECT_LT(worst_ratio(
                    work.da_dq,
                    [&](Eigen::Index j) {
                      VecX qp = s.q, qm = s.q;
                      qp[j] += kStep, qm[j] -= kStep;
                      const VecX plus = aba(model, scratch, qp, s.v, s.a);
                      return VecX((plus - aba(model, scratch, qm, s.v, s.a)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
      EXPECT_LT((work.da_dtau * crba(model, scratch, s.q) - MatX::Identity(model.nv, model.nv)).cwiseAbs().maxCoeff(),
                1e-9);  // M⁻¹ M = 1 with CRBA's M (an independent algorithm)
    }
  }
  EXPECT_GT(ranges, 0);
  EXPECT_GT(scattered, 0);
}

// Bug caught: the one loop over every column of a model whose joints are all one-axis and
// carried by their parent, or fixed (DerivativeData::every_single_axis, derivative_columns'
// shortcut: every robot arm) skipping a body, misreading a fixed joint's coordinate
// (it has none) or leaving the reaction columns out. Trees of revolute, prismatic and
// welded joints take it (asserted), a tree with every joint type does not; ∂τ and the
// reaction derivatives against centred differences of rnea and of joint_reactions (the
// explicit resultant iteration, a different algorithm). Mutation check (run by hand): the
// loop starting at body 1 fails the ∂τ comparison (the root's column stays stale).
TEST(DynamicsDerivatives, EveryOneAxisColumnLoopMatchesCentredDifferences) {
  for (unsigned seed = 31; seed <= 38; ++seed) {
    const bool branching = seed % 2 == 0;
    const Model model = single_axis_tree(seed, 4 + static_cast<int>(seed % 5), branching, seed % 4 != 0, true);
    Data data(model), scratch(model);
    DerivativeData work(model), with_reactions(model, true);
    ASSERT_TRUE(work.every_single_axis);
    std::mt19937 rng(seed + 70);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      work.dtau_dq.setConstant(1e300);  // every entry must be written (or zeroed) by the call
      work.dtau_dv.setConstant(1e300);
      rnea_derivatives(model, data, work, s.q, s.v, s.a);
      const auto rnea_column = [&](const VecX& dq, const VecX& dv) {
        const VecX plus = rnea(model, scratch, s.q + dq, s.v + dv, s.a);  // a copy: rnea returns scratch's τ
        return VecX((plus - rnea(model, scratch, s.q - dq, s.v - dv, s.a)) / (2 * kStep));
      };
      const VecX zero = VecX::Zero(model.nv);
      EXPECT_LT(worst_ratio(work.dtau_dq, [&](Eigen::Index j) { return rnea_column(kStep * VecX::Unit(model.nv, j), zero); },
                            model.nv),
                1.0);
      EXPECT_LT(worst_ratio(work.dtau_dv, [&](Eigen::Index j) { return rnea_column(zero, kStep * VecX::Unit(model.nv, j)); },
                            model.nv),
                1.0);
      joint_reaction_derivatives(model, data, with_reactions, s.q, s.v, s.a);
      const auto reactions = [&](const VecX& q, const VecX& v) {
        joint_reactions(model, scratch, q, v, s.a);
        VecX out(6 * model.num_bodies());
        for (int u = 0; u < model.num_bodies(); ++u) out.segment<6>(6 * u) << scratch.reaction_force[u], scratch.reaction_torque[u];
        return out;
      };
      EXPECT_LT(worst_ratio(
                    with_reactions.dreaction_dq,
                    [&](Eigen::Index j) {
                      const VecX dq = kStep * VecX::Unit(model.nv, j);  // q ⊕ h e_j = q + h e_j (one-axis joints)
                      return VecX((reactions(s.q + dq, s.v) - reactions(s.q - dq, s.v)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
      EXPECT_LT(worst_ratio(
                    with_reactions.dreaction_dv,
                    [&](Eigen::Index j) {
                      const VecX dv = kStep * VecX::Unit(model.nv, j);
                      return VecX((reactions(s.q, s.v + dv) - reactions(s.q, s.v - dv)) / (2 * kStep));
                    },
                    model.nv),
                1.0);
    }
  }
  int mixed = 0;  // a cylindrical, spherical or free joint keeps a tree off the loop
  for (unsigned seed = 1; seed <= 6; ++seed) mixed += !DerivativeData(tree_with_every_joint_type(seed, 6)).every_single_axis;
  EXPECT_GT(mixed, 0);
}

// Bug caught: an entry left from the previous call. rnea_derivatives writes every entry of
// ∂τ/∂q and ∂τ/∂v without zeroing the matrices first when the coordinates form one path
// from the root (DerivativeData::single_path: chains, where every entry is above or below
// its column's coordinate), and zeroes them first otherwise (entries of coordinates on
// different branches are 0). Here the matrices are filled with garbage before each call and
// the result must equal, bit for bit, that of a fresh DerivativeData (same algorithm, so
// equal to the bit; the numbers themselves are checked against differences above).
// Mutation check (run by hand): single_path set true for every model leaves the garbage in
// the cross-branch entries of the branched trees and fails here.
TEST(DynamicsDerivatives, EveryEntryIsWrittenOrZeroedOnEveryCall) {
  int paths = 0, branched = 0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const bool branching = seed % 2 == 0;
    const Model model = seed <= 4 ? single_axis_tree(seed, 3 + static_cast<int>(seed), branching, true)
                                  : tree_with_every_joint_type(seed, 4 + static_cast<int>(seed % 5), seed % 3 == 0);
    Data data(model);
    DerivativeData stale(model);
    (stale.single_path ? paths : branched) += 1;
    std::mt19937 rng(seed + 90);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      stale.dtau_dq.setConstant(1e300);
      stale.dtau_dv.setConstant(-1e300);
      rnea_derivatives(model, data, stale, s.q, s.v, s.a);
      DerivativeData made_now(model);
      rnea_derivatives(model, data, made_now, s.q, s.v, s.a);
      EXPECT_TRUE(stale.dtau_dq == made_now.dtau_dq);
      EXPECT_TRUE(stale.dtau_dv == made_now.dtau_dv);
    }
  }
  EXPECT_GT(paths, 0);
  EXPECT_GT(branched, 0);
}


// Bug caught: a wrong step from q̈ = 0 to q̈ in aba_derivatives, which no longer runs ABA: it
// differentiates at the stage of q̈ = 0 (where the transmitted forces give h), solves
// M q̈ = τ − h with M from the composite rows, then moves the accelerations and the
// transmitted forces to q̈ in O(n) (ΔA_i = ΔA_λ + S q̈_i, ΔF_i = I^c_i ΔA_λ + Σ f_k q̈_k). Its
// stage must be forward_kinematics(q, v, q̈), its τ the given efforts and its ∂τ/∂q, ∂τ/∂v
// those of rnea_derivatives at a = q̈ (a separate path through the generic stage), on trees
// of every joint type. Mutation check (run by hand): dropping the I^c_i ΔA_λ term fails the
// τ and ∂τ comparisons here and the ∂q̈ comparison with centred differences above.
TEST(DynamicsDerivatives, ForwardDynamicsDerivativesStartFromTheStageAtTheSolvedAcceleration) {
  for (unsigned seed = 31; seed <= 38; ++seed) {
    const Model model = tree_with_every_joint_type(seed, 2 + static_cast<int>(seed % 9), seed % 2 == 0);
    Data data(model), scratch(model);
    DerivativeData work(model), reference(model);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      const VecX& tau = s.a;
      aba_derivatives(model, data, work, s.q, s.v, tau);
      const VecX ddq = data.ddq;
      forward_kinematics(model, scratch, s.q, s.v, ddq);
      for (int i = 0; i < model.num_bodies(); ++i)
        EXPECT_LT((data.acceleration[i] - scratch.acceleration[i]).cwiseAbs().maxCoeff(),
                  1e-9 * (1.0 + scratch.acceleration[i].cwiseAbs().maxCoeff()));
      EXPECT_LT((work.tau - tau).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + tau.cwiseAbs().maxCoeff()));
      rnea_derivatives(model, scratch, reference, s.q, s.v, ddq);
      EXPECT_LT((work.dtau_dq - reference.dtau_dq).cwiseAbs().maxCoeff(),
                1e-9 * (1.0 + reference.dtau_dq.cwiseAbs().maxCoeff()));
      EXPECT_LT((work.dtau_dv - reference.dtau_dv).cwiseAbs().maxCoeff(),
                1e-9 * (1.0 + reference.dtau_dv.cwiseAbs().maxCoeff()));
    }
  }
}

/// Featherstone's crm(m) as a 6 × 6 matrix (m × x = crm(m) x), built entry by entry.
Mat6 motion_cross_matrix(const Vec6& m) {
  const auto skew = [](const Vec3& x) {
    Mat3 out;
    out << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
    return out;
  };
  Mat6 out = Mat6::Zero();
  out.topLeftCorner<3, 3>() = skew(m.head<3>());
  out.bottomRightCorner<3, 3>() = skew(m.head<3>());
  out.bottomLeftCorner<3, 3>() = skew(m.tail<3>());
  return out;
}

// Bug caught: a wrong number in the force and composite pass that the derivatives are built
// on (src/dynamics/derivative_forces.cpp: two bodies, or two coordinates, at a time in SSE2
// lanes, and a lone last one as scalar code) or in the kinematics stage's centres of mass and
// world inertias (formed in the same way) — a lane mixed up, a lone item with a wrong
// operation, a lane-1 result not stored, an entry of P wrong. Each quantity is recomputed
// here body by body with plain 6 × 6 algebra (the definitions, not the code's closed forms):
// i|J = Q J Qᵀ and r_{lI} = r_l + Q c̄ from the stage's rotation, I_i from them, H_i = I_i V_i,
// f_i = I_i A^g_i + V_i ×* H_i, B_i = crf(V_i) I_i − I_i crm(V_i) (eq. D11's definition;
// its top-left block is P_i, its off-diagonal blocks are H̃_f — the identity that lets u_k
// drop its linear part), the subtree sums, τ (also against RNEA in body coordinates, a
// different algorithm), and the rows f_k = I^c s_k, u_k = B^c s_k − s_k ×* H^c (linear part
// 0) and s_k, each number in both lanes, and (s_k ×* F_b, 0). Trees of 1 … 12 bodies: odd
// and even counts of bodies and of coordinates, so pairs and a lone last item both occur.
// Mutation checks (run by hand): One's subtraction made an addition (the lone scalar item)
// fails the inertia and force comparisons; dropping the factor 2 on P's diagonal fails the
// P^c and u_k comparisons; not storing lane 1 of τ fails the τ comparison; Q = P − H̃_n
// instead of P + H̃_n (the sign of H_n's cross matrix) fails the Q^c and u_k comparisons;
// s_k ×* F_b's angular part without t × F_f fails rows 15–17.
TEST(DynamicsDerivatives, ForcePassInLanesMatchesBodyByBodyFormulas) {
  int odd_bodies = 0, even_bodies = 0;
  for (unsigned seed = 61; seed <= 84; ++seed) {
    const int bodies = 1 + static_cast<int>(seed % 12);
    const Model model = tree_with_every_joint_type(seed, bodies, seed % 2 == 0);
    ((model.num_bodies() % 2 == 1) ? odd_bodies : even_bodies) += 1;
    Data data(model), scratch(model);
    DerivativeData work(model);
    std::mt19937 rng(seed);
    const State s = random_state(model, rng);
    SCOPED_TRACE("seed " + std::to_string(seed));
    rnea_derivatives(model, data, work, s.q, s.v, s.a);
    const int n = model.num_bodies();
    const Vec6 base = make_vec6(Vec3::Zero(), -model.gravity);
    std::vector<Mat6> inertia(n), coriolis(n);
    std::vector<Vec6> momentum(n), force(n);
    for (int i = 0; i < n; ++i) {
      const Body& body = model.bodies[i];
      const Mat3& rotation = data.rotation[i];
      const Vec3 com = data.position[i] + rotation * body.com;
      const Mat3 about_com = rotation * body.inertia * rotation.transpose();
      EXPECT_LT((data.com_position[i] - com).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + com.cwiseAbs().maxCoeff()));
      EXPECT_LT((data.inertia_world[i] - about_com).cwiseAbs().maxCoeff(),
                1e-12 * (1.0 + about_com.cwiseAbs().maxCoeff()));
      inertia[i] = SpatialInertia::from_com(body.mass, com, about_com).matrix();
      const Vec6& velocity = data.velocity[i];
      momentum[i] = inertia[i] * velocity;
      force[i] = inertia[i] * (data.acceleration[i] + base) + cross_force(velocity, momentum[i]);
      coriolis[i] = -motion_cross_matrix(velocity).transpose() * inertia[i] - inertia[i] * motion_cross_matrix(velocity);
    }
    const VecX tau = rnea(model, scratch, s.q, s.v, s.a);
    if (model.nv > 0) EXPECT_LT((work.tau - tau).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + tau.cwiseAbs().maxCoeff()));
    for (int i = 0; i < n; ++i) {
      Mat6 composite = Mat6::Zero(), composite_coriolis = Mat6::Zero();
      Vec6 composite_momentum = Vec6::Zero(), transmitted = Vec6::Zero();
      for (const int l : model.subtree[i]) {
        composite += inertia[l], composite_coriolis += coriolis[l];
        composite_momentum += momentum[l], transmitted += force[l];
      }
      const double scale = 1.0 + composite.cwiseAbs().maxCoeff() + composite_coriolis.cwiseAbs().maxCoeff() +
                           transmitted.cwiseAbs().maxCoeff();
      const auto close = [&](const auto& x, const auto& y) { return (x - y).cwiseAbs().maxCoeff() < 1e-12 * scale; };
      EXPECT_TRUE(close(work.composite_inertia[i].matrix(), composite));
      EXPECT_TRUE(close(work.composite_momentum[i], composite_momentum));
      EXPECT_TRUE(close(work.transmitted_force[i], transmitted));
      // stored as Q^c = P^c + H̃^c_n (eq. D11''), P^c the top-left block of B^c
      const Mat3 expected_block = composite_coriolis.topLeftCorner<3, 3>() + skew(composite_momentum.head<3>());
      EXPECT_TRUE(close(work.composite_coriolis_block[i], expected_block));
      const Joint& joint = model.joints[i];
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
        const Vec6& axis = data.motion_axis[k];
        EXPECT_NEAR(work.tau[k], axis.dot(transmitted), 1e-12 * scale);
        const Vec6 f = composite * axis;
        const Vec6 u = composite_coriolis * axis - cross_force(axis, composite_momentum);
        EXPECT_LT(u.tail<3>().cwiseAbs().maxCoeff(), 1e-12 * scale);  // B^c's vector is H^c_f (eq. D11)
        const DerivativeData::AxisRows& rows = work.composite_axis_rows[static_cast<std::size_t>(k)];
        const Vec6 force_term = cross_force(axis, transmitted);  // s_k ×* F_b, rows 15–20 lane 0
        for (int r = 0; r < 21; ++r) {
          const double expected = r < 6 ? f[r] : r < 9 ? u[r - 6] : r < 15 ? axis[r - 9] : force_term[r - 15];
          EXPECT_NEAR(rows(r, 0), expected, 1e-12 * scale) << "coordinate " << k << " row " << r;
          if (r < 15) EXPECT_EQ(rows(r, 0), rows(r, 1)) << "coordinate " << k << " row " << r;
          else EXPECT_EQ(rows(r, 1), 0.0) << "coordinate " << k << " row " << r;  // added to (∂/∂q_j, ∂/∂v_j) as is
        }
      }
    }
  }
  EXPECT_GT(odd_bodies, 0);
  EXPECT_GT(even_bodies, 0);
}

}  // namespace
}  // namespace mechdyn
