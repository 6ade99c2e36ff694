// Loop closure: the Jacobian must be the exact time derivative of the residual.
// Catches: a wrong sign between the a- and b-chains, a missing frame-rotation term in
// the revolute/prismatic/planar/universal/fixed rows, or rows shifted between loops.
#include <gtest/gtest.h>

#include <cmath>

#include "mechdyn/constraints/loop_closure.hpp"
#include "closed_chain_models.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

using testing::tree_with_every_loop_type;

TEST(LoopClosure, JacobianIsTheDerivativeOfTheResidual) {
  for (unsigned seed = 1; seed <= 15; ++seed) {
    const Model model = tree_with_every_loop_type(seed);
    ASSERT_EQ(model.num_loop_rows, 3 + 5 + 5 + 4 + 6 + 2);
    std::mt19937 rng(seed + 7);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    loop_closure(model, data, q);
    const double h = 1e-6;
    loop_closure(model, plus, testing::integrate_configuration(model, q, v, h));
    loop_closure(model, minus, testing::integrate_configuration(model, q, v, -h));
    const VecX fd = (plus.loop_residual - minus.loop_residual) / (2 * h);
    const VecX jv = data.loop_jacobian * v;
    for (Eigen::Index r = 0; r < fd.size(); ++r) EXPECT_NEAR(jv[r], fd[r], 1e-6) << "seed " << seed << " row " << r;
  }
}

TEST(LoopClosure, ResidualVanishesWhenTheCutJointIsAssembled) {
  // Two bodies hinged to ground; a spherical cut joint between coincident points.
  Model model;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = "B" + std::to_string(i);
    b.mass = 1.0;
    b.inertia = Mat3::Identity() * 0.01;
    Joint j;
    j.type = JointType::Revolute;
    j.axis = Vec3::UnitZ();
    j.origin = Vec3(i, 0, 0);
    model.bodies.push_back(b);
    model.joints.push_back(j);
  }
  Loop loop;
  loop.name = "C";
  loop.type = LoopType::Revolute;
  loop.a = {0, Vec3(0.5, 0, 0)};
  loop.b = {1, Vec3(-0.5, 0, 0)};
  model.loops.push_back(loop);
  finalize_model(model, "inline");
  Data data(model);
  loop_closure(model, data, VecX::Zero(2));
  EXPECT_LT(data.loop_residual.norm(), 1e-15);
  // Rotating one body breaks the point coincidence but not the z-axis alignment.
  loop_closure(model, data, Eigen::Vector2d(0.3, 0.0));
  EXPECT_GT(data.loop_residual.head<3>().norm(), 0.1);
  EXPECT_LT(data.loop_residual.tail<2>().norm(), 1e-15);
}

// The convention of docs/model-file.md (Checks, loops): a universal cut joint's axes[0]
// is carried by body a, axes[1] by body b, and its fourth row is (Q_a n1)·(Q_b n2) − n1·n2.
// Body a turns by θ about x, body b is welded to ground; n1 = z, n2 = y. With a carrying
// z: Rx(θ) z = (0, −sin θ, cos θ), so the row is −sin θ. Were the axes carried the other
// way round (a carrying y: Rx(θ) y = (0, cos θ, sin θ), dotted with z) it would be +sin θ.
// Catches: the axes swapped between the bodies in the rows, a writer or reader.
TEST(LoopClosure, UniversalCutJointsFirstAxisIsCarriedByBodyA) {
  Model model;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = i == 0 ? "a" : "b";
    b.mass = 1.0;
    b.inertia = Mat3::Identity() * 0.01;
    Joint j;
    j.name = b.name;
    j.type = i == 0 ? JointType::Revolute : JointType::Fixed;
    j.axis = Vec3::UnitX();
    model.bodies.push_back(b);
    model.joints.push_back(j);
  }
  Loop loop;
  loop.name = "U";
  loop.type = LoopType::Universal;
  loop.a = {0, Vec3::Zero()};
  loop.b = {1, Vec3::Zero()};
  loop.axis = Vec3::UnitZ();
  loop.second_axis = Vec3::UnitY();
  model.loops.push_back(loop);
  finalize_model(model, "universal_cut");
  Data data(model);
  for (const double theta : {0.3, -1.1, 2.0}) {
    loop_closure(model, data, VecX::Constant(1, theta));
    ASSERT_EQ(data.loop_residual.size(), 4);
    EXPECT_LT(data.loop_residual.head<3>().norm(), 1e-15) << theta;  // the points stay on the x axis
    EXPECT_NEAR(data.loop_residual[3], -std::sin(theta), 1e-15) << theta;
  }
}

}  // namespace
}  // namespace mechdyn
