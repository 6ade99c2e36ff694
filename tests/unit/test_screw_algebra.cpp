// Single-screw algebra (include/mechdyn/screw/): twists, wrenches, conversions, reciprocal
// product, change of reference point and frame, Lie bracket and its dual, pitch and axis.
// Every expected value is computed independently: explicit moments and point velocities,
// the matrix exponential of se(3) (Eigen's MatrixFunctions) for the adjoint action, and
// the closed-form axis of a screw built from its axis, point and pitch.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/screw/screw.hpp"

namespace mechdyn {
namespace {

Vec3 random_vector(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

Mat3 random_rotation(std::mt19937& rng) {
  return axis_angle_rotation(random_vector(rng).normalized(), std::uniform_real_distribution<double>(-3, 3)(rng));
}

// The rigid motion exp(ε [ω̃ v; 0 0]) by the 4 × 4 matrix exponential: independent of the
// closed forms in the library.
RigidTransform exponential(const Twist& twist, double epsilon) {
  Eigen::Matrix4d hat = Eigen::Matrix4d::Zero();
  hat.topLeftCorner<3, 3>() = skew(twist.angular()) * epsilon;
  hat.topRightCorner<3, 1>() = twist.linear() * epsilon;
  const Eigen::Matrix4d g = hat.exp();
  RigidTransform out;
  out.rotation = g.topLeftCorner<3, 3>();
  out.translation = g.topRightCorner<3, 1>();
  return out;
}

// Catches: a twist/wrench conversion that does not swap (or swaps) halves: mechdyn's force
// vectors are [m; f], wrenches (f; m); motion vectors and twists share [ω; v].
TEST(ScrewConversions, SpatialForceHalvesSwappedMotionKept) {
  const Vec3 force(1.0, -2.0, 0.5), point(0.3, 0.1, -0.7);
  Vec6 spatial_force;  // [moment about the origin; force], as in math/spatial.hpp
  spatial_force << point.cross(force), force;
  const Wrench wrench = Wrench::from_spatial_force(spatial_force);
  EXPECT_TRUE(wrench.force().isApprox(force));
  EXPECT_TRUE(wrench.moment().isApprox(point.cross(force)));
  EXPECT_TRUE(wrench.plucker.isApprox(Wrench::force_through(force, point).plucker));
  EXPECT_EQ(wrench.spatial_force(), spatial_force);
  Vec6 motion;
  motion << 0.1, 0.2, 0.3, 4.0, 5.0, 6.0;
  EXPECT_EQ(Twist::from_motion_vector(motion).plucker, motion);
  EXPECT_EQ(Twist::from_motion_vector(motion).motion_vector(), motion);
}

// Catches: a reciprocal product that pairs the wrong halves (ω·f + v·m) instead of the
// power ω·m + v·f. Reference: the power of a force at a point, f · v(point), plus the
// power of a couple, C · ω, with the point velocity from ω and one point's velocity.
TEST(ScrewReciprocalProduct, IsThePowerOfTheWrenchOnTheTwist) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 omega = random_vector(rng), anchor = random_vector(rng), anchor_velocity = random_vector(rng);
    // Body motion: v(p) = v_A + ω × (p − A); the twist carries v at the origin.
    const Twist twist(omega, Vec3(anchor_velocity + omega.cross(-anchor)));
    const Vec3 force = random_vector(rng), point = random_vector(rng), couple = random_vector(rng);
    const Wrench wrench = Wrench::force_through(force, point) + Wrench::couple(couple);
    const Vec3 point_velocity = anchor_velocity + omega.cross(point - anchor);
    const double power = force.dot(point_velocity) + couple.dot(omega);
    EXPECT_NEAR(reciprocal_product(twist, wrench), power, 1e-13);
    EXPECT_NEAR(reciprocal_product(wrench, twist), power, 1e-13);
    EXPECT_NEAR(reciprocal_product(twist.plucker, wrench.plucker), reciprocal_product(wrench.plucker, twist.plucker),
                1e-14);
  }
}

// Catches: a wrong sign or factor in the change of reference point. Reference: the moment
// about Q of a set of forces f_i at p_i plus a couple, Σ (p_i − Q) × f_i + C, computed
// term by term; the velocity of the body point at Q, v_A + ω × (Q − A).
TEST(ScrewReferencePoint, MatchesExplicitMomentAndPointVelocity) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 q = random_vector(rng, 2.0), couple = random_vector(rng);
    Wrench total = Wrench::couple(couple);
    Vec3 moment_about_q = couple;
    for (int i = 0; i < 4; ++i) {
      const Vec3 f = random_vector(rng), p = random_vector(rng, 2.0);
      total = total + Wrench::force_through(f, p);
      moment_about_q += (p - q).cross(f);
    }
    const Wrench shifted = shift_reference_point(total, q);
    EXPECT_TRUE(shifted.force().isApprox(total.force(), 1e-14));
    EXPECT_NEAR((shifted.moment() - moment_about_q).norm(), 0.0, 1e-13);

