// The sparse augmented-Lagrangian path for closed chains: the sparse system against the
// dense one, the index-1 augmented-Lagrangian dynamics against the range-space
// constrained dynamics, and the index-3 trapezoidal integrator (ALI3-P) on the IFToMM
// N-four-bar against its exact one-degree-of-freedom reduction, through the singular
// configurations the benchmark crosses, with no allocation while stepping.
// Catches: a J entry on the wrong coordinate or chain, a mass-matrix entry off the
// ancestor pattern, a wrong ordering/permutation in the sparse solve, the wrong sign of
// the multipliers, a multiplier update that overshoots (the Newton iteration cycles), a
// run that switches branch at a singular crossing, accuracy lost to the penalty.
#include "no_malloc_probe.hpp"  // first: defines EIGEN_RUNTIME_NO_MALLOC

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "../src/constraints/loop_stages.hpp"
#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/augmented_lagrangian_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "mechdyn/constraints/augmented_lagrangian_trapezoidal.hpp"
#include "n_four_bar.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

TEST(SparseClosure, MatchesTheDenseJacobianMassMatrixAndAugmentedSolve) {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const Model model = testing::tree_with_every_loop_type(seed);
    Data data(model);
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    loop_closure(model, data, q);  // dense J and the unit wrenches on the position stage
    crba(model, data, q);          // dense M (same stage)
    SparseClosureSystem system(model);
    system.jacobian_from_rows(data);
    system.mass_matrix_from_stage(model, data);
    const VecX x = VecX::Random(model.nv), y = VecX::Random(model.num_loop_rows);
    VecX out(model.num_loop_rows), out_nv(model.nv);
    system.jacobian_product(x, out);
    EXPECT_LE((out - data.loop_jacobian * x).norm(), 1e-12 * (1.0 + out.norm())) << "seed " << seed;
    out_nv.setZero();
    system.add_jacobian_transpose_product(y, 2.0, out_nv);
    EXPECT_LE((out_nv - 2.0 * data.loop_jacobian.transpose() * y).norm(), 1e-12 * (1.0 + out_nv.norm()));
    system.mass_product(x, out_nv);
    EXPECT_LE((out_nv - data.mass_matrix * x).norm(), 1e-12 * (1.0 + out_nv.norm()));
    const double c = 37.0;
    system.factor_augmented(c);
    const MatX augmented = data.mass_matrix + c * data.loop_jacobian.transpose() * data.loop_jacobian;
    out_nv = x;
    system.solve_augmented(out_nv);
    EXPECT_LE((augmented * out_nv - x).norm(), 1e-10 * x.norm()) << "seed " << seed;
  }
}

TEST(SparseClosure, GramPivotsSeeASingularConfiguration) {
  const Model nfb = testing::n_four_bar(1);
  Data data(nfb);
  SparseClosureSystem system(nfb);
  VecX q, v;
  testing::n_four_bar_start(nfb, q, v);
  loop_closure(nfb, data, q);
  system.jacobian_from_rows(data);
  EXPECT_GT(system.gram_pivot_ratio(), 0.1);  // cranks vertical: far from singular
  q << 1e-6, -1e-6, 1e-6;                     // all bars nearly collinear: J loses a rank
  loop_closure(nfb, data, q);
  system.jacobian_from_rows(data);
  EXPECT_LT(system.gram_pivot_ratio(), 1e-9);
}

