// Robot description files in and out (docs/robot-files.md): round trips through URDF and
// MJCF, hand-computed frame and inertia transforms, the closed-loop SDFormat four-bar
// against examples/models/four_bar.yaml, joint-type mapping of each reader.
// Catches: a rotation applied the wrong way round (R J Rᵀ vs Rᵀ J R, roll-pitch-yaw order),
// inertias taken about the link origin instead of the centre of mass, an axis left in the
// joint frame, a coordinate lost or reordered by a writer (universal → two hinges), loop
// points on the wrong body, a cut joint not recognised in SDFormat, MJCF refs ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <vector>

#include "cli_runner.hpp"
#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/io/sdf.hpp"
#include "mechdyn/io/urdf.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Where each coordinate of model `a` sits in model `b` (matched by joint name; a
// universal joint "u" may have become the two revolute joints "u/1", "u/2"): q index
// and v index maps. Writers keep the coordinates but readers number bodies depth first.
struct CoordinateMap {
  std::vector<int> q, v;
};
CoordinateMap coordinate_map(const Model& a, const Model& b) {
  CoordinateMap map{std::vector<int>(a.nq, -1), std::vector<int>(a.nv, -1)};
  for (const Joint& joint : a.joints) {
    std::vector<const Joint*> parts;
    if (const auto j = b.joint_index(joint.name)) {
      parts.push_back(&b.joints[*j]);
    } else {
      for (const char* suffix : {"/1", "/2"})
        if (const auto k = b.joint_index(joint.name + suffix)) parts.push_back(&b.joints[*k]);
    }
    int nq = 0, nv = 0;
    for (const Joint* part : parts) {
      for (int k = 0; k < part->nq; ++k)
        if (nq + k < joint.nq) map.q[joint.q_index + nq + k] = part->q_index + k;
      for (int k = 0; k < part->nv; ++k)
        if (nv + k < joint.nv) map.v[joint.v_index + nv + k] = part->v_index + k;
      nq += part->nq;
      nv += part->nv;
    }
    EXPECT_EQ(nq, joint.nq) << "joint " << joint.name;
    EXPECT_EQ(nv, joint.nv) << "joint " << joint.name;
  }
  return map;
}

// Largest |M_a − M_b| and |h_a − h_b| over `samples` random states, relative to the
// largest entry of M_a (h: of h_a, at least 1), coordinates matched by coordinate_map.
double dynamics_difference(const Model& a, const Model& b, unsigned seed, int samples = 20) {
  EXPECT_EQ(a.nq, b.nq);
  EXPECT_EQ(a.nv, b.nv);
  if (a.nq != b.nq || a.nv != b.nv) return 1.0;
  const CoordinateMap map = coordinate_map(a, b);
  for (const int k : map.q)
    if (k < 0) return 1.0;
  for (const int k : map.v)
    if (k < 0) return 1.0;
  Data da(a), db(b);
  std::mt19937 rng(seed);
  double worst = 0.0;
  for (int s = 0; s < samples; ++s) {
    const VecX q = testing::random_configuration(a, rng);
    const VecX v = testing::random_vector(a.nv, rng);
    VecX qb(b.nq), vb(b.nv);
    for (int k = 0; k < a.nq; ++k) qb[map.q[k]] = q[k];
    for (int k = 0; k < a.nv; ++k) vb[map.v[k]] = v[k];
    const MatX Ma = crba(a, da, q), Mb = crba(b, db, qb);
    const VecX ha = rnea(a, da, q, v, VecX::Zero(a.nv)), hb = rnea(b, db, qb, vb, VecX::Zero(b.nv));
    double m = 0.0, h = 0.0;
    for (int i = 0; i < a.nv; ++i) {
      h = std::max(h, std::abs(ha[i] - hb[map.v[i]]));
      for (int j = 0; j < a.nv; ++j) m = std::max(m, std::abs(Ma(i, j) - Mb(map.v[i], map.v[j])));
    }
    worst = std::max(worst, m / std::max(1e-300, Ma.cwiseAbs().maxCoeff()));
    worst = std::max(worst, h / std::max(1.0, ha.cwiseAbs().maxCoeff()));
  }
  return worst;
}

Model reread(const Model& model, ModelFormat format, std::vector<std::string>* warnings = nullptr) {
  const std::string text = write_model_string(model, format, warnings);
  return load_model_from_string(text, format, "<round trip>", {}, warnings);
}

// ---- round trips -------------------------------------------------------------------