    const Vec3 omega = random_vector(rng), anchor = random_vector(rng), anchor_velocity = random_vector(rng);
    const Twist twist(omega, Vec3(anchor_velocity - omega.cross(anchor)));
    const Twist twist_at_q = shift_reference_point(twist, q);
    EXPECT_NEAR((twist_at_q.linear() - (anchor_velocity + omega.cross(q - anchor))).norm(), 0.0, 1e-13);
    // The power does not depend on the reference point.
    EXPECT_NEAR(reciprocal_product(twist_at_q, shifted), reciprocal_product(twist, total), 1e-12);
  }
}

// Catches: a frame change that forgets the translation term or applies R on the wrong
// side. Reference: a rotation about the line (u, p) seen from frame B is the rotation
// about the line (R u, R p + t) in A; a force through p likewise.
TEST(ScrewFrameChange, MapsLinesToTransformedLines) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    RigidTransform a_from_b;
    a_from_b.rotation = random_rotation(rng);
    a_from_b.translation = random_vector(rng, 2.0);
    const Vec3 u = random_vector(rng), p = random_vector(rng), f = random_vector(rng);
    const double pitch = 0.3;
    const Vec3 u_a = a_from_b.rotation * u, p_a = a_from_b.rotation * p + a_from_b.translation;
    const Twist in_b = Twist::screw_motion(u, p, pitch);
    EXPECT_NEAR((transform(a_from_b, in_b).plucker - Twist::screw_motion(u_a, p_a, pitch).plucker).norm(), 0, 1e-13);
    const Wrench load_b = Wrench::screw_load(f, p, -pitch);
    const Wrench load_a = transform(a_from_b, load_b);
    EXPECT_NEAR((load_a.plucker - Wrench::screw_load(a_from_b.rotation * f, p_a, -pitch).plucker).norm(), 0, 1e-13);
    // Inverse, matrix form, invariance of the power.
    EXPECT_NEAR((inverse_transform(a_from_b, transform(a_from_b, in_b)).plucker - in_b.plucker).norm(), 0, 1e-13);
    EXPECT_NEAR((inverse_transform(a_from_b, load_a).plucker - load_b.plucker).norm(), 0, 1e-13);
    EXPECT_NEAR((adjoint_matrix(a_from_b) * in_b.plucker - transform(a_from_b, in_b).plucker).norm(), 0, 1e-13);
    EXPECT_NEAR((adjoint_matrix(a_from_b) * load_b.plucker - load_a.plucker).norm(), 0, 1e-13);
    EXPECT_NEAR((transform(a_from_b.inverse(), load_a).plucker - load_b.plucker).norm(), 0, 1e-13);
    EXPECT_NEAR(reciprocal_product(transform(a_from_b, in_b), load_a), reciprocal_product(in_b, load_b), 1e-12);
  }
}

