// Every joint kind (model/joint.hpp, src/model/joint_kinds/) against independent
// computations, on seeded random chains in which every joint but the root's is of the
// kind under test (the root turns about a tilted axis, so each joint's parent moves):
//   - world kinematics: body velocities and accelerations equal central differences of
//     the poses (catches a wrong world S or Ṡ q̇, or a relative pose that does not match
//     its own motion axes);
//   - body coordinates: RNEA (the kinds' body_motion, project, rotate) equals M a + h from
//     CRBA and the explicit bias (the kinds' world code), and ABA inverts it (catches a
//     body-frame S, c_J or transform that disagrees with the world one);
//   - configuration space: q0 ⊕ (q1 ⊖ q0) = q1, (q ⊕ dv) ⊖ q = dv, and the configuration
//     rate is the derivative of t ↦ q ⊕ t v (catches a wrong quaternion convention, a
//     parent rotation applied the wrong way, a rate that does not match integration);
//   - axis carriers: the rate of each world axis is what its AxisCarrier says;
//   - names: one per coordinate; the kind chosen once from the axis;
//   - the kind's facts for the formats and codegen (JointFormat, `motions`): the elements a
//     URDF or MJCF file makes of it carry its nv coordinates (or it is refused with a reason),
//     and the product of its elementary motions is its relative pose.
// Adding a kind = one line in kKinds below (a kind without `format`, `motions` or
// `caller_cosine_sine` does not compile: joint.cpp, codegen and the kinematics read them).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "../../src/model/joint_dispatch.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct KindCase {
  const char* name;
  JointType type;
  Vec3 axis;  // for revolute and prismatic: chooses the specialised kind
  JointKind expected_kind;
};

const KindCase kKinds[] = {
    {"RevoluteX", JointType::Revolute, Vec3(1, 0, 0), JointKind::RevoluteX},
    {"RevoluteMinusY", JointType::Revolute, Vec3(0, -1, 0), JointKind::RevoluteY},
    {"RevoluteZ", JointType::Revolute, Vec3(0, 0, 1), JointKind::RevoluteZ},
    {"RevoluteGeneral", JointType::Revolute, Vec3(1, 2, -2) / 3.0, JointKind::Revolute},
    {"PrismaticMinusX", JointType::Prismatic, Vec3(-1, 0, 0), JointKind::PrismaticX},
    {"PrismaticY", JointType::Prismatic, Vec3(0, 1, 0), JointKind::PrismaticY},
    {"PrismaticZ", JointType::Prismatic, Vec3(0, 0, 1), JointKind::PrismaticZ},
    {"PrismaticGeneral", JointType::Prismatic, Vec3(2, -1, 2) / 3.0, JointKind::Prismatic},
    {"Universal", JointType::Universal, Vec3(0, 0, 1), JointKind::Universal},
    {"Spherical", JointType::Spherical, Vec3(0, 0, 1), JointKind::Spherical},
    {"Free", JointType::Free, Vec3(0, 0, 1), JointKind::Free},
    {"Fixed", JointType::Fixed, Vec3(0, 0, 1), JointKind::Fixed},
    {"Cylindrical", JointType::Cylindrical, Vec3(2, 2, -1) / 3.0, JointKind::Cylindrical},
};

// A chain of 5 bodies: a tilted revolute root, then four joints of the case's type with
// the case's axis (universal: second axis random), random origins and inertias.
Model chain_of(const KindCase& c, unsigned seed) {
  testing::RandomTreeOptions options;
  options.bodies = 5;
  options.branch_probability = 0.0;
  options.all_joint_types = false;
  Model model = testing::random_tree(seed, options);
  model.joints[0].type = JointType::Revolute;
  model.joints[0].axis = Vec3(0.3, -0.4, 0.866).normalized();
  for (int i = 1; i < 5; ++i) {
    model.joints[i].type = c.type;
    model.joints[i].axis = c.axis;
  }
  finalize_model(model, c.name);
  return model;
}

class JointKinds : public ::testing::TestWithParam<KindCase> {};

TEST_P(JointKinds, KindIsChosenOnceFromTypeAndAxis) {
  const Model model = chain_of(GetParam(), 1);
  for (int i = 1; i < 5; ++i) EXPECT_EQ(model.joints[i].kind, GetParam().expected_kind);
  std::vector<CoordinateName> q_names, v_names;
  for (const Joint& joint : model.joints) joint_coordinate_names(joint, q_names, v_names);
  EXPECT_EQ(static_cast<int>(q_names.size()), model.nq);
  EXPECT_EQ(static_cast<int>(v_names.size()), model.nv);
}

