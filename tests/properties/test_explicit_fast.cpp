// The O(n) explicit methods against independent algorithms, on seeded random trees with
// every joint type (revolute about ±e_k and about any axis, prismatic, universal,
// spherical, free, cylindrical, fixed) and on long chains:
//   explicit_inverse_dynamics (the resultant iteration of EC §3.1, natural frames at the
//   joint points)  vs  RNEA (body coordinates, Featherstone Table 5.1) and M a + h (CRBA);
//   its reactions  vs  RNEA's transmitted forces f_i rotated to the world, and vs
//   joint_reactions (world-origin stage, the free-body test of test_joint_reactions_free_body);
//   explicit_forward_dynamics (either route)  vs  ABA and the M route;
// and the workspace contract (no allocation, the kinematics stage left untouched).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

#include "allocation_probe.hpp"

namespace mechdyn {
namespace {

double max_abs(const VecX& x) { return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff(); }

struct Case {
  Model model;
  VecX q, v, a, tau;
};

Case make_case(const Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  Case c{model, testing::random_configuration(model, rng), testing::random_vector(model.nv, rng, 2.0),
         testing::random_vector(model.nv, rng, 2.0), VecX()};
  c.tau = testing::random_vector(model.nv, rng, 5.0);
  return c;
}

// A random tree with half of its revolute and prismatic joints turned onto ±e_k (the
// RevoluteX/Y/Z, PrismaticX/Y/Z kinds, written out for a compile-time axis) and every
// fifth revolute made cylindrical (the random trees have neither).
Model with_principal_axes_and_cylinders(Model model) {
  for (int i = 0; i < model.num_bodies(); ++i) {
    Joint& joint = model.joints[i];
    const bool one_axis = joint.type == JointType::Revolute || joint.type == JointType::Prismatic;
    if (one_axis && i % 2 == 0) joint.axis = (i % 4 == 0 ? 1.0 : -1.0) * Vec3::Unit((i / 2) % 3);
    if (joint.type == JointType::Revolute && i % 5 == 3) joint.type = JointType::Cylindrical;
  }
  finalize_model(model, model.name + "_principal");
  return model;
}

// The trees: random shapes with every joint type (1–40 bodies; each also with principal
// axes and cylinders), R/P-only chains (the papers' setting), up to 60 bodies.
std::vector<Model> models() {
  std::vector<Model> out;
  for (int bodies = 1; bodies <= 40; bodies += 3)
    for (unsigned seed = 1; seed <= 3; ++seed) {
      out.push_back(testing::random_tree(5000 * bodies + seed, {bodies}));
      out.push_back(with_principal_axes_and_cylinders(out.back()));
    }
  for (int bodies : {2, 6, 12, 30, 60}) {
    testing::RandomTreeOptions options;
    options.bodies = bodies;
    options.all_joint_types = false;
    options.branch_probability = 0.0;
    out.push_back(testing::random_tree(91 + bodies, options));
    out.push_back(with_principal_axes_and_cylinders(out.back()));
  }
  return out;
}

// τ of the resultant iteration = RNEA = M a + h. Catches: a missing term of EC eqs. (8),
// (10) (ϕ̇ × r centripetal, 2 ϕ̇ × n ṙ Coriolis of a prismatic joint), a wrong gyroscopic
// term Q (ω̄ × J ω̄), a moment arm taken from the wrong point in the backward sum, a kind
// whose spatial step at o_l is wrong (universal, spherical, free, cylindrical).
TEST(ExplicitFast, InverseDynamicsEqualsRneaAndMassMatrixForm) {
  double worst_rnea = 0.0, worst_mass = 0.0;
  int kinds_seen[kJointKindCount] = {};
  for (const Model& model : models()) {
    for (const Joint& j : model.joints) ++kinds_seen[static_cast<int>(j.kind)];
    const Case c = make_case(model, 17 + model.nv);
    Data data(model), reference(model);
    const VecX tau = explicit_inverse_dynamics(model, data, c.q, c.v, c.a);
    const VecX tau_rnea = rnea(model, reference, c.q, c.v, c.a);
    const VecX tau_mass = explicit_inverse_dynamics_mass_matrix(model, reference, c.q, c.v, c.a);
    const double scale = std::max(1.0, max_abs(tau_rnea));
    const double e_rnea = max_abs(tau - tau_rnea) / scale, e_mass = max_abs(tau - tau_mass) / scale;
    std::string kinds;
    for (const Joint& j : model.joints) kinds += std::to_string(static_cast<int>(j.kind)) + " ";
    EXPECT_LT(e_rnea, 1e-12) << model.name << " kinds " << kinds;
    EXPECT_LT(e_mass, 1e-12) << model.name << " kinds " << kinds;
    worst_rnea = std::max(worst_rnea, e_rnea);
    worst_mass = std::max(worst_mass, e_mass);
  }
  for (int k = 0; k < kJointKindCount; ++k) EXPECT_GT(kinds_seen[k], 3) << "joint kind " << k << " too rare";
  std::printf("[ info ] resultant iteration: max relative |τ − τ_RNEA| %.3g, |τ − (M a + h)| %.3g\n", worst_rnea,
              worst_mass);
}

// The reactions that come with τ are the whole joint wrenches. Against RNEA's f_i (the
// force joint i transmits, body coordinates, about o_i: rotated to the world with the
// stage's Q^i_l) and against joint_reactions (the stage iteration about the world origin,
// itself checked by a free-body balance with finite differences).
// Catches: a reaction reported about the wrong point or with the wrong sign, a child's
// wrench carried to its parent without its moment arm, the backward sum missing a child.
TEST(ExplicitFast, ReactionsEqualRneaForcesAndJointReactions) {
  double worst_rnea = 0.0, worst_stage = 0.0;
  for (const Model& model : models()) {
    const Case c = make_case(model, 29 + model.nv);
    Data data(model), reference(model);
    explicit_inverse_dynamics(model, data, c.q, c.v, c.a);
    rnea(model, reference, c.q, c.v, c.a);
    forward_kinematics(model, reference, c.q);  // Q^i_l for the rotation of RNEA's f_i
    Data stage(model);
    joint_reactions(model, stage, c.q, c.v, c.a);
    double scale = 1.0;
    for (int l = 0; l < model.num_bodies(); ++l)
      scale = std::max({scale, stage.reaction_force[l].norm(), stage.reaction_torque[l].norm()});
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Mat3& rotation = reference.rotation[l];
      const Vec3 rnea_torque = rotation * reference.body_force[l].head<3>();
      const Vec3 rnea_force = rotation * reference.body_force[l].tail<3>();
      const double e_rnea = std::max((data.reaction_force[l] - rnea_force).norm(),
                                     (data.reaction_torque[l] - rnea_torque).norm()) / scale;
      const double e_stage = std::max((data.reaction_force[l] - stage.reaction_force[l]).norm(),
                                      (data.reaction_torque[l] - stage.reaction_torque[l]).norm()) / scale;
      EXPECT_LT(e_rnea, 1e-12) << model.name << " body " << l;
      EXPECT_LT(e_stage, 1e-12) << model.name << " body " << l;
      worst_rnea = std::max(worst_rnea, e_rnea);
      worst_stage = std::max(worst_stage, e_stage);
    }
  }
  std::printf("[ info ] reactions: max relative difference from RNEA's f_i %.3g, from joint_reactions %.3g\n",
              worst_rnea, worst_stage);
}

// Roots turned about ±e_k (the principal root step, which starts the pairs (ϕ̇, ϕ̈),
// (ṙ, r̈), (ω̄, ω̄̇) from rest) and principal joints of either sign under parents of every
// kind (a spherical or free parent's pairs read by a principal child, and the reverse).
// τ against RNEA and M a + h, the reactions against RNEA's f_i rotated to the world.
// Catches: the sign of the axis dropped in the backward projection ±Q e_K or in the
// joint rates (φ̇, φ̈) of either step, the root step forgetting −g or ϕ̇ × n terms, a
// lane of a pair (velocity or acceleration) read for the other by the next kind.
TEST(ExplicitFast, PrincipalRootsOfEitherSignUnderAndOverEveryKind) {
  double worst = 0.0;
  int roots_seen = 0, principal_under_ball = 0, multi_under_principal = 0;  // the cases this test is for
  for (unsigned seed = 1; seed <= 24; ++seed) {
    Model model = testing::random_tree(700 + seed, {14});
    for (int i = 0; i < model.num_bodies(); ++i) {
      Joint& joint = model.joints[i];
      const double sign = (i + seed) % 2 == 0 ? 1.0 : -1.0;
      if (i % 5 == 0) {  // a root about ±e_k
        model.bodies[i].parent = kGround;
        joint.type = JointType::Revolute;
        joint.axis = sign * Vec3::Unit((i / 5 + seed) % 3);
      } else if (i % 3 == 1 && (joint.type == JointType::Revolute || joint.type == JointType::Prismatic)) {
        joint.axis = sign * Vec3::Unit((i + seed) % 3);
      }
    }
    finalize_model(model, model.name + "_principal_roots");
    const auto principal = [&](int i) {
      const JointKind kind = model.joints[i].kind;
      return kind == JointKind::RevoluteX || kind == JointKind::RevoluteY || kind == JointKind::RevoluteZ;
    };
    for (int i = 0; i < model.num_bodies(); ++i) {
      const int parent = model.bodies[i].parent;
      if (parent == kGround) {
        roots_seen += principal(i) && model.joints[i].axis.sum() < 0.0;
      } else if (model.joints[parent].type == JointType::Spherical || model.joints[parent].type == JointType::Free) {
        principal_under_ball += principal(i);
      } else if (principal(parent) && model.joints[i].nv >= 2) {
        multi_under_principal += 1;
      }
    }
    const Case c = make_case(model, 17 + seed);
    Data data(model), reference(model);
    const VecX tau = explicit_inverse_dynamics(model, data, c.q, c.v, c.a);
    const VecX tau_rnea = rnea(model, reference, c.q, c.v, c.a);
    const MatX mass = crba(model, reference, c.q);
    const VecX bias = rnea(model, reference, c.q, c.v, VecX::Zero(model.nv));
    const double scale = std::max(1.0, max_abs(tau_rnea));
    EXPECT_LT(max_abs(tau - tau_rnea) / scale, 1e-12) << model.name;
    EXPECT_LT(max_abs(tau - (mass * c.a + bias)) / scale, 1e-12) << model.name;
    worst = std::max(worst, max_abs(tau - tau_rnea) / scale);
    rnea(model, reference, c.q, c.v, c.a);
    forward_kinematics(model, reference, c.q);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Mat3& rotation = reference.rotation[l];
      const double force_scale = std::max(1.0, reference.body_force[l].norm());
      EXPECT_LT((data.reaction_torque[l] - rotation * reference.body_force[l].head<3>()).norm() / force_scale, 1e-12)
          << model.name << " body " << l;
      EXPECT_LT((data.reaction_force[l] - rotation * reference.body_force[l].tail<3>()).norm() / force_scale, 1e-12)
          << model.name << " body " << l;
    }
  }
  EXPECT_GT(roots_seen, 10) << "roots about −e_k";
  EXPECT_GT(principal_under_ball, 3) << "principal joints under spherical or free joints";
  EXPECT_GT(multi_under_principal, 3) << "joints of several coordinates under principal joints";
  std::printf("[ info ] principal roots of either sign (%d about −e_k; %d principal under ball joints, %d multi-axis "
              "under principal): max relative |τ − τ_RNEA| %.3g\n",
              roots_seen, principal_under_ball, multi_under_principal, worst);
}

