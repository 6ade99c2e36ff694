// Identities of the explicit dynamics (M, h, g, LTDL, inverse/forward, joint efforts)
// on seeded random trees with every joint type (revolute, prismatic, universal,
// spherical, free, fixed), 1–60 bodies. Energies are computed here, independently,
// from the forward-kinematics velocities and centres of mass.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

#include "allocation_probe.hpp"

namespace mechdyn {
namespace {

constexpr int kSeeds = 40;

// Seed s → a tree of 1..60 bodies: seed 1 → 1 body, seed 14 → 60 bodies, the others spread between.
int bodies_for(unsigned seed) { return 1 + static_cast<int>(((seed - 1u) * 23u) % 60u); }

testing::RandomTreeOptions options_for(unsigned seed, bool all_joint_types = true) {
  testing::RandomTreeOptions options;
  options.bodies = bodies_for(seed);
  options.all_joint_types = all_joint_types;
  return options;
}

double max_abs(const MatX& x) { return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff(); }

// V = −Σ m_l gᵀ c_l (EC eq. 12), from the centres of mass of forward kinematics.
double potential_energy_here(const Model& model, Data& data, const VecX& q) {
  forward_kinematics(model, data, q);
  double energy = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l)
    energy -= model.bodies[l].mass * model.gravity.dot(data.com_position[l]);
  return energy;
}

// T = ½ Σ (m |v_c|² + ωᵀ J ω), v_c = v_O + ω × c, from the forward-kinematics velocities.
double kinetic_energy_here(const Model& model, Data& data, const VecX& q, const VecX& v) {
  forward_kinematics(model, data, q, v);
  double energy = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Vec3 omega = data.velocity[l].head<3>();
    const Vec3 com_velocity = data.velocity[l].tail<3>() + omega.cross(data.com_position[l]);
    energy += 0.5 * (model.bodies[l].mass * com_velocity.squaredNorm() + omega.dot(data.inertia_world[l] * omega));
  }
  return energy;
}

// Catches: a wrong aggregate (S_u missing a body or its parallel-axis term), a wrong
// motion-axis contraction, a wrong case in the literal sums (eqs. 30, 31, 34, 35), the
// j-walk over λ skipping coordinates of the same multi-DoF joint.
TEST(ExplicitDynamics, DirectSumsEqualAggregatedMassMatrix) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    Data data(model);
    const MatX aggregated = explicit_mass_matrix(model, data, q);
    const MatX direct = explicit_mass_matrix_direct(model, data, q);
    const double error = max_abs(aggregated - direct) / max_abs(direct);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-12) << "seed " << seed << " (" << model.num_bodies() << " bodies, nv " << model.nv << ")";
  }
  std::printf("[ info ] max relative |M_aggregated − M_direct| = %.3g\n", worst);
}

// Catches: a lower triangle not mirrored, an element written to the wrong column, a
// subtree inertia that is not a valid (PSD) inertia, a coordinate missing from M.
TEST(ExplicitDynamics, MassMatrixIsSymmetricPositiveDefinite) {
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 1000);
    const VecX q = testing::random_configuration(model, rng);
    Data data(model);
    const MatX m = explicit_mass_matrix(model, data, q);
    EXPECT_EQ(max_abs(m - m.transpose()), 0.0) << "seed " << seed;
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(m, Eigen::EigenvaluesOnly);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 0.0) << "seed " << seed;
  }
}

// g = ∂V/∂q for revolute/prismatic-only trees (q additive), V computed here.
// Catches: a gravity sign error, gravity moments about the wrong point, a subtree
// weight missing a descendant, gravity projected on the wrong axis.
TEST(ExplicitDynamics, GravityIsGradientOfPotentialEnergy) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed, false));
    std::mt19937 rng(seed + 2000);
    const VecX q = testing::random_configuration(model, rng);
    Data data(model), scratch(model);
    const VecX g = explicit_gravity_force(model, data, q);
    const double step = 1e-6;
    VecX gradient(model.nv);
    for (int k = 0; k < model.nv; ++k) {
      VecX plus = q, minus = q;
      plus[k] += step;
      minus[k] -= step;
      gradient[k] = (potential_energy_here(model, scratch, plus) - potential_energy_here(model, scratch, minus)) / (2 * step);
    }
    const double error = max_abs(g - gradient) / std::max(max_abs(g), 1.0);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-7) << "seed " << seed;
  }
  std::printf("[ info ] max relative |g − ∂V/∂q (FD)| = %.3g (central differences, h = 1e-6)\n", worst);
}