// Catches: a Lie bracket with a wrong sign or a swapped term (the screw-form acceleration
// of eq. 44 would be wrong). Reference: the central finite difference of the adjoint
// action, d/dε Ad_{exp(ε a)} b at ε = 0, with exp from the 4 × 4 matrix exponential.
TEST(ScrewLieBracket, IsTheDerivativeOfTheAdjointAction) {
  std::mt19937 rng(11);
  const double step = 1e-5;
  for (int trial = 0; trial < 20; ++trial) {
    const Twist a(random_vector(rng), random_vector(rng)), b(random_vector(rng), random_vector(rng));
    const Vec6 difference =
        (transform(exponential(a, step), b).plucker - transform(exponential(a, -step), b).plucker) / (2 * step);
    EXPECT_NEAR((lie_bracket(a, b).plucker - difference).norm(), 0.0, 1e-8) << "trial " << trial;
    // The paper's literal eq. (36): (ω₁ × ω₂; ω₁ × v₂ − ω₂ × v₁).
    const Vec3 literal = a.angular().cross(b.linear()) - b.angular().cross(a.linear());
    EXPECT_NEAR((lie_bracket(a, b).linear() - literal).norm(), 0.0, 1e-14);
    EXPECT_NEAR((lie_bracket_matrix(a) * b.plucker - lie_bracket(a, b).plucker).norm(), 0.0, 1e-14);
    // Antisymmetry.
    EXPECT_NEAR((lie_bracket(a, b).plucker + lie_bracket(b, a).plucker).norm(), 0.0, 1e-14);

    // The dual: a wrench fixed in a body moving with twist a changes at the rate a ×* W.
    const Wrench w(random_vector(rng), random_vector(rng));
    const Vec6 wrench_difference =
        (transform(exponential(a, step), w).plucker - transform(exponential(a, -step), w).plucker) / (2 * step);
    EXPECT_NEAR((dual_lie_bracket(a, w).plucker - wrench_difference).norm(), 0.0, 1e-8);
    EXPECT_NEAR((dual_lie_bracket_matrix(a) * w.plucker - dual_lie_bracket(a, w).plucker).norm(), 0.0, 1e-14);
    // Power invariance: ⟨[a, b], W⟩ = −⟨b, a ×* W⟩.
    EXPECT_NEAR(reciprocal_product(lie_bracket(a, b), w), -reciprocal_product(b, dual_lie_bracket(a, w)), 1e-12);
  }
}

// Catches: the screw-form acceleration of a serial chain missing or mis-signing the bracket
// term (screw-kinematics eq. 43). Two revolute joints: the twist of link 2 is
// V(t) = θ̇₁ $₁ + θ̇₂ $₂(t) with $₂(t) = Ad_{exp(θ₁ $₁)} $₂(0); its time derivative by
// central differences must equal θ̈₁ $₁ + θ̈₂ $₂ + [θ̇₁ $₁, θ̇₂ $₂].
TEST(ScrewLieBracket, GivesTheScrewFormAccelerationOfASerialChain) {
  const Twist s1 = Twist::rotation(Vec3(0, 0, 1), Vec3(0.2, 0.1, 0));
  const Twist s2_home = Twist::rotation(Vec3(1, 0, 0).normalized(), Vec3(0.5, 0.4, 0.3));
  auto theta1 = [](double t) { return 0.3 * std::sin(2 * t); };
  auto theta2 = [](double t) { return 0.5 * t * t; };
  auto twist_at = [&](double t) {
    const double h = 1e-7;
    const double rate1 = (theta1(t + h) - theta1(t - h)) / (2 * h), rate2 = (theta2(t + h) - theta2(t - h)) / (2 * h);
    const Twist s2 = transform(exponential(s1, theta1(t)), s2_home);
    return s1 * rate1 + s2 * rate2;
  };
  const double t = 0.7, dt = 1e-4;
  const Vec6 numeric = (twist_at(t + dt).plucker - twist_at(t - dt).plucker) / (2 * dt);
  const double rate1 = 0.6 * std::cos(2 * t), rate2 = t, accel1 = -1.2 * std::sin(2 * t), accel2 = 1.0;
  const Twist s2 = transform(exponential(s1, theta1(t)), s2_home);
  const Twist screw_form = s1 * accel1 + s2 * accel2 + lie_bracket(s1 * rate1, s2 * rate2);
  EXPECT_NEAR((screw_form.plucker - numeric).norm(), 0.0, 1e-6);
  // Without the bracket term the result is wrong by far more than the tolerance.
  EXPECT_GT(((s1 * accel1 + s2 * accel2).plucker - numeric).norm(), 1e-2);
}

