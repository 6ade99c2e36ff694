// Rank, span and reciprocal system of sets of screws (screw/screw_system.hpp), against the
// closed-form reciprocal systems of the lower pairs and the paper's UPU limb; unit and
// origin independence of the rank decisions; no allocation.
// clang-format off
#include "no_malloc_probe.hpp"  // first: defines EIGEN_RUNTIME_NO_MALLOC
// clang-format on

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <random>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/screw/screw.hpp"

namespace mechdyn {
namespace {

using ScrewMatrix = Eigen::Matrix<double, 6, Eigen::Dynamic>;

// Rank by full-pivoting LU (a second algorithm, independent of the SVD under test).
int lu_rank(const ScrewMatrix& m) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(m);
  lu.setThreshold(1e-10);
  return static_cast<int>(lu.rank());
}

ScrewMatrix columns(std::initializer_list<Vec6> list) {
  ScrewMatrix out(6, static_cast<Eigen::Index>(list.size()));
  int k = 0;
  for (const Vec6& x : list) out.col(k++) = x;
  return out;
}

ScrewMatrix concatenate(const ScrewMatrix& a, const ScrewMatrix& b) {
  ScrewMatrix out(6, a.cols() + b.cols());
  out << a, b;
  return out;
}

// Checks that `computed` (the reciprocal system of `twists` by the library) has the
// dimension of `known` (a closed-form basis), that every column of it is reciprocal to
// every twist, and that both span the same space (rank of the union = dimension).
void expect_reciprocal_system(const ScrewMatrix& twists, const ScrewMatrix& known, const char* joint) {
  SCOPED_TRACE(joint);
  // Twice: at the world origin with L = 1 m, and moved to another reference point with
  // another characteristic length (the result must not depend on them).
  for (const ScrewScale& scale : {ScrewScale{}, ScrewScale{Vec3(0.7, -0.4, 0.2), 0.35}}) {
    ScrewSystem system(ScrewKind::Twist, scale);
    system.add_columns(twists);
    system.factorize();
    EXPECT_EQ(system.rank(), 6 - known.cols());
    ASSERT_EQ(lu_rank(known), known.cols()) << "the closed-form basis itself is not independent";
    for (const ScrewBasis& computed : {system.reciprocal_basis(), system.canonical_reciprocal_basis()}) {
      ASSERT_EQ(computed.cols(), known.cols());
      for (Eigen::Index i = 0; i < computed.cols(); ++i)
        for (Eigen::Index k = 0; k < twists.cols(); ++k)
          EXPECT_NEAR(reciprocal_product(Vec6(twists.col(k)), Vec6(computed.col(i))), 0.0, 1e-12);
      for (Eigen::Index i = 0; i < known.cols(); ++i)
        for (Eigen::Index k = 0; k < twists.cols(); ++k)
          EXPECT_NEAR(reciprocal_product(Vec6(twists.col(k)), Vec6(known.col(i))), 0.0, 1e-12)
              << "the closed form is wrong";
      EXPECT_EQ(lu_rank(concatenate(ScrewMatrix(computed), known)), known.cols());
    }
  }
}

// A general placement (axis not through the origin, not along a coordinate axis), so that
// a reciprocal system that only works at the origin fails.
const Vec3 kPoint(0.3, -0.2, 0.5);
const Vec3 kAxis = Vec3(1.0, 2.0, 2.0) / 3.0;

void perpendiculars(const Vec3& n, Vec3& t1, Vec3& t2) {
  t1 = n.unitOrthogonal();
  t2 = n.cross(t1);
}

// Catches: a reciprocal system with the wrong dimension or not reciprocal, for each lower
// pair. Closed forms (Hunt, "Kinematic Geometry of Mechanisms" (1978), ch. 12; Davidson &
// Hunt, "Robots and Screw Theory" (2004), §11): a revolute joint (axis u through p) is
// reciprocal to the 5-system of all forces meeting its axis and couples ⟂ u; the basis
// used: forces through p along x, y, z and couples along t1, t2 ⟂ u.
TEST(ScrewReciprocalSystems, RevoluteJoint) {
  Vec3 t1, t2;
  perpendiculars(kAxis, t1, t2);
  const ScrewMatrix twists = columns({Twist::rotation(kAxis, kPoint).plucker});
  const ScrewMatrix known = columns(
      {Wrench::force_through(Vec3::UnitX(), kPoint).plucker, Wrench::force_through(Vec3::UnitY(), kPoint).plucker,
       Wrench::force_through(Vec3::UnitZ(), kPoint).plucker, Wrench::couple(t1).plucker, Wrench::couple(t2).plucker});
  expect_reciprocal_system(twists, known, "R");
}

// Prismatic joint along u: all couples (3) and the forces ⟂ u along any line (2).
TEST(ScrewReciprocalSystems, PrismaticJoint) {
  Vec3 t1, t2;
  perpendiculars(kAxis, t1, t2);
  const ScrewMatrix twists = columns({Twist::translation(kAxis).plucker});
  const ScrewMatrix known =
      columns({Wrench::couple(Vec3::UnitX()).plucker, Wrench::couple(Vec3::UnitY()).plucker,
               Wrench::couple(Vec3::UnitZ()).plucker, Wrench::force_through(t1, Vec3(1, 2, 3)).plucker,
               Wrench::force_through(t2, Vec3(-1, 0, 4)).plucker});
  expect_reciprocal_system(twists, known, "P");
}

// Universal joint (axes u1, u2 meeting at p): forces through p (3) and the couple along
// u1 × u2 (the torque a Cardan joint transmits).
TEST(ScrewReciprocalSystems, UniversalJoint) {
  const Vec3 u1 = kAxis, u2 = kAxis.unitOrthogonal();
  const ScrewMatrix twists = columns({Twist::rotation(u1, kPoint).plucker, Twist::rotation(u2, kPoint).plucker});
  const ScrewMatrix known = columns(
      {Wrench::force_through(Vec3::UnitX(), kPoint).plucker, Wrench::force_through(Vec3::UnitY(), kPoint).plucker,
       Wrench::force_through(Vec3::UnitZ(), kPoint).plucker, Wrench::couple(u1.cross(u2)).plucker});
  expect_reciprocal_system(twists, known, "U");
}

// Spherical joint: the 3-system of forces through its centre.
TEST(ScrewReciprocalSystems, SphericalJoint) {
  const ScrewMatrix twists =
      columns({Twist::rotation(Vec3::UnitX(), kPoint).plucker, Twist::rotation(Vec3::UnitY(), kPoint).plucker,
               Twist::rotation(Vec3::UnitZ(), kPoint).plucker});
  const ScrewMatrix known = columns({Wrench::force_through(Vec3(1, 1, 0), kPoint).plucker,
                                     Wrench::force_through(Vec3(0, 1, 1), kPoint).plucker,
                                     Wrench::force_through(Vec3(1, 0, 1), kPoint).plucker});
  expect_reciprocal_system(twists, known, "S");
}

// Cylindrical joint (rotation about and translation along u through p): forces meeting
// the axis at right angles (2) and couples ⟂ u (2).
TEST(ScrewReciprocalSystems, CylindricalJoint) {
  Vec3 t1, t2;
  perpendiculars(kAxis, t1, t2);
  const ScrewMatrix twists = columns({Twist::rotation(kAxis, kPoint).plucker, Twist::translation(kAxis).plucker});
  const ScrewMatrix known =
      columns({Wrench::force_through(t1, kPoint).plucker, Wrench::force_through(t2, kPoint + 0.7 * kAxis).plucker,
               Wrench::couple(t1).plucker, Wrench::couple(t2).plucker});
  expect_reciprocal_system(twists, known, "C");
}

// Planar pair (normal n): translations ⟂ n and rotation about n; reciprocal: a force
// along n (through any point) and the couples ⟂ n.
TEST(ScrewReciprocalSystems, PlanarPair) {
  Vec3 t1, t2;
  perpendiculars(kAxis, t1, t2);
  const ScrewMatrix twists =
      columns({Twist::translation(t1).plucker, Twist::translation(t2).plucker, Twist::rotation(kAxis, kPoint).plucker});
  const ScrewMatrix known = columns(
      {Wrench::force_through(kAxis, Vec3(5, -1, 2)).plucker, Wrench::couple(t1).plucker, Wrench::couple(t2).plucker});
  expect_reciprocal_system(twists, known, "planar");
}

// Helical joint of pitch h: reciprocal to the wrench on the same axis with pitch −h, to
// forces meeting the axis at right angles and to couples ⟂ u (a finite-pitch case).
TEST(ScrewReciprocalSystems, HelicalJointFinitePitch) {
  Vec3 t1, t2;
  perpendiculars(kAxis, t1, t2);
  const double pitch = 0.02;
  const ScrewMatrix twists = columns({Twist::screw_motion(kAxis, kPoint, pitch).plucker});
  const ScrewMatrix known =
      columns({Wrench::screw_load(kAxis, kPoint, -pitch).plucker, Wrench::force_through(t1, kPoint).plucker,
               Wrench::force_through(t2, kPoint).plucker, Wrench::couple(t1).plucker, Wrench::couple(t2).plucker});
  expect_reciprocal_system(twists, known, "H");
}

// Catches: a canonical basis that is not the unique reduced row-echelon form (reports and
// tests compare it entry by entry). A revolute joint about z through the origin has the
// reciprocal system f_x, f_y, f_z, m_x, m_y exactly.
TEST(ScrewReciprocalSystems, CanonicalBasisOfARevoluteJointAboutZ) {
  const ScrewBasis basis = reciprocal_screws(columns({Twist::rotation(Vec3::UnitZ(), Vec3::Zero()).plucker}));
  ASSERT_EQ(basis.cols(), 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(Vec6(basis.col(i)), Vec6::Unit(i)) << "column " << i;
}

// The UPU limb of screw-kinematics-3UPS-UPU-S §2.2, its eq. (6) verbatim: base U at
// A = (R, 0, 0) with axes x, y; the leg of length L at angle θ from z; platform U at
// C = (R − L sin θ, 0, L cos θ) with axes (cos θ, 0, sin θ) and y. The reciprocal screw is
// one force along y; it must meet all four revolute axes: the x axis through A (so z = 0)
// and the line C + s (cos θ, 0, sin θ) (at z = 0: x = R − L/sin θ). So
//   $_r = (0, 1, 0, 0, 0, R − L / sin θ),
// not the paper's eq. (9) (0, 1, 0, 0, 0, R − L sin θ), which is not reciprocal to its own
// $₄ unless cos θ = 0: ⟨$₄, $_r(eq. 9)⟩ = L cos²θ. Catches a reciprocal system that
// reproduces the misprint (or any other force line).
TEST(ScrewReciprocalSystems, UpuLimbOfThe3UpsUpuSPaper) {
  const double big_r = 0.8, length = 0.9, theta = 0.4;
  const double s = std::sin(theta), c = std::cos(theta);
  Vec6 s1, s2, s3, s4, s5;
  s1 << 1, 0, 0, 0, 0, 0;
  s2 << 0, 1, 0, 0, 0, big_r;
  s3 << 0, 0, 0, -s, 0, c;
  s4 << c, 0, s, 0, -big_r * s + length, 0;
  s5 << 0, 1, 0, -length * c, 0, big_r - length * s;
  const ScrewBasis reciprocal = reciprocal_screws(columns({s1, s2, s3, s4, s5}));
  ASSERT_EQ(reciprocal.cols(), 1);
  Vec6 expected;
  expected << 0, 1, 0, 0, 0, big_r - length / s;
  EXPECT_NEAR((Vec6(reciprocal.col(0)) - expected).norm(), 0.0, 1e-12);
  Vec6 printed;  // eq. (9) as printed
  printed << 0, 1, 0, 0, 0, big_r - length * s;
  EXPECT_NEAR(reciprocal_product(s4, printed), length * c * c, 1e-12);
}

// Catches: rank decisions that depend on the unit of length or on where the origin is.
// Two rotations about parallel axes a distance d apart span a rotation and a translation
// (rank 2 for any d > 0); with d = 1e-11 m on a 1 m mechanism they are one screw at the
// tolerance 1e-9. The same geometry written in millimetres (moments × 1000) with
// L = 1000 mm, or moved 1 km from the origin with the reference point moved too, must
// give the same singular values relative to the largest, hence the same rank.
TEST(ScrewRankDecisions, IndependentOfUnitsAndOrigin) {
  for (double separation : {1e-3, 1e-8, 1e-11}) {
    SCOPED_TRACE(separation);
    const Vec3 axis = Vec3(0.0, 0.6, 0.8), base(0.2, 0.1, -0.3), offset = Vec3(1, 0, 0) * separation;
    const ScrewMatrix metres =
        columns({Twist::rotation(axis, base).plucker, Twist::rotation(axis, base + offset).plucker,
                 Twist::rotation(Vec3::UnitX(), base).plucker});
    ScrewMatrix millimetres = metres;
    millimetres.bottomRows<3>() *= 1000.0;  // v in mm/s, ω unchanged
    const Vec3 far(1000.0, -500.0, 300.0);
    ScrewMatrix moved(6, 3);
    for (int k = 0; k < 3; ++k) moved.col(k) = shift_reference_point(Twist(Vec6(metres.col(k))), -far).plucker;

    ScrewSystem in_metres(ScrewKind::Twist, {Vec3::Zero(), 1.0});
    in_metres.add_columns(metres);
    in_metres.factorize();
    ScrewSystem in_millimetres(ScrewKind::Twist, {Vec3::Zero(), 1000.0});
    in_millimetres.add_columns(millimetres);
    in_millimetres.factorize();
    ScrewSystem far_away(ScrewKind::Twist, {far, 1.0});
    far_away.add_columns(moved);
    far_away.factorize();
    const int expected = separation > 1e-9 ? 3 : 2;
    EXPECT_EQ(in_metres.rank(), expected);
    EXPECT_EQ(in_millimetres.rank(), expected);
    EXPECT_EQ(far_away.rank(), expected);
    const Vec6 relative = in_metres.singular_values() / in_metres.singular_values()[0];
    EXPECT_NEAR((in_millimetres.singular_values() / in_millimetres.singular_values()[0] - relative).norm(), 0, 1e-12);
  }
  // Without the scale the decision changes: a rotation of 1 rad/s and a translation of
  // 1e-7 m/s are independent on a 1 m mechanism (ratio 1e-7 > 1e-9). Written in kilometres
  // (v = 1e-10 km/s) they stay independent with L = 1e-3 km, but raw coordinates (L = 1,
  // i.e. a 1 km mechanism) would call them dependent. This is what L is for.
  const ScrewMatrix kilometres =
      columns({Twist::rotation(Vec3::UnitZ(), Vec3::Zero()).plucker, Twist::translation(Vec3(1e-10, 0, 0)).plucker});
  EXPECT_EQ(screw_rank(kilometres, {Vec3::Zero(), 1e-3}), 2);
  EXPECT_EQ(screw_rank(kilometres, {Vec3::Zero(), 1.0}), 1);
  ScrewMatrix metres = kilometres;
  metres.bottomRows<3>() *= 1e3;
  EXPECT_EQ(screw_rank(metres, {Vec3::Zero(), 1.0}), 2);
}

// Catches: a system made only of round-off reported with full rank because the tolerance
// is relative to its own largest singular value.
TEST(ScrewRankDecisions, ReferenceMagnitudeMakesRoundOffRankZero) {
  ScrewSystem system(ScrewKind::Twist);
  system.add(Twist(Vec3(1e-17, -2e-17, 0), Vec3(3e-17, 0, 1e-17)));
  system.factorize();
  EXPECT_EQ(system.rank(), 1);
  system.factorize(kScrewTolerance, 1.0);
  EXPECT_EQ(system.rank(), 0);
  EXPECT_EQ(system.reciprocal_basis().cols(), 6);
}

// Catches: a streaming QR that loses information after six screws. Twenty random
// combinations of a 4-system have rank 4 and the reciprocal system of that 4-system.
TEST(ScrewRankDecisions, ManyScrewsOfALowRankSystem) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  ScrewMatrix generators = ScrewMatrix::Zero(6, 4);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 6; ++i) generators(i, k) = u(rng);
  ScrewSystem system(ScrewKind::Wrench, {Vec3(0.1, 0.2, 0.3), 0.5});
  for (int k = 0; k < 20; ++k) {
    Eigen::Vector4d mix;
    for (int i = 0; i < 4; ++i) mix[i] = u(rng);
    system.add(Wrench(Vec6(generators * mix)));
  }
  system.factorize();
  EXPECT_EQ(system.count(), 20);
  EXPECT_EQ(system.rank(), 4);
  const ScrewBasis twists = system.reciprocal_basis();
  ASSERT_EQ(twists.cols(), 2);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k)
      EXPECT_NEAR(reciprocal_product(Vec6(twists.col(i)), Vec6(generators.col(k))), 0.0, 1e-12);
  EXPECT_EQ(lu_rank(concatenate(ScrewMatrix(system.basis()), generators)), 4);
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(system.contains(Vec6(generators.col(k))));
  EXPECT_FALSE(system.contains(Vec6(twists.col(0))) && system.contains(Vec6(twists.col(1))));
  EXPECT_THROW(system.add(Twist()), InvalidArgument);
}

