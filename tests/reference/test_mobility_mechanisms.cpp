// Mobility and constraint analysis (mobility/mobility_analysis.hpp) of mechanisms whose
// answers are known in closed form: the planar four-bar (over-constrained when closed by a
// spatial revolute cut joint), a spatial RSSR (an idle spin), the planar 3-RRR, the
// Gough–Stewart 6-UPS, Tsai's translational 3-UPU, the 2UPS+2UPU Schoenflies robot and its
// singular layout, and the 3UPS-UPU-S of screw-kinematics-3UPS-UPU-S §2. Each expectation
// is derived in the comment above it (Grübler–Kutzbach, reciprocal screws by hand).
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "closed_chain_models.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/mobility/mobility_analysis.hpp"
#include "mechdyn/screw/screw.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

using testing::MechanismBuilder;

MobilityReport analyze(const Model& model, const std::string& body = "", VecX q = VecX()) {
  MobilityOptions options;
  if (!body.empty()) options.body = *model.body_index(body);
  if (q.size() == 0) q = model.neutral_configuration();
  return analyze_mobility(model, q, options);
}

Vec6 screw(double a, double b, double c, double d, double e, double f) {
  Vec6 out;
  out << a, b, c, d, e, f;
  return out;
}

// The canonical (reduced row-echelon) basis is unique, so it is compared entry by entry.
void expect_basis(const ScrewBasis& actual, std::initializer_list<Vec6> expected, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(actual.cols(), static_cast<Eigen::Index>(expected.size()));
  int k = 0;
  for (const Vec6& e : expected) {
    EXPECT_NEAR((Vec6(actual.col(k)) - e).norm(), 0.0, 1e-9) << "column " << k << ": " << actual.col(k).transpose();
    ++k;
  }
}

// Rank of the union of two screw sets by LU (independent of the SVD under test).
int union_rank(const ScrewBasis& a, const ScrewBasis& b) {
  Eigen::MatrixXd both(6, a.cols() + b.cols());
  both << a, b;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(both);
  lu.setThreshold(1e-9);
  return static_cast<int>(lu.rank());
}

// Rank of the Schoenflies robot's leg-rate map, computed by hand at the configuration q: the
// platform twist (ω ẑ; v) with v about the world origin changes leg i at the rate
// l̇_i = e_i · (v + ω ẑ × C_i) (momentum-screw-schoenflies eqs. 21–22); 4 legs × (ω, v_x,
// v_y, v_z). An independent check of the singular-actuation verdict.
int schoenflies_leg_rate_rank(const Model& model, const VecX& q, bool singular_layout) {
  Data data(model);
  forward_kinematics(model, data, q);
  const int platform = *model.body_index("platform");
  const double base_angles[4] = {-45, 45, 135, 225}, mirrored[4] = {45, -45, -135, 135};
  const Vec3 home_origin = testing::at_angle(0.212, singular_layout ? base_angles[0] : mirrored[0], 1.0);
  Eigen::Matrix4d rates;
  for (int i = 0; i < 4; ++i) {
    const Vec3 a = testing::at_angle(0.707, base_angles[i]);
    const Vec3 home = testing::at_angle(0.212, singular_layout ? base_angles[i] : mirrored[i], 1.0);
    const Vec3 c = data.position[platform] + data.rotation[platform] * (home - home_origin);
    const Vec3 e = (c - a).normalized();
    rates.row(i) << e.dot(Vec3::UnitZ().cross(c)), e.x(), e.y(), e.z();
  }
  Eigen::FullPivLU<Eigen::Matrix4d> lu(rates);
  lu.setThreshold(1e-9);
  return static_cast<int>(lu.rank());
}

