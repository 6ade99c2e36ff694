// Free-body balance of the joint reactions: every body, cut free, obeys Newton–Euler
// under its joint's reaction, its children's joints' reactions (opposite) and gravity.
//
// The accelerations come from central differences of forward-kinematics velocities
// (v(t) = v + t a, q(t) advanced along v), independent of the code under test (which
// uses Ṡ q̇ and the analytic com acceleration). The tolerance (1e-6 relative) is set by
// the finite differences, not by the algorithm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct BodyRates {
  std::vector<Vec3> com_acceleration;        // a_c = d/dt (v_O + ω × c)
  std::vector<Vec3> angular_momentum_rate;   // d/dt (J_world ω), about the moving com
};

BodyRates rates_by_differences(const Model& model, const VecX& q, const VecX& v, const VecX& a, double step) {
  Data plus(model), minus(model);
  forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, step), v + step * a);
  forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -step), v - step * a);
  BodyRates out;
  for (int l = 0; l < model.num_bodies(); ++l) {
    auto com_velocity = [l](const Data& d) {
      return Vec3(d.velocity[l].tail<3>() + d.velocity[l].head<3>().cross(d.com_position[l]));
    };
    auto angular_momentum = [l](const Data& d) { return Vec3(d.inertia_world[l] * d.velocity[l].head<3>()); };
    out.com_acceleration.push_back((com_velocity(plus) - com_velocity(minus)) / (2 * step));
    out.angular_momentum_rate.push_back((angular_momentum(plus) - angular_momentum(minus)) / (2 * step));
  }
  return out;
}

// For every body l, with f, τ the reactions (parent on child, τ about the child's
// frame origin o):
//   m_l a_cl = f_l − Σ_{children c} f_c + m_l g
//   dL_l/dt  = τ_l + (o_l − c_l) × f_l − Σ_c [τ_c + (o_c − c_l) × f_c]
// Catches: reactions with the wrong sign (child on parent), torques about the com or the
// world origin instead of the joint, a subtree sum missing a child, a missing ω × J ω,
// a wrong centripetal/Coriolis com acceleration, gravity counted twice or not at all.
TEST(JointReactionsFreeBody, EveryBodyObeysNewtonEuler) {
  double worst_force = 0.0, worst_moment = 0.0;
  for (unsigned seed = 1; seed <= 30; ++seed) {
    const Model model = testing::random_tree(seed, {2 + static_cast<int>(seed % 25)});
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    joint_reactions(model, data, q, v, a);
    const BodyRates rates = rates_by_differences(model, q, v, a, 1e-5);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const double m = model.bodies[l].mass;
      const Vec3& c = data.com_position[l];
      const Vec3& f = data.reaction_force[l];
      Vec3 force = f + m * model.gravity;
      Vec3 moment = data.reaction_torque[l] + (data.position[l] - c).cross(f);
      double force_scale = f.norm() + m * model.gravity.norm() + m * rates.com_acceleration[l].norm();
      double moment_scale = data.reaction_torque[l].norm() + (data.position[l] - c).norm() * f.norm() +
                            rates.angular_momentum_rate[l].norm();
      for (const int child : model.children[l]) {
        const Vec3& fc = data.reaction_force[child];
        force -= fc;
        moment -= data.reaction_torque[child] + (data.position[child] - c).cross(fc);
        force_scale += fc.norm();
        moment_scale += data.reaction_torque[child].norm() + (data.position[child] - c).norm() * fc.norm();
      }
      const double force_error = (m * rates.com_acceleration[l] - force).norm() / force_scale;
      const double moment_error = (rates.angular_momentum_rate[l] - moment).norm() / moment_scale;
      worst_force = std::max(worst_force, force_error);
      worst_moment = std::max(worst_moment, moment_error);
      EXPECT_LT(force_error, 1e-6) << "seed " << seed << " body " << l;
      EXPECT_LT(moment_error, 1e-6) << "seed " << seed << " body " << l;
    }
  }
  std::printf("[ info ] max relative free-body residual: force %.3g, moment %.3g (FD-limited)\n", worst_force,
              worst_moment);
}

// A single link on a revolute joint with horizontal axis y, its centre of mass at
// d = (d, 0, 0) from the joint (the link horizontal at q = 0), at rest, g = (0, 0, −g).
// By hand: the joint carries the weight, f = −m g = (0, 0, m g); moments about the
// joint, τ + d × (m g) = 0 ⇒ τ = −m d × g = (0, −m g d, 0); the effort on the axis is
// n·τ = −m g d, the static holding torque (V = −m g d sin q ⇒ ∂V/∂q = −m g d at q = 0).
// Catches: a sign error (child on parent), the torque taken about the com or the world
// origin (the joint origin below is not at the world origin).
TEST(JointReactionsFreeBody, HorizontalLinkAtRestByHand) {
  const double m = 1.7, d = 0.45, g = 9.81;
  Model model;
  model.gravity = Vec3(0.0, 0.0, -g);
  model.bodies.push_back(Body{"link", kGround, m, Vec3(d, 0.0, 0.0), Vec3(0.01, 0.03, 0.03).asDiagonal()});
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.axis = Vec3::UnitY();
  hinge.origin = Vec3(0.3, -0.2, 1.1);
  model.joints.push_back(hinge);
  finalize_model(model, "horizontal_link");
  Data data(model);
  const VecX zero = VecX::Zero(1);
  joint_reactions(model, data, zero, zero, zero);
  EXPECT_LT((data.reaction_force[0] - Vec3(0.0, 0.0, m * g)).norm(), 1e-14);
  EXPECT_LT((data.reaction_torque[0] - Vec3(0.0, -m * g * d, 0.0)).norm(), 1e-14);
  EXPECT_NEAR(data.tau[0], -m * g * d, 1e-14);
}

// The same link on a vertical axis z, spinning at constant rate w, horizontal, q = 0.
// By hand: a_c = −w² d (centripetal), so f = m (a_c − g) = (−m w² d, 0, m g); the com
// lies on x, so d × f = d e_x × (m g e_z) = (0, −m g d, 0); J is diagonal in the body
// frame and ω ∥ z is principal, so ω × J ω = 0: τ = (0, −m g d, 0); effort n·τ = 0.
// Catches: a missing centripetal term, a spurious gyroscopic term, an effort that picks
// up the gravity moment across the axis.
TEST(JointReactionsFreeBody, SpinningHorizontalLinkByHand) {
  const double m = 0.9, d = 0.6, g = 9.81, w = 3.0;
  Model model;
  model.gravity = Vec3(0.0, 0.0, -g);
  model.bodies.push_back(Body{"arm", kGround, m, Vec3(d, 0.0, 0.0), Vec3(0.002, 0.05, 0.05).asDiagonal()});
  Joint spindle;
  spindle.name = "spindle";
  spindle.type = JointType::Revolute;
  spindle.axis = Vec3::UnitZ();
  spindle.origin = Vec3(-0.4, 0.25, 0.7);
  model.joints.push_back(spindle);
  finalize_model(model, "spinning_link");
  Data data(model);
  joint_reactions(model, data, VecX::Zero(1), VecX::Constant(1, w), VecX::Zero(1));
  EXPECT_LT((data.reaction_force[0] - Vec3(-m * w * w * d, 0.0, m * g)).norm(), 1e-13);
  EXPECT_LT((data.reaction_torque[0] - Vec3(0.0, -m * g * d, 0.0)).norm(), 1e-13);
  EXPECT_NEAR(data.tau[0], 0.0, 1e-14);
}

}  // namespace
}  // namespace mechdyn
