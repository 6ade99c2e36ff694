// Dynamics with joint friction on seeded random trees: forward(inverse(a)) = a with
// load-dependent friction, eq. (54) term by term, energy never gained by an unforced
// system with Coulomb friction, and no allocation in evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/friction_models.hpp"
#include "mechdyn/friction/friction_simulation.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "random_model.hpp"

#include "allocation_probe.hpp"

namespace mechdyn {
namespace {

// A random revolute/prismatic tree with friction on every joint, cycling the four models,
// with `load` on every other joint.
Model random_friction_tree(unsigned seed, int bodies, bool coulomb_only = false) {
  testing::RandomTreeOptions options;
  options.bodies = bodies;
  options.all_joint_types = false;
  Model model = testing::random_tree(seed, options);
  for (int l = 0; l < model.num_bodies(); ++l) {
    Joint& joint = model.joints[l];
    JointFriction f;
    const int kind = coulomb_only ? 0 : l % 4;
    f.model = kind == 0 ? FrictionModel::CoulombViscous
                        : kind == 1 ? FrictionModel::Stribeck : kind == 2 ? FrictionModel::LuGre : FrictionModel::BrownMcPhee;
    f.coulomb = 0.02;
    f.static_coefficient = 0.03;
    f.viscous = 0.01;
    f.stribeck_velocity = 0.05;
    f.bristle_stiffness = 100.0;
    f.bristle_damping = 1.0;
    if (l % 2 == 0) f.load = FrictionLoad{0.01, 0.05, 0.02};
    joint.friction = f;
  }
  finalize_model(model, "random_friction_tree");
  return model;
}

// Catches: a forward solve that stops before the normal-load fixed point converges,
// forward and inverse using different friction signs or loads, LuGre's ż differing
// between the two, a stuck-joint branch taken while every joint moves.
TEST(FrictionDynamics, ForwardOfInverseIsIdentity) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Model model = random_friction_tree(seed, 2 + static_cast<int>(seed % 10));
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);  // every joint moving (v ≠ 0 almost surely)
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    data.friction_state = testing::random_vector(model.nv, rng, 1e-4);
    const VecX tau = inverse_dynamics_with_friction(model, data, q, v, a);
    const VecX friction = data.friction_effort;
    const VecX rate = data.friction_state_rate;
    const VecX back = forward_dynamics_with_friction(model, data, q, v, tau);
    const double error = (back - a).norm() / (1.0 + a.norm());
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-9) << "seed " << seed;
    EXPECT_LT((data.friction_effort - friction).norm(), 1e-9 * (1.0 + friction.norm())) << "seed " << seed;
    EXPECT_LT((data.friction_state_rate - rate).norm(), 1e-9 * (1.0 + rate.norm())) << "seed " << seed;
  }
  std::printf("[ info ] worst relative |forward(inverse(a)) - a| = %.3g\n", worst);
}

// Eq. (54) term by term: τ_d = M a + h + τ_f with τ_f from the contract formula at the
// normal load of the decomposition; at v = 0 the Coulomb part opposes a.
// Catches: friction added with the wrong sign, the load of another joint used, v = 0
// with friction along the acceleration.
TEST(FrictionDynamics, InverseIsMassMatrixPlusBiasPlusFriction) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const Model model = random_friction_tree(seed, 6);
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    VecX v = testing::random_vector(model.nv, rng);
    v[0] = 0.0;  // one joint at rest: its friction opposes a
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model), reference(model);
    const VecX tau = inverse_dynamics_with_friction(model, data, q, v, a, LuGreEvaluation::SteadyState);
    const VecX plain = explicit_inverse_dynamics(model, reference, q, v, a);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Joint& joint = model.joints[l];
      const int k = joint.v_index;
      const double normal = joint.friction->load ? data.normal_load[l] : 1.0;
      const double expected = friction_effort(*joint.friction, normal, v[k], a[k]);
      EXPECT_NEAR(tau[k] - plain[k], expected, 1e-10 * (1 + std::abs(plain[k])));
      if (v[k] == 0.0 && joint.friction->model != FrictionModel::BrownMcPhee)
        EXPECT_GT(expected * a[k], 0.0) << "friction at rest must oppose a (act as a resisting effort)";
    }
  }
}