// Planar four-bar (examples/models/four_bar.yaml: crank actuated, coupler and rocker
// passive, 3 revolute joints in the tree). With its planar-revolute cut (2 rows): GK =
// 6 (3 − 4) + 3 + 4 = 1 = dof, nothing redundant. With a spatial revolute cut (5 rows):
// GK = 6 (3 − 4) + 3 + 1 = −2 but dof is still 1, so 3 rows are redundant: the planar
// loop cannot violate the force along z and the couples about x and y, which are rows
// 2 (z position), 3 and 4 (the axis-alignment rows) of the cut joint. The rocker turns
// about z through D = (0.3, 0, 0): twist (0, 0, 1; 0, −0.3, 0); it is held by the
// reciprocal 5-system of its revolute joint. Catches: a wrong rank of J, redundant rows
// miscounted or misattributed, GK not matching, a wrong body twist.
TEST(MobilityMechanisms, FourBarPlanarAndSpatialCut) {
  const Model planar = testing::example_model("four_bar.yaml");
  const MobilityReport p = analyze(planar, "rocker", VecX::Constant(3, 0.6));
  EXPECT_EQ(p.constraint_rows, 2);
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.dof, 1);
  EXPECT_EQ(p.redundant_constraints, 0);
  EXPECT_EQ(p.gruebler_kutzbach, 1);
  EXPECT_EQ(p.actuated, 1);
  EXPECT_EQ(p.redundant_actuation, 0);
  EXPECT_FALSE(p.singular_actuation);
  EXPECT_EQ(p.moving_bodies, 3);
  ASSERT_TRUE(p.body.has_value());
  expect_basis(p.body->twists, {screw(0, 0, 1, 0, -0.3, 0)}, "rocker twist");
  expect_basis(p.body->constraint_wrenches,
               {screw(1, 0, 0, 0, 0, 0), screw(0, 1, 0, 0, 0, 0.3), screw(0, 0, 1, 0, 0, 0), screw(0, 0, 0, 1, 0, 0),
                screw(0, 0, 0, 0, 1, 0)},
               "rocker constraint wrenches: forces through its axis, couples about x and y");

  Model spatial = planar;
  spatial.loops[0].type = LoopType::Revolute;
  finalize_model(spatial, "four_bar_spatial_cut");
  const MobilityReport s = analyze(spatial, "rocker", VecX::Constant(3, 0.6));
  EXPECT_EQ(s.constraint_rows, 5);
  EXPECT_EQ(s.rank, 2);
  EXPECT_EQ(s.dof, 1);
  EXPECT_EQ(s.redundant_constraints, 3);
  EXPECT_EQ(s.gruebler_kutzbach, -2);
  EXPECT_EQ(s.dof - s.gruebler_kutzbach, s.redundant_constraints);
  ASSERT_EQ(s.redundant_rows.size(), 3u);
  EXPECT_EQ(s.redundant_rows[0].loop_row, 2);
  EXPECT_EQ(s.redundant_rows[1].loop_row, 3);
  EXPECT_EQ(s.redundant_rows[2].loop_row, 4);
  // Their wrenches: a force along z, then couples perpendicular to z.
  EXPECT_NEAR(std::abs(s.redundant_rows[0].wrench.force().normalized().z()), 1.0, 1e-12);
  for (int i = 1; i < 3; ++i) {
    EXPECT_NEAR(s.redundant_rows[i].wrench.force().norm(), 0.0, 1e-12);
    EXPECT_NEAR(s.redundant_rows[i].wrench.moment().z(), 0.0, 1e-12);
  }
  EXPECT_EQ(s.redundant_actuation, 0);
  EXPECT_FALSE(s.singular_actuation);
  expect_basis(s.body->twists, {screw(0, 0, 1, 0, -0.3, 0)}, "rocker twist, spatial cut");
}

// Spatial RSSR. GK = 6 (3 − 4) + (1 + 3 + 1 + 3) = 2: the output motion and the idle spin
// of the S–S coupler about the line through its two ball centres. Closure: 3 rows, all
// independent. With the crank actuated, locking it leaves only the idle spin, so the
// actuation is not singular and not redundant. With the rocker actuated as well, the two
// actuators fight over one output motion: one internal-force pattern (redundant
// actuation 1), although "actuated − dof" would say 0 — dof counts the idle spin.
// The rocker turns about y through D = (0.3, 0.1, 0.2): twist (0, 1, 0; −0.2, 0, 0.3).
// Catches: idle freedoms taken for singular actuation; redundant actuation taken from the
// formula actuated − dof instead of the ranks.
TEST(MobilityMechanisms, SpatialRssr) {
  const Model one = testing::rssr(false);
  const MobilityReport r = analyze(one, "rocker");
  EXPECT_EQ(r.constraint_rows, 3);
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(r.dof, 2);
  EXPECT_EQ(r.gruebler_kutzbach, 2);
  EXPECT_EQ(r.redundant_constraints, 0);
  EXPECT_EQ(r.idle_freedoms, 1);
  EXPECT_EQ(r.locked_mobility, 1);
  EXPECT_EQ(r.locked_idle_freedoms, 1);
  EXPECT_FALSE(r.singular_actuation);
  EXPECT_EQ(r.redundant_actuation, 0);
  expect_basis(r.body->twists, {screw(0, 1, 0, -0.2, 0, 0.3)}, "rocker twist");
  EXPECT_EQ(r.body->locked_twists.cols(), 0);

  const MobilityReport two = analyze(testing::rssr(true), "rocker");
  EXPECT_EQ(two.actuated, 2);
  EXPECT_EQ(two.redundant_actuation, 1);
  EXPECT_FALSE(two.singular_actuation);
}

