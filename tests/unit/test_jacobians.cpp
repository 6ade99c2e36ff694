// Body and point Jacobians against finite differences of forward-kinematics poses.
// Catches: a column on the wrong coordinate, a missing ω × p lever arm, columns of
// joints that are not ancestors of the body, a wrong marker position.
#include <gtest/gtest.h>

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/errors.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

TEST(Jacobians, PointJacobianTimesVEqualsTheFiniteDifferenceVelocityOfThePoint) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Model model = testing::random_tree(seed, {10});
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const Vec3 point(0.1, -0.2, 0.3);
    Data data(model), plus(model), minus(model);
    forward_kinematics(model, data, q);
    const double h = 1e-6;
    forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h));
    forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h));
    MatX jacobian(3, model.nv), body(6, model.nv);
    for (int b = 0; b < model.num_bodies(); ++b) {
      point_jacobian(model, data, b, point, jacobian);
      const Vec3 fd = (point_position(plus, {b, point}) - point_position(minus, {b, point})) / (2 * h);
      EXPECT_LT((jacobian * v - fd).norm(), 1e-6) << "seed " << seed << " body " << b;
      // Body Jacobian: angular rows equal the rotation rate Ṙ Rᵀ; linear rows the origin's velocity.
      body_jacobian(model, data, b, body);
      const Mat3 w = ((plus.rotation[b] - minus.rotation[b]) / (2 * h)) * data.rotation[b].transpose();
      const Vec3 omega(0.5 * (w(2, 1) - w(1, 2)), 0.5 * (w(0, 2) - w(2, 0)), 0.5 * (w(1, 0) - w(0, 1)));
      EXPECT_LT((body.topRows<3>() * v - omega).norm(), 1e-6);
      EXPECT_LT((body.bottomRows<3>() * v - (plus.position[b] - minus.position[b]) / (2 * h)).norm(), 1e-6);
      // Columns of coordinates that do not move body b are zero.
      for (int k = 0; k < model.nv; ++k) {
        if (!model.is_ancestor_or_self(model.dof_body[k], b)) EXPECT_EQ(body.col(k).norm(), 0.0);
      }
    }
  }
}

TEST(Jacobians, MarkerPositionOfAPlanarArmTipMatchesTrigonometry) {
  // Two links of lengths 0.5 and 0.4 about z; tip at x = l1 cos q1 + l2 cos(q1 + q2).
  Model model;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = "L" + std::to_string(i + 1);
    b.parent = i == 0 ? kGround : 0;
    b.mass = 1.0;
    b.inertia = Mat3::Identity() * 0.01;
    Joint j;
    j.type = JointType::Revolute;
    j.axis = Vec3::UnitZ();
    j.origin = i == 0 ? Vec3::Zero() : Vec3(0.5, 0, 0);
    model.bodies.push_back(b);
    model.joints.push_back(j);
  }
  model.markers.push_back({"tip", {1, Vec3(0.4, 0, 0)}});
  finalize_model(model, "inline");
  Data data(model);
  const double q1 = 0.7, q2 = -1.1;
  forward_kinematics(model, data, Eigen::Vector2d(q1, q2));
  std::vector<Vec3> markers;
  marker_positions(model, data, markers);
  ASSERT_EQ(markers.size(), 1u);
  EXPECT_NEAR(markers[0].x(), 0.5 * std::cos(q1) + 0.4 * std::cos(q1 + q2), 1e-15);
  EXPECT_NEAR(markers[0].y(), 0.5 * std::sin(q1) + 0.4 * std::sin(q1 + q2), 1e-15);
  EXPECT_NEAR(markers[0].z(), 0.0, 1e-15);
}

TEST(Jacobians, WrongOutputSizeIsAnInvalidArgument) {
  const Model model = testing::random_tree(3, {4});
  Data data(model);
  MatX wrong(3, model.nv + 1);
  EXPECT_THROW(point_jacobian(model, data, 0, Vec3::Zero(), wrong), InvalidArgument);
  MatX ok(3, model.nv);
  EXPECT_THROW(point_jacobian(model, data, 99, Vec3::Zero(), ok), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
