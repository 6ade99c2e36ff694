// The model-file reader on good input: every example loads, sizes, conventions,
// defaults, warnings, and the five-axis example equals the paper's Table 2.
// (Bad input: tests/errors/test_model_file_errors.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

const std::string kModels = std::string(MECHDYN_SOURCE_DIR) + "/examples/models/";

// Catches: an example that no longer parses after a reader change (or an example
// edited into an invalid model), and examples that trigger warnings (typos in keys).
TEST(ModelFile, EveryExampleLoadsWithoutWarnings) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kModels)) {
    if (entry.path().extension() != ".yaml") continue;
    ++count;
    std::vector<std::string> warnings;
    Model model;
    ASSERT_NO_THROW(model = load_model_file(entry.path().string(), &warnings)) << entry.path();
    EXPECT_TRUE(warnings.empty()) << entry.path() << ": " << (warnings.empty() ? "" : warnings.front());
    EXPECT_GT(model.num_bodies(), 0);
    EXPECT_EQ(model.nv, static_cast<int>(model.dof_body.size()));
  }
  EXPECT_GE(count, 6) << "examples/models should hold the case studies";
}

// Catches: a wrong nq/nv for a joint type, or coordinates not in file order.
TEST(ModelFile, SizesForEveryJointType) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: every_joint
bodies:
  - {name: free_base, parent: ground, joint: {type: free}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: r, parent: free_base, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: p, parent: r, joint: {type: prismatic, axis: [1, 0, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: u, parent: p, joint: {type: universal, axes: [[1, 0, 0], [0, 1, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: s, parent: u, joint: {type: spherical}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: f, parent: s, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}
)", "<inline>");
  const int nq[] = {7, 1, 1, 2, 4, 0};
  const int nv[] = {6, 1, 1, 2, 3, 0};
  const JointType types[] = {JointType::Free, JointType::Revolute, JointType::Prismatic,
                             JointType::Universal, JointType::Spherical, JointType::Fixed};
  int q_index = 0, v_index = 0;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(model.joints[i].type, types[i]) << i;
    EXPECT_EQ(model.joints[i].nq, nq[i]) << i;
    EXPECT_EQ(model.joints[i].nv, nv[i]) << i;
    EXPECT_EQ(model.joints[i].q_index, q_index) << i;
    EXPECT_EQ(model.joints[i].v_index, v_index) << i;
    EXPECT_EQ(model.bodies[i].parent, i - 1) << i;
    q_index += nq[i];
    v_index += nv[i];
  }
  EXPECT_EQ(model.nq, 15);
  EXPECT_EQ(model.nv, 13);
}

// Catches: reading ixy, ixz, iyz as products of inertia (P_xy = ∫ x y dm), which
// would flip their sign. The spec (as URDF and MJCF) stores tensor entries, so
// inertia(0, 1) must equal ixy as written, and the tensor must be symmetric.
TEST(ModelFile, OffDiagonalInertiaKeysAreTensorEntries) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: entries
bodies:
  - name: B
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    inertia: {ixx: 2, iyy: 3, izz: 4, ixy: -0.5, ixz: 0.25, iyz: -0.1}
)", "<inline>");
  const Mat3& I = model.bodies[0].inertia;
  EXPECT_DOUBLE_EQ(I(0, 0), 2.0);
  EXPECT_DOUBLE_EQ(I(1, 1), 3.0);
  EXPECT_DOUBLE_EQ(I(2, 2), 4.0);
  EXPECT_DOUBLE_EQ(I(0, 1), -0.5);
  EXPECT_DOUBLE_EQ(I(1, 0), -0.5);
  EXPECT_DOUBLE_EQ(I(0, 2), 0.25);
  EXPECT_DOUBLE_EQ(I(2, 0), 0.25);
  EXPECT_DOUBLE_EQ(I(1, 2), -0.1);
  EXPECT_DOUBLE_EQ(I(2, 1), -0.1);
}

