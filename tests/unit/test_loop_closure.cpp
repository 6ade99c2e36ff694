// Loop closure: the Jacobian must be the exact time derivative of the residual.
// Catches: a wrong sign between the a- and b-chains, a missing frame-rotation term in
// the revolute/prismatic/planar/universal/fixed rows, or rows shifted between loops.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mechdyn