TEST(AugmentedLagrangianDynamics, AgreesWithTheSaddlePointSystem) {
  // Reference: the KKT system [M Jᵀ; J 0] [a; −λ] = [τ − h; −J̇ v] from the dense M (CRBA),
  // h (RNEA), J and J̇ v, solved by a complete orthogonal decomposition (minimum norm where
  // rows are redundant; a is unique). Also the range-space dynamics of mechdyn.
  for (const char* file : {"four_bar.yaml", "slider_crank.yaml", "three_loop_mechanism.yaml", "ups_3ups_upu_s.yaml"}) {
    const Model model = testing::example_model(file);
    Data data(model), dense(model);
    VecX q = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
    assemble(model, dense, q);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    VecX v(model.nv), tau(model.nv);
    for (Eigen::Index i = 0; i < model.nv; ++i) v[i] = u(rng), tau[i] = 0.3 * u(rng);
    project_velocities(model, dense, q, v);
    const Eigen::Index nv = model.nv, rows = model.num_loop_rows;
    const VecX h = rnea(model, dense, q, v, VecX::Zero(nv));
    const MatX mass = crba(model, dense, q);
    const VecX bias = loop_bias_acceleration(model, dense, q, v);
    loop_closure(model, dense, q);
    MatX kkt = MatX::Zero(nv + rows, nv + rows);
    kkt.topLeftCorner(nv, nv) = mass;
    kkt.topRightCorner(nv, rows) = dense.loop_jacobian.transpose();
    kkt.bottomLeftCorner(rows, nv) = dense.loop_jacobian;
    VecX rhs(nv + rows);
    rhs << tau - h, -bias;
    const VecX expected = Eigen::CompleteOrthogonalDecomposition<MatX>(kkt).solve(rhs).head(nv);
    const VecX constraint_force = mass * expected + h - tau;  // Jᵀλ
    AugmentedLagrangianDynamics dynamics(model);
    const VecX a = dynamics.evaluate(model, data, q, v, tau);
    const double scale = 1.0 + expected.lpNorm<Eigen::Infinity>();
    EXPECT_LE((a - expected).lpNorm<Eigen::Infinity>(), 1e-8 * scale) << file;
    EXPECT_LE((a - constrained_forward_dynamics(model, dense, q, v, tau)).lpNorm<Eigen::Infinity>(), 1e-8 * scale) << file;
    EXPECT_LE((dense.loop_jacobian * a + bias).lpNorm<Eigen::Infinity>(), 1e-8 * scale) << file;
    // The multipliers accumulate α r with r at round-off (ε ‖J‖ ‖a‖): their floor is ~ε·p
    // relative to the accelerations' scale (p = 1e8), hence 1e-6 here, not 1e-8.
    const VecX force = dense.loop_jacobian.transpose() * data.loop_multiplier;
    EXPECT_LE((force - constraint_force).lpNorm<Eigen::Infinity>(), 1e-6 * (1.0 + constraint_force.lpNorm<Eigen::Infinity>()))
        << file;
    EXPECT_LE(dynamics.iterations(), 50) << file;
  }
}

struct NFourBarRun {
  double tip_error = 0.0;      // max over steps of |tip of crank 0 − reference| (m)
  double branch = 0.0;         // max over steps of |θ_i − θ_0| over the cranks (rad)
  double residual = 0.0;       // max ‖Φ‖∞
  double final_angle = 0.0, reference_angle = 0.0;
};

NFourBarRun run_n_four_bar(int n, double h, double duration, const AugmentedLagrangianTrapezoidalOptions& options = {}) {
  const Model model = testing::n_four_bar(n);
  VecX q, v;
  testing::n_four_bar_start(model, q, v);
  AugmentedLagrangianTrapezoidal integrator(model, nullptr, options);
  integrator.initialize(0.0, q, v);
  testing::NFourBarReference reference(n);
  Data check(model);
  NFourBarRun run;
  const long steps = std::lround(duration / h);
  for (long k = 0; k < steps; ++k) {
    integrator.step(static_cast<double>(k) * h, h, q, v);
    reference.advance(h);
    run.tip_error = std::max(run.tip_error, std::hypot(std::cos(q[0]) - std::cos(reference.angle()),
                                                       std::sin(q[0]) - std::sin(reference.angle())));
    for (int b = 0; b < model.num_bodies(); b += 2)  // the cranks: bodies 0, 2, 4, ...
      run.branch = std::max(run.branch, std::abs(std::remainder(q[model.joints[b].q_index] - q[0], 2 * M_PI)));
    loop_closure(model, check, q);
    run.residual = std::max(run.residual, check.loop_residual.lpNorm<Eigen::Infinity>());
  }
  run.final_angle = q[0];
  run.reference_angle = reference.angle();
  return run;
}

