// The kinematics stage's written-out step for one-axis joints (Revolute<K>, Prismatic<K>:
// src/kinematics/forward_kinematics.cpp, one_axis_step) and its centres of mass and world
// inertias (the diagonal-J shortcut), against the textbook formulas evaluated here with
// Eigen's general products, on random trees that take every path: revolute and prismatic
// joints about ±e_x, ±e_y, ±e_z and about general axes, fixed joints between them (the
// generic step), roots and children, diagonal and full inertias. Every Data field the
// stage writes is compared at every level (0, 1, 2):
//   Q_l = Q_λ R(n̄, φ) (Eigen::AngleAxisd, not the library's Rodrigues), r_l = r_λ + Q_λ r̄,
//   S = [n; r × n] or [0; n] with n = Q_λ n̄, S q̇, v = v_λ + S q̇, Ṡ q̇ = v_λ × S q̇,
//   a = a_λ + Ṡ q̇ + S q̈, r_{lI} = r_l + Q c̄, i|J = Q J Qᵀ.
// Catches a wrong sign of the sine or a swapped column pair for some K, the moment r × n
// taken at the parent's origin, a dropped term of v_λ × S q̇, the parent's acceleration
// not carried, the diagonal shortcut reading the wrong moment or taken for a full J.
// Checked by mutation (each made the test fail, then reverted): the second column
// c q_L − s q_I written with + s; w_k = J_00 q_k in the diagonal shortcut; the ν × u term
// left out of Ṡ q̇.
#include <gtest/gtest.h>

#include <random>

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/math/spatial.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct Reference {
  std::vector<Mat3> rotation, inertia;
  std::vector<Vec3> position, com;
  AlignedVector<Vec6> axis, velocity, joint_velocity, joint_bias, acceleration;
};

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> gauss(0.0, 1.0);
  return Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized();
}

// Revolute and prismatic joints, half about ±e_K, some general; every fifth body welded.
Model one_axis_tree(unsigned seed, int bodies) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model model;
  model.gravity = Vec3(0.0, 0.0, -9.81);
  for (int l = 0; l < bodies; ++l) {
    Body body;
    body.name = "b" + std::to_string(l);
    body.parent = l == 0 || unit(rng) < 0.15 ? kGround : static_cast<int>(unit(rng) * l);
    body.mass = 0.5 + unit(rng);
    body.com = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    const Vec3 moments(0.5 + 0.5 * unit(rng), 0.5 + 0.5 * unit(rng), 0.5 + 0.5 * unit(rng));  // triangle inequality
    if (unit(rng) < 0.5) {
      body.inertia = moments.asDiagonal();  // the diagonal shortcut
    } else {
      const Mat3 turn = Eigen::AngleAxisd(3.0 * unit(rng), random_unit(rng)).toRotationMatrix();
      body.inertia = turn * moments.asDiagonal() * turn.transpose();
    }
    Joint joint;
    joint.name = "j" + std::to_string(l);
    const double r = unit(rng);
    joint.type = r < 0.2 && l > 0 ? JointType::Fixed : r < 0.65 ? JointType::Revolute : JointType::Prismatic;
    if (unit(rng) < 0.7) {
      joint.axis = Vec3::Zero();
      joint.axis[static_cast<int>(unit(rng) * 3) % 3] = unit(rng) < 0.5 ? 1.0 : -1.0;
    } else {
      joint.axis = random_unit(rng);
    }
    joint.origin = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, "one-axis test tree");
  return model;
}