TEST_P(JointKinds, WorldKinematicsMatchFiniteDifferencesOfPoses) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Model model = chain_of(GetParam(), seed);
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    forward_kinematics(model, data, q, v, a);
    const double h = 1e-6;
    forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h), v + h * a);
    forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h), v - h * a);
    for (int l = 0; l < model.num_bodies(); ++l) {
      // ω̃ = Ṙ Rᵀ and the velocity of the body point at the world origin, v(o) − ω × o
      const Mat3 w = (plus.rotation[l] - minus.rotation[l]) / (2 * h) * data.rotation[l].transpose();
      const Vec3 omega(0.5 * (w(2, 1) - w(1, 2)), 0.5 * (w(0, 2) - w(2, 0)), 0.5 * (w(1, 0) - w(0, 1)));
      const Vec3 origin_velocity = (plus.position[l] - minus.position[l]) / (2 * h);
      Vec6 velocity;
      velocity << omega, origin_velocity - omega.cross(data.position[l]);
      EXPECT_LT((data.velocity[l] - velocity).norm(), 1e-6) << "seed " << seed << " body " << l;
      const Vec6 acceleration = (plus.velocity[l] - minus.velocity[l]) / (2 * h);
      EXPECT_LT((data.acceleration[l] - acceleration).norm(), 1e-5) << "seed " << seed << " body " << l;
    }
  }
}

// Catches: a kind's AxisCarrier (read by the parallel-manipulator limbs for ṡ) that does
// not match how its world axes really move — e.g. a universal joint's second axis said
// to turn with the parent, or a spherical axis said to be constant. Independent: central
// differences of data.motion_axis along the motion; joint_world_motion_axes must also
// reproduce what forward_kinematics wrote.
TEST_P(JointKinds, AxisCarriersGiveTheRatesOfTheWorldAxes) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Model model = chain_of(GetParam(), seed);
    std::mt19937 rng(seed + 20);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    forward_kinematics(model, data, q, v);
    const double h = 1e-6;
    forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h));
    forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h));
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Joint& joint = model.joints[l];
      const int parent = model.bodies[l].parent;
      const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[parent];
      const Vec6 parent_velocity = parent == kGround ? Vec6::Zero() : data.velocity[parent];
      Vec6 axes[6];
      joint_world_motion_axes(joint, parent_rotation, data.rotation[l], data.position[l], axes);
      for (int c = 0; c < joint.nv; ++c) {
        const int k = joint.v_index + c;
        EXPECT_LT((axes[c] - data.motion_axis[k]).norm(), 1e-15) << "body " << l << " column " << c;
        const Vec6 rate = (plus.motion_axis[k] - minus.motion_axis[k]) / (2 * h);
        const Vec6& s = data.motion_axis[k];
        Vec6 expected = Vec6::Zero();
        switch (joint_axis_carrier(joint, c)) {
          case AxisCarrier::Parent: expected = cross_motion(parent_velocity, s); break;
          case AxisCarrier::Child: expected = cross_motion(data.velocity[l], s); break;
          case AxisCarrier::WorldDirection: {  // ȯ: the velocity of the body origin
            const Vec3 origin_velocity =
                data.velocity[l].tail<3>() + data.velocity[l].head<3>().cross(data.position[l]);
            expected.tail<3>() = origin_velocity.cross(s.head<3>());
            break;
          }
          case AxisCarrier::World: break;
        }
        EXPECT_LT((rate - expected).norm(), 1e-6) << "seed " << seed << " body " << l << " column " << c;
      }
    }
  }
}

TEST_P(JointKinds, BodyCoordinateRneaEqualsWorldCrbaAndBiasAndAbaInvertsIt) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Model model = chain_of(GetParam(), seed);
    std::mt19937 rng(seed + 10);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    const VecX tau = rnea(model, data, q, v, a);
    const MatX mass = crba(model, data, q);
    const VecX bias = explicit_bias_force(model, data, q, v);
    EXPECT_LT((tau - (mass * a + bias)).norm(), 1e-10 * (1.0 + tau.norm())) << "seed " << seed;
    const VecX ddq = aba(model, data, q, v, tau);
    EXPECT_LT((ddq - a).norm(), 1e-8 * (1.0 + a.norm())) << "seed " << seed;
  }
}

