// The limbs of parallel manipulators: their recognition (parallel/parallel_model.hpp), the
// closed-form positions with the poses they write (parallel/limb_positions.hpp), the
// closure residual without the Jacobian (constraints/loop_residual.hpp), and the limbs'
// constraint wrenches against the mobility analysis' reciprocal systems
// (mobility/limb_constraints.hpp, an independent construction by the screws helper).
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <random>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/constraints/loop_residual.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/mobility/limb_constraints.hpp"
#include "mechdyn/parallel/limb_positions.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

// The poses written by the closed-form limb positions are those of forward kinematics at
// the q they return. Catches a body placed with the wrong rotation or origin, a wrong
// motion axis (universal joint's second axis, prismatic axis), a wrong centre of mass.
TEST(LimbPositions, WriteTheForwardKinematicsOfTheirConfiguration) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const ParallelModel parallel = make_parallel_model(model, *model.body_index("platform"));
  ASSERT_TRUE(parallel.closed_form_positions);
  Data placed(model), reference(model);
  VecX q = model.neutral_configuration();
  for (double t : {0.0, 0.3, 1.7, 2.9}) {
    const BodyMotionSample s = testing::schoenflies_sample(t);
    limb_positions(model, parallel, s.position, s.orientation.toRotationMatrix(), q, &placed);
    forward_kinematics(model, reference, q);
    for (int b = 0; b < model.num_bodies(); ++b) {
      EXPECT_LE((placed.rotation[b] - reference.rotation[b]).norm(), 1e-14) << b;
      EXPECT_LE((placed.position[b] - reference.position[b]).norm(), 1e-14) << b;
      EXPECT_LE((placed.com_position[b] - reference.com_position[b]).norm(), 1e-14) << b;
      EXPECT_LE((placed.inertia_world[b] - reference.inertia_world[b]).norm(), 1e-15) << b;
    }
    for (int k = 0; k < model.nv; ++k) EXPECT_LE((placed.motion_axis[k] - reference.motion_axis[k]).norm(), 1e-14) << k;
    EXPECT_LE(loop_residual_norm(model, placed), 1e-14);  // the legs reach their platform points
    const int platform = *model.body_index("platform");
    EXPECT_LE((reference.position[platform] - s.position).norm(), 1e-14);
  }
}

// The per-sample form (remembered branch, angles from anchors by the series of atan) gives
// the configuration of the plain form (atan2 of every angle) along the whole trajectory,
// across re-anchoring, and after q is reset. Catches a series with a wrong term (errors of
// order δ⁵ ≈ 1e-6 rad), an anchor kept after it no longer matches, a stale branch memory.
TEST(LimbPositions, PerSampleFormGivesThePlainFormsConfiguration) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const int platform = *model.body_index("platform");
  const ParallelModel parallel = make_parallel_model(model, platform);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform);
  MotionInverseDynamicsData work(model, problem);
  Data data(model);
  VecX plain = model.neutral_configuration(), fast = plain;
  double worst = 0.0;
  for (int k = 0; k <= 6000; k += 7) {
    if (k == 3003) fast = plain = model.neutral_configuration();  // reset: branch from q again
    const BodyMotionSample s = testing::schoenflies_sample(1e-3 * k);
    const Mat3 rotation = s.orientation.toRotationMatrix();
    limb_positions(model, parallel, s.position, rotation, plain);
    limb_positions(model, parallel, s.position, rotation, fast, data, *work.limbs);
    worst = std::max(worst, (fast - plain).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LE(worst, 1e-14);
}

// The residual alone equals loop_closure's on random trees with a cut joint of every type.
// Catches a row of the cheap residual that differs from the closure equations.
TEST(LoopResidual, EqualsTheClosureResidualOnEveryCutType) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = testing::tree_with_every_loop_type(seed);
    Data data(model);
    std::mt19937 rng(seed);
    VecX q = testing::random_configuration(model, rng);
    loop_closure(model, data, q);
    EXPECT_DOUBLE_EQ(loop_residual_norm(model, data), data.loop_residual.lpNorm<Eigen::Infinity>()) << seed;
  }
}

