// Static deflections of a cantilever (the FFR body with node 1 clamped, K e = Q) against
// the closed forms of Euler–Bernoulli beam theory. Cubic Hermite elements with consistent
// loads give the exact nodal displacements of these cases for ANY number of elements
// (the exact solutions are cubic, or quartic with the consistent load vector), so every
// check is to round-off, for n = 1, 2, 3 and 8.
//
// The beam points along an oblique direction with an oblique section, so that every
// check also goes through the local → body rotation C of the element matrices and the
// shape functions, and the section is not square (I_y ≠ I_z, J ≠ I_p).
// Loads enter through the library's generalized forces: a force at the tip point
// (ffr_point_wrench, the transpose of the point Jacobian), gravity on the distributed mass
// (ffr_gravity_force, S̄ᵀ g).
#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {
namespace {

constexpr double kLength = 1.3;

FlexibleBeam oblique_beam(int elements) {
  FlexibleBeam b;
  b.direction = Vec3(1, 2, 2) / 3.0;
  b.section_y = Vec3(2, 1, -2) / 3.0;  // perpendicular; z = d × y = (−2, 2, −1)/3
  b.length = kLength;
  b.elements = elements;
  b.section = {3e-4, 2e-9, 5e-9, 4e-9};
  b.material = {70e9, 26e9, 2700.0};
  return b;
}

struct Solution {
  Vec3 displacement;  // tip displacement, LOCAL components (axial, y, z)
  Vec3 rotation;      // tip section rotation, local components
};

// Solves K e = Q_e for the generalized force `q` (6 + n_e) and returns the tip motion at
// arclength s in local components.
Solution solve(const FlexibleBody& body, const VecX& q, double s) {
  const VecX e = body.stiffness.ldlt().solve(q.tail(body.num_elastic));
  const BeamPoint point = make_beam_point(body, s * body.beam.direction);
  BeamPointKinematics k(body);
  beam_point_kinematics(body, point, e, k);
  const Mat3& c = body.section_axes;
  return {c.transpose() * (k.position - s * body.beam.direction), c.transpose() * k.rotation_vector};
}

// Generalized force of a force/torque at the tip.
VecX tip_load(const FlexibleBody& body, const Vec3& force, const Vec3& torque, const Vec3& offset = Vec3::Zero()) {
  VecX q = VecX::Zero(6 + body.num_elastic);
  const BeamPoint tip = make_beam_point(body, kLength * body.beam.direction + offset);
  BeamPointKinematics k(body);
  beam_point_kinematics(body, tip, VecX::Zero(body.num_elastic), k);
  ffr_point_wrench(k, force, torque, q);
  return q;
}

void expect_close(const Vec3& actual, const Vec3& expected, const char* what, int n) {
  const double scale = expected.cwiseAbs().maxCoeff();
  EXPECT_LT((actual - expected).cwiseAbs().maxCoeff(), 1e-9 * scale)
      << what << " with " << n << " elements: " << actual.transpose() << " vs " << expected.transpose();
}

class Cantilever : public ::testing::TestWithParam<int> {};

// Catches: EI_y and EI_z swapped, a wrong bending sign (θz = v', θy = −w'), a wrong
// transformation to the body frame, a point Jacobian that is not the shape function.
// Tip force P along local y: v = P L³/(3 E I_z), θz = P L²/(2 E I_z);
// along local z: w = P L³/(3 E I_y), θy = −P L²/(2 E I_y)  (Euler–Bernoulli).
TEST_P(Cantilever, TipForceInBothBendingPlanes) {
  const int n = GetParam();
  const FlexibleBody body = make_flexible_body(oblique_beam(n));
  const double p = 40.0, e = 70e9, iy = 2e-9, iz = 5e-9, l = kLength;
  const Mat3& c = body.section_axes;
  Solution y = solve(body, tip_load(body, p * c.col(1), Vec3::Zero()), l);
  expect_close(y.displacement, Vec3(0, p * l * l * l / (3 * e * iz), 0), "y force: displacement", n);
  expect_close(y.rotation, Vec3(0, 0, p * l * l / (2 * e * iz)), "y force: rotation", n);
  Solution z = solve(body, tip_load(body, p * c.col(2), Vec3::Zero()), l);
  expect_close(z.displacement, Vec3(0, 0, p * l * l * l / (3 * e * iy)), "z force: displacement", n);
  expect_close(z.rotation, Vec3(0, -p * l * l / (2 * e * iy), 0), "z force: rotation", n);
}

// Catches: EA or GJ wrong (G I_p used instead of G J), a torque not reaching θx.
// Axial tip force P: u = P L/(E A); torque T about the axis: θx = T L/(G J).
TEST_P(Cantilever, AxialForceAndTorsionalTorque) {
  const int n = GetParam();
  const FlexibleBody body = make_flexible_body(oblique_beam(n));
  const double l = kLength;
  const Vec3& d = body.beam.direction;
  Solution axial = solve(body, tip_load(body, 5e3 * d, Vec3::Zero()), l);
  expect_close(axial.displacement, Vec3(5e3 * l / (70e9 * 3e-4), 0, 0), "axial force", n);
  expect_close(axial.rotation + Vec3(1, 1, 1), Vec3(1, 1, 1), "axial force: no rotation", n);
  Solution torsion = solve(body, tip_load(body, Vec3::Zero(), 2.0 * d), l);
  expect_close(torsion.rotation, Vec3(2.0 * l / (26e9 * 4e-9), 0, 0), "torque", n);
}

// Catches: a wrong gravity force on the distributed mass (S̄ wrong, or lumped instead of
// consistent loads). Uniform load q = ρ A g along local y; the deflection
// v(s) = q s² (6 L² − 4 L s + s²) / (24 E I_z), slope v'(s) = q s (3 L² − 3 L s + s²) / (6 E I_z),
// so the tip has q L⁴/(8 E I_z) and q L³/(6 E I_z); checked at every node.
TEST_P(Cantilever, SelfWeight) {
  const int n = GetParam();
  const FlexibleBody body = make_flexible_body(oblique_beam(n));
  FlexibleBodyData data(body);
  const double g = 9.81, q = 2700.0 * 3e-4 * g, e = 70e9, iz = 5e-9, l = kLength;
  ffr_gravity_force(body, data, VecX::Zero(body.num_elastic), g * body.section_axes.col(1));
  // The rigid rows: total weight and its moment about the origin (a free-body check).
  EXPECT_LT((data.gravity_force.segment<3>(3) - q * l * body.section_axes.col(1)).norm(), 1e-12);
  EXPECT_LT((data.gravity_force.head<3>() - (0.5 * l * body.beam.direction).cross(q * l * body.section_axes.col(1)))
                .norm(),
            1e-12);
  for (int node = 1; node <= n; ++node) {
    const double s = l * node / n;
    const Solution at = solve(body, data.gravity_force, s);
    expect_close(at.displacement, Vec3(0, q * s * s * (6 * l * l - 4 * l * s + s * s) / (24 * e * iz), 0),
                 "self-weight displacement", n);
    expect_close(at.rotation, Vec3(0, 0, q * s * (3 * l * l - 3 * l * s + s * s) / (6 * e * iz)),
                 "self-weight slope", n);
  }
}

// Catches: an off-axis point not carried by its section (the moment arm lost), the
// offset's Jacobian sign. An axial force P applied at o = h y off the tip's axis is the
// axial force plus the tip moment o × P d = −h P z: v = −h P L²/(2 E I_z), θz = −h P L/(E I_z).
TEST_P(Cantilever, ForceAtAnOffAxisPoint) {
  const int n = GetParam();
  const FlexibleBody body = make_flexible_body(oblique_beam(n));
  const double p = 3e3, h = 0.05, e = 70e9, iz = 5e-9, l = kLength;
  const Vec3& d = body.beam.direction;
  Solution tip = solve(body, tip_load(body, p * d, Vec3::Zero(), h * body.section_axes.col(1)), l);
  expect_close(tip.displacement, Vec3(p * l / (70e9 * 3e-4), -h * p * l * l / (2 * e * iz), 0), "off-axis force", n);
  expect_close(tip.rotation, Vec3(0, 0, -h * p * l / (e * iz)), "off-axis force: rotation", n);
}

INSTANTIATE_TEST_SUITE_P(Elements, Cantilever, ::testing::Values(1, 2, 3, 8));

}  // namespace
}  // namespace mechdyn
