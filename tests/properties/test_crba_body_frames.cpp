// CRBA in body coordinates (src/dynamics/crba_body_frames.cpp), which crba(q) runs for
// models whose joints are revolute, prismatic or fixed (Model::crba_in_body_frames),
// against two independent computations at random configurations:
//   - the world-frame CRBA (forward_kinematics, then crba_from_kinematics: another frame,
//     another inertia transform, another pairing of the columns);
//   - the columns of RNEA, M e_k = τ(q, 0, e_k) − τ(q, 0, 0) with gravity off.
// The trees mix every one-axis kind: revolute about ±e_x, ±e_y, ±e_z (the written-out
// step), about a general axis, prismatic along ±e_K and a general axis, fixed joints,
// massless bodies that carry a child, branches (sibling coordinates: M = 0 there), and
// armature; subtrees numbered depth first (their coordinates one run, taken two at a time)
// and not.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

Mat3 random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double a = 0.01 + unit(rng), b = 0.01 + unit(rng);
  const double c = std::abs(a - b) + (a + b - std::abs(a - b)) * (0.05 + 0.9 * unit(rng));
  const Mat3 rotation = Quat(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5).normalized().toRotationMatrix();
  const Mat3 inertia = rotation * Vec3(a, b, c).asDiagonal() * rotation.transpose();
  return 0.5 * (inertia + inertia.transpose());
}