// gᵀ v = dV/dt along the motion with velocity v, for every joint type (quaternion
// coordinates included). Catches what the test above cannot: a wrong gravity term for
// universal/spherical/free coordinates.
TEST(ExplicitDynamics, GravityPowerEqualsPotentialRateAllJointTypes) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 3000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), scratch(model);
    const VecX g = explicit_gravity_force(model, data, q);
    const double step = 1e-6;
    const double rate = (potential_energy_here(model, scratch, testing::integrate_configuration(model, q, v, step)) -
                         potential_energy_here(model, scratch, testing::integrate_configuration(model, q, v, -step))) /
                        (2 * step);
    const double error = std::abs(g.dot(v) - rate) / std::max(g.cwiseAbs().dot(v.cwiseAbs()), 1.0);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-7) << "seed " << seed;
  }
  std::printf("[ info ] max relative |gᵀv − dV/dt (FD)| = %.3g\n", worst);
}

// ½ vᵀ M v = T. Catches: a wrong rotational block (J_l not rotated to the world, the
// parallel-axis sign), wrong cross terms between coordinates.
TEST(ExplicitDynamics, KineticEnergyIsHalfVTransposeMV) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 4000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), scratch(model);
    const MatX& m = explicit_mass_matrix(model, data, q);
    const double expected = kinetic_energy_here(model, scratch, q, v);
    const double error = std::abs(0.5 * v.dot(m * v) - expected) / expected;
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-12) << "seed " << seed;
  }
  std::printf("[ info ] max relative |½vᵀMv − T| = %.3g\n", worst);
}

// h(q, 2v) − g = 4 (h(q, v) − g). Catches: a term linear in v in the bias (e.g. the
// joint's own Ṡ q̇ counted once with v and once without), gravity mixed into the
// velocity part.
TEST(ExplicitDynamics, VelocityTermsAreQuadraticInVelocity) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 5000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model);
    const VecX g = explicit_gravity_force(model, data, q);
    const VecX h1 = explicit_bias_force(model, data, q, v);
    EXPECT_LT(max_abs(data.gravity_force - g), 1e-13 * std::max(max_abs(g), 1.0)) << "seed " << seed;
    const VecX h2 = explicit_bias_force(model, data, q, 2.0 * v);
    const double error = max_abs((h2 - g) - 4.0 * (h1 - g)) / std::max(max_abs(h2 - g), 1.0);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-12) << "seed " << seed;
  }
  std::printf("[ info ] max relative |h(2v) − g − 4(h(v) − g)| = %.3g\n", worst);
}

// Power balance vᵀ (h − g) = ½ vᵀ Ṁ v (from d(T + V)/dt = vᵀτ and M v̇ + h = τ), with
// Ṁ by central differences of M along the motion. Catches: a wrong Coriolis or
// centripetal term anywhere (wrong com acceleration, missing ω × J ω, wrong Ṡ use) —
// the check is independent of the bias code.
TEST(ExplicitDynamics, PowerBalanceOfVelocityTerms) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 6000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model);
    const double step = 1e-5;
    const MatX m_plus = explicit_mass_matrix(model, data, testing::integrate_configuration(model, q, v, step));
    const MatX m_minus = explicit_mass_matrix(model, data, testing::integrate_configuration(model, q, v, -step));
    const double expected = 0.5 * v.dot((m_plus - m_minus) * v) / (2 * step);
    const VecX g = explicit_gravity_force(model, data, q);
    const VecX h = explicit_bias_force(model, data, q, v);
    const double scale = (h - g).cwiseAbs().dot(v.cwiseAbs()) + 1.0;
    const double error = std::abs(v.dot(h - g) - expected) / scale;
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-6) << "seed " << seed;
  }
  std::printf("[ info ] max relative |vᵀ(h − g) − ½vᵀṀv (FD)| = %.3g\n", worst);
}