// Catches: an allocation in the screw algebra (the momentum-screw inverse dynamics builds
// limb constraint systems at every sample).
TEST(ScrewNoAllocation, SingleScrewsAndSystems) {
  Twist a(Vec3(0.1, 0.2, 0.3), Vec3(1, 2, 3));
  Wrench w(Vec3(3, 2, 1), Vec3(-1, 0, 2));
  RigidTransform pose;
  pose.rotation = axis_angle_rotation(kAxis, 0.3);
  pose.translation = kPoint;
  ScrewSystem system(ScrewKind::Twist, {kPoint, 0.8});
  double sink = 0.0;
  const long allocations = testing::allocations_during([&] {
    for (int repeat = 0; repeat < 3; ++repeat) {
      const Twist b = transform(pose, lie_bracket(a, shift_reference_point(a, kPoint)));
      const Wrench v = inverse_transform(pose, dual_lie_bracket(b, w));
      sink += reciprocal_product(b, v) + screw_axis(b).magnitude + adjoint_matrix(pose).sum();
      system.reset(ScrewKind::Twist, {kPoint, 0.8});
      system.add(b);
      system.add(a);
      system.add(Twist::rotation(kAxis, kPoint));
      system.factorize();
      const ScrewBasis span = system.basis();
      const ScrewBasis reciprocal = system.reciprocal_basis();
      const ScrewBasis canonical = system.canonical_reciprocal_basis();
      sink += span.sum() + reciprocal.sum() + canonical.sum() + system.canonical_basis().sum();
    }
  });
  EXPECT_LE(allocations, 0);
  EXPECT_TRUE(std::isfinite(sink));
}

}  // namespace
}  // namespace mechdyn