// Catches: the project's {matrix: ...} form transposed or dropped, and diag misplaced.
TEST(ModelFile, DiagAndMatrixInertiaForms) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: forms
bodies:
  - {name: A, parent: ground, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 2, 2.5]}}
  - name: B
    parent: A
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    inertia: {matrix: [[2, -0.5, 0.25], [-0.5, 3, -0.1], [0.25, -0.1, 4]]}
)", "<inline>");
  EXPECT_EQ(model.bodies[0].inertia, Vec3(1, 2, 2.5).asDiagonal().toDenseMatrix());
  EXPECT_DOUBLE_EQ(model.bodies[1].inertia(0, 1), -0.5);
  EXPECT_DOUBLE_EQ(model.bodies[1].inertia(1, 2), -0.1);
}

// Catches: axes stored as written instead of unit vectors (the joint model assumes
// |n| = 1: eq. (3) of explicit-canonical is a rotation only for a unit n).
TEST(ModelFile, AxesAreNormalised) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: axes
bodies:
  - {name: A, parent: ground, joint: {type: revolute, axis: [0, 0, 2]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: B, parent: A, joint: {type: prismatic, axis: [1, 1, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: C, parent: B, joint: {type: universal, axes: [[3, 0, 0], [0, 0, -0.5]]}, mass: 1, inertia: {diag: [1, 1, 1]}}
loops:
  - {name: L, type: revolute, a: {body: C, point: [0, 0, 0]}, b: {body: ground, point: [1, 0, 0]}, axis: [0, 4, 3]}
  - {name: U, type: universal, a: {body: A, point: [0, 0, 0]}, b: {body: C, point: [1, 0, 0]}, axes: [[0, 0, 7], [2, 0, 0]]}
)", "<inline>");
  const double s = std::sqrt(0.5);
  EXPECT_TRUE(model.joints[0].axis.isApprox(Vec3(0, 0, 1)));
  EXPECT_TRUE(model.joints[1].axis.isApprox(Vec3(s, s, 0)));
  EXPECT_TRUE(model.joints[2].axis.isApprox(Vec3(1, 0, 0)));
  EXPECT_TRUE(model.joints[2].second_axis.isApprox(Vec3(0, 0, -1)));
  EXPECT_TRUE(model.loops[0].axis.isApprox(Vec3(0, 0.8, 0.6)));
  EXPECT_TRUE(model.loops[1].axis.isApprox(Vec3(0, 0, 1)));
  EXPECT_TRUE(model.loops[1].second_axis.isApprox(Vec3(1, 0, 0)));
  EXPECT_EQ(model.loops[0].b.body, kGround);
  EXPECT_EQ(model.loops[0].a.body, 2);
}

// Catches: an axis that is already a unit vector moved in its last bits on reading.
// This vector's norm rounds to 1 − 1.1e-16 in every summation order, so dividing by it
// changes its first component; a model written and read back would then differ from
// itself (the clang build's YAML round trip was one ulp off before unit_direction).
TEST(ModelFile, AUnitAxisIsKeptBitForBit) {
  const Vec3 unit(0.9375569964409753, -0.2448384850636399, -0.24706475802169464);
  ASSERT_NE(unit.norm(), 1.0);                        // the case this test is about
  ASSERT_NE((unit / unit.norm()).x(), unit.x());      // dividing would move a bit
  const Model model = parse_model_string(R"(
mechdyn: 1
name: unit_axis
bodies:
  - {name: A, parent: ground, joint: {type: revolute, axis: [0.9375569964409753, -0.2448384850636399, -0.24706475802169464]}, mass: 1, inertia: {diag: [1, 1, 1]}}
)", "<inline>");
  EXPECT_EQ(model.joints[0].axis.x(), unit.x());
  EXPECT_EQ(model.joints[0].axis.y(), unit.y());
  EXPECT_EQ(model.joints[0].axis.z(), unit.z());
}

// Catches: unknown keys turned into errors (files from newer writers must still
// load) or silently dropped (typos like `orign` must be reported).
TEST(ModelFile, UnknownKeysAreWarningsNamingFileAndElement) {
  std::vector<std::string> warnings;
  const Model model = parse_model_string(R"(
mechdyn: 1
name: extras
author: someone
bodies:
  - name: L1
    parent: ground
    color: red
    joint:
      type: revolute
      axis: [0, 0, 1]
      orign: [1, 0, 0]
      friction: {model: coulomb_viscous, coulomb: 0.1, colour: blue, static: 0.2}
    mass: 1
    inertia: {diag: [1, 1, 1], note: x}
)", "extras.yaml", &warnings);
  EXPECT_EQ(model.num_bodies(), 1);
  EXPECT_EQ(model.joints[0].origin, Vec3::Zero());  // the misspelt key is not read
  ASSERT_EQ(warnings.size(), 6u);
  const char* expected[][2] = {
      {"extras.yaml: document:", "'author'"},
      {"extras.yaml: bodies[0] 'L1':", "'color'"},
      {"extras.yaml: bodies[0] 'L1' joint:", "'orign'"},
      {"extras.yaml: bodies[0] 'L1' joint.friction:", "'colour'"},
      {"extras.yaml: bodies[0] 'L1' joint.friction.static:", "not used by the coulomb_viscous model"},
      {"extras.yaml: bodies[0] 'L1' inertia:", "'note'"},
  };
  for (const auto& e : expected) {
    bool found = false;
    for (const std::string& w : warnings)
      found = found || (w.rfind(e[0], 0) == 0 && w.find(e[1]) != std::string::npos && w.find('\n') == std::string::npos);
    EXPECT_TRUE(found) << "no warning " << e[0] << " ... " << e[1];
  }
  // Without a warnings list the same file still loads.
  EXPECT_NO_THROW(parse_model_string("mechdyn: 1\nname: n\nextra: 1\nbodies:\n"
                                     "  - {name: B, parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [1,1,1]}}\n",
                                     "<inline>"));
}

// Catches: wrong defaults (gravity, joint name, actuated, origin, com) or a
// massless body rejected where it carries a child (composite joints need it).
TEST(ModelFile, DefaultsAndMasslessIntermediateBody) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: defaults
bodies:
  - {name: gimbal, parent: ground, joint: {type: revolute, axis: [1, 0, 0]}, mass: 0}
  - {name: arm, parent: gimbal, joint: {name: pitch, type: revolute, axis: [0, 1, 0], actuated: false}, mass: 2,
     com: [0, 0, -0.5], inertia: {diag: [0.1, 0.1, 0.01]}}
)", "<inline>");
  EXPECT_EQ(model.gravity, Vec3(0, 0, -9.81));
  EXPECT_EQ(model.joints[0].name, "gimbal");
  EXPECT_EQ(model.joints[1].name, "pitch");
  EXPECT_TRUE(model.joints[0].actuated);
  EXPECT_FALSE(model.joints[1].actuated);
  EXPECT_EQ(model.joints[0].origin, Vec3::Zero());
  EXPECT_EQ(model.bodies[0].com, Vec3::Zero());
  EXPECT_EQ(model.bodies[0].inertia, Mat3::Zero());
  EXPECT_EQ(model.bodies[0].mass, 0.0);
  EXPECT_FALSE(model.joints[0].friction.has_value());
  EXPECT_FALSE(model.joints[0].limits.has_value());
}