// Catches: a joint kind whose axis keys the YAML writer does not write. The random trees
// above have no cylindrical joint; a cylindrical joint written without `axis` could not
// be read back ("missing required key 'axis' for a cylindrical joint", issue 30).
TEST(RobotFileRoundTrip, YamlRereadsEveryJointType) {
  const Model model = parse_model_string(R"(
mechdyn: 1
name: every_joint_type
bodies:
  - {name: R, parent: ground, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: P, parent: R, joint: {type: prismatic, axis: [1, 0, 0], origin: [0.1, 0, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: U, parent: P, joint: {type: universal, axes: [[1, 0, 0], [0, 1, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: S, parent: U, joint: {type: spherical, origin: [0, 0.2, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: C, parent: S, joint: {type: cylindrical, axis: [0, 0.6, 0.8], origin: [0, 0, 0.3]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: X, parent: C, joint: {type: fixed, origin: [0.1, 0.1, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
  - {name: F, parent: ground, joint: {type: free, origin: [1, 0, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}
)", "<inline>");
  const Model back = reread(model, ModelFormat::Yaml);
  ASSERT_EQ(back.num_bodies(), model.num_bodies());
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Joint& a = model.joints[static_cast<std::size_t>(i)];
    const Joint& b = back.joints[static_cast<std::size_t>(i)];
    EXPECT_EQ(b.type, a.type) << a.name;
    EXPECT_EQ(b.axis, a.axis) << a.name;
    EXPECT_EQ(b.second_axis, a.second_axis) << a.name;
    EXPECT_EQ(b.origin, a.origin) << a.name;
  }
  EXPECT_EQ(write_model_yaml(back), write_model_yaml(model));
}

TEST(RobotFileRoundTrip, YamlIsRereadBitForBit) {
  // Catches: a number written with too few digits, a key the reader does not know.
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = testing::random_tree(seed, {12});
    const Model back = reread(model, ModelFormat::Yaml);
    EXPECT_EQ(write_model_yaml(back), write_model_yaml(model)) << "seed " << seed;
    EXPECT_EQ(dynamics_difference(model, back, seed), 0.0);
  }
}

TEST(RobotFileRoundTrip, UrdfKeepsTheDynamicsOfTrees) {
  // Revolute/prismatic random trees plus a universal joint (two URDF joints through a
  // massless link), a fixed joint and a floating root: M(q) and h(q, v) to 1e-12.
  for (unsigned seed = 1; seed <= 5; ++seed) {
    testing::RandomTreeOptions options;
    options.bodies = 10;
    options.all_joint_types = false;
    Model model = testing::random_tree(seed, options);
    model.joints[0].type = JointType::Free;
    model.joints[3].type = JointType::Universal;
    model.joints[3].second_axis = model.joints[3].axis.unitOrthogonal();
    model.joints[5].type = JointType::Fixed;
    model.gravity = Vec3(0, 0, -9.81);  // URDF has no gravity: readers take this one
    finalize_model(model, "urdf_round_trip");
    std::vector<std::string> warnings;
    const Model back = reread(model, ModelFormat::Urdf, &warnings);
    EXPECT_LT(dynamics_difference(model, back, seed), 1e-12) << "seed " << seed;
    for (int i = 0; i < model.num_bodies(); ++i)
      if (model.joints[i].type != JointType::Universal)
        EXPECT_TRUE(back.joint_index(model.joints[i].name).has_value()) << model.joints[i].name;
  }
}

TEST(RobotFileRoundTrip, MjcfKeepsTheDynamicsOfTreesWithEveryJointType) {
  // Every joint type (free at the roots: MuJoCo allows free joints only there).
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = testing::random_tree(seed, {12});
    const Model back = reread(model, ModelFormat::Mjcf);
    EXPECT_LT(dynamics_difference(model, back, seed), 1e-12) << "seed " << seed;
  }
}

TEST(RobotFileRoundTrip, MjcfOfTheFourBarIsPosedAssembledAndReadBackAtTheSameCoordinates) {
  // The four-bar's cut points do not meet at q = 0, so the MJCF is written posed at an
  // assembled configuration with joint refs (io/mjcf.hpp); the reader turns the refs
  // back, so the same q means the same pose. Catches: refs ignored (q shifted by q*),
  // connect anchors on the wrong body, actuation lost (the motor on the crank only).
  const Model model = testing::example_model("four_bar.yaml");
  std::vector<std::string> warnings;
  const Model back = reread(model, ModelFormat::Mjcf, &warnings);
  EXPECT_LT(dynamics_difference(model, back, 7), 1e-12);
  ASSERT_EQ(back.loops.size(), 1u);
  EXPECT_TRUE(back.joints[0].actuated);
  EXPECT_FALSE(back.joints[1].actuated);
  EXPECT_FALSE(back.joints[2].actuated);
  Data data(model), data_back(back);
  for (const double crank : {0.3, 1.1, 2.5}) {
    VecX q(3), v(3), a(3);
    q << crank, 0.2, 1.4;
    assemble(model, data, q);
    loop_closure(back, data_back, q);
    EXPECT_LT(data_back.loop_residual.lpNorm<Eigen::Infinity>(), 1e-12) << crank;
    v << 1.3, 0, 0;
    a << -0.4, 0, 0;
    VecX q2 = q, v2 = v, a2 = a;
    closed_chain_inverse_dynamics(model, data, q, v, a);
    closed_chain_inverse_dynamics(back, data_back, q2, v2, a2);
    EXPECT_NEAR(data.tau[0], data_back.tau[0], 1e-9 * std::max(1.0, std::abs(data.tau[0]))) << crank;
  }
}

TEST(RobotFileRoundTrip, UrdfRefusesLoopsAndSphericalJoints) {
  // The URDF writer writes trees only: a model with loops is refused, naming the loop.
  const Model four_bar = testing::example_model("four_bar.yaml");
  try {
    write_urdf(four_bar);
    FAIL() << "a model with loops was written as URDF";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("loop 'coupler_rocker'"), std::string::npos) << e.what();
  }
  Model ball = testing::random_tree(3, {4});
  ball.joints[1].type = JointType::Spherical;
  finalize_model(ball, "ball");
  EXPECT_THROW(write_urdf(ball), ModelError);
}

// ---- every joint and cut-joint type through every writer (issue 30) -----------------

// The axis keys each joint type needs in a model file, written here independently of
// joint_axis_count: the YAML writer must write exactly these for the reader to accept it.
int expected_axis_count(JointType type) {
  if (type == JointType::Revolute || type == JointType::Prismatic || type == JointType::Cylindrical) return 1;
  return type == JointType::Universal ? 2 : 0;
}
int expected_axis_count(LoopType type) {
  if (type == LoopType::Revolute || type == LoopType::Prismatic || type == LoopType::PlanarRevolute) return 1;
  return type == LoopType::Universal ? 2 : 0;
}

constexpr JointType kEveryJointType[] = {JointType::Revolute, JointType::Prismatic,   JointType::Universal,
                                         JointType::Spherical, JointType::Free,       JointType::Fixed,
                                         JointType::Cylindrical};
constexpr LoopType kEveryLoopType[] = {LoopType::Revolute, LoopType::Prismatic, LoopType::Universal,
                                       LoopType::Spherical, LoopType::Fixed,     LoopType::PlanarRevolute};

// A refusal is one line naming the element and the format.
void expect_refusal(const std::function<void()>& write, const std::string& element, const std::string& format) {
  try {
    write();
    ADD_FAILURE() << element << " was written as " << format;
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(element), std::string::npos) << message;
    EXPECT_NE(message.find(format), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

void expect_refusal_of_model(Model model, const std::string& element, const std::string& problem) {
  expect_refusal([&] { finalize_model(model, "model"); }, element, problem);
}

// A joint type for a random tree's body and its axis (zero: keep the random axis).
struct JointChoice {
  JointType type;
  Vec3 axis;
};

// The choices both trees below start with: a free root, revolute and prismatic joints about
// ±e_x, ±e_y, ±e_z and a random axis, a universal and a spherical joint.
std::vector<JointChoice> every_axis_choice() {
  return {{JointType::Free, Vec3::Zero()},        {JointType::Revolute, Vec3::UnitX()},
          {JointType::Revolute, -Vec3::UnitY()},  {JointType::Revolute, Vec3::UnitZ()},
          {JointType::Revolute, Vec3::Zero()},    {JointType::Prismatic, -Vec3::UnitX()},
          {JointType::Prismatic, Vec3::UnitY()},  {JointType::Prismatic, Vec3::UnitZ()},
          {JointType::Prismatic, Vec3::Zero()},   {JointType::Universal, Vec3::Zero()},
          {JointType::Spherical, Vec3::Zero()}};
}

// random_tree with body i's joint taking choices[i] (not finalised).
Model tree_of_choices(unsigned seed, const std::vector<JointChoice>& choices) {
  const int bodies = static_cast<int>(choices.size());
  Model model = testing::random_tree(seed, {bodies});
  for (int i = 0; i < bodies; ++i) {
    Joint& joint = model.joints[static_cast<std::size_t>(i)];
    joint.type = choices[static_cast<std::size_t>(i)].type;
    if (!choices[static_cast<std::size_t>(i)].axis.isZero()) joint.axis = choices[static_cast<std::size_t>(i)].axis;
  }
  return model;
}

// A random tree whose joints take every kind (the specialised revolute and prismatic kinds
// about ±e_x, ±e_y, ±e_z included), one cut joint of every type between random bodies, a
// gear coupling, armature, a passive joint and limits.
Model model_with_every_joint_and_cut_joint(unsigned seed) {
  std::vector<JointChoice> choices = every_axis_choice();
  choices.insert(choices.end(), {{JointType::Free, Vec3::Zero()},
                                 {JointType::Cylindrical, Vec3::Zero()},
                                 {JointType::Fixed, Vec3::Zero()},
                                 {JointType::Revolute, Vec3::Zero()},
                                 {JointType::Prismatic, Vec3::Zero()}});
  Model model = tree_of_choices(seed, choices);
  const int bodies = model.num_bodies();
  std::mt19937 rng(seed + 77);
  std::uniform_real_distribution<double> u(-0.4, 0.4);
  std::uniform_int_distribution<int> any_body(0, bodies - 1), body_or_ground(-1, bodies - 1);
  auto random_point = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  for (const LoopType type : kEveryLoopType) {
    Loop loop;
    loop.name = std::string("cut_") + loop_type_name(type);
    loop.type = type;
    loop.a = {any_body(rng), random_point()};  // a is a body, b may be ground (model-format.md)
    do loop.b = {body_or_ground(rng), random_point()};
    while (loop.b.body == loop.a.body);
    loop.axis = random_point().normalized();
    loop.second_axis = loop.axis.unitOrthogonal();
    model.loops.push_back(loop);
  }
  model.joints[4].armature = 0.03;
  model.joints[14].actuated = false;
  model.joints[15].limits = JointLimits{};
  model.joints[15].limits->lower = -0.2;
  model.joints[15].limits->upper = 0.5;
  model.joints[15].limits->effort = 40.0;
  model.couplings.push_back({"gear", CouplingType::Gear, 4, 14, -2.5, 0.125});
  finalize_model(model, "every_joint_and_cut_joint");
  return model;
}

// Catches: a joint or cut-joint type whose keys the YAML writer leaves out or misnames
// (a cylindrical joint written without `axis`, a universal cut joint's axes swapped), a
// coupling, armature, limit or passive flag lost, a specialised kind not recovered from
// its axis. Compared: every field, the text written twice, and M(q), RNEA(q, v, a), the
// closure residual Φ(q) and its Jacobian at random states (of the tree written by hand,
// not by the reader).
TEST(RobotFileRoundTrip, YamlKeepsEveryJointCutJointAndCouplingFieldAndTheDynamics) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Model model = model_with_every_joint_and_cut_joint(seed);
    std::set<JointKind> kinds;
    for (const Joint& joint : model.joints) kinds.insert(joint.kind);
    ASSERT_EQ(static_cast<int>(kinds.size()), kJointKindCount) << "the model misses a joint kind";
    const Model back = reread(model, ModelFormat::Yaml);
    ASSERT_EQ(back.num_bodies(), model.num_bodies());
    for (int i = 0; i < model.num_bodies(); ++i) {
      const Joint& a = model.joints[static_cast<std::size_t>(i)];
      const Joint& b = back.joints[static_cast<std::size_t>(i)];
      const Body& body_a = model.bodies[static_cast<std::size_t>(i)];
      const Body& body_b = back.bodies[static_cast<std::size_t>(i)];
      EXPECT_EQ(b.name, a.name);
      EXPECT_EQ(b.type, a.type) << a.name;
      EXPECT_EQ(b.kind, a.kind) << a.name;
      if (expected_axis_count(a.type) >= 1) EXPECT_EQ(b.axis, a.axis) << a.name;
      if (expected_axis_count(a.type) == 2) EXPECT_EQ(b.second_axis, a.second_axis) << a.name;
      EXPECT_EQ(b.origin, a.origin) << a.name;
      EXPECT_EQ(b.actuated, a.actuated) << a.name;
      EXPECT_EQ(b.armature, a.armature) << a.name;
      EXPECT_EQ(b.limits.has_value(), a.limits.has_value()) << a.name;
      if (a.limits && b.limits) {
        EXPECT_EQ(b.limits->lower, a.limits->lower) << a.name;
        EXPECT_EQ(b.limits->upper, a.limits->upper) << a.name;
        EXPECT_EQ(b.limits->effort, a.limits->effort) << a.name;
      }
      EXPECT_EQ(b.q_index, a.q_index) << a.name;
      EXPECT_EQ(b.v_index, a.v_index) << a.name;
      EXPECT_EQ(body_b.name, body_a.name);
      EXPECT_EQ(body_b.parent, body_a.parent) << body_a.name;
      EXPECT_EQ(body_b.mass, body_a.mass) << body_a.name;
      EXPECT_EQ(body_b.com, body_a.com) << body_a.name;
      EXPECT_EQ(body_b.inertia, body_a.inertia) << body_a.name;
    }
    ASSERT_EQ(back.loops.size(), model.loops.size());
    for (std::size_t k = 0; k < model.loops.size(); ++k) {
      const Loop& a = model.loops[k];
      const Loop& b = back.loops[k];
      EXPECT_EQ(b.name, a.name);
      EXPECT_EQ(b.type, a.type) << a.name;
      EXPECT_EQ(b.a.body, a.a.body) << a.name;
      EXPECT_EQ(b.a.point, a.a.point) << a.name;
      EXPECT_EQ(b.b.body, a.b.body) << a.name;
      EXPECT_EQ(b.b.point, a.b.point) << a.name;
      if (expected_axis_count(a.type) >= 1) EXPECT_EQ(b.axis, a.axis) << a.name;
      if (expected_axis_count(a.type) == 2) EXPECT_EQ(b.second_axis, a.second_axis) << a.name;
    }
    ASSERT_EQ(back.couplings.size(), 1u);
    EXPECT_EQ(back.couplings[0].name, "gear");
    EXPECT_EQ(back.couplings[0].a, 4);
    EXPECT_EQ(back.couplings[0].b, 14);
    EXPECT_EQ(back.couplings[0].ratio, -2.5);
    EXPECT_EQ(back.couplings[0].offset, 0.125);
    EXPECT_EQ(write_model_yaml(back), write_model_yaml(model)) << "seed " << seed;
    // A cut joint with ground on side a cannot be written (the reader refuses it), so the
    // model refuses it where it is made. Catches: finalize_model accepting it (it did).
    Model ground_on_a = model;
    ground_on_a.loops[0].a.body = kGround;
    expect_refusal_of_model(ground_on_a, "loop 'cut_revolute'", "not ground");

    Data da(model), db(back);
    std::mt19937 rng(seed);
    for (int sample = 0; sample < 5; ++sample) {
      const VecX q = testing::random_configuration(model, rng);
      const VecX v = testing::random_vector(model.nv, rng);
      const VecX a = testing::random_vector(model.nv, rng);
      const MatX Ma = crba(model, da, q), Mb = crba(back, db, q);
      EXPECT_LT((Ma - Mb).cwiseAbs().maxCoeff(), 1e-12 * Ma.cwiseAbs().maxCoeff()) << "seed " << seed;
      const VecX ta = rnea(model, da, q, v, a), tb = rnea(back, db, q, v, a);
      EXPECT_LT((ta - tb).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, ta.cwiseAbs().maxCoeff())) << "seed " << seed;
      loop_closure(model, da, q);
      loop_closure(back, db, q);
      ASSERT_EQ(db.loop_residual.size(), da.loop_residual.size());
      ASSERT_EQ(da.loop_residual.size(), 5 + 5 + 4 + 3 + 6 + 2 + 1);  // R, P, U, S, fixed, planar cuts; gear
      EXPECT_LT((da.loop_residual - db.loop_residual).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
      EXPECT_LT((da.loop_jacobian - db.loop_jacobian).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
    }
  }
}

// Two bodies: 'tested' on ground with a joint of `type`, a revolute 'link' below it.
Model two_bodies_with(JointType type) {
  Model model = testing::random_tree(11, {2});
  model.joints[0].type = type;
  model.joints[0].name = "tested";
  model.joints[1].type = JointType::Revolute;
  model.gravity = Vec3(0, 0, -9.81);  // URDF's
  finalize_model(model, "one_joint_type");
  return model;
}

// Catches: a joint type a robot-file writer silently drops or mistranslates. URDF has
// revolute/continuous, prismatic, floating and fixed joints (a universal joint goes
// through a massless link); MJCF (MuJoCo 2.2.2) hinge, slide, ball, free and welded
// bodies (a universal joint is two hinges, a cylindrical one a hinge and a slide on one
// axis, read back as one cylindrical joint). What a format cannot say is refused in one
// line naming the joint and format: URDF's spherical and cylindrical joints.
TEST(RobotFileRoundTrip, EveryJointTypeIsWrittenAsUrdfAndMjcfOrRefusedInOneLine) {
  for (const JointType type : kEveryJointType) {
    const Model model = two_bodies_with(type);
    const std::string name = joint_type_name(type);
    const bool urdf = type != JointType::Spherical && type != JointType::Cylindrical;
    const bool mjcf = true;
    if (type == JointType::Cylindrical) {  // read back as one joint of the same name and type
      const Model back = reread(model, ModelFormat::Mjcf);
      ASSERT_EQ(back.num_bodies(), model.num_bodies());
      EXPECT_EQ(back.joints[0].name, "tested");
      EXPECT_EQ(back.joints[0].type, JointType::Cylindrical);
      EXPECT_LT((back.joints[0].axis - model.joints[0].axis).norm(), 1e-15);
    }
    if (urdf) {
      std::vector<std::string> warnings;
      EXPECT_LT(dynamics_difference(model, reread(model, ModelFormat::Urdf, &warnings), 5), 1e-12) << name;
    } else {
      expect_refusal([&] { write_urdf(model); }, "joint 'tested'", "URDF");
    }
    if (mjcf) {
      std::vector<std::string> warnings;
      EXPECT_LT(dynamics_difference(model, reread(model, ModelFormat::Mjcf, &warnings), 5), 1e-12) << name;
    } else {
      expect_refusal([&] { write_mjcf(model); }, "joint 'tested'", "MJCF");
    }
  }
  // MuJoCo's free joints live only in top-level bodies.
  Model inner_free = two_bodies_with(JointType::Revolute);
  inner_free.joints[1].type = JointType::Free;
  finalize_model(inner_free, "inner_free");
  expect_refusal([&] { write_mjcf(inner_free); }, "joint 'J1'", "MuJoCo");
}

// A tree with every joint kind MJCF can hold (a free joint at the root only, MuJoCo's rule).
Model tree_with_every_joint_kind(unsigned seed) {
  std::vector<JointChoice> choices = every_axis_choice();
  choices.insert(choices.end(), {{JointType::Cylindrical, Vec3::Zero()},
                                 {JointType::Fixed, Vec3::Zero()},
                                 {JointType::Cylindrical, -Vec3::UnitZ()}});
  Model model = tree_of_choices(seed, choices);
  for (int i = 1; i < model.num_bodies(); ++i)
    if (model.bodies[static_cast<std::size_t>(i)].parent == kGround) model.bodies[static_cast<std::size_t>(i)].parent = 0;
  finalize_model(model, "every_joint_kind");
  return model;
}

// Catches: a joint kind the MJCF writer and reader do not carry through (a cylindrical
// joint refused, or read back as a hinge and a slide with a massless body between, or
// with its axis reversed or its coordinates swapped; a universal joint's hinges in the
// wrong order). Compared at random q, by body name (a universal joint comes back as two
// hinges through a massless body): every body's world pose and centre of mass from forward
// kinematics, and M(q), h(q, v) — not the text.
TEST(RobotFileRoundTrip, MjcfKeepsEveryTreeJointKindIncludingCylindrical) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Model model = tree_with_every_joint_kind(seed);
    std::vector<std::string> warnings;
    const Model back = reread(model, ModelFormat::Mjcf, &warnings);
    EXPECT_LT(dynamics_difference(model, back, seed, 5), 1e-12) << "seed " << seed;
    ASSERT_EQ(back.nq, model.nq);
    for (const Joint& joint : model.joints) {
      if (joint.type != JointType::Cylindrical) continue;
      const auto found = std::find_if(back.joints.begin(), back.joints.end(), [&](const Joint& j) { return j.name == joint.name; });
      ASSERT_NE(found, back.joints.end()) << joint.name;
      EXPECT_EQ(found->type, JointType::Cylindrical) << joint.name;
      EXPECT_LT((found->axis - joint.axis).norm(), 1e-15) << joint.name;
    }
    const CoordinateMap map = coordinate_map(model, back);  // the writer orders bodies depth first
    Data da(model), db(back);
    std::mt19937 rng(seed);
    for (int sample = 0; sample < 5; ++sample) {
      const VecX q = testing::random_configuration(model, rng);
      VecX qb(back.nq);
      for (int k = 0; k < model.nq; ++k) qb[map.q[static_cast<std::size_t>(k)]] = q[k];
      forward_kinematics(model, da, q);
      forward_kinematics(back, db, qb);
      for (int l = 0; l < model.num_bodies(); ++l) {
        const std::string& name = model.bodies[static_cast<std::size_t>(l)].name;
        const std::optional<int> b = back.body_index(name);
        ASSERT_TRUE(b.has_value()) << name;
        const std::size_t i = static_cast<std::size_t>(l), j = static_cast<std::size_t>(*b);
        EXPECT_LT((da.rotation[i] - db.rotation[j]).cwiseAbs().maxCoeff(), 1e-12) << name;
        EXPECT_LT((da.position[i] - db.position[j]).cwiseAbs().maxCoeff(), 1e-12) << name;
        EXPECT_LT((da.com_position[i] - db.com_position[j]).cwiseAbs().maxCoeff(), 1e-12) << name;
        EXPECT_NEAR(back.bodies[j].mass, model.bodies[i].mass, 1e-12 * model.bodies[i].mass) << name;
      }
    }
  }
}

// Catches: the MJCF reader joining a hinge and a slide that are not one cylindrical joint
// (another axis, another position, a slide with a range of its own): they stay two joints
// through a massless body, as MuJoCo moves them.
TEST(MjcfReader, JoinsAHingeAndASlideIntoACylindricalJointOnlyOnOneAxisAndPoint) {
  auto read = [](const std::string& slide, const std::string& hinge_name = "c/angle") {
    return load_model_from_string(R"(<mujoco model="pair"><compiler angle="radian" inertiafromgeom="false"/>
  <worldbody><body name="B" pos="0 0 1"><joint name=")" + hinge_name + R"(" type="hinge" axis="0 0 1"/>)" + slide + R"(
    <inertial pos="0.1 0 0" mass="1" diaginertia="0.1 0.1 0.1"/></body></worldbody></mujoco>)",
                                  ModelFormat::Mjcf, "<pair>");
  };
  const Model joined = read(R"(<joint name="c/shift" type="slide" axis="0 0 2"/>)");
  ASSERT_EQ(joined.num_bodies(), 1);
  EXPECT_EQ(joined.joints[0].type, JointType::Cylindrical);
  EXPECT_EQ(joined.joints[0].name, "c");  // write_mjcf's "<j>/angle", "<j>/shift" give "<j>"
  // A file's own hinge and slide (other names) stay two joints under their names.
  const Model own = read(R"(<joint name="move" type="slide" axis="0 0 1"/>)", "turn");
  ASSERT_EQ(own.num_bodies(), 2);
  EXPECT_EQ(own.joints[0].name, "turn");
  EXPECT_EQ(own.joints[1].name, "move");
  for (const std::string& slide : {std::string(R"(<joint name="c/shift" type="slide" axis="0 1 0"/>)"),
                                   std::string(R"(<joint name="c/shift" type="slide" axis="0 0 -1"/>)"),
                                   std::string(R"(<joint name="c/shift" type="slide" axis="0 0 1" pos="0.1 0 0"/>)"),
                                   std::string(R"(<joint name="c/shift" type="slide" axis="0 0 1" range="-1 1" limited="true"/>)")}) {
    const Model apart = read(slide);
    ASSERT_EQ(apart.num_bodies(), 2) << slide;
    EXPECT_EQ(apart.joints[0].type, JointType::Revolute) << slide;
    EXPECT_EQ(apart.joints[1].type, JointType::Prismatic) << slide;
  }
}

// A planar linkage closed at q = 0: 'crank' (ground, z) → 'coupler' (z), and 'rocker'
// (ground, z); the cut joint of `type` joins coupler and rocker at world (1.5, 0, 0).
Model planar_linkage_with_cut(LoopType type) {
  std::string text = R"(
mechdyn: 1
name: linkage
gravity: [0, 0, -9.81]
bodies:
  - {name: crank, parent: ground, joint: {name: crank, type: revolute, axis: [0, 0, 1]}, mass: 1, com: [0.5, 0, 0], inertia: {diag: [0.01, 0.1, 0.1]}}
  - {name: coupler, parent: crank, joint: {name: coupler, type: revolute, axis: [0, 0, 1], origin: [1, 0, 0]}, mass: 1, com: [0.25, 0, 0], inertia: {diag: [0.01, 0.05, 0.05]}}
  - {name: rocker, parent: ground, joint: {name: rocker, type: revolute, axis: [0, 0, 1], origin: [2, 0, 0]}, mass: 1, com: [-0.25, 0, 0], inertia: {diag: [0.01, 0.05, 0.05]}}
loops:
  - {name: cut, type: )";
  text += loop_type_name(type);
  text += ", a: {body: coupler, point: [0.5, 0, 0]}, b: {body: rocker, point: [-0.5, 0, 0]}";
  if (expected_axis_count(type) == 1) text += ", axis: [0, 0, 1]";
  if (expected_axis_count(type) == 2) text += ", axes: [[0, 0, 1], [1, 0, 0]]";
  text += "}\n";
  return parse_model_string(text, "<linkage>");
}

// Catches: a cut-joint type a writer drops or turns into a different constraint. URDF
// describes trees only: every cut joint is refused. MJCF writes spherical (a connect),
// revolute (two connects along the axis), planar-revolute (a connect, offset along the
// normal) and fixed (a weld) cut joints; their re-read model must allow the same
// velocities at the closed configuration (the null space of the closure Jacobian: for the
// revolute cut, 6 rows of rank 5 in place of 5); universal and prismatic are refused.
TEST(RobotFileRoundTrip, EveryCutJointTypeIsWrittenAsMjcfOrRefusedInOneLine) {
  for (const LoopType type : kEveryLoopType) {
    const Model model = planar_linkage_with_cut(type);
    const std::string name = loop_type_name(type);
    expect_refusal([&] { write_urdf(model); }, "loop 'cut'", "URDF");
    if (type == LoopType::Universal || type == LoopType::Prismatic) {
      expect_refusal([&] { write_mjcf(model); }, "loop 'cut'", "MuJoCo");
      continue;
    }
    std::vector<std::string> warnings;
    const Model back = reread(model, ModelFormat::Mjcf, &warnings);
    EXPECT_LT(dynamics_difference(model, back, 3), 1e-12) << name;
    const VecX q0 = VecX::Zero(model.nq);
    Data da(model), db(back);
    loop_closure(model, da, q0);
    loop_closure(back, db, q0);
    EXPECT_LT(da.loop_residual.lpNorm<Eigen::Infinity>(), 1e-12) << name;
    EXPECT_LT(db.loop_residual.lpNorm<Eigen::Infinity>(), 1e-12) << name;
    const Eigen::FullPivLU<MatX> lu_a(da.loop_jacobian), lu_b(db.loop_jacobian);
    EXPECT_EQ(lu_b.rank(), lu_a.rank()) << name;
    const MatX allowed = lu_a.kernel();
    if (lu_a.rank() < model.nv)
      EXPECT_LT((db.loop_jacobian * allowed).cwiseAbs().maxCoeff(), 1e-12) << name;
  }
}

// ---- frames and inertias by hand ----------------------------------------------------

TEST(UrdfReader, RotatedJointAndInertialFramesAreReexpressedInWorldAxes) {
  // Link 'arm': joint origin xyz (1 0 0) rpy (π/2 0 0); inertial origin xyz (0 0.1 0)
  // rpy (0 0 π/2), diagonal (1, 2, 3). With R_joint = Rx(π/2), R_inertial = Rz(π/2):
  //   R = Rx Rz maps x → z, y → −x, z → −y, so the principal axis of moment 1 (x) is
  //   world z, of moment 2 (y) world x, of moment 3 (z) world y: J = diag(2, 3, 1).
  //   com = (1,0,0) + Rx(π/2)(0, 0.1, 0) = (1, 0, 0.1): relative to the body origin (0, 0, 0.1).
  //   axis: <axis xyz="0 1 0"> in the joint frame → Rx(π/2) y = z.
  // Link 'tip' (child of 'arm'): joint origin rpy (0 0 π) in the arm's frame, so its
  // frame is R = Rx(π/2) Rz(π): x → −x, y → −z, z → −y; an inertia with the entries
  // ixy = 0.1, ixz = 0.2, iyz = 0.3 in its own axes becomes J_world = R J Rᵀ (below).
  const std::string urdf = R"(<robot name="frames">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0 0.1 0" rpy="0 0 1.5707963267948966"/><mass value="2"/>
      <inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tip">
    <inertial><origin xyz="0 0 0"/><mass value="1"/>
      <inertia ixx="1" iyy="1.5" izz="2" ixy="0.1" ixz="0.2" iyz="0.3"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="1 0 0" rpy="1.5707963267948966 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="2" effort="30" velocity="4"/>
    <dynamics damping="0.5" friction="0.25"/>
  </joint>
  <joint name="wrist" type="continuous">
    <parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.5" rpy="0 0 3.141592653589793"/><axis xyz="1 0 0"/>
  </joint>
</robot>)";
  std::vector<std::string> warnings;
  const Model model = read_urdf(urdf, "frames.urdf", {}, &warnings);
  ASSERT_EQ(model.num_bodies(), 3);  // base (massless, fixed, carries the arm), arm, tip
  const int arm = *model.body_index("arm"), tip = *model.body_index("tip");
  const Body& b = model.bodies[arm];
  EXPECT_TRUE(b.inertia.isApprox(Vec3(2, 3, 1).asDiagonal().toDenseMatrix(), 1e-15)) << b.inertia;
  EXPECT_TRUE(b.com.isApprox(Vec3(0, 0, 0.1), 1e-15)) << b.com.transpose();
  EXPECT_TRUE(model.joints[arm].axis.isApprox(Vec3(0, 0, 1), 1e-15));
  EXPECT_TRUE(model.joints[arm].origin.isApprox(Vec3(1, 0, 0), 1e-15));
  ASSERT_TRUE(model.joints[arm].limits.has_value());
  EXPECT_EQ(model.joints[arm].limits->lower, -1.0);
  EXPECT_EQ(model.joints[arm].limits->effort, 30.0);
  ASSERT_TRUE(model.joints[arm].friction.has_value());  // friction → Coulomb; damping → a joint damper
  EXPECT_EQ(model.joints[arm].friction->viscous, 0.0);
  EXPECT_EQ(model.joints[arm].friction->coulomb, 0.25);
  ASSERT_EQ(model.forces.size(), 1u);
  EXPECT_EQ(model.forces[0].type, ForceElementType::JointSpringDamper);
  EXPECT_EQ(model.forces[0].joint, arm);
  EXPECT_EQ(model.forces[0].damping, 0.5);
  // The tip: origin (0 0 0.5) in the arm's joint frame = Rx(π/2)(0, 0, 0.5) = (0, −0.5, 0).
  EXPECT_TRUE(model.joints[tip].origin.isApprox(Vec3(0, -0.5, 0), 1e-15)) << model.joints[tip].origin.transpose();
  // axis (1 0 0) in the tip frame = Rx(π/2) Rz(π) x = −x.
  EXPECT_TRUE(model.joints[tip].axis.isApprox(Vec3(-1, 0, 0), 1e-15));
  EXPECT_FALSE(model.joints[tip].limits.has_value());  // continuous: no limits
  // J_world(i, j) = Σ R(i,k) R(j,l) J(k,l); R's rows say world x = −local x, world y =
  // −local z, world z = −local y, so Jw(x,x) = J(x,x) = 1, Jw(y,y) = J(z,z) = 2,
  // Jw(z,z) = J(y,y) = 1.5, Jw(x,y) = (−1)(−1) J(x,z) = 0.2, Jw(x,z) = (−1)(−1) J(x,y) = 0.1,
  // Jw(y,z) = (−1)(−1) J(z,y) = 0.3.
  Mat3 expected;
  expected << 1, 0.2, 0.1, 0.2, 2, 0.3, 0.1, 0.3, 1.5;
  EXPECT_TRUE(model.bodies[tip].inertia.isApprox(expected, 1e-14)) << model.bodies[tip].inertia;
}

TEST(UrdfReader, JointTypesMapToTheModelFormat) {
  // prismatic → prismatic, floating → free (q: 7), planar → two prismatic + revolute,
  // a 'world' root is ground, the floating-base option frees the root.
  const std::string urdf = R"(<robot name="types">
  <link name="world"/>
  <link name="cart"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="puck"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="drone"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="rail" type="prismatic"><parent link="world"/><child link="cart"/><axis xyz="0 2 0"/>
    <limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
  <joint name="table" type="planar"><parent link="cart"/><child link="puck"/><axis xyz="0 0 1"/></joint>
  <joint name="air" type="floating"><parent link="world"/><child link="drone"/><origin xyz="0 0 3"/></joint>
</robot>)";
  std::vector<std::string> warnings;
  const Model model = read_urdf(urdf, "types.urdf", {}, &warnings);
  EXPECT_EQ(model.nv, 1 + 3 + 6);
  EXPECT_EQ(model.nq, 1 + 3 + 7);
  EXPECT_EQ(model.joints[*model.joint_index("rail")].type, JointType::Prismatic);
  EXPECT_TRUE(model.joints[*model.joint_index("rail")].axis.isApprox(Vec3(0, 1, 0)));
  EXPECT_EQ(model.joints[*model.joint_index("table_RZ")].type, JointType::Revolute);
  EXPECT_EQ(model.joints[*model.joint_index("air")].type, JointType::Free);
  EXPECT_TRUE(model.joints[*model.joint_index("air")].origin.isApprox(Vec3(0, 0, 3)));
}

TEST(UrdfReader, MimicJointIsAGearCouplingAndPassive) {
  // A gripper's mimic finger: q_mirror = 1 · q_finger + 0.001, a gear coupling (format 3);
  // the mimic joint keeps its coordinate and is passive. Catches a silently dropped
  // <mimic>, a mimic joint that vanishes from q, a and b swapped.
  const std::string urdf = R"(<robot name="gripper">
  <link name="palm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="left"><inertial><mass value="0.1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="right"><inertial><mass value="0.1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="finger" type="prismatic"><parent link="palm"/><child link="left"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.04" effort="10" velocity="1"/></joint>
  <joint name="finger_mirror" type="prismatic"><parent link="palm"/><child link="right"/><axis xyz="-1 0 0"/>
    <limit lower="0" upper="0.04" effort="10" velocity="1"/><mimic joint="finger" multiplier="1" offset="0.001"/></joint>
</robot>)";
  const Model model = read_urdf(urdf, "gripper.urdf");
  EXPECT_EQ(model.nv, 2);
  ASSERT_TRUE(model.joint_index("finger_mirror").has_value());
  ASSERT_EQ(model.couplings.size(), 1u);
  EXPECT_EQ(model.couplings[0].a, *model.joint_index("finger"));
  EXPECT_EQ(model.couplings[0].b, *model.joint_index("finger_mirror"));
  EXPECT_EQ(model.couplings[0].ratio, 1.0);
  EXPECT_EQ(model.couplings[0].offset, 0.001);
  EXPECT_FALSE(model.joints[*model.joint_index("finger_mirror")].actuated);
}

// ---- SDFormat with a closed loop ------------------------------------------------------

// four_bar.sdf is four_bar.yaml posed at q* (the file's header): q_yaml = q* + q_sdf.
VecX four_bar_offset() {
  VecX q(3);
  q << 0.6, 0.7609717562863446 - 0.6, 1.4505342009452713;
  return q;
}

Model four_bar_from_sdf() {
  std::vector<std::string> warnings;
  Model model = load_sdf(testing::source_path("examples/robots/four_bar.sdf"), {}, &warnings);
  // SDFormat has no actuation; four_bar.yaml drives the crank only.
  model.joints[*model.joint_index("coupler_joint")].actuated = false;
  model.joints[*model.joint_index("rocker_joint")].actuated = false;
  finalize_model(model, "four_bar.sdf");
  return model;
}

TEST(SdfReader, FourBarLoopIsACutJointClosedAsWritten) {
  // The fourth joint's child (the rocker) already hangs from rocker_joint: a revolute cut
  // joint at the rocker's tip, between the rocker and the coupler. Catches: a loop joint
  // taken as a tree joint (an error: two parents), points on the wrong link.
  const Model model = four_bar_from_sdf();
  ASSERT_EQ(model.loops.size(), 1u);
  EXPECT_EQ(model.loops[0].name, "coupler_rocker");
  EXPECT_EQ(model.loops[0].type, LoopType::Revolute);
  EXPECT_EQ(model.gravity, Vec3(0, -9.81, 0));
  Data data(model);
  loop_closure(model, data, VecX::Zero(3));
  EXPECT_LT(data.loop_residual.lpNorm<Eigen::Infinity>(), 1e-15);  // posed where it closes
}

TEST(SdfReader, FourBarClosureAndCrankTorqueMatchTheYamlModel) {
  // The same mechanism from two files: wherever four_bar.yaml is assembled at q, the SDF
  // model is closed at q − q*, with the same crank torque for the same crank motion (the
  // yaml's cut joint is planar-revolute, 2 rows; the SDF's spatial revolute, 5 rows with
  // 3 redundant — the physics must not change). Masses, centres of mass and rotated
  // inertias all enter the torque.
  const Model yaml = testing::example_model("four_bar.yaml");
  const Model sdf = four_bar_from_sdf();
  const VecX offset = four_bar_offset();
  Data dy(yaml), ds(sdf);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> crank_angle(-kPi, kPi), rate(-3, 3);
  for (int s = 0; s < 10; ++s) {
    VecX q = offset;
    q[0] = crank_angle(rng);
    assemble(yaml, dy, q);
    VecX qs = q - offset;
    loop_closure(sdf, ds, qs);
    EXPECT_LT(ds.loop_residual.lpNorm<Eigen::Infinity>(), 1e-9) << "sample " << s;
    VecX v = VecX::Zero(3), a = VecX::Zero(3);
    v[0] = rate(rng);
    a[0] = rate(rng);
    VecX vs = v, as = a;
    closed_chain_inverse_dynamics(yaml, dy, q, v, a);
    closed_chain_inverse_dynamics(sdf, ds, qs, vs, as);
    EXPECT_NEAR(dy.tau[0], ds.tau[0], 1e-9) << "sample " << s;
    EXPECT_LT((v - vs).lpNorm<Eigen::Infinity>(), 1e-9);
  }
}

TEST(SdfReader, FramesPosesAndJointTypes) {
  // A model posed in the world, a link with a rotated pose, a joint pose relative to its
  // child, ball and universal joints, a fixed joint, a free (unjointed) link.
  const std::string sdf = R"(<sdf version="1.9"><model name="m">
  <pose>1 0 0 0 0 1.5707963267948966</pose>
  <link name="a"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass>
    <inertia><ixx>1</ixx><iyy>2</iyy><izz>3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
  <link name="b"><pose>0 1 1 0 0 0</pose><inertial><mass>1</mass>
    <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
  <link name="c"><pose>0 2 1 0 0 0</pose><inertial><mass>1</mass>
    <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
  <link name="d"><pose>0 3 1 0 0 0</pose><inertial><mass>1</mass>
    <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
  <joint name="to_world" type="revolute"><parent>world</parent><child>a</child><axis><xyz>1 0 0</xyz></axis></joint>
  <joint name="ball" type="ball"><pose>0 -0.5 0 0 0 0</pose><parent>a</parent><child>b</child></joint>
  <joint name="cardan" type="universal"><parent>b</parent><child>c</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 0 1</xyz></axis2></joint>
  <joint name="weld" type="fixed"><parent>c</parent><child>d</child></joint>
</model></sdf>)";
  const Model model = read_sdf(sdf, "frames.sdf");
  // The model frame is turned by π/2 about z and moved by (1, 0, 0): link a's origin is
  // (1, 0, 1), its x axis is world y, so the joint axis is (0, 1, 0) and J = diag(2, 1, 3).
  const int a = *model.body_index("a"), b = *model.body_index("b");
  EXPECT_TRUE(model.joints[a].origin.isApprox(Vec3(1, 0, 1), 1e-15));
  EXPECT_TRUE(model.joints[a].axis.isApprox(Vec3(0, 1, 0), 1e-15));
  EXPECT_TRUE(model.bodies[a].inertia.isApprox(Vec3(2, 1, 3).asDiagonal().toDenseMatrix(), 1e-15));
  // Ball at (0, −0.5, 0) from b's frame (model axes): b at model (0, 1, 1) → joint at model
  // (0, 0.5, 1) → world (1 − 0.5, 0, 1); origin relative to a's (1, 0, 1) is (−0.5, 0, 0).
  EXPECT_EQ(model.joints[b].type, JointType::Spherical);
  EXPECT_TRUE(model.joints[b].origin.isApprox(Vec3(-0.5, 0, 0), 1e-15)) << model.joints[b].origin.transpose();
  EXPECT_TRUE(model.bodies[b].com.isApprox(Vec3(-0.5, 0, 0), 1e-15)) << model.bodies[b].com.transpose();
  const Joint& cardan = model.joints[*model.joint_index("cardan")];
  EXPECT_EQ(cardan.type, JointType::Universal);
  EXPECT_TRUE(cardan.axis.isApprox(Vec3(0, 1, 0), 1e-15));
  EXPECT_TRUE(cardan.second_axis.isApprox(Vec3(0, 0, 1), 1e-15));
  EXPECT_EQ(model.joints[*model.joint_index("weld")].type, JointType::Fixed);
  EXPECT_EQ(model.nv, 1 + 3 + 2);
}

TEST(SdfReader, AnUnjointedLinkIsFreeAndAStaticModelIsWelded) {
  const std::string link = R"(<link name="box"><pose>0 0 2 0 0 0</pose><inertial><mass>3</mass>
    <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>)";
  std::vector<std::string> warnings;
  const Model free = read_sdf("<sdf version='1.9'><model name='m'>" + link + "</model></sdf>", "free.sdf", "", {}, &warnings);
  EXPECT_EQ(free.joints[0].type, JointType::Free);
  EXPECT_TRUE(free.joints[0].origin.isApprox(Vec3(0, 0, 2)));
  ASSERT_FALSE(warnings.empty());  // never silent: the free joint is announced
  const Model welded =
      read_sdf("<sdf version='1.9'><model name='m'><static>true</static>" + link + "</model></sdf>", "static.sdf");
  EXPECT_EQ(welded.joints[0].type, JointType::Fixed);
}

// ---- MJCF -------------------------------------------------------------------------------

TEST(MjcfReader, GeomMassesAreTheSolidsOfUniformDensity) {
  // A capsule of radius r and half-length h along x (fromto), density ρ:
  //   m = ρ π r² (2h + 4r/3); I about its axis and across it checked against an independent
  //   slice-by-slice quadrature of the solid (discs of radius ρ(z) at height z):
  //   I_axis = ∫ ρ π r(z)⁴/2 dz, I_across = ∫ ρ π r(z)² (r(z)²/4 + z²) dz.
  const double r = 0.05, h = 0.2, density = 700;
  const std::string xml = R"(<mujoco><worldbody><body name="b"><joint type="hinge" axis="0 0 1"/>
    <geom type="capsule" size="0.05" fromto="-0.2 0 0 0.2 0 0" density="700"/></body></worldbody></mujoco>)";
  const Model model = read_mjcf(xml, "capsule.xml");
  auto radius = [&](double z) {
    const double beyond = std::abs(z) - h;
    return beyond <= 0 ? r : std::sqrt(std::max(0.0, r * r - beyond * beyond));
  };
  const int n = 200000;
  const double a = -(h + r), step = 2 * (h + r) / n;
  double mass = 0, axis = 0, across = 0;
  for (int k = 0; k < n; ++k) {  // midpoint rule on a smooth-enough integrand (error ~1e-10)
    const double z = a + (k + 0.5) * step, rz = radius(z), area = kPi * rz * rz;
    mass += density * area * step;
    axis += density * area * rz * rz / 2 * step;
    across += density * area * (rz * rz / 4 + z * z) * step;
  }
  const Body& body = model.bodies[0];
  EXPECT_NEAR(body.mass, mass, 1e-8 * mass);
  EXPECT_NEAR(body.mass, density * kPi * r * r * (2 * h + 4 * r / 3), 1e-12);
  EXPECT_NEAR(body.inertia(0, 0), axis, 1e-7 * axis);  // the capsule lies along x
  EXPECT_NEAR(body.inertia(1, 1), across, 1e-7 * across);
  EXPECT_NEAR(body.inertia(2, 2), across, 1e-7 * across);
}

TEST(MjcfReader, ConnectEqualityIsASphericalCutJointJoiningTheWrittenPoints) {
  // Two pendulums hinged at x = 0 and x = 1, their tips joined by a connect at the
  // written pose. With ref = 30° on the second hinge, its q = 0 is turned by −30° from
  // the file: the loop points then do not meet at q = 0 but meet at q = (0, 30°).
  const std::string xml = R"(<mujoco><compiler angle="degree"/><worldbody>
    <body name="left" pos="0 0 0"><joint name="j1" type="hinge" axis="0 1 0"/>
      <inertial pos="0 0 -0.5" mass="1" diaginertia="0.1 0.1 0.01"/></body>
    <body name="right" pos="1 0 0"><joint name="j2" type="hinge" axis="0 1 0" ref="30"/>
      <inertial pos="0 0 -0.5" mass="1" diaginertia="0.1 0.1 0.01"/>
      <body name="bar" pos="-0.5 0 -1"><joint name="j3" type="hinge" axis="0 1 0"/>
        <inertial pos="-0.25 0 0" mass="0.5" diaginertia="0.01 0.01 0.01"/></body></body>
  </worldbody><equality><connect name="tie" body1="bar" body2="left" anchor="-0.5 0 0"/></equality></mujoco>)";
  const Model model = read_mjcf(xml, "tie.xml");
  ASSERT_EQ(model.loops.size(), 1u);
  EXPECT_EQ(model.loops[0].type, LoopType::Spherical);
  Data data(model);
  VecX q = VecX::Zero(3);
  q[1] = 30 * kPi / 180;  // the written pose
  loop_closure(model, data, q);
  EXPECT_LT(data.loop_residual.norm(), 1e-15);
  loop_closure(model, data, VecX::Zero(3));
  EXPECT_GT(data.loop_residual.norm(), 0.1);
}