// Idle freedoms. A 6-SPS platform: GK = 6 (13 − 18) + 6 · 7 = 12 = dof, of which 6 are the
// legs spinning about their own axes (each leg turns about the line through its two ball
// centres): locking the 6 legs leaves exactly those 6, so the actuation is not singular. A
// serial arm has no idle freedom (a leaf link's spin is its joint's motion). A passive link
// hanging from the four-bar's coupler is uncontrolled: locking the crank leaves it free, so
// the actuation is singular; actuated, it is controlled. Catches: idle spins taken for
// singular actuation, or a dangling passive link taken for an idle spin.
TEST(MobilityMechanisms, IdleFreedomsAndUncontrolledLinks) {
  const MobilityReport sps = analyze(testing::stewart_6ups(true), "platform");
  EXPECT_EQ(sps.dof, 12);
  EXPECT_EQ(sps.gruebler_kutzbach, 12);
  EXPECT_EQ(sps.idle_freedoms, 6);
  EXPECT_EQ(sps.locked_mobility, 6);
  EXPECT_EQ(sps.locked_idle_freedoms, 6);
  EXPECT_FALSE(sps.singular_actuation);
  EXPECT_EQ(sps.redundant_actuation, 0);
  EXPECT_EQ(sps.body->twists.cols(), 6);

  EXPECT_EQ(analyze(testing::example_model("five_axis_tree.yaml")).idle_freedoms, 0);

  for (bool actuated : {false, true}) {
    SCOPED_TRACE(actuated);
    Model model = testing::example_model("four_bar.yaml");
    Body pendulum;
    pendulum.name = "pendulum";
    pendulum.parent = *model.body_index("coupler");
    pendulum.mass = 0.1;
    pendulum.com = Vec3(0, -0.05, 0);
    pendulum.inertia = Vec3(1e-4, 1e-4, 1e-4).asDiagonal();
    Joint hinge;
    hinge.name = "hinge";
    hinge.type = JointType::Revolute;
    hinge.axis = Vec3::UnitZ();
    hinge.origin = Vec3(0.1, 0, 0);
    hinge.actuated = actuated;
    model.bodies.push_back(pendulum);
    model.joints.push_back(hinge);
    finalize_model(model, "four_bar_with_pendulum");
    const MobilityReport r = analyze(model, "", VecX::Constant(4, 0.6));
    EXPECT_EQ(r.dof, 2);
    EXPECT_EQ(r.idle_freedoms, 0);
    EXPECT_EQ(r.singular_actuation, !actuated);
    EXPECT_EQ(r.locked_mobility, actuated ? 0 : 1);
  }
}