// Catches: friction keys mapped to the wrong fields, LuGre parameters lost, a
// prismatic load wrongly demanding the (unused) pin radius.
TEST(ModelFile, FrictionAndLimitsAreRead) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: friction
bodies:
  - name: A
    parent: ground
    joint:
      type: revolute
      axis: [0, 0, 1]
      friction: {model: lugre, coulomb: 0.1, static: 0.15, viscous: 0.02, stribeck_velocity: 0.01,
                 bristle_stiffness: 1000, bristle_damping: 3}
      limits: {lower: -1, upper: 2, effort: 30, velocity: 4}
    mass: 1
    inertia: {diag: [1, 1, 1]}
  - name: B
    parent: A
    joint:
      type: prismatic
      axis: [1, 0, 0]
      friction: {model: brown_mcphee, coulomb: 0.2, static: 0.3, stribeck_velocity: 0.05,
                 load: {bending_arm: 0.04, friction_arm: 0.02}}
    mass: 1
    inertia: {diag: [1, 1, 1]}
)", "<inline>");
  const JointFriction& a = *model.joints[0].friction;
  EXPECT_EQ(a.model, FrictionModel::LuGre);
  EXPECT_EQ(a.coulomb, 0.1);
  EXPECT_EQ(a.static_coefficient, 0.15);
  EXPECT_EQ(a.viscous, 0.02);
  EXPECT_EQ(a.stribeck_velocity, 0.01);
  EXPECT_EQ(a.bristle_stiffness, 1000.0);
  EXPECT_EQ(a.bristle_damping, 3.0);
  EXPECT_FALSE(a.load.has_value());
  const JointLimits& l = *model.joints[0].limits;
  EXPECT_EQ(l.lower, -1.0);
  EXPECT_EQ(l.upper, 2.0);
  EXPECT_EQ(l.effort, 30.0);
  EXPECT_EQ(l.velocity, 4.0);
  const JointFriction& b = *model.joints[1].friction;
  EXPECT_EQ(b.model, FrictionModel::BrownMcPhee);
  EXPECT_EQ(b.viscous, 0.0);
  ASSERT_TRUE(b.load.has_value());
  EXPECT_EQ(b.load->pin_radius, 0.0);
  EXPECT_EQ(b.load->bending_arm, 0.04);
  EXPECT_EQ(b.load->friction_arm, 0.02);
}