TEST(AugmentedLagrangianTrapezoidal, NFourBarStaysOnItsBranchThroughEverySingularCrossing) {
  // 10 s: the reference turns 4.6 times (θ from π/2 to −30.03 rad), crossing the
  // all-bars-collinear configuration 9 times. The benchmark's precision: 1e-3 m.
  for (int n : {1, 2, 40}) {
    const NFourBarRun run = run_n_four_bar(n, 0.01, 10.0);
    EXPECT_LT(run.tip_error, 1e-3) << "N = " << n;
    EXPECT_LT(run.branch, 1e-4) << "N = " << n;  // every crank at crank 0's angle
    EXPECT_LT(run.residual, 1e-8) << "N = " << n;  // Newton stops at ‖δ‖∞ ≤ 1e-10 per coordinate
    EXPECT_NEAR(run.final_angle, run.reference_angle, 1e-3) << "N = " << n;
  }
}

TEST(AugmentedLagrangianTrapezoidal, ConvergesAsTheStepShrinks) {
  // Second order: error at h = 2.5 ms well below that at 10 ms (the trapezoidal rule).
  const double coarse = run_n_four_bar(2, 0.01, 3.0).tip_error, fine = run_n_four_bar(2, 0.0025, 3.0).tip_error;
  EXPECT_LT(fine, 0.2 * coarse) << coarse << " → " << fine;
}

