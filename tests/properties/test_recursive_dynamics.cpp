// Cross-algorithm identities of the recursive algorithms (RNEA, CRBA, ABA, energy) on
// seeded random trees of 1..60 bodies with every joint type (revolute, prismatic,
// universal, spherical, free roots, fixed). No expected number is taken from the code
// under test: every check compares two independent computations, or a matrix property.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct Case {
  unsigned seed;
  Model model;
  VecX q, v, a;
};

// Sizes 1..60, two seeds per size: 120 trees. The sizes cycle so that every size occurs.
std::vector<Case> random_cases() {
  std::vector<Case> cases;
  for (int bodies = 1; bodies <= 60; ++bodies) {
    for (unsigned repeat = 0; repeat < 2; ++repeat) {
      const unsigned seed = 1000u * repeat + static_cast<unsigned>(bodies);
      testing::RandomTreeOptions options;
      options.bodies = bodies;
      Case c{seed, testing::random_tree(seed, options), {}, {}, {}};
      std::mt19937 rng(seed + 7);
      c.q = testing::random_configuration(c.model, rng);
      c.v = testing::random_vector(c.model.nv, rng);
      c.a = testing::random_vector(c.model.nv, rng);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

double relative_error(const VecX& value, const VecX& reference) {
  return (value - reference).norm() / std::max(1.0, reference.norm());
}

// |error| / |scale|, 0 when both vanish (a tree of fixed joints has nv = 0).
double ratio(double error, double scale) { return error == 0.0 ? 0.0 : error / scale; }

// Catches: a case generator that silently stopped producing some joint type (every
// identity below would then pass without exercising it).
TEST(RecursiveDynamics, CasesContainEveryJointType) {
  int joints_of_type[6] = {0, 0, 0, 0, 0, 0};
  for (const Case& c : random_cases())
    for (const Joint& joint : c.model.joints) ++joints_of_type[static_cast<int>(joint.type)];
  for (JointType type : {JointType::Revolute, JointType::Prismatic, JointType::Universal, JointType::Spherical,
                         JointType::Free, JointType::Fixed})
    EXPECT_GT(joints_of_type[static_cast<int>(type)], 10) << joint_type_name(type);
}

// Catches: a wrong velocity-product term in RNEA (v ×* I v, Ṡ q̇), gravity applied with
// the wrong sign or as [−g; 0] instead of [0; −g], a missing or wrongly placed element of
// CRBA (wrong λ walk, composite inertia not accumulated, one triangle only).
TEST(RecursiveDynamics, RneaEqualsCrbaTimesAccelerationPlusBias) {
  double worst = 0.0;
  for (const Case& c : random_cases()) {
    Data data(c.model);
    const VecX tau = rnea(c.model, data, c.q, c.v, c.a);
    const VecX bias = rnea(c.model, data, c.q, c.v, VecX::Zero(c.model.nv));
    const MatX mass = crba(c.model, data, c.q);
    const VecX expected = mass * c.a + bias;
    const double error = relative_error(tau, expected);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-10) << "seed " << c.seed << ", " << c.model.num_bodies() << " bodies";
  }
  RecordProperty("max_relative_error", std::to_string(worst));
  std::printf("RNEA(a) vs M a + h: max relative error %.3e\n", worst);
}

// Catches: any error in ABA's articulated inertias or biases (a wrong sign in I^a or
// p^a, the Ṡ q̇ term c_i dropped, D⁻¹ of a multi-DoF joint transposed or mis-indexed,
// gravity handled differently from RNEA): forward(inverse(a)) = a.
TEST(RecursiveDynamics, AbaInvertsRnea) {
  double worst = 0.0;
  for (const Case& c : random_cases()) {
    Data data(c.model);
    const VecX tau = rnea(c.model, data, c.q, c.v, c.a);
    const VecX ddq = aba(c.model, data, c.q, c.v, tau);
    const double error = ratio((ddq - c.a).norm(), c.a.norm());
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-10) << "seed " << c.seed << ", " << c.model.num_bodies() << " bodies";
  }
  std::printf("ABA(RNEA(a)) vs a: max relative error %.3e\n", worst);
}

// Catches: ABA's data.acceleration not matching its own q̈ (pass 3 adding gravity into the
// stored accelerations, or S_i q̈_i added for the wrong coordinates).
TEST(RecursiveDynamics, AbaAccelerationsAreTheKinematicsOfItsResult) {
  for (const Case& c : random_cases()) {
    if (c.seed % 5 != 0) continue;
    Data data(c.model), kinematics(c.model);
    const VecX ddq = aba(c.model, data, c.q, c.v, c.a);  // a used as an arbitrary τ
    forward_kinematics(c.model, kinematics, c.q, c.v, ddq);
    for (int l = 0; l < c.model.num_bodies(); ++l)
      EXPECT_LT((data.acceleration[l] - kinematics.acceleration[l]).norm(),
                1e-10 * std::max(1.0, kinematics.acceleration[l].norm()))
          << "seed " << c.seed << " body " << l;
  }
}

// Catches: an asymmetric M (one triangle written from a different expression or not at
// all) and an M that is not positive definite (a wrong inertia transformation, e.g. the
// parallel-axis term with the wrong sign).
TEST(RecursiveDynamics, MassMatrixIsSymmetricPositiveDefinite) {
  for (const Case& c : random_cases()) {
    Data data(c.model);
    const MatX mass = crba(c.model, data, c.q);
    EXPECT_EQ((mass - mass.transpose()).norm(), 0.0) << "seed " << c.seed;
    if (c.model.nv == 0) continue;  // nothing to factor
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(mass, Eigen::EigenvaluesOnly);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 0.0) << "seed " << c.seed;
  }
}

// Catches: CRBA and the kinetic energy disagreeing on any body's inertia (missing ½,
// ωᵀ J ω with the body-frame J, com velocity taken at the body origin).
TEST(RecursiveDynamics, HalfVelocityMassVelocityIsKineticEnergy) {
  double worst = 0.0;
  for (const Case& c : random_cases()) {
    Data data(c.model);
    const MatX mass = crba(c.model, data, c.q);
    const double from_mass_matrix = 0.5 * c.v.dot(mass * c.v);
    const double energy = kinetic_energy(c.model, data, c.q, c.v);
    const double error = ratio(std::abs(from_mass_matrix - energy), energy);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-12) << "seed " << c.seed;
  }
  std::printf("1/2 v'Mv vs T: max relative error %.3e\n", worst);
}

// Catches: a Data that keeps state between calls (a result depending on the previous
// evaluation, e.g. composite inertias or articulated inertias not re-initialised).
TEST(RecursiveDynamics, RepeatedCallsGiveIdenticalResults) {
  const Model model = testing::random_tree(99, {25});
  std::mt19937 rng(5);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng);
  const VecX tau = testing::random_vector(model.nv, rng);
  Data fresh(model), reused(model);
  const VecX expected_ddq = aba(model, fresh, q, v, tau);
  const MatX expected_mass = crba(model, fresh, q);
  const VecX expected_tau = rnea(model, fresh, q, v, tau);
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(aba(model, reused, q, v, tau), expected_ddq);
    EXPECT_EQ(crba(model, reused, q), expected_mass);
    EXPECT_EQ(rnea(model, reused, q, v, tau), expected_tau);
  }
}

}  // namespace
}  // namespace mechdyn