// Catches: any drift of the five-axis example from the paper's Table 2
// (explicit-canonical-dynamics-joint-friction), which the reference tests rely on.
TEST(ModelFile, FiveAxisTreeEqualsTable2) {
  const Model model = load_model_file(kModels + "five_axis_tree.yaml");
  ASSERT_EQ(model.num_bodies(), 5);
  EXPECT_EQ(model.nq, 5);
  EXPECT_EQ(model.gravity, Vec3(0, 0, -9.8));
  const char* names[] = {"L1", "L2", "L3", "L4", "L5"};
  const int parents[] = {kGround, 0, 1, 0, 3};
  const Vec3 origins[] = {{0, 0, 0}, {-0.4, 0, 0}, {0.6, 1.0392, 0}, {-0.2, 0, 0}, {0.6, -1.0392, 0}};
  const Vec3 coms[] = {{-0.2, 0, 0}, {0.3, 0.5196, 0}, {0.3, -0.5196, 0}, {0.3, -0.5196, 0}, {0.3, 0.5196, 0}};
  const double masses[] = {1, 3, 3, 2, 2};
  const Vec3 moments[] = {{0.002, 0.01, 0.01}, {0.008, 0.06, 0.06}, {0.008, 0.06, 0.06},
                          {0.005, 0.04, 0.04}, {0.005, 0.04, 0.04}};
  for (int i = 0; i < 5; ++i) {
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(model.bodies[i].name, names[i]);
    EXPECT_EQ(model.bodies[i].parent, parents[i]);
    EXPECT_EQ(model.joints[i].type, JointType::Revolute);
    EXPECT_EQ(model.joints[i].axis, Vec3(0, 0, 1));
    EXPECT_EQ(model.joints[i].origin, origins[i]);
    EXPECT_EQ(model.bodies[i].com, coms[i]);
    EXPECT_EQ(model.bodies[i].mass, masses[i]);
    EXPECT_EQ(model.bodies[i].inertia, moments[i].asDiagonal().toDenseMatrix());
    EXPECT_FALSE(model.joints[i].friction.has_value());
  }
  // The Stribeck variant: same mechanism, Table 2's friction on every joint.
  const Model stribeck = load_model_file(kModels + "five_axis_tree_stribeck.yaml");
  ASSERT_EQ(stribeck.num_bodies(), 5);
  for (int i = 0; i < 5; ++i) {
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(stribeck.joints[i].origin, origins[i]);
    EXPECT_EQ(stribeck.bodies[i].com, coms[i]);
    ASSERT_TRUE(stribeck.joints[i].friction.has_value());
    const JointFriction& f = *stribeck.joints[i].friction;
    EXPECT_EQ(f.model, FrictionModel::Stribeck);
    EXPECT_EQ(f.coulomb, 0.005);
    EXPECT_EQ(f.static_coefficient, 0.05);
    EXPECT_EQ(f.viscous, 0.01);
    EXPECT_EQ(f.stribeck_velocity, 0.03);
  }
}