TEST(RobotFiles, ConvertCommandWritesEveryFormatAndReadsItBack) {
  // mechdyn convert: .sdf → .yaml, .yaml → .urdf and .xml; each output loads again.
  using testing::run_cli;
  const std::string yaml = testing::temporary_path("four_bar.yaml");
  testing::CliResult r = run_cli("convert " + testing::source_path("examples/robots/four_bar.sdf") + " -o " + yaml);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 loops"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("closes a kinematic loop"), std::string::npos) << r.err;
  const Model from_yaml = load_model_file(yaml);
  EXPECT_EQ(from_yaml.loops.size(), 1u);
  const std::string mjcf = testing::temporary_path("four_bar.xml");
  r = run_cli("convert " + testing::source_path("examples/models/four_bar.yaml") + " -o " + mjcf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_model_file(mjcf).loops.size(), 1u);
  const std::string urdf = testing::temporary_path("arm.urdf");
  r = run_cli("convert " + testing::source_path("examples/models/panda_7dof.yaml") + " -o " + urdf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(dynamics_difference(testing::example_model("panda_7dof.yaml"), load_model_file(urdf), 3), 1e-12);
  r = run_cli("convert " + testing::source_path("examples/models/panda_7dof.yaml") + " -o - --to mjcf");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<mujoco", 0), 0u);
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

TEST(RealRobotFiles, AtlasFromSdfAndFromUrdfIsOneRobot) {
  // DART ships the Atlas v3 humanoid (no head) as SDFormat and as URDF: 28 links (the
  // URDF's fixed sensor links merged), a floating pelvis, 27 revolute joints. Read by
  // two different readers (libsdformat pose graph, urdfdom joint chains) they must give
  // the same M(q) and h(q, v). Catches: any frame convention one reader gets wrong.
  ImportOptions options;
  options.joint_dynamics = false;
  std::vector<std::string> warnings;
  Model from_sdf = load_sdf(testing::source_path("tests/data/robots/atlas_v3_no_head.sdf"), options, &warnings);
  from_sdf.joints[0].name = "floating_base";  // the SDF's unjointed pelvis gets "pelvis_free"
  finalize_model(from_sdf, "atlas.sdf");
  // The SDF was generated from a URDF by Gazebo's converter, which lumps fixed-joint
  // links into their parents: the URDF is read with the same merge.
  options.floating_base = true;
  options.merge_fixed_joints = true;
  const Model from_urdf = load_urdf(testing::source_path("tests/data/robots/atlas_v3_no_head.urdf"), options, &warnings);
  EXPECT_EQ(from_sdf.nv, 33);
  // Gazebo wrote the lumped torso (mass 52.307 kg) with 6 significant digits
  // (com -0.0909481 5.04713e-05 0.301106, ixx 1.4846 ...): mechdyn's merge of the URDF's
  // fixed links (parallel-axis theorem) must land on those digits, and M, h then agree to
  // that rounding (measured 8.2e-8 of their largest entries); every other link is equal.
  const Body& torso_sdf = from_sdf.bodies[*from_sdf.body_index("utorso")];
  const Body& torso_urdf = from_urdf.bodies[*from_urdf.body_index("utorso")];
  EXPECT_NEAR(torso_urdf.mass, torso_sdf.mass, 1e-12);
  EXPECT_LT((torso_urdf.com - torso_sdf.com).norm(), 1e-6);
  EXPECT_LT((torso_urdf.inertia - torso_sdf.inertia).cwiseAbs().maxCoeff(), 5e-6);
  EXPECT_LT(dynamics_difference(from_urdf, from_sdf, 4), 1e-6);
}

}  // namespace
}  // namespace mechdyn
