// Cut-joint kinds (model/cut_joint.hpp, src/model/cut_joint_kinds/): every kind's facts,
// rows, freedoms and reaction split agree with one another and with the tree joints.
// Catches: a kind in the wrong LoopType slot, a row count that does not match the rows
// the kind writes, freedoms that are not the reciprocal complement of the rows' constraint
// wrenches (a missing or extra freedom, a translation written as a rotation), a row pair
// that breaks Newton's third law, and a reaction split that differs from the tree joint
// of the same name.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include <Eigen/QR>

#include "mechdyn/constraints/loop_rows.hpp"
#include "mechdyn/model/cut_joint.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn {
namespace {

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  return Vec3(normal(rng), normal(rng), normal(rng)).normalized();
}

Mat3 random_rotation(std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  return Eigen::AngleAxisd(angle(rng), random_unit(rng)).toRotationMatrix();
}

Loop loop_of(LoopType type, std::mt19937& rng) {
  Loop loop;
  loop.name = loop_type_name(type);
  loop.type = type;
  loop.a = {0, Vec3(0.1, -0.2, 0.3)};
  loop.b = {1, Vec3(-0.3, 0.05, 0.2)};
  loop.axis = random_unit(rng);
  loop.second_axis = (random_unit(rng) - 0.5 * loop.axis).normalized();
  return loop;
}

TEST(CutJointKinds, FactsSitInTheirSlotsAndNamesRoundTrip) {
  std::set<std::string> names;
  for (int k = 0; k < kLoopTypeCount; ++k) {
    const LoopType type = static_cast<LoopType>(k);
    const CutJointFacts& facts = cut_joint_facts(type);
    EXPECT_EQ(facts.type, type) << facts.name;
    EXPECT_EQ(loop_type_from_name(facts.name), type) << facts.name;
    EXPECT_TRUE(names.insert(facts.name).second) << "two kinds are called " << facts.name;
    EXPECT_EQ(facts.rows + facts.freedoms, 6) << facts.name;
    EXPECT_EQ(loop_rows(type), facts.rows);
    std::set<std::string> labels;
    for (int r = 0; r < facts.rows; ++r) labels.insert(facts.row_labels[r]);
    EXPECT_EQ(static_cast<int>(labels.size()), facts.rows) << facts.name << ": row labels must be distinct";
    EXPECT_NE(loop_type_names().find(facts.name), std::string::npos);
  }
  EXPECT_FALSE(loop_type_from_name("hinge").has_value());
}

// At a closed cut (coincident points, equal rotations) the rows' constraint wrenches on a
// are minus those on b, are independent, and do no work on any freedom; the freedoms are
// independent too, so (rows + freedoms = 6) they span exactly the motions the rows allow.
TEST(CutJointKinds, FreedomsAreTheReciprocalComplementOfTheRows) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial)
    for (int k = 0; k < kLoopTypeCount; ++k) {
      const Loop loop = loop_of(static_cast<LoopType>(k), rng);
      const CutJointFacts& facts = cut_joint_facts(loop.type);
      CutFrame a, b;
      a.rotation = b.rotation = random_rotation(rng);
      a.position = Vec3(0.4, -0.7, 1.1);
      const Vec3 point = a.point(loop.a.point);
      b.position = point - b.rotation * loop.b.point;
      double residual[6];
      Vec6 wrench_a[6], wrench_b[6];
      cut_joint_rows(loop, a, b, false, residual, wrench_a, wrench_b, nullptr);
      CutFreedom freedoms[4];
      const int count = cut_joint_freedom_axes(loop, a.rotation, b.rotation, freedoms);
      ASSERT_EQ(count, facts.freedoms) << facts.name;
      Eigen::Matrix<double, 6, Eigen::Dynamic> wrenches(6, facts.rows), twists(6, count);
      for (int r = 0; r < facts.rows; ++r) {
        EXPECT_NEAR(residual[r], 0.0, 1e-12) << facts.name << " row " << facts.row_labels[r];
        EXPECT_LT((wrench_a[r] + wrench_b[r]).norm(), 1e-12) << facts.name << " row " << facts.row_labels[r];
        wrenches.col(r) = wrench_a[r];  // [moment about the origin; force], paired with [ω; v_O]
      }
      for (int f = 0; f < count; ++f) {
        Vec6 twist;  // [ω; v_O] of the freedom through the cut point
        if (freedoms[f].rotation) twist << freedoms[f].direction, point.cross(freedoms[f].direction);
        else twist << Vec3::Zero(), freedoms[f].direction;
        for (int r = 0; r < facts.rows; ++r)
          EXPECT_NEAR(wrench_a[r].dot(twist), 0.0, 1e-12) << facts.name << ": row " << facts.row_labels[r]
                                                           << " works on freedom " << f;
        twists.col(f) = twist;
      }
      EXPECT_EQ(Eigen::ColPivHouseholderQR<MatX>(wrenches).rank(), facts.rows) << facts.name;
      if (count > 0) EXPECT_EQ(Eigen::ColPivHouseholderQR<MatX>(twists).rank(), count) << facts.name;  // 6 × 0: Eigen's QR crashes
    }
}