TEST_P(JointKinds, IntegrateDifferenceAndRateAgree) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Model model = chain_of(GetParam(), seed);
    std::mt19937 rng(seed + 20);
    Data data(model);
    const VecX q0 = testing::random_configuration(model, rng);
    const VecX dv = testing::random_vector(model.nv, rng, 0.5);
    forward_kinematics(model, data, q0);  // the parents' world rotations at q0
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Joint& joint = model.joints[l];
      const int parent = model.bodies[l].parent;
      const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[parent];
      const double* x0 = q0.data() + joint.q_index;
      const double* d = dv.data() + joint.v_index;
      VecX q1(joint.nq), back(joint.nv), again(joint.nq), plus(joint.nq), minus(joint.nq), rate(joint.nq);
      joint_integrate(joint, parent_rotation, x0, d, q1.data());
      joint_difference(joint, parent_rotation, x0, q1.data(), back.data());
      EXPECT_LT((back - Eigen::Map<const VecX>(d, joint.nv)).norm(), 1e-12) << "(q ⊕ dv) ⊖ q, body " << l;
      joint_integrate(joint, parent_rotation, x0, back.data(), again.data());
      EXPECT_LT((again - q1).norm(), 1e-12) << "q0 ⊕ (q1 ⊖ q0), body " << l;
      // d/dt (q ⊕ t v) at t = 0 is the configuration rate
      const double h = 1e-6;
      VecX step = Eigen::Map<const VecX>(d, joint.nv) * h;
      joint_integrate(joint, parent_rotation, x0, step.data(), plus.data());
      step = -step;
      joint_integrate(joint, parent_rotation, x0, step.data(), minus.data());
      joint_configuration_rate(joint, x0, d, parent_rotation, rate.data());
      EXPECT_LT(((plus - minus) / (2 * h) - rate).norm(), 1e-8) << "rate, body " << l;
      VecX neutral(joint.nq);
      joint_neutral_configuration(joint, neutral.data());
      EXPECT_EQ(joint_normalize(joint, neutral.data()), 1.0) << "body " << l;
    }
  }
}

// The velocity coordinates one element of a robot file carries (URDF and MJCF joint types,
// written here from the formats' references, not from the kinds).
int element_coordinates(const std::string& type) {
  if (type == "revolute" || type == "continuous" || type == "prismatic" || type == "hinge" || type == "slide") return 1;
  if (type == "ball") return 3;
  if (type == "floating" || type == "free") return 6;
  EXPECT_EQ(type, "fixed") << "an element type this test does not know";
  return 0;
}