// Franka's modified DH (Craig) transform of one row: RotX(α) TransX(a) RotZ(θ) TransZ(d).
Eigen::Isometry3d craig(double a, double d, double alpha, double theta) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.rotate(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
  t.translate(Vec3(a, 0, 0));
  t.rotate(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
  t.translate(Vec3(0, 0, d));
  return t;
}

// Catches: a wrong axis sign or origin in the Panda example's conversion from DH
// frames to natural frames, or a com/inertia not rotated into world directions.
// Reference: the published DH table evaluated directly at an arbitrary q.
TEST(ModelFile, PandaMatchesItsDenavitHartenbergTable) {
  const Model model = load_model_file(kModels + "panda_7dof.yaml");
  ASSERT_EQ(model.nq, 7);
  const double a[] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088};
  const double d[] = {0.333, 0, 0.316, 0, 0.384, 0, 0};
  const double alpha[] = {0, -M_PI / 2, M_PI / 2, M_PI / 2, -M_PI / 2, M_PI / 2, M_PI / 2};
  // franka_description's link-frame centres of mass.
  const Vec3 link_com[] = {{0.003875, 0.002081, -0.04762}, {-0.003141, -0.02872, 0.003495},
                           {2.7518e-2, 3.9252e-2, -6.6502e-2}, {-5.317e-2, 1.04419e-1, 2.7454e-2},
                           {-1.1953e-2, 4.1065e-2, -3.8437e-2}, {6.0149e-2, -1.4117e-2, -1.0517e-2},
                           {1.0517e-2, -4.252e-3, 6.1597e-2}};
  VecX q(7);
  q << 0.3, -0.7, 0.5, -2.0, 0.4, 1.8, -0.6;
  Data data(model);
  forward_kinematics(model, data, q);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  for (int k = 0; k < 7; ++k) {
    t = t * craig(a[k], d[k], alpha[k], q(k));
    SCOPED_TRACE("link" + std::to_string(k + 1));
    EXPECT_LT((data.position[k] - t.translation()).norm(), 1e-12);
    EXPECT_LT((data.com_position[k] - t * link_com[k]).norm(), 1e-12);
  }
  const Vec3 flange = (t * craig(0, 0.107, 0, 0)).translation();
  const Vec3 marker = data.position[6] + data.rotation[6] * model.markers[0].at.point;
  EXPECT_LT((marker - flange).norm(), 1e-12);
}

// Catches: loops and markers read into the wrong bodies or points.
TEST(ModelFile, LoopsAndMarkersAreRead) {
  const Model four_bar = load_model_file(kModels + "four_bar.yaml");
  ASSERT_EQ(four_bar.loops.size(), 1u);
  const Loop& loop = four_bar.loops[0];
  EXPECT_EQ(loop.type, LoopType::PlanarRevolute);
  EXPECT_EQ(loop.a.body, *four_bar.body_index("coupler"));
  EXPECT_EQ(loop.b.body, *four_bar.body_index("rocker"));
  EXPECT_EQ(loop.a.point, Vec3(0.35, 0, 0));
  EXPECT_FALSE(four_bar.joints[1].actuated);
  const Model arm = load_model_file(kModels + "planar_3dof_arm.yaml");
  ASSERT_EQ(arm.markers.size(), 1u);
  EXPECT_EQ(arm.markers[0].name, "tip");
  EXPECT_EQ(arm.markers[0].at.body, 2);
  EXPECT_EQ(arm.markers[0].at.point, Vec3(0.3, 0, 0));
  EXPECT_EQ(arm.gravity, Vec3(0, -9.81, 0));
}

}  // namespace
}  // namespace mechdyn