// Each limb's constraint wrenches N_i (reciprocal to its joint screws) span the same space
// as the mobility analysis' limb constraint screws. Catches a wrong cut-joint freedom
// (e.g. the universal cut's axes swapped between the limb and the platform).
TEST(LimbKinematics, ConstraintWrenchesMatchTheMobilityAnalysis) {
  for (const char* file : {"schoenflies_2ups_2upu.yaml", "ups_3ups_upu_s.yaml"}) {
    const Model model = testing::example_model(file);
    const int platform = *model.body_index("platform");
    const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform);
    MotionInverseDynamicsData work(model, problem);
    if (std::string(file) == "ups_3ups_upu_s.yaml") {
      assemble_for_twist(model, problem, work);
      motion_inverse_dynamics(model, problem, work, testing::three_ups_prescription(), 0.0);
    } else {
      motion_inverse_dynamics(model, problem, work, testing::schoenflies_sample(0.8));
    }
    Data data(model);
    loop_closure(model, data, work.q);
    const std::vector<LimbConstraints> reference = limb_constraints(model, data, platform, ScrewScale{});
    for (std::size_t i = 0; i < problem.parallel->limbs.size(); ++i) {
      const Limb& limb = problem.parallel->limbs[i];
      const LimbScrews& mine = work.limbs->limbs[i].constraint;
      // the reference limb with the same first joint
      const LimbConstraints* match = nullptr;
      for (const LimbConstraints& r : reference)
        if (!r.joints.empty() && !r.joints.front().cut && model.joints[r.joints.front().index].name == limb.name) match = &r;
      ASSERT_NE(match, nullptr) << file << " " << limb.name;
      ASSERT_EQ(match->constraint_wrenches.cols(), mine.cols()) << file << " " << limb.name;
      // [m; f] → (f; m), then the projector onto each span must agree
      MatX converted(6, mine.cols());
      for (Eigen::Index c = 0; c < mine.cols(); ++c) converted.col(c) << mine.col(c).tail<3>(), mine.col(c).head<3>();
      const MatX theirs = match->constraint_wrenches;
      if (mine.cols() == 0) continue;
      const Eigen::JacobiSVD<MatX> a(converted, Eigen::ComputeThinU), b(theirs, Eigen::ComputeThinU);
      const MatX pa = a.matrixU() * a.matrixU().transpose(), pb = b.matrixU() * b.matrixU().transpose();
      EXPECT_LE((pa - pb).norm(), 1e-9) << file << " " << limb.name;
    }
  }
}

Model with_extra_loop(Model model, const Loop& loop) {
  model.loops.push_back(loop);
  finalize_model(model, model.name);
  return model;
}

// What is not a parallel manipulator is refused with the element named.
TEST(ParallelModel, RefusesWhatIsNotLimbsFromTheGroundToThePlatform) {
  auto refused = [](const Model& model, const std::string& body, const std::string& fragment) {
    try {
      make_parallel_model(model, *model.body_index(body));
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  const Model schoenflies = testing::example_model("schoenflies_2ups_2upu.yaml");
  // a cut joint between two limbs
  Loop between;
  between.name = "between";
  between.type = LoopType::Spherical;
  between.a.body = *schoenflies.body_index("upper2");
  between.b.body = *schoenflies.body_index("upper3");
  refused(with_extra_loop(schoenflies, between), "platform", "does not end on the platform");
  // a planar-revolute cut (4 freedoms, not a joint a limb ends with)
  refused(testing::planar_3rrr(LoopType::PlanarRevolute), "platform", "planar-revolute");
  // a leg prescribed instead of the platform: the "platform" limbs branch
  refused(schoenflies, "lower2", "");
  // S–P–S legs: 7 freedoms (a leg spins about its axis)
  refused(testing::stewart_6ups(true), "platform", "more than 6");
  // a body hanging on the platform by a moving joint
  Model hanging = schoenflies;
  Body pendulum;
  pendulum.name = "pendulum";
  pendulum.parent = *hanging.body_index("platform");
  pendulum.mass = 0.1;
  pendulum.inertia = Mat3::Identity() * 1e-3;
  Joint pin;
  pin.name = "pin";
  pin.type = JointType::Revolute;
  pin.actuated = false;
  hanging.bodies.push_back(pendulum);
  hanging.joints.push_back(pin);
  finalize_model(hanging, "hanging");
  refused(hanging, "platform", "hangs on the platform");
}

}  // namespace
}  // namespace mechdyn