// The cut kind splits a reaction as the tree joint of the same name does (joint.hpp).
TEST(CutJointKinds, ReactionSplitMatchesTheTreeJointOfTheSameName) {
  std::mt19937 rng(5);
  const std::pair<LoopType, JointType> pairs[] = {{LoopType::Revolute, JointType::Revolute},
                                                  {LoopType::Prismatic, JointType::Prismatic},
                                                  {LoopType::Universal, JointType::Universal},
                                                  {LoopType::Spherical, JointType::Spherical},
                                                  {LoopType::Fixed, JointType::Fixed}};
  for (const auto& [loop_type, joint_type] : pairs) {
    const Loop loop = loop_of(loop_type, rng);
    const Mat3 ra = random_rotation(rng), rb = random_rotation(rng);
    const Vec3 force = 10.0 * random_unit(rng), torque = 3.0 * random_unit(rng);
    Joint joint;
    joint.type = joint_type;
    joint.axis = loop.axis;
    joint.second_axis = loop.second_axis;
    joint.kind = joint_kind_of(joint);
    Vec6 axes[2];
    const Vec3 n1 = ra * loop.axis, n2 = rb * loop.second_axis;
    axes[0] << n1, Vec3::Zero();
    axes[1] << n2, Vec3::Zero();
    if (joint_type == JointType::Prismatic) axes[0] << Vec3::Zero(), n1;
    const ReactionSplit tree = joint_reaction_split(joint, axes, force, torque);
    const ReactionSplit cut = cut_joint_reaction_split(loop, ra, rb, force, torque);
    EXPECT_NEAR(cut.constraint_torque, tree.constraint_torque, 1e-12) << loop_type_name(loop_type);
    EXPECT_NEAR(cut.constraint_force, tree.constraint_force, 1e-12) << loop_type_name(loop_type);
    EXPECT_NEAR(cut.axial_load, tree.axial_load, 1e-12) << loop_type_name(loop_type);
  }
  // Planar-revolute: only the in-plane force is carried.
  const Loop planar = loop_of(LoopType::PlanarRevolute, rng);
  const Mat3 ra = random_rotation(rng);
  const Vec3 n = ra * planar.axis, in_plane = n.unitOrthogonal();
  const ReactionSplit split = cut_joint_reaction_split(planar, ra, ra, 2.0 * in_plane + 7.0 * n, Vec3(1, 2, 3));
  EXPECT_NEAR(split.constraint_force, 2.0, 1e-12);
  EXPECT_EQ(split.constraint_torque, 0.0);
  EXPECT_EQ(split.axial_load, 0.0);
}

}  // namespace
}  // namespace mechdyn
