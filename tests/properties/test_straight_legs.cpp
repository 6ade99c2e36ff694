// The closed-form straight legs (parallel/straight_leg.hpp: the paper's vector formulas
// for U–P–S and U–P–U legs) against the general screw-form limb path (6 × k screw system,
// Gram factor, reciprocal basis; parallel/limb_kinematics.hpp, momentum_screw_dynamics.hpp)
// on every parallel mechanism the tests have: the two case studies, a Gough–Stewart 6-UPS
// and Tsai's 3-UPU. The two are different computations of the same quantities (closed
// forms with divisions by w·e and s; least squares through SᵀS); they must agree to
// round-off in every output: q, v, a, body twists and their rates, efforts, every joint
// wrench, the limbs' constraint wrenches, the internal-force space.
// Catches: a sign or a missing term in the closed-form accelerations (ω̇_⊥, ṅ₂'), the
// wrong body for a U end's axis, a platform wrench not in span S_i (the UPU legs' y would
// change), an effort column of the wrong sense, a leg dispatched to the closed form whose
// end joint or actuation it does not handle, a per-sample fallback that leaves stale state.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "closed_chain_models.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

struct Outputs {
  VecX q, v, a, effort;
  AlignedVector<Vec6> wrench, velocity, acceleration;
  std::vector<MatX> constraint;  // per limb N_i
  MatX internal;
  int closed_form_limbs = 0;
};

Outputs outputs(const MotionInverseDynamicsData& work) {
  Outputs o{work.q, work.v, work.a, work.effort, work.joint_wrench, work.body_velocity, work.body_acceleration, {},
            work.internal_force_basis.leftCols(work.internal_force_dimension), 0};
  for (const LimbState& s : work.limbs->limbs) {
    o.constraint.push_back(s.constraint);
    o.closed_form_limbs += s.closed_form ? 1 : 0;
  }
  return o;
}

double relative(const VecX& x, const VecX& y) { return (x - y).norm() / (1.0 + y.norm()); }

double largest_difference(const AlignedVector<Vec6>& x, const AlignedVector<Vec6>& y) {
  double scale = 1.0, worst = 0.0;
  for (const Vec6& w : y) scale = std::max(scale, w.norm());
  for (std::size_t j = 0; j < x.size(); ++j) worst = std::max(worst, (x[j] - y[j]).norm() / scale);
  return worst;
}

MatX projector(const MatX& columns) {
  if (columns.cols() == 0) return MatX::Zero(columns.rows(), columns.rows());
  const Eigen::JacobiSVD<MatX> svd(columns, Eigen::ComputeThinU);
  return svd.matrixU() * svd.matrixU().transpose();
}

double difference(const Outputs& x, const Outputs& y) {
  double worst = std::max({relative(x.q, y.q), relative(x.v, y.v), relative(x.a, y.a), relative(x.effort, y.effort),
                           largest_difference(x.wrench, y.wrench), largest_difference(x.velocity, y.velocity),
                           largest_difference(x.acceleration, y.acceleration)});
  for (std::size_t i = 0; i < x.constraint.size(); ++i)
    worst = std::max(worst, (projector(x.constraint[i]) - projector(y.constraint[i])).norm());
  return std::max(worst, (projector(x.internal) - projector(y.internal)).norm());
}

// Runs `samples` whole-motion samples with the closed form and with the general path side
// by side; returns the largest difference and checks how many limbs took the closed form.
double compare(const Model& model, const MotionInverseDynamicsModel& problem,
               const std::function<BodyMotionSample(int)>& sample, int samples, int closed_form_limbs,
               double margin = 1e-3) {
  MotionInverseDynamicsData fast(model, problem), general(model, problem);
  fast.limbs->closed_form_margin = margin;
  MotionInverseDynamicsOptions on, off;
  off.closed_form_legs = false;
  double worst = 0.0;
  int fallbacks = 0;
  for (int k = 0; k < samples; ++k) {
    const BodyMotionSample s = sample(k);
    motion_inverse_dynamics(model, problem, fast, s, on);
    motion_inverse_dynamics(model, problem, general, s, off);
    const Outputs x = outputs(fast), y = outputs(general);
    EXPECT_EQ(y.closed_form_limbs, 0);
    if (margin <= 1e-3) EXPECT_EQ(x.closed_form_limbs, closed_form_limbs) << model.name << " sample " << k;
    fallbacks += closed_form_limbs - x.closed_form_limbs;
    worst = std::max(worst, difference(x, y));
  }
  if (margin > 1e-3) EXPECT_GT(fallbacks, 0) << "the margin made no leg fall back";
  return worst;
}