// The stage form (velocity stage, then a) gives the same τ and reactions.
// Catches: the _from_kinematics form left on M a + h with a stale M, or reading a stage
// of the wrong level.
TEST(ExplicitFast, FromKinematicsFormAgrees) {
  for (const Model& model : models()) {
    const Case c = make_case(model, 41 + model.nv);
    Data data(model), staged(model);
    const VecX tau = explicit_inverse_dynamics(model, data, c.q, c.v, c.a);
    forward_kinematics(model, staged, c.q, c.v);
    const VecX tau_staged = explicit_inverse_dynamics_from_kinematics(model, staged, c.a);
    EXPECT_LT(max_abs(tau - tau_staged), 1e-12 * std::max(1.0, max_abs(tau))) << model.name;
  }
}

// Both routes of explicit_forward_dynamics against ABA and against the M route, and the
// rule picks each route where it should. Catches: the ABA route reading a stage without
// Ṡ q̇ (the kinematics at v missing), the rule inverted or never taking one route, the M
// route's τ − h sign.
TEST(ExplicitFast, ForwardDynamicsBothRoutesEqualAba) {
  int routes[2] = {0, 0};
  double worst = 0.0;
  for (const Model& model : models()) {
    const Case c = make_case(model, 53 + model.nv);
    Data data(model), reference(model);
    const bool uses_mass_matrix = explicit_forward_dynamics_uses_mass_matrix(model, data);
    ++routes[uses_mass_matrix ? 1 : 0];
    VecX ddq, ddq_aba, ddq_mass;
    try {
      ddq = explicit_forward_dynamics(model, data, c.q, c.v, c.tau);
      ddq_aba = aba(model, reference, c.q, c.v, c.tau);
      ddq_mass = explicit_forward_dynamics_mass_matrix(model, reference, c.q, c.v, c.tau);
    } catch (const SolverError&) {
      continue;  // a random tree with a massless coaxial chain: refused, never NaN (test_explicit_vs_recursive)
    }
    // Forward error is bounded by cond(M) × the backward error: compare in effort space.
    const MatX mass = crba(model, reference, c.q);
    const double scale = std::max(1.0, max_abs(c.tau) + max_abs(mass * ddq_aba));
    const double e_aba = max_abs(mass * (ddq - ddq_aba)) / scale;
    const double e_mass = max_abs(mass * (ddq - ddq_mass)) / scale;
    EXPECT_LT(e_aba, 1e-11) << model.name;
    EXPECT_LT(e_mass, 1e-11) << model.name;
    worst = std::max({worst, e_aba, e_mass});
  }
  EXPECT_GT(routes[0], 5) << "the ABA route was never taken";
  EXPECT_GT(routes[1], 5) << "the M route was never taken";
  std::printf("[ info ] explicit forward (%d by ABA, %d by M): max relative effort-space difference %.3g\n", routes[0],
              routes[1], worst);
}

