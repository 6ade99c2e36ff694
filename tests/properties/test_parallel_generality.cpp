// The three inverse-dynamics methods on other parallel mechanisms than the papers' two
// (tests/support/parallel_mechanisms.hpp, built by the mobility tests): a Gough–Stewart
// 6-UPS (6 degrees of freedom, six U–P–S legs), Tsai's translational 3-UPU, and a planar
// 3-RRR closed by planar-revolute cut joints (not a limb type: Newton–Euler and closed chain
// only) and by spatial revolute cut joints (6 redundant closure rows: passive
// over-constraint; momentum screw too, its limbs being R–R–R chains). Catches a momentum-screw method or limb kinematics written for the
// Schoenflies layout only, and a redundancy treatment that lets the efforts depend on the
// method.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

struct Result {
  std::vector<VecX> effort;
  std::vector<AlignedVector<Vec6>> wrench;
};

Result run(const Model& model, const MotionInverseDynamicsModel& problem, const testing::Motion& motion,
           InverseDynamicsMethod method) {
  MotionInverseDynamicsData work(model, problem);
  MotionInverseDynamicsOptions options;
  options.method = method;
  Result r;
  for (int k = 0; k <= 40; ++k) {
    motion_inverse_dynamics(model, problem, work, motion.at(0.025 * k), options);
    r.effort.push_back(work.effort);
    r.wrench.push_back(work.joint_wrench);
    EXPECT_LE(std::abs(work.power_residual), 1e-10 * (1.0 + work.power_scale)) << model.name;
  }
  return r;
}

double effort_difference(const Result& a, const Result& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < a.effort.size(); ++k)
    worst = std::max(worst, (a.effort[k] - b.effort[k]).norm() / (1.0 + b.effort[k].norm()));
  return worst;
}

double wrench_difference(const Result& a, const Result& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < a.wrench.size(); ++k) {
    double scale = 1.0;
    for (const Vec6& w : b.wrench[k]) scale = std::max(scale, w.norm());
    for (std::size_t j = 0; j < a.wrench[k].size(); ++j)
      worst = std::max(worst, (a.wrench[k][j] - b.wrench[k][j]).norm() / scale);
  }
  return worst;
}

// The body frame pose at q = 0 (the builders' models are assembled there).
testing::Motion around_start(const Model& model, int body) {
  testing::Motion m;
  Vec3 origin = Vec3::Zero();
  for (int b = body; b != kGround; b = model.bodies[b].parent) origin += model.joints[b].origin;
  m.origin = origin;
  return m;
}

TEST(ParallelGenerality, StewartAndTsaiThreeMethodsAgree) {
  struct Case {
    Model model;
    Vec3 amplitude, angle_amplitude;
  };
  const Case cases[] = {
      {testing::stewart_6ups(), Vec3(0.05, 0.04, 0.03), Vec3(0.05, 0.04, 0.06)},
      {testing::tsai_3upu(), Vec3(0.05, 0.04, 0.03), Vec3::Zero()},  // translational
  };
  for (const Case& c : cases) {
    const int platform = *c.model.body_index("platform");
    const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(c.model, platform);
    ASSERT_TRUE(problem.parallel) << c.model.name << ": " << problem.parallel_problem;
    testing::Motion motion = around_start(c.model, platform);
    motion.amplitude = c.amplitude;
    motion.frequency = Vec3(2.0, 3.0, 1.5);
    motion.angle_amplitude = c.angle_amplitude;
    motion.angle_frequency = Vec3(1.7, 2.3, 1.1);
    const Result ms = run(c.model, problem, motion, InverseDynamicsMethod::MomentumScrew);
    const Result ne = run(c.model, problem, motion, InverseDynamicsMethod::NewtonEuler);
    const Result cc = run(c.model, problem, motion, InverseDynamicsMethod::ClosedChain);
    EXPECT_LE(effort_difference(ms, ne), 1e-9) << c.model.name;
    EXPECT_LE(effort_difference(ms, cc), 1e-9) << c.model.name;
    EXPECT_LE(wrench_difference(ms, ne), 1e-9) << c.model.name;
    EXPECT_LE(wrench_difference(ms, cc), 1e-9) << c.model.name;
  }
}

// Planar 3-RRR, platform moving in its plane (x, y, rotation about z). With planar-revolute
// cuts the closure has no redundant row: efforts and joint wrenches agree. With spatial
// revolute cuts, 6 closure rows are redundant (the out-of-plane forces and moments of the
// three loops are statically indeterminate): the efforts still agree, the joint wrenches
// are each method's own minimum-norm choice (docs/parallel-manipulators.md, "Redundancy").
TEST(ParallelGenerality, PlanarThreeRrrNewtonEulerAndClosedChainAgree) {
  for (LoopType cut : {LoopType::PlanarRevolute, LoopType::Revolute}) {
    const Model model = testing::planar_3rrr(cut);
    const int platform = *model.body_index("platform");
    const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform);
    // limbs of revolute joints: a parallel manipulator with spatial revolute cuts; the
    // planar-revolute cut is not a joint a limb can end with
    EXPECT_EQ(problem.parallel.has_value(), cut == LoopType::Revolute);
    testing::Motion motion = around_start(model, platform);
    motion.amplitude = Vec3(0.02, 0.015, 0.0);
    motion.frequency = Vec3(2.0, 3.0, 1.0);
    motion.angle_amplitude = Vec3(0.0, 0.0, 0.05);
    motion.angle_frequency = Vec3(1.0, 1.0, 1.3);
    const Result ne = run(model, problem, motion, InverseDynamicsMethod::NewtonEuler);
    const Result cc = run(model, problem, motion, InverseDynamicsMethod::ClosedChain);
    EXPECT_LE(effort_difference(ne, cc), 1e-9) << loop_type_name(cut);
    if (cut == LoopType::PlanarRevolute) EXPECT_LE(wrench_difference(ne, cc), 1e-9);
    if (problem.parallel) {  // momentum screw with Newton positions (no closed form for R–R legs)
      const Result ms = run(model, problem, motion, InverseDynamicsMethod::MomentumScrew);
      EXPECT_LE(effort_difference(ms, ne), 1e-9);
    }
  }
}

}  // namespace
}  // namespace mechdyn