// h_i = s_iᵀ Σ_{l∈uL} W_l with each body's wrench W_l built from momentum rates by
// central differences of forward-kinematics velocities at q̈ = 0 (independent of the
// bias code): f_l = m_l (d/dt v_cl − g), moment about the com d/dt (J_l ω_l).
// Catches: a missing gyroscopic term ω × J ω or Coriolis term ω × v_c — both do no
// work, so the power balance above cannot see them — for every joint type.
TEST(ExplicitDynamics, BiasForceEqualsProjectedMomentumRates) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 10000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    const VecX h = explicit_bias_force(model, data, q, v);
    const double step = 1e-5;
    forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, step), v);
    forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -step), v);
    AlignedVector<Vec6> wrench(model.num_bodies());
    for (int l = 0; l < model.num_bodies(); ++l) {
      auto com_velocity = [l](const Data& d) {
        return Vec3(d.velocity[l].tail<3>() + d.velocity[l].head<3>().cross(d.com_position[l]));
      };
      auto angular_momentum = [l](const Data& d) { return Vec3(d.inertia_world[l] * d.velocity[l].head<3>()); };
      const Vec3 force =
          model.bodies[l].mass * ((com_velocity(plus) - com_velocity(minus)) / (2 * step) - model.gravity);
      const Vec3 moment_about_com = (angular_momentum(plus) - angular_momentum(minus)) / (2 * step);
      wrench[l] << data.com_position[l].cross(force) + moment_about_com, force;
    }
    VecX expected(model.nv);
    for (int i = 0; i < model.nv; ++i) {
      Vec6 total = Vec6::Zero();
      for (const int l : model.subtree[model.dof_body[i]]) total += wrench[l];
      expected[i] = data.motion_axis[i].dot(total);
    }
    const double error = max_abs(h - expected) / std::max(max_abs(h), 1.0);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-6) << "seed " << seed;
  }
  std::printf("[ info ] max relative |h − Sᵀ Σ momentum rates (FD)| = %.3g (FD-limited)\n", worst);
}

// LTDL (λ-sparse) solve = dense Eigen LLT solve. Catches: a wrong λ walk, fill-in
// written outside the ancestor pattern, L and Lᵀ swapped in the solve.
TEST(ExplicitDynamics, LtdlSolveEqualsDenseLlt) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 7000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX b = testing::random_vector(model.nv, rng);
    Data data(model);
    const MatX m = explicit_mass_matrix(model, data, q);
    factor_mass_matrix(model, data);
    VecX x = b;
    solve_mass_matrix(model, data, x);
    const VecX dense = m.llt().solve(b);
    const double error = (x - dense).norm() / dense.norm();
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-10) << "seed " << seed;
    EXPECT_LT((m * x - b).norm(), 1e-12 * (m.norm() * x.norm() + b.norm())) << "residual, seed " << seed;
  }
  std::printf("[ info ] max relative |x_LTDL − x_LLT| = %.3g\n", worst);
}

// forward(inverse(a)) = a. Catches: forward dynamics using another h than inverse
// dynamics (e.g. sign of h), a solve that is not the inverse of M.
TEST(ExplicitDynamics, ForwardOfInverseIsIdentity) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 8000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    const VecX tau = explicit_inverse_dynamics(model, data, q, v, a);
    const VecX a_back = explicit_forward_dynamics(model, data, q, v, tau);
    const double error = (a_back - a).norm() / a.norm();
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-10) << "seed " << seed;
  }
  std::printf("[ info ] max relative |forward(inverse(a)) − a| = %.3g\n", worst);
}

// joint_reactions' efforts (projection of the resultant wrenches) = M a + h.
// Catches: reaction wrenches missing the joint-acceleration part, torques about the
// wrong point projected on the axes, a subtree sum in the wrong order.
TEST(ExplicitDynamics, JointReactionEffortsEqualInverseDynamics) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const Model model = testing::random_tree(seed, options_for(seed));
    if (model.nv == 0) continue;  // a single fixed body: see TreeWithoutDegreesOfFreedom
    std::mt19937 rng(seed + 9000);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    const VecX expected = explicit_inverse_dynamics_mass_matrix(model, data, q, v, a);
    const double scale = (data.mass_matrix.cwiseAbs() * a.cwiseAbs() + data.bias_force.cwiseAbs()).maxCoeff();
    joint_reactions(model, data, q, v, a);
    const double error = max_abs(data.tau - expected) / scale;
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-12) << "seed " << seed;
  }
  std::printf("[ info ] max relative |tau_reactions − (M a + h)| = %.3g\n", worst);
}