// The rule as stated (nv ≤ 8: the M route): a chain of 8 takes it, a chain of 9 and a
// star of 30 one-axis joints on the ground do not. Catches: the rule counting bodies
// instead of velocity coordinates (a free joint counts 6).
TEST(ExplicitFast, RuleOnChains) {
  testing::RandomTreeOptions options;
  options.all_joint_types = false;
  options.branch_probability = 0.0;
  options.bodies = 8;
  const Model eight = testing::random_tree(3, options);
  options.bodies = 9;
  const Model nine = testing::random_tree(3, options);
  Data d8(eight), d9(nine);
  EXPECT_TRUE(explicit_forward_dynamics_uses_mass_matrix(eight, d8));
  EXPECT_FALSE(explicit_forward_dynamics_uses_mass_matrix(nine, d9));
  // Two bodies on free joints: 2 bodies, nv = 12 — the ABA route.
  Model free_pair;
  for (int i = 0; i < 2; ++i) {
    free_pair.bodies.push_back(Body{"b" + std::to_string(i), i == 0 ? kGround : 0, 1.0, Vec3(0.1, 0.0, 0.0),
                                    Mat3::Identity() * 0.01});
    Joint joint;
    joint.name = "j" + std::to_string(i);
    joint.type = JointType::Free;
    free_pair.joints.push_back(joint);
  }
  finalize_model(free_pair, "free_pair");
  Data dp(free_pair);
  EXPECT_EQ(free_pair.nv, 12);
  EXPECT_FALSE(explicit_forward_dynamics_uses_mass_matrix(free_pair, dp));
}