TEST(AugmentedLagrangianTrapezoidal, ConservesEnergyOnASpatialOverconstrainedMechanism) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  Data data(model);
  VecX q = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
  assemble(model, data, q);
  VecX v = 0.5 * VecX::Random(model.nv);
  project_velocities(model, data, q, v);
  const double start = kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
  AugmentedLagrangianTrapezoidal integrator(model, nullptr);
  integrator.initialize(0.0, q, v);
  const double h = 1e-3;
  double worst = 0.0, residual = 0.0;
  for (int k = 0; k < 500; ++k) {
    integrator.step(k * h, h, q, v);
    worst = std::max(worst, std::abs(kinetic_energy(model, data, q, v) + potential_energy(model, data, q) - start));
    loop_closure(model, data, q);
    residual = std::max(residual, data.loop_residual.lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(worst, 1e-3 * (1.0 + std::abs(start)));
  EXPECT_LT(residual, 1e-9);
}

// The IFToMM spatial slider-crank: the rod hangs on the 6 rad/s crank by a spherical joint,
// whose velocity coordinates are world components of a parent-frame rate. Against RK4 at
// 0.1 ms with projection (range-space dynamics, an independent path), 1 s: second-order
// convergence and 1e-3 m at h = 1 ms. The trapezoidal rule applied to the world
// components (before the parent-frame treatment) was first order there: 4.9e-2 m at 1 ms
// over 5 s.
TEST(AugmentedLagrangianTrapezoidal, SphericalJointOnARotatingParentIsSecondOrder) {
  const Model model = testing::example_model("iftomm_spatial_slider_crank.yaml");
  VecX q0 = model.initial_configuration;
  VecX v0(model.nv);
  v0 << 6, -4.08, -0.96, 0.48, 0.24;  // examples/scenarios/iftomm_spatial_slider_crank.yaml
  Data data(model), dynamics(model);
  assemble(model, data, q0);
  project_velocities(model, data, q0, v0);
  const VecX tau = VecX::Zero(model.nv);
  VecX q = q0, v = v0;
  Rk4Integrator rk4(model, [&](double, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                               Eigen::Ref<VecX> a) { a = constrained_forward_dynamics(model, dynamics, qq, vv, tau); });
  for (int k = 0; k < 10000; ++k) {
    rk4.step(k * 1e-4, 1e-4, q, v);
    project_positions(model, data, q);
    project_velocities(model, data, q, v);
  }
  const int slider = model.joints[model.num_bodies() - 1].q_index;  // the slider's displacement (last body)
  auto error_at = [&](double h) {
    VecX qa = q0, va = v0;
    AugmentedLagrangianTrapezoidal integrator(model, nullptr);
    integrator.initialize(0.0, qa, va);
    for (long k = 0; k < std::lround(1.0 / h); ++k) integrator.step(k * h, h, qa, va);
    return std::abs(qa[slider] - q[slider]);
  };
  const double coarse = error_at(0.002), fine = error_at(0.001);
  EXPECT_LT(fine, 1e-3);
  EXPECT_LT(fine, 0.4 * coarse) << coarse << " → " << fine;
}

// Error control: the N-four-bar (N = 2, 10 s) with rtol 1e-4 and 1e-6 against its exact
// one-DOF motion: the error falls with the tolerance, stays on the branch, and the tighter
// run takes more steps; the controller lands on every requested time.
TEST(AugmentedLagrangianTrapezoidal, ErrorControlFollowsTheTolerance) {
  const Model model = testing::n_four_bar(2);
  auto run = [&](double rtol, int& steps) {
    VecX q, v;
    testing::n_four_bar_start(model, q, v);
    AugmentedLagrangianTrapezoidalOptions options;
    options.adaptive = true;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = 1e-2 * rtol;
    options.max_step = 0.05;
    AugmentedLagrangianTrapezoidal integrator(model, nullptr, options);
    integrator.initialize(0.0, q, v);
    testing::NFourBarReference reference(2);
    double error = 0.0, branch = 0.0;
    for (int k = 0; k < 100; ++k) {  // output every 0.1 s
      integrator.advance(0.1 * k, 0.1 * (k + 1), q, v);
      reference.advance(0.1);
      error = std::max(error, std::hypot(std::cos(q[0]) - std::cos(reference.angle()),
                                         std::sin(q[0]) - std::sin(reference.angle())));
      for (int b = 2; b < model.num_bodies(); b += 2)
        branch = std::max(branch, std::abs(std::remainder(q[model.joints[b].q_index] - q[0], 2 * M_PI)));
    }
    EXPECT_LT(branch, 1e-6) << "rtol " << rtol;
    steps = integrator.steps();
    return error;
  };
  int loose_steps = 0, tight_steps = 0;
  const double loose = run(1e-4, loose_steps), tight = run(1e-6, tight_steps);
  std::printf("rtol 1e-4: error %.3g m in %d steps; rtol 1e-6: %.3g m in %d steps\n", loose, loose_steps, tight,
              tight_steps);
  EXPECT_LT(tight, 1e-3);
  EXPECT_LT(tight, 0.2 * loose) << loose << " → " << tight;
  EXPECT_GT(tight_steps, loose_steps);
}

TEST(AugmentedLagrangianTrapezoidal, StepsAndEvaluatesWithoutAllocating) {
  const Model model = testing::n_four_bar(5);
  VecX q, v;
  testing::n_four_bar_start(model, q, v);
  Eigen::internal::set_is_malloc_allowed(true);
  AugmentedLagrangianTrapezoidal integrator(model, nullptr);
  integrator.initialize(0.0, q, v);
  integrator.step(0.0, 0.01, q, v);
  AugmentedLagrangianDynamics dynamics(model);
  Data data(model);
  const VecX tau = VecX::Zero(model.nv);
  dynamics.evaluate(model, data, q, v, tau);
  EXPECT_LE(testing::allocations_during([&] {
              for (int k = 1; k < 20; ++k) integrator.step(0.01 * k, 0.01, q, v);
            }),
            0);
  EXPECT_LE(testing::allocations_during([&] { dynamics.evaluate(model, data, q, v, tau); }), 0);
}

}  // namespace
}  // namespace mechdyn
