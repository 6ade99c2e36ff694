// Inverse dynamics along a prescribed platform motion: the three methods (momentum screw,
// Newton–Euler with every joint wrench, closed-chain multipliers) must agree, every body's
// Newton–Euler equation must hold with the computed joint wrenches, and the power balance
// must close — on the two case studies of the papers (examples/models/).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/parallel/limb_positions.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"

namespace mechdyn {
namespace {

using testing::example_model;

struct Trajectory {
  std::vector<VecX> q, v, a, effort;
  std::vector<AlignedVector<Vec6>> wrench;
  std::vector<double> power, scale;
  std::vector<MatX> internal;
};

double relative(const VecX& x, const VecX& y) { return (x - y).norm() / (1.0 + y.norm()); }

Trajectory schoenflies_run(InverseDynamicsMethod method, double step, double duration,
                    const std::vector<ExternalWrench>& wrenches = {}) {
  static const Model model = example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem =
      make_motion_inverse_dynamics(model, *model.body_index("platform"), wrenches);
  MotionInverseDynamicsData work(model, problem);
  MotionInverseDynamicsOptions options;
  options.method = method;
  Trajectory run;
  for (const BodyMotionSample& s : testing::schoenflies_trajectory(duration, step)) {
    motion_inverse_dynamics(model, problem, work, s, options);
    run.q.push_back(work.q);
    run.v.push_back(work.v);
    run.a.push_back(work.a);
    run.effort.push_back(work.effort);
    run.wrench.push_back(work.joint_wrench);
    run.power.push_back(work.power_residual);
    run.scale.push_back(work.power_scale);
    run.internal.push_back(work.internal_force_basis.leftCols(work.internal_force_dimension));
  }
  return run;
}

double max_difference(const Trajectory& x, const Trajectory& y) {
  double worst = 0.0;
  for (std::size_t k = 0; k < x.q.size(); ++k) {
    worst = std::max(worst, relative(x.effort[k], y.effort[k]));
    worst = std::max(worst, relative(x.v[k], y.v[k]));
    worst = std::max(worst, relative(x.a[k], y.a[k]));
    worst = std::max(worst, relative(x.q[k], y.q[k]));
    double scale = 1.0;
    for (const Vec6& w : y.wrench[k]) scale = std::max(scale, w.norm());
    for (std::size_t j = 0; j < x.wrench[k].size(); ++j)
      worst = std::max(worst, (x.wrench[k][j] - y.wrench[k][j]).norm() / scale);
  }
  return worst;
}

// The three methods are three different algorithms (closed-form limb IK + screw-form
// rates + the momentum-screw platform system; Newton IK + every body's Newton–Euler
// equations with 54 joint-wrench unknowns; Newton IK + the tree's RNEA with cut-joint
// multipliers). Catches: a wrong Lie-bracket term (accelerations), a sign or reference
// point error in any wrench, a wrong limb dual basis, a wrong joint wrench basis.
TEST(ParallelInverseDynamics, SchoenfliesThreeMethodsAgree) {
  const Trajectory ms = schoenflies_run(InverseDynamicsMethod::MomentumScrew, 0.01, 6.0);
  const Trajectory ne = schoenflies_run(InverseDynamicsMethod::NewtonEuler, 0.01, 6.0);
  const Trajectory cc = schoenflies_run(InverseDynamicsMethod::ClosedChain, 0.01, 6.0);
  ASSERT_EQ(ms.q.size(), 601u);
  std::printf("max relative differences: MS/NE %.3g, MS/CC %.3g, NE/CC %.3g; efforts at t = 1 s: %.6f %.6f %.6f %.6f N\n",
              max_difference(ms, ne), max_difference(ms, cc), max_difference(ne, cc), ms.effort[100][2],
              ms.effort[100][5], ms.effort[100][8], ms.effort[100][11]);
  EXPECT_LE(max_difference(ms, ne), 1e-9);
  EXPECT_LE(max_difference(ms, cc), 1e-9);
  EXPECT_LE(max_difference(ne, cc), 1e-9);
  // Not redundant: 4 actuators, 4 degrees of freedom.
  for (const MatX& basis : ms.internal) EXPECT_EQ(basis.cols(), 0);
}

// The power of the efforts equals the rate of kinetic plus potential energy (ideal joints
// do no work). Catches efforts that balance forces but with inconsistent kinematics.
TEST(ParallelInverseDynamics, SchoenfliesPowerBalanceCloses) {
  for (InverseDynamicsMethod method : {InverseDynamicsMethod::MomentumScrew, InverseDynamicsMethod::NewtonEuler,
                                       InverseDynamicsMethod::ClosedChain}) {
    const Trajectory run = schoenflies_run(method, 0.05, 6.0);
    for (std::size_t k = 0; k < run.power.size(); ++k)
      EXPECT_LE(std::abs(run.power[k]), 1e-10 * (1.0 + run.scale[k])) << inverse_dynamics_method_name(method) << " " << k;
  }
}

// Free-body balance: for every body, Σ joint wrenches on it + gravity + external = dΓ/dt,
// from an independent evaluation of the body motion (forward kinematics at q, v, a).
// Catches a joint wrench of the right efforts but on the wrong body, with the wrong sign
// or about the wrong point.
void expect_free_body_balance(const Model& model, const MotionInverseDynamicsModel& problem,
                              MotionInverseDynamicsData& work) {
  Data check(model);
  forward_kinematics(model, check, work.q, work.v, work.a);
  const int n = model.num_bodies();
  AlignedVector<Vec6> net(static_cast<std::size_t>(n), Vec6::Zero());
  for (int b = 0; b < n; ++b) {
    net[b] += work.joint_wrench[b];
    const int parent = model.bodies[b].parent;
    if (parent != kGround) net[parent] -= work.joint_wrench[b];
  }
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Vec6& on_a = work.joint_wrench[static_cast<std::size_t>(n) + i];
    if (model.loops[i].a.body != kGround) net[model.loops[i].a.body] += on_a;
    if (model.loops[i].b.body != kGround) net[model.loops[i].b.body] -= on_a;
  }
  for (const ExternalWrench& w : problem.wrenches) {
    const Vec3 at = check.position[w.body] + check.rotation[w.body] * w.point;
    net[w.body].head<3>() += w.moment + at.cross(w.force);
    net[w.body].tail<3>() += w.force;
  }
  double scale = 1.0;
  for (const Vec6& w : work.joint_wrench) scale = std::max(scale, w.norm());
  for (int b = 0; b < n; ++b) {
    const Body& body = model.bodies[b];
    const Vec3 c = check.com_position[b];
    const Vec3 omega = check.velocity[b].head<3>(), alpha = check.acceleration[b].head<3>();
    const Vec3 vc = check.velocity[b].tail<3>() + omega.cross(c);
    const Vec3 ac = check.acceleration[b].tail<3>() + alpha.cross(c) + omega.cross(vc);
    const Mat3& inertia = check.inertia_world[b];
    const Vec3 force = body.mass * (ac - model.gravity);  // m (a_c − g) = Σ forces other than gravity
    const Vec3 moment_com = inertia * alpha + omega.cross(inertia * omega);
    const Vec3 force_net = net[b].tail<3>();
    const Vec3 moment_net_com = net[b].head<3>() - c.cross(force_net);  // about the centre of mass
    EXPECT_LE((force_net - force).norm(), 1e-9 * scale) << model.bodies[b].name;
    EXPECT_LE((moment_net_com - moment_com).norm(), 1e-9 * scale) << model.bodies[b].name;
  }
}

TEST(ParallelInverseDynamics, EveryBodyBalancesWithTheJointWrenches) {
  const Model model = example_model("schoenflies_2ups_2upu.yaml");
  std::vector<ExternalWrench> wrenches(1);
  wrenches[0].body = *model.body_index("platform");
  wrenches[0].force = Vec3(10.0, -20.0, 30.0);
  wrenches[0].moment = Vec3(1.0, 2.0, -3.0);
  wrenches[0].point = Vec3(0.05, 0.0, 0.02);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, wrenches[0].body, wrenches);
  for (InverseDynamicsMethod method : {InverseDynamicsMethod::MomentumScrew, InverseDynamicsMethod::NewtonEuler,
                                       InverseDynamicsMethod::ClosedChain}) {
    MotionInverseDynamicsData work(model, problem);
    MotionInverseDynamicsOptions options;
    options.method = method;
    for (double t : {0.0, 0.37, 1.9, 4.2}) {
      motion_inverse_dynamics(model, problem, work, testing::schoenflies_sample(t), options);
      SCOPED_TRACE(inverse_dynamics_method_name(method));
      expect_free_body_balance(model, problem, work);
    }
  }
}