// The resultant iteration leaves the kinematics stage and M as they were (its contract);
// a later _from_kinematics call on that stage still sees the old state.
// Catches: the iteration writing data.rotation, data.velocity or data.mass_matrix.
TEST(ExplicitFast, InverseDynamicsLeavesTheStageUntouched) {
  const Model model = testing::random_tree(11, {12});
  const Case c = make_case(model, 5);
  Data data(model);
  forward_kinematics(model, data, c.q, c.v);
  crba_from_kinematics(model, data);
  const Data before = data;
  explicit_inverse_dynamics(model, data, c.q * 0.5, c.v * 2.0, c.a);
  EXPECT_EQ(data.kinematics_level, before.kinematics_level);
  for (int l = 0; l < model.num_bodies(); ++l) {
    EXPECT_EQ(data.rotation[l], before.rotation[l]);
    EXPECT_EQ(data.velocity[l], before.velocity[l]);
  }
  EXPECT_EQ(data.mass_matrix, before.mass_matrix);
}

#if MECHDYN_COUNT_ALLOCATIONS
// Catches: a dynamic-size temporary in either pass or in either forward route (the ABA
// route on a Data without any dense workspace must not reserve one).
TEST(ExplicitFast, EvaluationAllocatesNothing) {
  const Model tree = testing::random_tree(7, {40});
  testing::RandomTreeOptions options;
  options.bodies = 50;
  options.all_joint_types = false;
  options.branch_probability = 0.0;
  const Model chain = testing::random_tree(8, options);
  for (const Model* model : {&tree, &chain}) {
    const Case c = make_case(*model, 3);
    Data full(*model), lean(*model, DenseWorkspace::None);
    explicit_forward_dynamics(*model, full, c.q, c.v, c.tau);  // warm-up
    const long seen = testing::count_allocations([&] {
      explicit_inverse_dynamics(*model, full, c.q, c.v, c.a);
      explicit_inverse_dynamics(*model, lean, c.q, c.v, c.a);
      explicit_forward_dynamics(*model, full, c.q, c.v, c.tau);
      explicit_inverse_dynamics_mass_matrix(*model, full, c.q, c.v, c.a);
      explicit_forward_dynamics_mass_matrix(*model, full, c.q, c.v, c.tau);
    });
    EXPECT_EQ(seen, 0) << model->name;
  }
  // Above nv = 8 explicit_forward_dynamics takes the ABA route: no M, even on a lean Data,
  // from the first call (the chain, and a tree with every joint type).
  const Model mixed = testing::random_tree(12, {25});
  for (const Model* model : {&chain, &mixed}) {
    const Case c = make_case(*model, 4);
    Data lean(*model, DenseWorkspace::None);
    EXPECT_EQ(testing::count_allocations([&] { explicit_forward_dynamics(*model, lean, c.q, c.v, c.tau); }), 0)
        << model->name;
    EXPECT_FALSE(lean.holds(DenseWorkspace::MassMatrix)) << model->name;
  }
}
#endif

// Wrong sizes are InvalidArgument for the new entry points (the rest: test_entry_point_checks).
TEST(ExplicitFast, WrongSizesAreInvalidArguments) {
  const Model model = testing::random_tree(3, {5});
  Data data(model);
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv), short_vector = VecX::Zero(model.nv - 1);
  EXPECT_THROW(explicit_inverse_dynamics_mass_matrix(model, data, q, v, short_vector), InvalidArgument);
  EXPECT_THROW(explicit_forward_dynamics_mass_matrix(model, data, q, short_vector, v), InvalidArgument);
  const Model other = testing::random_tree(4, {9});
  EXPECT_THROW(explicit_forward_dynamics_uses_mass_matrix(other, data), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
