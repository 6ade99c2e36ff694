// Kinematics of points on a deformed beam (flexible/beam_point.hpp) and the rotation-vector
// helpers (math/rotation_vector.hpp), against finite differences and definitions.
#include <gtest/gtest.h>

#include <random>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/flexible_body.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {
namespace {

// Catches: a non-orthogonal exp, a wrong left Jacobian (right Jacobian instead: the sign of
// the c1 term), a wrong J̇ θ̇, the small-angle series and the closed forms disagreeing at
// their switch (a = 0.1). Λ̇ Λᵀ = (J θ̇)~ and d/dt (J θ̇) at θ̈ = 0, by central differences.
TEST(RotationVector, ExpJacobianAndRateAgreeWithFiniteDifferences) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double size : {1e-7, 1e-3, 0.0999, 0.1001, 0.7, 2.5}) {
    const Vec3 theta = size * Vec3(u(rng), u(rng), u(rng)).normalized();
    const Vec3 rate(u(rng), u(rng), u(rng));
    const Mat3 r = rotation_vector_exp(theta);
    EXPECT_LT((r.transpose() * r - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(r.determinant(), 1.0, 1e-14);
    EXPECT_LT((r * theta - theta).norm(), 1e-14 * std::max(1.0, size)) << "θ is the axis";
    const double h = 1e-6;
    const Mat3 r_dot = (rotation_vector_exp(theta + h * rate) - rotation_vector_exp(theta - h * rate)) / (2 * h);
    const Mat3 w = r_dot * r.transpose();
    const Vec3 omega(w(2, 1), w(0, 2), w(1, 0));
    EXPECT_LT((omega - rotation_vector_jacobian(theta) * rate).norm(), 1e-8) << "size " << size;
    const Vec3 j_rate = (rotation_vector_jacobian(theta + h * rate) * rate -
                         rotation_vector_jacobian(theta - h * rate) * rate) / (2 * h);
    EXPECT_LT((j_rate - rotation_vector_jacobian_rate(theta, rate)).norm(), 1e-8) << "size " << size;
  }
}

FlexibleBody test_body(int modes) {
  FlexibleBeam b;
  b.direction = Vec3(1, 2, 2) / 3.0;
  b.section_y = Vec3(2, 1, -2) / 3.0;
  b.length = 0.8;
  b.elements = 3;
  b.section = circle_section(0.01);
  b.material = {71.7e9, 71.7e9 / 2.6, 2700.0};
  b.modes = modes;
  return make_flexible_body(b);
}

class BeamPointTest : public ::testing::TestWithParam<int> {};

// Catches: a position Jacobian that is not ∂p̄/∂e (an off-axis offset not rotated with the
// section, the rotation Jacobian missing J(θ)), a wrong velocity-product term b, the foot
// of an off-axis point in the wrong element. Central differences along e(t) = e + t ė + ½ t² ë.
TEST_P(BeamPointTest, JacobiansAndVelocityProductAgreeWithFiniteDifferences) {
  const FlexibleBody body = test_body(GetParam());
  const int ne = body.num_elastic;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  const Vec3& d = body.beam.direction;
  const Vec3 y = body.beam.section_y, z = body.beam.section_z();
  for (const Vec3& point : {Vec3(0.8 * d), Vec3(0.41 * d), Vec3(0.55 * d + 0.03 * y - 0.02 * z),
                            Vec3(0.8 * d + 0.05 * z), Vec3(0.0 * d + 0.04 * y)}) {
    const BeamPoint p = make_beam_point(body, point);
    VecX e(ne), e_rate(ne), e_acc(ne);
    // Sizes: θ up to ~0.3 rad, rates ω_rel ~ 1 rad/s, so that the differences' O(h²) errors
    // stay below the tolerances.
    for (int i = 0; i < ne; ++i) e(i) = 0.05 * u(rng), e_rate(i) = 0.02 * u(rng), e_acc(i) = 0.02 * u(rng);
    BeamPointKinematics k(body), other(body);
    beam_point_kinematics(body, p, e, k);
    beam_point_velocity_product(body, p, e_rate, k);
    EXPECT_LT((k.rotation - rotation_vector_exp(k.rotation_vector)).norm(), 1e-15);
    // The undeformed point is where it was given.
    beam_point_kinematics(body, p, VecX::Zero(ne), other);
    EXPECT_LT((other.position - point).norm(), 1e-15);
    EXPECT_EQ(p.on_axis, (point - d.dot(point) * d).norm() < 1e-9);

    const double h = 1e-5;
    const auto state = [&](double t) { return VecX(e + t * e_rate + 0.5 * t * t * e_acc); };
    Vec3 positions[3];
    Mat3 rotations[3];
    for (int i = 0; i < 3; ++i) {
      beam_point_kinematics(body, p, state((i - 1) * h), other);
      positions[i] = other.position;
      rotations[i] = other.rotation;
    }
    const Vec3 velocity = (positions[2] - positions[0]) / (2 * h);
    const Vec3 acceleration = (positions[2] - 2 * positions[1] + positions[0]) / (h * h);
    const Mat3 w = (rotations[2] - rotations[0]) / (2 * h) * rotations[1].transpose();
    const Vec3 angular(w(2, 1), w(0, 2), w(1, 0));
    EXPECT_LT((velocity - k.position_jacobian * e_rate).norm(), 1e-7) << "point " << point.transpose();
    EXPECT_LT((angular - k.rotation_jacobian * e_rate).norm(), 1e-7) << "point " << point.transpose();
    EXPECT_LT((acceleration - (k.position_jacobian * e_acc + k.position_bias)).norm(), 1e-4)
        << "point " << point.transpose();
    // Angular acceleration: d/dt (J_θ(e) ė) along the path.
    BeamPointKinematics plus(body), minus(body);
    beam_point_kinematics(body, p, state(h), plus);
    beam_point_kinematics(body, p, state(-h), minus);
    const Vec3 angular_acceleration =
        (plus.rotation_jacobian * (e_rate + h * e_acc) - minus.rotation_jacobian * (e_rate - h * e_acc)) / (2 * h);
    EXPECT_LT((angular_acceleration - (k.rotation_jacobian * e_acc + k.rotation_bias)).norm(), 1e-6);
  }
}

INSTANTIATE_TEST_SUITE_P(Coordinates, BeamPointTest, ::testing::Values(0, 7));

// Catches: points beyond the beam accepted, or points at the very ends refused (the
// contract's 1e-9 m tolerance).
TEST(BeamPoint, PointsBeyondTheBeamAreRefused) {
  const FlexibleBody body = test_body(0);
  const Vec3& d = body.beam.direction;
  EXPECT_NO_THROW(make_beam_point(body, (0.8 + 0.5e-9) * d));
  EXPECT_NO_THROW(make_beam_point(body, -0.5e-9 * d));
  EXPECT_THROW(make_beam_point(body, 0.81 * d), ModelError);
  EXPECT_THROW(make_beam_point(body, -0.01 * d + 0.1 * body.beam.section_y), ModelError);
  const BeamPoint end = make_beam_point(body, 0.8 * d);
  EXPECT_EQ(end.element, 2);
  EXPECT_DOUBLE_EQ(end.xi, 1.0);
}

}  // namespace
}  // namespace mechdyn