// Catches: a kind whose format facts (what YAML, URDF and MJCF call it, the elements it
// becomes) disagree with its coordinates — a URDF or MJCF element list that drops or adds
// a coordinate, an element taking an axis the kind does not have, a refusal without a
// reason, the type table not reading the kind — or whose elementary motions (codegen's
// description of it) are not its relative pose; and the written-out steps taking cos, sin
// ahead for a kind whose angle is not q₀ of one turn.
TEST_P(JointKinds, FormatFactsAndMotionsDescribeTheKind) {
  const Model model = chain_of(GetParam(), 4);
  const Joint& joint = model.joints[1];
  visit_joint_kind(joint.kind, [&](auto kind) {
    using K = decltype(kind);
    const JointFormat& format = K::format;
    EXPECT_STREQ(format.type_name, joint_type_name(joint.type));
    // joint_format(type) reads the first kind of the type: every kind of it says the same.
    const JointFormat& of_type = joint_format(joint.type);
    EXPECT_STREQ(of_type.type_name, format.type_name);
    EXPECT_EQ(of_type.limits, format.limits);
    EXPECT_EQ(of_type.friction, format.friction);
    EXPECT_EQ(of_type.urdf_count, format.urdf_count);
    EXPECT_EQ(of_type.mjcf_count, format.mjcf_count);
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(std::string(of_type.urdf[k].type ? of_type.urdf[k].type : ""),
                std::string(format.urdf[k].type ? format.urdf[k].type : ""));
      EXPECT_EQ(std::string(of_type.mjcf[k].type ? of_type.mjcf[k].type : ""),
                std::string(format.mjcf[k].type ? format.mjcf[k].type : ""));
    }
    EXPECT_EQ(format.axis_count, joint_axis_count(joint.type));
    EXPECT_EQ(format.limits, K::nv == 1 && K::nq == 1) << "limits bound one coordinate";
    for (int pass = 0; pass < 2; ++pass) {
      const int count = pass == 0 ? format.urdf_count : format.mjcf_count;
      const JointFormatElement* elements = pass == 0 ? format.urdf : format.mjcf;
      const std::string refusal = pass == 0 ? format.urdf_refusal : format.mjcf_refusal;
      const char* which = pass == 0 ? "URDF" : "MJCF";
      if (count == 0 && K::nv > 0) {
        EXPECT_FALSE(refusal.empty()) << which << ": a joint the format cannot express needs a reason";
        continue;
      }
      EXPECT_TRUE(refusal.empty()) << which;
      int coordinates = 0;
      std::set<std::string> names;
      for (int k = 0; k < count; ++k) {
        coordinates += element_coordinates(elements[k].type);
        EXPECT_LT(elements[k].axis, format.axis_count) << which << " element " << k;
        names.insert(elements[k].suffix);
      }
      EXPECT_EQ(coordinates, K::nv) << which;
      EXPECT_EQ(static_cast<int>(names.size()), count) << which << ": two elements with one name";
    }
    // The motions' coordinates and their product against relative_pose at random q.
    const joint_kinds::JointMotions motions = K::motions;
    int nq = 0, nv = 0;
    for (int j = 0; j < motions.count; ++j) {
      const auto m = motions.steps[j].kind;
      nq += m == joint_kinds::JointMotion::Quaternion ? 4 : m == joint_kinds::JointMotion::Shift ? 3 : 1;
      nv += m == joint_kinds::JointMotion::Quaternion || m == joint_kinds::JointMotion::Shift ? 3 : 1;
    }
    EXPECT_EQ(nq, K::nq);
    EXPECT_EQ(nv, K::nv);
    if (K::caller_cosine_sine) {
      ASSERT_EQ(motions.count, 1);
      EXPECT_EQ(motions.steps[0].kind, joint_kinds::JointMotion::Turn) << "cos q0, sin q0 are a turn's";
    }
    std::mt19937 rng(9);
    for (int sample = 0; sample < 5; ++sample) {
      const VecX q_all = testing::random_configuration(model, rng);
      const double* q = q_all.data() + joint.q_index;
      Mat3 rotation = Mat3::Identity();
      Vec3 translation = joint.origin;
      for (int j = 0, at = 0; j < motions.count; ++j) {
        const joint_kinds::JointMotion& m = motions.steps[j];
        const Vec3 n = m.axis == 1 ? joint.second_axis : joint.axis;
        switch (m.kind) {
          case joint_kinds::JointMotion::Turn: rotation = rotation * axis_angle_rotation(n, q[at]); at += 1; break;
          case joint_kinds::JointMotion::Slide: translation += rotation * n * q[at]; at += 1; break;
          case joint_kinds::JointMotion::Quaternion:
            rotation = rotation * Quat(q[at], q[at + 1], q[at + 2], q[at + 3]).toRotationMatrix();
            at += 4;
            break;
          case joint_kinds::JointMotion::Shift: translation += rotation * Vec3(q[at], q[at + 1], q[at + 2]); at += 3; break;
        }
      }
      Mat3 expected_rotation;
      Vec3 expected_translation;
      joint_relative_pose(joint, q, expected_rotation, expected_translation);
      EXPECT_LT((rotation - expected_rotation).cwiseAbs().maxCoeff(), 1e-14);
      EXPECT_LT((translation - expected_translation).cwiseAbs().maxCoeff(), 1e-14);
    }
  });
}

// Catches: the reader refusing the project's cylindrical joint (docs/model-file.md), or
// reading it with the wrong sizes or axis.
TEST(JointKindsFile, ReaderAcceptsACylindricalJoint) {
  const Model model = parse_model_string(
      "mechdyn: 1\nname: c\nbodies:\n"
      "  - {name: B, parent: ground, joint: {type: cylindrical, axis: [0, 0, 2]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
      "inline");
  EXPECT_EQ(model.joints[0].type, JointType::Cylindrical);
  EXPECT_EQ(model.joints[0].kind, JointKind::Cylindrical);
  EXPECT_EQ(model.nq, 2);
  EXPECT_EQ(model.nv, 2);
  EXPECT_EQ(model.joints[0].axis, Vec3::UnitZ());
}

INSTANTIATE_TEST_SUITE_P(EveryKind, JointKinds, ::testing::ValuesIn(kKinds),
                         [](const ::testing::TestParamInfo<KindCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace mechdyn