TEST(StraightLegs, SchoenfliesClosedFormEqualsTheGeneralPath) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  ASSERT_TRUE(problem.parallel);
  for (const Limb& limb : problem.parallel->limbs) EXPECT_TRUE(limb.leg.closed_form_motion) << limb.name;
  const double worst = compare(model, problem, [](int k) { return testing::schoenflies_sample(0.01 * k); }, 601, 4);
  std::printf("Schoenflies, 601 samples: closed form vs general path %.3g\n", worst);
  EXPECT_LE(worst, 1e-11);
}

// Leg parts that are not slender (a centre of mass off the leg axis, an inertia not symmetric
// about it) take the rotated-inertia loads; the paper's parts take the axial formulas. Both
// against the general path, and against Newton–Euler for the efforts. Catches an axial formula
// used where it does not hold, or a wrong σ (centre of mass along the axis) in either.
TEST(StraightLegs, LegPartsThatAreNotSlenderEqualTheGeneralPath) {
  Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const int platform = *model.body_index("platform");
  const Model slender = model;
  model.bodies[*model.body_index("upper2")].com += Vec3(0.02, -0.01, 0.015);
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, -0.5).normalized()).toRotationMatrix();
  model.bodies[*model.body_index("lower3")].inertia = turn * Vec3(0.010, 0.008, 0.005).asDiagonal() * turn.transpose();
  finalize_model(model, model.name);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform);
  const MotionInverseDynamicsModel reference = make_motion_inverse_dynamics(slender, platform);
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string& name = problem.parallel->limbs[i].name;
    EXPECT_TRUE(reference.parallel->limbs[i].leg.slender) << name;
    EXPECT_EQ(problem.parallel->limbs[i].leg.slender, name != "U2" && name != "U3") << name;
  }
  const double worst = compare(model, problem, [](int k) { return testing::schoenflies_sample(0.03 * k); }, 201, 4);
  std::printf("non-slender legs: closed form vs general path %.3g\n", worst);
  EXPECT_LE(worst, 1e-11);
  MotionInverseDynamicsData ms(model, problem), ne(model, problem);
  MotionInverseDynamicsOptions newton_euler;
  newton_euler.method = InverseDynamicsMethod::NewtonEuler;
  for (int k = 0; k <= 200; ++k) {  // dense: Newton's warm start keeps the legs' branch
    const double t = 0.02 * k;
    motion_inverse_dynamics(model, problem, ms, testing::schoenflies_sample(t));
    motion_inverse_dynamics(model, problem, ne, testing::schoenflies_sample(t), newton_euler);
    EXPECT_LE(relative(ms.effort, ne.effort), 1e-9) << t;
  }
}

// Legs whose w·e comes below a (deliberately large) margin take the general path at those
// samples only; the results must not show where it switched. Catches state of one path left
// in use by the other (N_i, the rates, the Gram factor).
TEST(StraightLegs, PerSampleFallbackToTheGeneralPathIsSeamless) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  const double worst =
      compare(model, problem, [](int k) { return testing::schoenflies_sample(0.01 * k); }, 601, 4, 0.6);
  EXPECT_LE(worst, 1e-11);
}