// Planar 3-RRR. Planar-revolute cuts: nv = 3 + 2 + 2 = 7, rows 4, GK 3 = dof. Spatial
// revolute cuts: rows 10, GK = −3, dof 3, so 6 redundant rows (3 per cut joint: force
// along z, couples about x and y). The platform moves in its plane: twists ω_z, v_x, v_y;
// constraint wrenches f_z, m_x, m_y. Each leg of three revolute joints about z exerts that
// 3-system; a leg closed by a planar-revolute cut joint has 2 + 4 joint freedoms (the cut
// joint only holds the point in the plane), so it exerts nothing: the planar-revolute cut is
// a modelling device that removes the over-constraint, not a revolute joint. Three actuators
// on three dof: no redundancy, not singular at this pose.
TEST(MobilityMechanisms, Planar3Rrr) {
  for (LoopType cut : {LoopType::PlanarRevolute, LoopType::Revolute}) {
    SCOPED_TRACE(loop_type_name(cut));
    const bool spatial = cut == LoopType::Revolute;
    const MobilityReport r = analyze(testing::planar_3rrr(cut), "platform");
    EXPECT_EQ(r.nv, 7);
    EXPECT_EQ(r.constraint_rows, spatial ? 10 : 4);
    EXPECT_EQ(r.rank, 4);
    EXPECT_EQ(r.dof, 3);
    EXPECT_EQ(r.redundant_constraints, spatial ? 6 : 0);
    EXPECT_EQ(r.gruebler_kutzbach, spatial ? -3 : 3);
    EXPECT_EQ(r.actuated, 3);
    EXPECT_EQ(r.redundant_actuation, 0);
    EXPECT_FALSE(r.singular_actuation);
    EXPECT_EQ(r.moving_bodies, 7);
    expect_basis(r.body->twists, {screw(0, 0, 1, 0, 0, 0), screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0)},
                 "platform twists");
    expect_basis(r.body->constraint_wrenches,
                 {screw(0, 0, 1, 0, 0, 0), screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0)},
                 "platform constraint wrenches");
    ASSERT_EQ(r.limbs.size(), 3u);
    for (const LimbConstraints& limb : r.limbs) {
      EXPECT_TRUE(limb.serial);
      EXPECT_EQ(limb.joints.size(), 3u);
      const bool planar_cut = !spatial && limb.joints.back().cut;
      EXPECT_EQ(limb.freedoms, planar_cut ? 6 : 3);
      EXPECT_EQ(limb.twist_rank, planar_cut ? 6 : 3);
      EXPECT_EQ(limb.constraint_wrenches.cols(), planar_cut ? 0 : 3);
      EXPECT_EQ(union_rank(limb.constraint_wrenches, r.body->constraint_wrenches), 3);
    }
  }
}

// Gough–Stewart 6-UPS: GK = 6 (13 − 18) + 6 · 6 = 6 = dof; no redundancy; 6 actuated legs
// control the 6 dof. Each U–P–S leg has 6 independent joint twists: no constraint screw.
TEST(MobilityMechanisms, Stewart6Ups) {
  const MobilityReport r = analyze(testing::stewart_6ups(), "platform");
  EXPECT_EQ(r.nv, 21);
  EXPECT_EQ(r.constraint_rows, 15);
  EXPECT_EQ(r.rank, 15);
  EXPECT_EQ(r.dof, 6);
  EXPECT_EQ(r.gruebler_kutzbach, 6);
  EXPECT_EQ(r.redundant_constraints, 0);
  EXPECT_EQ(r.idle_freedoms, 0);
  EXPECT_EQ(r.actuated, 6);
  EXPECT_EQ(r.redundant_actuation, 0);
  EXPECT_FALSE(r.singular_actuation);
  EXPECT_EQ(r.body->twists.cols(), 6);
  EXPECT_EQ(r.body->constraint_wrenches.cols(), 0);
  ASSERT_EQ(r.limbs.size(), 6u);
  for (const LimbConstraints& limb : r.limbs) {
    EXPECT_EQ(limb.freedoms, 6);
    EXPECT_EQ(limb.twist_rank, 6);
    EXPECT_EQ(limb.constraint_wrenches.cols(), 0);
  }
}

// Tsai's 3-UPU: GK = 6 (7 − 9) + 3 · 5 = 3 = dof: not over-constrained in the GK sense
// (0 redundant closure rows). Each U–P–U leg with parallel intermediate axes u2 and parallel
// outer axes u1 exerts one couple along u1 × u2 on the platform (reciprocal to 4 rotations
// and 1 translation); the three couples span every couple, so the platform only translates:
// twists v_x, v_y, v_z and constraint wrenches m_x, m_y, m_z.
TEST(MobilityMechanisms, Tsai3UpuTranslational) {
  const MobilityReport r = analyze(testing::tsai_3upu(), "platform");
  EXPECT_EQ(r.nv, 11);
  EXPECT_EQ(r.constraint_rows, 8);
  EXPECT_EQ(r.dof, 3);
  EXPECT_EQ(r.gruebler_kutzbach, 3);
  EXPECT_EQ(r.redundant_constraints, 0);
  EXPECT_EQ(r.redundant_actuation, 0);
  EXPECT_FALSE(r.singular_actuation);
  expect_basis(r.body->twists, {screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0), screw(0, 0, 0, 0, 0, 1)},
               "platform twists");
  expect_basis(r.body->constraint_wrenches, {screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0), screw(0, 0, 0, 0, 0, 1)},
               "constraint couples");
  ASSERT_EQ(r.limbs.size(), 3u);
  for (const LimbConstraints& limb : r.limbs) {
    EXPECT_EQ(limb.twist_rank, 5);
    ASSERT_EQ(limb.constraint_wrenches.cols(), 1);
    EXPECT_NEAR(Vec3(limb.constraint_wrenches.col(0).head<3>()).norm(), 0.0, 1e-12) << "a pure couple";
  }
}