Reference reference(const Model& model, const VecX& q, const VecX& v, const VecX& a) {
  const int n = model.num_bodies();
  Reference out;
  out.rotation.resize(n), out.inertia.resize(n), out.position.resize(n), out.com.resize(n);
  out.axis.assign(model.nv, Vec6::Zero());
  out.velocity.resize(n), out.joint_velocity.resize(n), out.joint_bias.resize(n), out.acceleration.resize(n);
  for (int l = 0; l < n; ++l) {
    const Joint& joint = model.joints[l];
    const Body& body = model.bodies[l];
    const bool root = body.parent == kGround;
    const Mat3 parent_rotation = root ? Mat3::Identity() : out.rotation[body.parent];
    const Vec3 parent_position = root ? Vec3::Zero() : out.position[body.parent];
    const Vec6 parent_velocity = root ? Vec6::Zero() : out.velocity[body.parent];
    const Vec6 parent_acceleration = root ? Vec6::Zero() : out.acceleration[body.parent];
    Mat3 relative = Mat3::Identity();
    Vec3 translation = joint.origin;
    Vec6 s = Vec6::Zero();
    double rate = 0.0, second = 0.0;
    if (joint.type == JointType::Revolute) {
      relative = Eigen::AngleAxisd(q[joint.q_index], joint.axis).toRotationMatrix();
    } else if (joint.type == JointType::Prismatic) {
      translation += joint.axis * q[joint.q_index];
    }
    out.rotation[l] = parent_rotation * relative;
    out.position[l] = parent_position + parent_rotation * translation;
    const Vec3 world_axis = parent_rotation * joint.axis;
    if (joint.type == JointType::Revolute) s << world_axis, out.position[l].cross(world_axis);
    if (joint.type == JointType::Prismatic) s << Vec3::Zero(), world_axis;
    if (joint.nv == 1) {
      out.axis[joint.v_index] = s;
      rate = v[joint.v_index], second = a[joint.v_index];
    }
    out.joint_velocity[l] = s * rate;
    out.joint_bias[l] = cross_motion(parent_velocity, out.joint_velocity[l]);
    out.velocity[l] = parent_velocity + out.joint_velocity[l];
    out.acceleration[l] = parent_acceleration + out.joint_bias[l] + s * second;
    out.com[l] = out.position[l] + out.rotation[l] * body.com;
    out.inertia[l] = out.rotation[l] * body.inertia * out.rotation[l].transpose();
  }
  return out;
}

template <class X>
double relative_error(const X& x, const X& y) {
  return (x - y).norm() / (1.0 + y.norm());
}

TEST(KinematicsStagePaths, OneAxisStepAndInertiasMatchTheGeneralFormulasAtEveryLevel) {
  constexpr double kTolerance = 1e-12;
  std::vector<int> kinds(kJointKindCount, 0);
  int diagonal = 0;
  for (unsigned seed = 1; seed <= 30; ++seed) {
    const Model model = one_axis_tree(seed, 14);
    for (int l = 0; l < model.num_bodies(); ++l) {
      ++kinds[static_cast<int>(model.joints[l].kind)];
      const Mat3& j = model.bodies[l].inertia;
      diagonal += j(0, 1) == 0.0 && j(0, 2) == 0.0 && j(1, 2) == 0.0;
    }
    std::mt19937 rng(seed);
    const VecX q = 3.0 * testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng, 2.0);
    const VecX a = testing::random_vector(model.nv, rng, 2.0);
    const Reference expected = reference(model, q, v, a);
    for (int level = 0; level <= 2; ++level) {
      Data data(model);
      if (level == 0) forward_kinematics(model, data, q);
      if (level == 1) forward_kinematics(model, data, q, v);
      if (level == 2) forward_kinematics(model, data, q, v, a);
      for (int l = 0; l < model.num_bodies(); ++l) {
        const std::string where = "seed " + std::to_string(seed) + " level " + std::to_string(level) + " body " +
                                  std::to_string(l) + " kind " + std::to_string(static_cast<int>(model.joints[l].kind));
        EXPECT_LT(relative_error(data.rotation[l], expected.rotation[l]), kTolerance) << where;
        EXPECT_LT(relative_error(data.position[l], expected.position[l]), kTolerance) << where;
        EXPECT_LT(relative_error(data.com_position[l], expected.com[l]), kTolerance) << where;
        EXPECT_LT(relative_error(data.inertia_world[l], expected.inertia[l]), kTolerance) << where;
        EXPECT_EQ(data.inertia_world[l], data.inertia_world[l].transpose()) << where;  // symmetric exactly
        if (level >= 1) {
          EXPECT_LT(relative_error(data.joint_velocity[l], expected.joint_velocity[l]), kTolerance) << where;
          EXPECT_LT(relative_error(data.joint_bias[l], expected.joint_bias[l]), kTolerance) << where;
          EXPECT_LT(relative_error(data.velocity[l], expected.velocity[l]), kTolerance) << where;
        }
        if (level == 2) EXPECT_LT(relative_error(data.acceleration[l], expected.acceleration[l]), kTolerance) << where;
      }
      for (int k = 0; k < model.nv; ++k)
        EXPECT_LT(relative_error(data.motion_axis[k], expected.axis[k]), kTolerance) << "seed " << seed << " k " << k;
    }
  }
  // Every one-axis kind, the generic step and the diagonal shortcut ran many times.
  for (JointKind kind : {JointKind::RevoluteX, JointKind::RevoluteY, JointKind::RevoluteZ, JointKind::Revolute,
                         JointKind::PrismaticX, JointKind::PrismaticY, JointKind::PrismaticZ, JointKind::Prismatic,
                         JointKind::Fixed})
    EXPECT_GT(kinds[static_cast<int>(kind)], 8) << "kind " << static_cast<int>(kind);
  EXPECT_GT(diagonal, 100);
}

}  // namespace
}  // namespace mechdyn