// A random tree of one-axis joints. kind 0–5: revolute about ±e_x, ±e_y, ±e_z; 6: revolute
// about a random axis; 7–9: prismatic along ±e_K; 10: prismatic along a random axis;
// 11: fixed.
Model one_axis_tree(unsigned seed, int bodies, double branch_probability, bool armature) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> kind_of(0, 11);
  Model model;
  model.name = "one_axis_tree_" + std::to_string(seed);
  model.gravity = Vec3::Zero();
  for (int i = 0; i < bodies; ++i) {
    Body body;
    body.name = "b" + std::to_string(i);
    body.parent = i == 0 ? kGround : unit(rng) < branch_probability ? static_cast<int>(unit(rng) * i) - 1 : i - 1;
    if (body.parent < kGround) body.parent = kGround;
    body.mass = 0.2 + 2.0 * unit(rng);
    body.com = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    body.inertia = random_inertia(rng);
    Joint joint;
    joint.name = "j" + std::to_string(i);
    const int kind = kind_of(rng);
    const double sign = unit(rng) < 0.5 ? -1.0 : 1.0;
    Vec3 random_axis(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    random_axis.normalize();
    if (kind <= 5) {
      joint.type = JointType::Revolute;
      joint.axis = sign * Vec3::Unit(kind % 3);
    } else if (kind == 6) {
      joint.type = JointType::Revolute;
      joint.axis = random_axis;
    } else if (kind <= 9) {
      joint.type = JointType::Prismatic;
      joint.axis = sign * Vec3::Unit(kind - 7);
    } else if (kind == 10) {
      joint.type = JointType::Prismatic;
      joint.axis = random_axis;
    } else {
      joint.type = JointType::Fixed;
    }
    joint.origin = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    if (armature && joint.type != JointType::Fixed && unit(rng) < 0.5) joint.armature = 0.5 * unit(rng);
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  // A massless body where it carries a child (composite joints).
  for (int i = 0; i + 1 < bodies; ++i)
    if (model.bodies[i + 1].parent == i && unit(rng) < 0.2) {
      model.bodies[i].mass = 0.0;
      model.bodies[i].inertia.setZero();
      break;
    }
  finalize_model(model, model.name);
  return model;
}

// M e_k = RNEA(q, 0, e_k) − RNEA(q, 0, 0) (gravity is off, so the second term is 0 but is
// kept: the identity holds with any gravity).
MatX mass_matrix_from_rnea(const Model& model, const VecX& q) {
  Data data(model);
  const VecX zero = VecX::Zero(model.nv);
  const VecX bias = rnea(model, data, q, zero, zero);
  MatX out(model.nv, model.nv);
  for (int k = 0; k < model.nv; ++k) {
    VecX unit = VecX::Zero(model.nv);
    unit[k] = 1.0;
    out.col(k) = rnea(model, data, q, zero, unit) - bias;
  }
  return out;
}

// Bugs caught: a sign of ±e_K dropped or doubled, the (A, B) block turned the wrong way, a
// missing parallel-axis term, a force not carried through a fixed joint or a prismatic
// joint's displacement, a sibling coordinate given a non-zero entry, the first child's
// contribution added to stale data instead of replacing it (a second call at another q
// would differ), a massless body's composite, armature missed.
TEST(CrbaBodyFrames, EqualsTheWorldFrameCrbaAndRneaColumns) {
  int kinds_seen[kJointKindCount] = {};
  int runs = 0, scattered = 0;  // subtrees whose coordinates are one run (packed steps) or not
  int world_form = 0;           // trees crba(q) leaves to the world form
  double worst_world = 0.0, worst_rnea = 0.0;
  for (unsigned seed = 1; seed <= 80; ++seed) {
    const int bodies = 1 + static_cast<int>(seed % 25);
    const Model model = one_axis_tree(seed, bodies, seed % 4 == 0 ? 0.0 : 0.4, seed % 3 == 0);
    if (!model.crba_in_body_frames) {  // too many subtrees not numbered depth first (model.cpp)
      ++world_form;
      continue;
    }
    for (const Joint& joint : model.joints) ++kinds_seen[static_cast<int>(joint.kind)];
    for (int i = 0; i < model.num_bodies(); ++i) ++(model.subtree_dof_end[i] >= 0 ? runs : scattered);
    std::mt19937 rng(seed + 99);
    Data data(model), world(model);
    for (int repeat = 0; repeat < 2; ++repeat) {  // twice on one Data: nothing stale survives a call
      const VecX q = testing::random_configuration(model, rng);
      const MatX mass = crba(model, data, q);
      EXPECT_EQ(data.kinematics_level, -1) << "the body-frame path leaves no kinematics stage";
      forward_kinematics(model, world, q);
      const MatX reference = crba_from_kinematics(model, world);
      const MatX columns = mass_matrix_from_rnea(model, q);
      const double scale = 1.0 + reference.cwiseAbs().maxCoeff();
      const double world_error = (mass - reference).cwiseAbs().maxCoeff() / scale;
      const double rnea_error = (mass - columns).cwiseAbs().maxCoeff() / scale;
      worst_world = std::max(worst_world, world_error);
      worst_rnea = std::max(worst_rnea, rnea_error);
      EXPECT_LE(world_error, 1e-13) << "seed " << seed;
      EXPECT_LE(rnea_error, 1e-12) << "seed " << seed;
      EXPECT_EQ(mass, mass.transpose()) << "seed " << seed << ": both triangles written from one number";
      for (int r = 0; r < model.nv; ++r)  // coordinates on different branches: exactly zero
        for (int c = 0; c < model.nv; ++c)
          if (reference(r, c) == 0.0) EXPECT_EQ(mass(r, c), 0.0) << "seed " << seed << " M(" << r << "," << c << ")";
    }
  }
  for (JointKind kind : {JointKind::RevoluteX, JointKind::RevoluteY, JointKind::RevoluteZ, JointKind::Revolute,
                         JointKind::PrismaticX, JointKind::PrismaticY, JointKind::PrismaticZ, JointKind::Prismatic,
                         JointKind::Fixed})
    EXPECT_GT(kinds_seen[static_cast<int>(kind)], 10) << "kind " << static_cast<int>(kind) << " barely exercised";
  EXPECT_GT(runs, 100);
  EXPECT_GT(scattered, 50);
  EXPECT_LT(world_form, 20) << "the body-coordinate form barely exercised";
  RecordProperty("worst_relative_difference_to_world_crba", std::to_string(worst_world));
  RecordProperty("worst_relative_difference_to_rnea_columns", std::to_string(worst_rnea));
}

// The path is chosen by the joints: spherical, free, universal, cylindrical joints or a
// flexible body keep the world-frame CRBA (and its kinematics stage).
TEST(CrbaBodyFrames, OnlyOneAxisJointsTakeIt) {
  const Model every = testing::tree_with_every_joint_type(5, 12);
  EXPECT_FALSE(every.crba_in_body_frames);
  Data data(every);
  std::mt19937 rng(3);
  const VecX q = testing::random_configuration(every, rng);
  crba(every, data, q);
  EXPECT_EQ(data.kinematics_level, 0);
  EXPECT_TRUE(one_axis_tree(7, 6, 0.3, false).crba_in_body_frames);
  // A tree in heap order (children 2j + 1, 2j + 2: only the leaves' subtrees numbered depth
  // first) of 255 bodies has ~7 (body, ancestor) pairs per body in such subtrees: the world form.
  Model heap = one_axis_tree(9, 255, 0.0, false);
  for (int i = 1; i < heap.num_bodies(); ++i) heap.bodies[i].parent = (i - 1) / 2;
  finalize_model(heap, heap.name);
  EXPECT_FALSE(heap.crba_in_body_frames);
}

// After the body-frame crba the kinematics stage is marked empty, so a *_from_kinematics
// call refuses instead of reading poses of another q.
TEST(CrbaBodyFrames, LeavesNoStaleKinematicsBehind) {
  const Model model = one_axis_tree(11, 5, 0.0, false);
  Data data(model);
  std::mt19937 rng(5);
  forward_kinematics(model, data, testing::random_configuration(model, rng));
  crba(model, data, testing::random_configuration(model, rng));
  EXPECT_THROW(crba_from_kinematics(model, data), InvalidArgument);
}

// The body inertias about o_i are memoised in Data (data.body_inertia, checked against the
// body's numbers bit for bit each call): a Model changed in place after finalize_model, the
// way Python's set_body_mass or an identification loop does, must be followed at once.
// Each change is one number of one body (mass; a com component; an inertia entry, changed
// symmetrically; a change back to the first value; −0 for +0 in a com, which changes no
// result but must not confuse the comparison), and every call is compared with the world
// form on a fresh Data. Bugs caught: a memo made once and kept, a comparison that skips the
// com's last component or the inertia's last entry or the mass (the packed pairs' edges).
TEST(CrbaBodyFrames, FollowsABodyChangedInPlace) {
  Model model = one_axis_tree(12, 9, 0.3, false);
  ASSERT_TRUE(model.crba_in_body_frames);
  std::mt19937 rng(41);
  const VecX q = testing::random_configuration(model, rng);
  Data data(model);
  const auto expect_world_form = [&](const std::string& what) {
    const MatX mass = crba(model, data, q);
    Data world(model);
    forward_kinematics(model, world, q);
    const MatX reference = crba_from_kinematics(model, world);
    EXPECT_LE((mass - reference).cwiseAbs().maxCoeff() / (1.0 + reference.cwiseAbs().maxCoeff()), 1e-13) << what;
    for (int i = 0; i < model.num_bodies(); ++i) {
      const Body& body = model.bodies[static_cast<std::size_t>(i)];
      const SpatialInertia own = SpatialInertia::from_com(body.mass, body.com, body.inertia);
      EXPECT_EQ(data.body_inertia[static_cast<std::size_t>(i)].mass, own.mass) << what;
      EXPECT_EQ(data.body_inertia[static_cast<std::size_t>(i)].first_moment, own.first_moment) << what;
      EXPECT_EQ(data.body_inertia[static_cast<std::size_t>(i)].rotational, own.rotational) << what;
    }
  };
  expect_world_form("first call");
  Body& body = model.bodies[4];
  const double mass = body.mass;
  body.mass = 2.5 * mass + 0.1;
  expect_world_form("mass changed");
  body.mass = mass;
  expect_world_form("mass changed back");
  for (int k = 0; k < 3; ++k) {
    body.com[k] += 0.05;
    expect_world_form("com[" + std::to_string(k) + "] changed");
  }
  for (int r = 0; r < 3; ++r) {
    body.inertia(r, r) += 0.01 * (r + 1);
    expect_world_form("inertia(" + std::to_string(r) + "," + std::to_string(r) + ") changed");
  }
  body.inertia(1, 2) = body.inertia(2, 1) = body.inertia(1, 2) + 0.001;
  expect_world_form("inertia(1,2) changed");
  model.bodies[0].com[2] = model.bodies[0].com[2] == 0.0 ? -0.0 : model.bodies[0].com[2];
  expect_world_form("a com's −0");
}

}  // namespace
}  // namespace mechdyn