// 2UPS+2UPU Schoenflies robot (momentum-screw-schoenflies §3.2): GK = 6 (9 − 12) + 2 · 5 +
// 2 · 6 = 4 = dof. Each U–P–U limb exerts one couple along z × h (⟂ z); the two limbs' couples
// are not parallel, so the platform's constraint wrenches are the couples about x and y and
// its twists the three translations and the rotation about z. Four actuated legs on four
// dof: no redundancy, not singular.
TEST(MobilityMechanisms, Schoenflies2Ups2Upu) {
  const MobilityReport r = analyze(testing::schoenflies_2ups_2upu(false), "platform");
  EXPECT_EQ(r.nv, 14);
  EXPECT_EQ(r.constraint_rows, 10);
  EXPECT_EQ(r.dof, 4);
  EXPECT_EQ(r.gruebler_kutzbach, 4);
  EXPECT_EQ(r.redundant_constraints, 0);
  EXPECT_EQ(r.actuated, 4);
  EXPECT_EQ(r.redundant_actuation, 0);
  EXPECT_FALSE(r.singular_actuation);
  EXPECT_EQ(schoenflies_leg_rate_rank(testing::schoenflies_2ups_2upu(false), r.q, false), 4);
  expect_basis(r.body->twists,
               {screw(0, 0, 1, 0, 0, 0), screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0), screw(0, 0, 0, 0, 0, 1)},
               "Schoenflies twists");
  expect_basis(r.body->constraint_wrenches, {screw(0, 0, 0, 1, 0, 0), screw(0, 0, 0, 0, 1, 0)},
               "two couples perpendicular to z");
  ASSERT_EQ(r.limbs.size(), 4u);
  int couples = 0;
  for (const LimbConstraints& limb : r.limbs) {
    const bool upu = limb.joint_names.back().find("U") == 0 || limb.joint_names.back() == "platform_joint";
    EXPECT_EQ(limb.constraint_wrenches.cols(), upu ? 1 : 0) << limb.joint_names.back();
    for (Eigen::Index k = 0; k < limb.constraint_wrenches.cols(); ++k) {
      EXPECT_NEAR(Vec3(limb.constraint_wrenches.col(k).head<3>()).norm(), 0.0, 1e-12);
      EXPECT_NEAR(limb.constraint_wrenches(5, k), 0.0, 1e-12);
      ++couples;
    }
  }
  EXPECT_EQ(couples, 2);
}