TEST(StraightLegs, StewartAndTsaiClosedFormEqualsTheGeneralPath) {
  struct Case {
    Model model;
    Vec3 amplitude, angle_amplitude;
    int legs;
  };
  const Case cases[] = {
      {testing::stewart_6ups(), Vec3(0.05, 0.04, 0.03), Vec3(0.05, 0.04, 0.06), 6},  // S ends: tree and cut
      {testing::tsai_3upu(), Vec3(0.05, 0.04, 0.03), Vec3::Zero(), 3},              // U ends: tree and cut
  };
  for (const Case& c : cases) {
    const int platform = *c.model.body_index("platform");
    const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(c.model, platform);
    ASSERT_TRUE(problem.parallel) << c.model.name;
    testing::Motion motion;
    for (int b = platform; b != kGround; b = c.model.bodies[b].parent) motion.origin += c.model.joints[b].origin;
    motion.amplitude = c.amplitude;
    motion.frequency = Vec3(2.0, 3.0, 1.5);
    motion.angle_amplitude = c.angle_amplitude;
    motion.angle_frequency = Vec3(1.7, 2.3, 1.1);
    const double worst = compare(c.model, problem, [&](int k) { return motion.at(0.025 * k); }, 41, c.legs);
    std::printf("%s: closed form vs general path %.3g\n", c.model.name.c_str(), worst);
    EXPECT_LE(worst, 1e-11) << c.model.name;
  }
}

// 3UPS-UPU-S: a partial twist prescription (Newton positions, forward kinematics), redundant
// actuation (minimum-norm efforts, two internal forces), a U–P–U leg on a universal cut and
// a limb that is the platform's own spherical joint on the ground (the general path).
TEST(StraightLegs, ThreeUpsClosedFormEqualsTheGeneralPath) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  const int platform = *model.body_index("platform");
  std::vector<ExternalWrench> load(1);
  load[0].body = platform;
  load[0].force = Vec3(0.0, 0.0, 1000.0);
  load[0].moment = Vec3(1000.0, 0.0, 0.0);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, platform, load);
  const TwistPrescription prescription = testing::three_ups_prescription();
  MotionInverseDynamicsData fast(model, problem), general(model, problem);
  MotionInverseDynamicsOptions on, off;
  off.closed_form_legs = false;
  assemble_for_twist(model, problem, fast, on);
  assemble_for_twist(model, problem, general, off);
  double worst = 0.0;
  const double h = 0.05;
  for (int k = 0; k <= 60; ++k) {
    const double t = k * h;
    if (k > 0) {
      advance_twist(model, problem, fast, prescription, t - h, h, on);
      advance_twist(model, problem, general, prescription, t - h, h, off);
    }
    motion_inverse_dynamics(model, problem, fast, prescription, t, on);
    motion_inverse_dynamics(model, problem, general, prescription, t, off);
    const Outputs x = outputs(fast), y = outputs(general);
    EXPECT_EQ(x.closed_form_limbs, 4);
    EXPECT_EQ(x.internal.cols(), 2);
    worst = std::max(worst, difference(x, y));
  }
  std::printf("3UPS-UPU-S: closed form vs general path %.3g\n", worst);
  EXPECT_LE(worst, 1e-11);
}

// A twist that a universal end cannot follow (the Schoenflies platform turning about x at
// its prescribed pose) is refused by the closed form as by the general path. Catches a
// closed form that silently projects an infeasible motion onto the leg.
TEST(StraightLegs, UniversalEndRefusesATwistItCannotFollow) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  for (bool closed_form : {true, false}) {
    MotionInverseDynamicsData work(model, problem);
    MotionInverseDynamicsOptions options;
    options.closed_form_legs = closed_form;
    BodyMotionSample s = testing::schoenflies_sample(0.4);
    s.angular_velocity.x() = 0.3;
    try {
      motion_inverse_dynamics(model, problem, work, s, options);
      ADD_FAILURE() << "accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("violates the loop closure"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("t = 0.4 s"), std::string::npos) << e.what();
    }
    s = testing::schoenflies_sample(0.4);
    s.angular_acceleration.y() = 2.0;
    EXPECT_THROW(motion_inverse_dynamics(model, problem, work, s, options), InvalidArgument) << closed_form;
  }
}

}  // namespace
}  // namespace mechdyn