#if MECHDYN_COUNT_ALLOCATIONS
// Catches: a dynamic-size Eigen temporary (missing .noalias(), a VecX expression
// evaluated into a temporary), a std::vector or std::string built in an algorithm.
TEST(ExplicitDynamics, EvaluationAllocatesNothing) {
  const Model model = testing::random_tree(7, {40});
  std::mt19937 rng(7);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng);
  const VecX a = testing::random_vector(model.nv, rng);
  Data data(model);
  VecX x = testing::random_vector(model.nv, rng);
  explicit_inverse_dynamics(model, data, q, v, a);  // warm-up (nothing lazy expected)
  const long seen = testing::count_allocations([&] {
    explicit_mass_matrix(model, data, q);
    explicit_mass_matrix_direct(model, data, q);
    explicit_bias_force(model, data, q, v);
    explicit_gravity_force(model, data, q);
    explicit_inverse_dynamics(model, data, q, v, a);
    explicit_inverse_dynamics_mass_matrix(model, data, q, v, a);
    explicit_forward_dynamics(model, data, q, v, data.tau);
    explicit_forward_dynamics_mass_matrix(model, data, q, v, data.tau);
    factor_mass_matrix(model, data);
    solve_mass_matrix(model, data, x);
    joint_reactions(model, data, q, v, a);
  });
  EXPECT_EQ(seen, 0);
  // The counter itself works: a VecX allocates.
  VecX probe;
  EXPECT_GT(testing::count_allocations([&] { probe.resize(model.nv); }), 0) << "allocation counter is not armed";
  probe.setZero();
}
#endif

// A tree whose only joint is fixed (nv = 0): every algorithm runs and returns empty
// results. Catches: a loop bound or λ walk that reads coordinate 0 of an empty vector.
TEST(ExplicitDynamics, TreeWithoutDegreesOfFreedom) {
  Model model;
  model.bodies.push_back(Body{"welded", kGround, 1.0, Vec3(0.1, 0.2, 0.3), Mat3::Identity() * 0.01});
  Joint weld;
  weld.name = "weld";
  weld.type = JointType::Fixed;
  weld.origin = Vec3(0.0, 0.0, 1.0);
  model.joints.push_back(weld);
  finalize_model(model, "welded");
  ASSERT_EQ(model.nv, 0);
  Data data(model);
  const VecX empty = VecX::Zero(0);
  EXPECT_EQ(explicit_mass_matrix(model, data, empty).size(), 0);
  EXPECT_EQ(explicit_mass_matrix_direct(model, data, empty).size(), 0);
  EXPECT_EQ(explicit_bias_force(model, data, empty, empty).size(), 0);
  EXPECT_EQ(explicit_forward_dynamics(model, data, empty, empty, empty).size(), 0);
  joint_reactions(model, data, empty, empty, empty);
  // The weld carries the weight: f = −m g, τ about the weld = (c − o) × (−m g).
  EXPECT_LT((data.reaction_force[0] + model.gravity).norm(), 1e-15);
  EXPECT_LT((data.reaction_torque[0] - Vec3(0.1, 0.2, 0.3).cross(-model.gravity)).norm(), 1e-15);
}

// Catches: wrong-size inputs read out of bounds instead of rejected.
TEST(ExplicitDynamics, WrongSizesAreInvalidArguments) {
  const Model model = testing::random_tree(3, {5});
  Data data(model);
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv);
  const VecX too_short = VecX::Zero(model.nv - 1);
  EXPECT_THROW(explicit_mass_matrix(model, data, VecX::Zero(model.nq + 1)), InvalidArgument);
  EXPECT_THROW(explicit_mass_matrix_direct(model, data, VecX::Zero(model.nq + 1)), InvalidArgument);
  EXPECT_THROW(explicit_bias_force(model, data, q, too_short), InvalidArgument);
  EXPECT_THROW(explicit_gravity_force(model, data, too_short), InvalidArgument);
  EXPECT_THROW(explicit_inverse_dynamics(model, data, q, v, too_short), InvalidArgument);
  EXPECT_THROW(explicit_forward_dynamics(model, data, q, v, too_short), InvalidArgument);
  EXPECT_THROW(joint_reactions(model, data, q, too_short, v), InvalidArgument);
  VecX x = too_short;
  EXPECT_THROW(solve_mass_matrix(model, data, x), InvalidArgument);
}

// Catches: a factorisation that silently divides by a zero or negative pivot (NaN
// passed on) instead of a SolverError naming the coordinate.
TEST(ExplicitDynamics, NonPositivePivotIsSolverErrorNamingTheCoordinate) {
  const Model model = testing::random_tree(4, {3, false});  // three 1-DoF joints
  Data data(model);
  explicit_mass_matrix(model, data, model.neutral_configuration());
  data.mass_matrix(1, 1) = -1.0;
  try {
    factor_mass_matrix(model, data);
    FAIL() << "no SolverError";
  } catch (const SolverError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("velocity coordinate 1"), std::string::npos) << message;
    EXPECT_NE(message.find("'J1'"), std::string::npos) << message;
  }
  data.mass_matrix(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(factor_mass_matrix(model, data), SolverError);
}

}  // namespace
}  // namespace mechdyn