// The singular layout (platform points at the base angles, issue 10): leg i lies in the
// vertical plane through A_i and the z axis when the platform is centred; at any platform
// position p with θ = 0 the legs' rates for the platform twist (ω_z ẑ; u) vanish when
// u = k ω_z/(1 − k) (p × ẑ) (k = 0.212/0.707 the ratio of the radii): with the legs
// locked the platform can still turn about z. So locking the 4 actuators leaves a motion
// (singular actuation) and the 4 leg forces have one self-stress (redundant actuation 1).
// The leg lengths are set from platform poses (x, y, z, θ) — the 4 lengths are not
// independent in this layout, so arbitrary ones cannot be assembled. Catches: a singular
// actuation reported as a dead point (assembly error) or not at all.
TEST(MobilityMechanisms, SchoenfliesSingularLayoutIsSingularAtEveryPose) {
  const Model model = testing::schoenflies_2ups_2upu(true);
  const double base_angles[4] = {-45, 45, 135, 225};
  const double poses[4][4] = {{0, 0, 1, 0}, {0.05, -0.03, 1.02, 0}, {-0.1, 0.08, 0.95, 0.2}, {0.15, 0.1, 1.1, -0.3}};
  for (const auto& pose : poses) {
    SCOPED_TRACE(pose[3]);
    VecX q = model.neutral_configuration();
    int leg = 0;
    for (const Joint& joint : model.joints) {
      if (joint.type != JointType::Prismatic) continue;
      const Vec3 a = testing::at_angle(0.707, base_angles[leg]);
      const Vec3 home = testing::at_angle(0.212, base_angles[leg], 1.0);
      const Vec3 c =
          Vec3(pose[0], pose[1], pose[2]) + testing::at_angle(0.212, base_angles[leg] + pose[3] * 180 / M_PI);
      q[joint.q_index] = (c - a).norm() - (home - a).norm();
      ++leg;
    }
    const MobilityReport r = analyze(model, "platform", q);
    EXPECT_EQ(r.dof, 4);
    EXPECT_EQ(r.redundant_constraints, 0);
    EXPECT_TRUE(r.singular_actuation);
    EXPECT_EQ(schoenflies_leg_rate_rank(model, r.q, true), 3);
    EXPECT_EQ(r.locked_mobility, 1);
    EXPECT_EQ(r.redundant_actuation, 1);
    ASSERT_EQ(r.body->locked_twists.cols(), 1);
    EXPECT_NEAR(std::abs(r.body->locked_twists(2, 0)), 1.0, 1e-9)
        << "turns about z: " << r.body->locked_twists.transpose();
  }
}

// The 3UPS-UPU-S (screw-kinematics-3UPS-UPU-S §2.2): GK = 6 (9 − 13) + 3 · 6 + 5 + 3 = 2 =
// dof. Constraint wrenches on the platform: the S chain's forces through the origin
// (eq. 11) and the U–P–U chain's force along y through (R − L / sin θ, b, 0) with R = 0.8,
// L = 0.6, sin θ = 0.5: x = −0.4 (eq. 9 prints R − L sin θ = 0.5, not reciprocal to its
// own $₄: see test_screw_system). So the platform wrenches span f_x, f_y, f_z, m_z and its
// twists are the rotations about x and y through the origin (eq. 14). Four actuated legs
// on two dof: redundant actuation 2.
TEST(MobilityMechanisms, ThreeUpsUpuSOfThePaper) {
  const MobilityReport r = analyze(testing::ups_upu_s(), "platform");
  EXPECT_EQ(r.nv, 15);
  EXPECT_EQ(r.constraint_rows, 13);
  EXPECT_EQ(r.dof, 2);
  EXPECT_EQ(r.gruebler_kutzbach, 2);
  EXPECT_EQ(r.redundant_constraints, 0);
  EXPECT_EQ(r.actuated, 4);
  EXPECT_EQ(r.redundant_actuation, 2);
  EXPECT_FALSE(r.singular_actuation);
  expect_basis(r.body->twists, {screw(1, 0, 0, 0, 0, 0), screw(0, 1, 0, 0, 0, 0)}, "eq. (14)");
  expect_basis(r.body->constraint_wrenches,
               {screw(1, 0, 0, 0, 0, 0), screw(0, 1, 0, 0, 0, 0), screw(0, 0, 1, 0, 0, 0), screw(0, 0, 0, 0, 0, 1)},
               "eqs. (9)–(12)");
  ASSERT_EQ(r.limbs.size(), 5u);
  bool found_upu = false;
  for (const LimbConstraints& limb : r.limbs) {
    if (limb.joint_names.back() == "U1") {
      found_upu = true;
      expect_basis(limb.constraint_wrenches, {screw(0, 1, 0, 0, 0, -0.4)}, "U-P-U chain: force along y at x = -0.4");
    } else if (limb.joints.size() == 1) {
      expect_basis(limb.constraint_wrenches,
                   {screw(1, 0, 0, 0, 0, 0), screw(0, 1, 0, 0, 0, 0), screw(0, 0, 1, 0, 0, 0)}, "S chain, eq. (11)");
    } else {
      EXPECT_EQ(limb.constraint_wrenches.cols(), 0) << "U-P-S chain, eq. (10)";
    }
  }
  EXPECT_TRUE(found_upu);
}

}  // namespace
}  // namespace mechdyn