// Catches: pitch/axis formulas off by a sign or a factor; the pure-couple (pure
// translation) case mistaken for a finite screw. Reference: screws built from a known
// axis direction, point and pitch; the axis point must be the point nearest the origin.
TEST(ScrewAxis, RecoversAxisPitchAndMagnitude) {
  const Vec3 direction = Vec3(1, 2, -2) / 3.0, point(0.4, -0.3, 0.2);
  const Vec3 nearest = point - point.dot(direction) * direction;
  // Pure force of 5 N: pitch 0.
  const ScrewAxis force_axis = screw_axis(Wrench::force_through(5.0 * direction, point));
  EXPECT_EQ(force_axis.kind, ScrewPitch::Finite);
  EXPECT_NEAR(force_axis.pitch, 0.0, 1e-15);
  EXPECT_NEAR(force_axis.magnitude, 5.0, 1e-14);
  EXPECT_NEAR((force_axis.direction - direction).norm(), 0.0, 1e-15);
  EXPECT_NEAR((force_axis.point - nearest).norm(), 0.0, 1e-15);
  // Pure couple of 2 N·m: infinite pitch, no position.
  const ScrewAxis couple_axis = screw_axis(Wrench::couple(-2.0 * direction));
  EXPECT_EQ(couple_axis.kind, ScrewPitch::Infinite);
  EXPECT_TRUE(std::isinf(couple_axis.pitch));
  EXPECT_NEAR(couple_axis.magnitude, 2.0, 1e-15);
  EXPECT_NEAR((couple_axis.direction + direction).norm(), 0.0, 1e-15);
  // Finite pitch 0.05 m: a force of 3 N with a couple of 0.15 N·m about the same line.
  const ScrewAxis load_axis = screw_axis(Wrench::screw_load(3.0 * direction, point, 0.05));
  EXPECT_NEAR(load_axis.pitch, 0.05, 1e-15);
  EXPECT_NEAR(load_axis.magnitude, 3.0, 1e-14);
  EXPECT_NEAR((load_axis.point - nearest).norm(), 0.0, 1e-15);
  // Twists: a helical motion of 0.1 m/rad at 2 rad/s; a pure translation of 0.7 m/s.
  const ScrewAxis helix = screw_axis(Twist::screw_motion(-2.0 * direction, point, 0.1));
  EXPECT_NEAR(helix.pitch, 0.1, 1e-15);
  EXPECT_NEAR(helix.magnitude, 2.0, 1e-14);
  EXPECT_NEAR((helix.direction + direction).norm(), 0.0, 1e-15);
  EXPECT_NEAR((helix.point - nearest).norm(), 0.0, 1e-15);
  const ScrewAxis slide = screw_axis(Twist::translation(0.7 * direction));
  EXPECT_EQ(slide.kind, ScrewPitch::Infinite);
  EXPECT_NEAR(slide.magnitude, 0.7, 1e-15);
  EXPECT_EQ(screw_axis(Twist()).kind, ScrewPitch::Zero);
}

// Catches: a zero decision that depends on the unit of length. A rotation of 1e-12 rad/s
// with 1 m/s is a pure translation on a 1 m mechanism, but the same numbers in a
// mechanism of 1e4 m (line part weighted by L) are a finite screw.
TEST(ScrewAxis, ZeroLinePartIsDecidedWithTheCharacteristicLength) {
  const Twist almost_translation(Vec3(0, 0, 1e-12), Vec3(1, 0, 0));
  EXPECT_EQ(screw_axis(almost_translation, kScrewTolerance, 1.0).kind, ScrewPitch::Infinite);
  EXPECT_EQ(screw_axis(almost_translation, kScrewTolerance, 1e4).kind, ScrewPitch::Finite);
  Vec6 bad = Vec6::Zero();
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(screw_axis(bad), InvalidArgument);
  EXPECT_THROW(screw_axis(almost_translation, kScrewTolerance, 0.0), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