// An unforced tree with Coulomb–viscous friction (with load) started with random
// velocities: the mechanical energy T + V never increases (dE/dt = −Σ τ_f v ≤ 0); checked
// at every 10 ms over 2 s with DOPRI5 (rtol 1e-10) to 1e-9 (1 + E) per sample.
// Catches: friction that pushes (sign), a normal load that goes negative, velocity resets
// at events that inject energy.
TEST(FrictionDynamics, UnforcedCoulombSystemNeverGainsEnergy) {
  for (unsigned seed : {3u, 7u, 11u}) {
    Model model = random_friction_tree(seed, 4, true);
    for (Joint& joint : model.joints) joint.friction->coulomb = joint.friction->static_coefficient = 0.05;
    std::mt19937 rng(seed);
    VecX q = testing::random_configuration(model, rng);
    VecX v = testing::random_vector(model.nv, rng);
    VecX z = VecX::Zero(model.nv);
    FrictionSimulationOptions options;
    options.adaptive = true;
    options.step = 1e-3;
    options.dormand_prince.relative_tolerance = 1e-10;
    options.dormand_prince.absolute_tolerance = 1e-12;
    FrictionSimulation simulation(model, [](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                            Eigen::Ref<VecX> tau) { tau.setZero(); }, options);
    Data data(model);
    auto energy = [&] { return kinetic_energy(model, data, q, v) + potential_energy(model, data, q); };
    double previous = energy(), largest_rise = -INFINITY;
    for (int k = 0; k < 200; ++k) {
      simulation.advance(k * 0.01, (k + 1) * 0.01, q, v, z);
      const double e = energy();
      largest_rise = std::max(largest_rise, e - previous);
      EXPECT_LE(e, previous + 1e-9 * (1 + std::abs(e))) << "seed " << seed << " t = " << (k + 1) * 0.01;
      previous = e;
    }
    std::printf("[ info ] seed %u: largest energy rise per 10 ms %.3g J, events %d\n", seed, largest_rise,
                simulation.events());
  }
}

// Evaluation allocates nothing: inverse and forward dynamics with friction (including
// a stuck joint and the stick/slip bookkeeping) and the decomposition, counted by the
// malloc interposer above. Catches: temporaries in the friction loops, a Cholesky that
// reallocates per call, std::vector growth.
TEST(FrictionDynamics, NoAllocationInEvaluation) {
#if MECHDYN_COUNT_ALLOCATIONS
  const Model model = random_friction_tree(5, 8);
  std::mt19937 rng(5);
  const VecX q = testing::random_configuration(model, rng);
  VecX v = testing::random_vector(model.nv, rng);
  v[0] = 0.0;  // a Coulomb–viscous joint at rest: the stick branch
  const VecX a = testing::random_vector(model.nv, rng);
  Data data(model);
  const VecX tau = inverse_dynamics_with_friction(model, data, q, v, a);
  forward_dynamics_with_friction(model, data, q, v, tau);  // warm-up
  const long seen = testing::count_allocations([&] {
    inverse_dynamics_with_friction(model, data, q, v, a);
    inverse_dynamics_with_friction(model, data, q, v, a, LuGreEvaluation::SteadyState);
    forward_dynamics_with_friction(model, data, q, v, tau);
    joint_load_decomposition(model, data);
  });
  EXPECT_EQ(seen, 0);
#else
  GTEST_SKIP() << "allocation counting needs glibc and no sanitizer (allocation_probe.hpp)";
#endif
}

}  // namespace
}  // namespace mechdyn
