// The two parallel-manipulator examples against the papers' numbers: geometry recomputed
// here from the angles and radii of the issue/tables (independently of the generator
// script), the start pose closing exactly, and the joint values of 3UPS-UPU-S at t = 0
// against screw-kinematics-3UPS-UPU-S Table 2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

Vec3 on_circle(double radius, double degrees, double z = 0.0) {
  return Vec3(radius * std::cos(degrees * kPi / 180), radius * std::sin(degrees * kPi / 180), z);
}

// Table 1 of the Schoenflies paper with the angles (mirrored platform numbering).
// Catches a wrong base or platform point, a limb type swapped, a wrong mass.
TEST(ParallelExamples, SchoenfliesGeometryIsTable1) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  Data data(model);
  const VecX q = VecX::Zero(model.nq);
  forward_kinematics(model, data, q);
  loop_closure(model, data, q);
  EXPECT_LE(data.loop_residual.lpNorm<Eigen::Infinity>(), 1e-15);  // the start pose closes exactly
  const double base[4] = {-45, 45, 135, 225}, platform[4] = {45, -45, -135, 135};
  const Vec3 centre(0.0, 0.3, 1.0);  // O_M at t = 0
  for (int i = 0; i < 4; ++i) {
    const int lower = *model.body_index("lower" + std::to_string(i + 1));
    const int upper = *model.body_index("upper" + std::to_string(i + 1));
    EXPECT_LE((data.position[lower] - on_circle(0.707, base[i])).norm(), 1e-15);
    EXPECT_LE((data.position[upper] - (centre + on_circle(0.212, platform[i]))).norm(), 1e-15);  // leg end at C_i
    const Vec3 leg = (data.position[upper] - data.position[lower]).normalized();
    EXPECT_NEAR((data.com_position[lower] - data.position[lower]).dot(leg), 0.3, 1e-15);
    EXPECT_NEAR((data.position[upper] - data.com_position[upper]).dot(leg), 0.35, 1e-15);
    EXPECT_NEAR(leg.dot(data.inertia_world[lower] * leg), 0.000097, 1e-15);
    EXPECT_DOUBLE_EQ(model.bodies[lower].mass, 0.367);
    EXPECT_TRUE(model.joints[upper].actuated);
    EXPECT_FALSE(model.joints[lower].actuated);
  }
  const int p = *model.body_index("platform");
  EXPECT_LE((data.com_position[p] - centre).norm(), 1e-15);
  EXPECT_DOUBLE_EQ(model.bodies[p].mass, 4.196);
  EXPECT_DOUBLE_EQ(data.inertia_world[p](2, 2), 0.0713);
  EXPECT_EQ(model.loops.size(), 3u);  // limbs 2, 3 spherical, 4 universal; limb 1 carries the platform
}

// Table 2 (joint values at t = 0): θ₁ = 0, θ₂ = −π/6, p₃ = 0.3 m for every chain, found by
// the inverse kinematics from the platform at rest. Catches a wrong base layout, a wrong
// leg length, a wrong branch.
TEST(ParallelExamples, ThreeUpsStartPoseReproducesTable2) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  MotionInverseDynamicsData work(model, problem);
  assemble_for_twist(model, problem, work);
  for (int k = 1; k <= 4; ++k) {
    const Joint& u = model.joints[*model.body_index("lower" + std::to_string(k))];
    const Joint& p = model.joints[*model.body_index("upper" + std::to_string(k))];
    const double theta1 = work.q[u.q_index], theta2 = work.q[u.q_index + 1], p3 = 0.3 + work.q[p.q_index];
    std::printf("chain %d: theta1 = %.17g, theta2 = %.17g (-pi/6 = %.17g), p3 = %.17g\n", k, theta1, theta2, -kPi / 6, p3);
    EXPECT_NEAR(theta1, 0.0, 1e-12);
    EXPECT_NEAR(theta2, -kPi / 6, 1e-12);
    EXPECT_NEAR(p3, 0.3, 1e-12);
    // The platform-side joint: the platform turns relative to the leg by +π/6 about the
    // tangential axis (Table 2 prints θ₅ = −π/3 = π/6 − π/2: a different zero reference).
    Data data(model);
    forward_kinematics(model, data, work.q);
    const Mat3 relative = data.rotation[*model.body_index("upper" + std::to_string(k))].transpose() *
                          data.rotation[*model.body_index("platform")];
    const Vec3 tangential = u.second_axis;
    EXPECT_LE((relative - axis_angle_rotation(tangential, kPi / 6)).norm(), 1e-12);
  }
  const int platform = *model.body_index("platform");
  EXPECT_NEAR(std::abs(work.q[model.joints[platform].q_index]), 1.0, 1e-12);  // the platform stays at rest
}

// The paper's printed trajectory (eqs. 59–60) has ω_z = 0; the closure of the UPU chain
// forbids that away from the start pose: with ω_x, ω_y prescribed, ω_z follows and is
// not zero. Catches a closure that does not constrain the platform's rotation about z.
TEST(ParallelExamples, ThreeUpsClosureMakesOmegaZNonzero) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  const int platform = *model.body_index("platform");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform);
  MotionInverseDynamicsData work(model, problem);
  const TwistPrescription prescription = testing::three_ups_prescription();
  assemble_for_twist(model, problem, work);
  double largest = 0.0, at_start = 0.0;
  for (int k = 0; k <= 500; ++k) {
    const double t = 0.01 * k;
    if (k > 0) advance_twist(model, problem, work, prescription, t - 0.01, 0.01);
    motion_inverse_dynamics(model, problem, work, prescription, t);
    const double wz = work.v[model.joints[platform].v_index + 2];
    if (k == 0) at_start = wz;
    largest = std::max(largest, std::abs(wz));
  }
  std::printf("omega_z: %.3g rad/s at t = 0, largest |omega_z| over 0-5 s %.3g rad/s\n", at_start, largest);
  EXPECT_LE(std::abs(at_start), 1e-12);  // at the start pose the UPU constraint is a force along y: no ω_z
  EXPECT_GT(largest, 1e-4);
}

// SK eq. (9): the reciprocal screw of the UPU chain at t = 0 is a force along y; reciprocity
// with $₄ puts its line at x = R − L / sin θ = −0.4 m, z = 0 (eq. 9 prints R − L sin θ =
// 0.5 m). Catches a wrong limb constraint wrench (momentum-screw unknown x₅ / x₆).
TEST(ParallelExamples, ThreeUpsUpuReciprocalScrewIsAForceAlongYAtMinus04) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  MotionInverseDynamicsData work(model, problem);
  assemble_for_twist(model, problem, work);
  motion_inverse_dynamics(model, problem, work, testing::three_ups_prescription(), 0.0);
  bool found = false;
  for (std::size_t i = 0; i < problem.parallel->limbs.size(); ++i) {
    if (problem.parallel->limbs[i].name != "U1") continue;
    found = true;
    const LimbScrews& n = work.limbs->limbs[i].constraint;
    ASSERT_EQ(n.cols(), 1);
    Vec6 w = n.col(0) / n(4, 0);  // [m; f] with f_y = 1
    const double x = w[2];        // m = r × f = (−r_z, 0, r_x) for f = (0, 1, 0)
    EXPECT_LE((w - (Vec6() << 0, 0, x, 0, 1, 0).finished()).norm(), 1e-12);
    EXPECT_NEAR(x, 0.8 - 0.6 / std::sin(kPi / 6), 1e-12);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace mechdyn