// Screw-form limb rates against finite differences of the closed-form limb positions
// (central, h = 1e-5: error O(h²) ≈ 1e-9). Catches a wrong limb Jacobian or branch.
TEST(ParallelInverseDynamics, ScrewFormRatesMatchPositionDifferences) {
  const Model model = example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  ASSERT_TRUE(problem.parallel && problem.parallel->closed_form_positions);
  MotionInverseDynamicsData work(model, problem);
  const double t = 1.234, h = 1e-5;
  motion_inverse_dynamics(model, problem, work, testing::schoenflies_sample(t));
  const VecX q = work.q, v = work.v, a = work.a;
  VecX plus = q, minus = q;
  auto pose = [&](double time, VecX& out) {
    const BodyMotionSample s = testing::schoenflies_sample(time);
    limb_positions(model, *problem.parallel, s.position, s.orientation.toRotationMatrix(), out);
  };
  pose(t + h, plus);
  pose(t - h, minus);
  // every joint of this model has nq = nv (universal and prismatic joints, one weld)
  const VecX rate = (plus - minus) / (2 * h);
  const VecX second = (plus - 2 * q + minus) / (h * h);
  EXPECT_LE((rate - v).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_LE((second - a).lpNorm<Eigen::Infinity>(), 1e-3);  // O(h²) + round-off/h²
}

// 3UPS-UPU-S: only ω_x, ω_y prescribed; 4 actuators for 2 degrees of freedom, so two
// internal-force patterns and minimum-norm efforts. Catches: methods that fix the
// indeterminate part differently (e.g. the old minimum of (τ, λ) together), a wrong
// internal-force space, efforts with a component along the internal forces.
TEST(ParallelInverseDynamics, ThreeUpsRedundantMethodsAgreeOnMinimumNormEfforts) {
  const Model model = example_model("ups_3ups_upu_s.yaml");
  const int platform = *model.body_index("platform");
  std::vector<ExternalWrench> load(1);
  load[0].body = platform;
  load[0].force = Vec3(0.0, 0.0, 1000.0);
  load[0].moment = Vec3(1000.0, 0.0, 0.0);
  load[0].point = Vec3(0.0, 0.0, 3.0 * std::sqrt(3.0) / 10.0);
  const TwistPrescription prescription = testing::three_ups_prescription();
  for (const auto& wrenches : {std::vector<ExternalWrench>{}, load}) {
    const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform, wrenches);
    ASSERT_TRUE(problem.parallel) << problem.parallel_problem;
    std::vector<Trajectory> runs;
    for (InverseDynamicsMethod method : {InverseDynamicsMethod::MomentumScrew, InverseDynamicsMethod::NewtonEuler,
                                         InverseDynamicsMethod::ClosedChain}) {
      MotionInverseDynamicsData work(model, problem);
      MotionInverseDynamicsOptions options;
      options.method = method;
      assemble_for_twist(model, problem, work, options);
      Trajectory run;
      const double h = 0.02;
      for (int k = 0; k <= 100; ++k) {
        const double t = k * h;
        if (k > 0) advance_twist(model, problem, work, prescription, t - h, h, options);
        motion_inverse_dynamics(model, problem, work, prescription, t, options);
        run.q.push_back(work.q);
        run.v.push_back(work.v);
        run.a.push_back(work.a);
        run.effort.push_back(work.effort);
        run.wrench.push_back(work.joint_wrench);
        run.internal.push_back(work.internal_force_basis.leftCols(work.internal_force_dimension));
        EXPECT_LE(std::abs(work.power_residual), 1e-10 * (1.0 + work.power_scale));
        if (k % 25 == 0) expect_free_body_balance(model, problem, work);
      }
      runs.push_back(run);
    }
    std::printf("3UPS-UPU-S (%s load): max relative differences MS/NE %.3g, MS/CC %.3g\n",
                wrenches.empty() ? "without" : "with", max_difference(runs[0], runs[1]), max_difference(runs[0], runs[2]));
    EXPECT_LE(max_difference(runs[0], runs[1]), 1e-9);
    EXPECT_LE(max_difference(runs[0], runs[2]), 1e-9);
    for (std::size_t k = 0; k < runs[0].q.size(); ++k) {
      for (const Trajectory& run : runs) {
        ASSERT_EQ(run.internal[k].cols(), 2);
        // the efforts are orthogonal to the internal forces (minimum norm)
        VecX efforts(4);
        int c = 0;
        for (int i = 0; i < model.nv; ++i)
          if (run.effort[k][i] != 0.0 || model.joints[model.dof_body[i]].actuated) {
            if (model.joints[model.dof_body[i]].actuated) efforts[c++] = run.effort[k][i];
          }
        EXPECT_LE((run.internal[k].transpose() * efforts).norm(), 1e-9 * (1.0 + efforts.norm()));
      }
      // the same internal-force space from every method (projectors agree)
      const MatX p0 = runs[0].internal[k] * runs[0].internal[k].transpose();
      for (const Trajectory& run : runs)
        EXPECT_LE((run.internal[k] * run.internal[k].transpose() - p0).norm(), 1e-9);
    }
  }
}

}  // namespace
}  // namespace mechdyn
