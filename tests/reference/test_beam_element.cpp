// The 12-DoF beam element against closed forms written here independently: the Hermite
// shape functions, the stiffness k_f of Appendix 1 as the Hessian of the strain energy,
// Przemieniecki's consistent mass, the rotary and torsional inertia, and the geometric
// stiffness of a constant axial force (papers/rigid-flexible-3RRRU-ffr.txt eqs. 5–9, 33,
// Appendix 1; flexible/beam_element.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "mechdyn/flexible/beam_element.hpp"

namespace mechdyn {
namespace {

constexpr double kLength = 0.37;  // ℓ: not 1, so that every power of ℓ is tested

BeamSection test_section() {
  BeamSection s;
  s.area = 3.0e-4;
  s.iy = 2.0e-9;   // I_y ≠ I_z: each bending plane must use its own
  s.iz = 5.0e-9;
  s.torsion = 4.0e-9;  // J ≠ I_p: torsion must use J
  return s;
}

BeamMaterial test_material() { return {70e9, 26e9, 2700.0}; }

// Catches: a sign error in v' = θz or w' = −θy, swapped axial functions (the printed
// eq. 9 has x_o = e), a missing ℓ factor. A rigid motion of the element (translation t,
// small rotation φ) must be reproduced exactly by the fields: u(s) = t + φ × (s x̂) and
// section rotation φ, for nodal values taken from that rigid field.
TEST(BeamElement, ShapeFunctionsReproduceRigidMotion) {
  const Vec3 t(0.3, -0.7, 1.1), phi(0.2, -0.5, 0.4);
  Eigen::Matrix<double, 12, 1> q;
  for (int node = 0; node < 2; ++node) {
    const Vec3 x(node * kLength, 0.0, 0.0);
    q.segment<3>(6 * node) = t + phi.cross(x);
    q.segment<3>(6 * node + 3) = phi;
  }
  Mat3x12 n, r;
  for (double xi : {0.0, 0.13, 0.5, 0.77, 1.0}) {
    beam_shape_functions(xi, kLength, n, r);
    const Vec3 x(xi * kLength, 0.0, 0.0);
    EXPECT_LT((n * q - (t + phi.cross(x))).norm(), 1e-14) << "xi " << xi;
    EXPECT_LT((r * q - phi).norm(), 1e-14) << "xi " << xi;
  }
}

// Catches: wrong Hermite polynomials (values at the nodes and in between), a section
// rotation that is not the slope of the displacement.
TEST(BeamElement, ShapeFunctionsAreHermiteCubics) {
  Mat3x12 n, r;
  const double xi = 0.3, l = kLength;
  beam_shape_functions(xi, l, n, r);
  // Independent: H1 = (1 − ξ)²(1 + 2ξ), H2 = ξ (1 − ξ)², H3 = ξ²(3 − 2ξ), H4 = ξ²(ξ − 1).
  const double h1 = (1 - xi) * (1 - xi) * (1 + 2 * xi), h2 = xi * (1 - xi) * (1 - xi);
  const double h3 = xi * xi * (3 - 2 * xi), h4 = xi * xi * (xi - 1);
  EXPECT_NEAR(n(0, 0), 1 - xi, 1e-15);
  EXPECT_NEAR(n(0, 6), xi, 1e-15);
  EXPECT_NEAR(n(1, 1), h1, 1e-15);
  EXPECT_NEAR(n(1, 5), l * h2, 1e-15);
  EXPECT_NEAR(n(1, 7), h3, 1e-15);
  EXPECT_NEAR(n(1, 11), l * h4, 1e-15);
  EXPECT_NEAR(n(2, 4), -l * h2, 1e-15);
  EXPECT_NEAR(n(2, 10), -l * h4, 1e-15);
  // θz = dv/ds and θy = −dw/ds by central differences of the displacement.
  const double h = 1e-6;
  Mat3x12 n_plus, n_minus, unused;
  beam_shape_functions(xi + h, l, n_plus, unused);
  beam_shape_functions(xi - h, l, n_minus, unused);
  const Mat3x12 slope = (n_plus - n_minus) / (2 * h * l);
  EXPECT_LT((r.row(2) - slope.row(1)).norm(), 1e-8);
  EXPECT_LT((r.row(1) + slope.row(2)).norm(), 1e-8);
}

// Second derivatives of the Hermite functions (independent of the library's code).
Eigen::Matrix<double, 4, 12> curvatures(double xi, double l) {
  const double a1 = (-6 + 12 * xi) / (l * l), a2 = (-4 + 6 * xi) / l, a3 = (6 - 12 * xi) / (l * l),
               a4 = (-2 + 6 * xi) / l;
  Eigen::Matrix<double, 4, 12> b = Eigen::Matrix<double, 4, 12>::Zero();
  b(0, 0) = -1 / l, b(0, 6) = 1 / l;                              // u'
  b(1, 1) = a1, b(1, 5) = a2, b(1, 7) = a3, b(1, 11) = a4;        // v''
  b(2, 2) = a1, b(2, 4) = -a2, b(2, 8) = a3, b(2, 10) = -a4;      // w''
  b(3, 3) = -1 / l, b(3, 9) = 1 / l;                              // θx'
  return b;
}

// Catches: any wrong entry of the Appendix 1 closed form (a sign, EI_y and EI_z swapped,
// G I_p instead of G J). The strain energy U = ½ ∫ (EA u'² + E I_z v''² + E I_y w''² +
// G J θx'²) ds, integrated here with 5 Gauss points, has k_f as its Hessian.
TEST(BeamElement, StiffnessIsTheStrainEnergyHessian) {
  const BeamSection s = test_section();
  const BeamMaterial m = test_material();
  const Mat12 k = beam_element_stiffness(s, m, kLength);
  const double x5[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640};
  const double w5[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                        0.2369268850561891};
  Mat12 reference = Mat12::Zero();
  const Eigen::Vector4d rigidity(m.youngs_modulus * s.area, m.youngs_modulus * s.iz, m.youngs_modulus * s.iy,
                                 m.shear_modulus * s.torsion);
  for (int g = 0; g < 5; ++g) {
    const auto b = curvatures(0.5 * (1 + x5[g]), kLength);
    reference += 0.5 * w5[g] * kLength * b.transpose() * rigidity.asDiagonal() * b;
  }
  EXPECT_LT((k - reference).cwiseAbs().maxCoeff(), 1e-9 * k.cwiseAbs().maxCoeff());
  EXPECT_LT((k - k.transpose()).cwiseAbs().maxCoeff(), 1e-12 * k.cwiseAbs().maxCoeff());
  // Appendix 1 entries, spelled out: k(2,6) = 6 E I_zz / L², k(3,5) = −6 E I_yy / L².
  EXPECT_NEAR(k(1, 5), 6 * m.youngs_modulus * s.iz / (kLength * kLength), 1e-6);
  EXPECT_NEAR(k(2, 4), -6 * m.youngs_modulus * s.iy / (kLength * kLength), 1e-6);
  EXPECT_NEAR(k(3, 3), m.shear_modulus * s.torsion / kLength, 1e-6);
}

// Catches: a wrong consistent mass (quadrature order too low, a missing term of the
// rotary inertia, the torsional inertia forgotten so that M would be singular).
// Przemieniecki, Theory of Matrix Structural Analysis (1968), consistent mass matrices:
//   axial   ρAℓ/6 [2 1; 1 2];  torsion ρI_pℓ/6 [2 1; 1 2]
//   bending ρAℓ/420 [156 22ℓ 54 −13ℓ; 22ℓ 4ℓ² 13ℓ −3ℓ²; 54 13ℓ 156 −22ℓ; −13ℓ −3ℓ² −22ℓ 4ℓ²]
//   rotary  ρI/(30ℓ) [36 3ℓ −36 3ℓ; 3ℓ 4ℓ² −3ℓ −ℓ²; −36 −3ℓ 36 −3ℓ; 3ℓ −ℓ² −3ℓ 4ℓ²]
// (x–y plane, DOFs v_a θz_a v_b θz_b; the x–z plane has the rotation columns negated).
TEST(BeamElement, ConsistentMassIsPrzemieniecki) {
  const BeamSection s = test_section();
  const double rho = 2700.0, l = kLength;
  const Mat12 m = beam_element_mass(s, rho, l);
  Mat12 reference = Mat12::Zero();
  const double ra = rho * s.area * l;
  reference(0, 0) = reference(6, 6) = ra / 3, reference(0, 6) = reference(6, 0) = ra / 6;
  const double rt = rho * s.polar() * l;
  reference(3, 3) = reference(9, 9) = rt / 3, reference(3, 9) = reference(9, 3) = rt / 6;
  Eigen::Matrix4d translation, rotary;
  translation << 156, 22 * l, 54, -13 * l, 22 * l, 4 * l * l, 13 * l, -3 * l * l, 54, 13 * l, 156, -22 * l,
      -13 * l, -3 * l * l, -22 * l, 4 * l * l;
  rotary << 36, 3 * l, -36, 3 * l, 3 * l, 4 * l * l, -3 * l, -l * l, -36, -3 * l, 36, -3 * l, 3 * l, -l * l,
      -3 * l, 4 * l * l;
  const int plane[2][4] = {{1, 5, 7, 11}, {2, 4, 8, 10}};
  const double second_moment[2] = {s.iz, s.iy};
  for (int p = 0; p < 2; ++p) {
    const Eigen::Vector4d sign = p == 0 ? Eigen::Vector4d(1, 1, 1, 1) : Eigen::Vector4d(1, -1, 1, -1);
    const Eigen::Matrix4d block = sign.asDiagonal() *
                                  (ra / 420 * translation + rho * second_moment[p] / (30 * l) * rotary) *
                                  sign.asDiagonal();
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) reference(plane[p][r], plane[p][c]) = block(r, c);
  }
  EXPECT_LT((m - reference).cwiseAbs().maxCoeff(), 1e-13 * reference.cwiseAbs().maxCoeff());
}

// Catches: a wrong geometric stiffness. For a constant tension N (Przemieniecki 1968):
//   N/(30ℓ) [36 3ℓ −36 3ℓ; 3ℓ 4ℓ² −3ℓ −ℓ²; −36 −3ℓ 36 −3ℓ; 3ℓ −ℓ² −3ℓ 4ℓ²]
// in each bending plane, plus Wagner's torsion term N I_p/(A ℓ) [1 −1; −1 1]. For N(s)
// linear in s, k_G must be linear in the coefficients (superposition of c0, c1, c2).
TEST(BeamElement, GeometricStiffnessOfAConstantAxialForce) {
  const BeamSection s = test_section();
  const double l = kLength, n = 123.0;
  const Mat12 k = beam_element_geometric_stiffness(s, l, 0.4, n, 0.0, 0.0);
  Mat12 reference = Mat12::Zero();
  Eigen::Matrix4d g;
  g << 36, 3 * l, -36, 3 * l, 3 * l, 4 * l * l, -3 * l, -l * l, -36, -3 * l, 36, -3 * l, 3 * l, -l * l, -3 * l,
      4 * l * l;
  const int plane[2][4] = {{1, 5, 7, 11}, {2, 4, 8, 10}};
  for (int p = 0; p < 2; ++p) {
    const Eigen::Vector4d sign = p == 0 ? Eigen::Vector4d(1, 1, 1, 1) : Eigen::Vector4d(1, -1, 1, -1);
    const Eigen::Matrix4d block = sign.asDiagonal() * (n / (30 * l) * g) * sign.asDiagonal();
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) reference(plane[p][r], plane[p][c]) = block(r, c);
  }
  const double wagner = n * s.polar() / (s.area * l);
  reference(3, 3) = reference(9, 9) = wagner, reference(3, 9) = reference(9, 3) = -wagner;
  EXPECT_LT((k - reference).cwiseAbs().maxCoeff(), 1e-12 * reference.cwiseAbs().maxCoeff());
  const Mat12 sum = beam_element_geometric_stiffness(s, l, 0.4, 2.0, 3.0, 5.0);
  const Mat12 parts = 2.0 * beam_element_geometric_stiffness(s, l, 0.4, 1.0, 0.0, 0.0) +
                      3.0 * beam_element_geometric_stiffness(s, l, 0.4, 0.0, 1.0, 0.0) +
                      5.0 * beam_element_geometric_stiffness(s, l, 0.4, 0.0, 0.0, 1.0);
  EXPECT_LT((sum - parts).cwiseAbs().maxCoeff(), 1e-12 * sum.cwiseAbs().maxCoeff());
}

// Catches: the quadratic axial force integrated with too few points. With N(s) = s² on
// [s_a, s_a + ℓ], the (v_a, v_a) entry is ∫ s² H1'(s)² ds, here by Simpson's rule on 2000
// panels (an independent quadrature).
TEST(BeamElement, GeometricStiffnessOfAQuadraticAxialForce) {
  const BeamSection s = test_section();
  const double l = kLength, start = 0.25;
  const Mat12 k = beam_element_geometric_stiffness(s, l, start, 0.0, 0.0, 1.0);
  const int panels = 2000;
  double integral = 0.0;
  for (int i = 0; i <= panels; ++i) {
    const double xi = static_cast<double>(i) / panels;
    const double weight = (i == 0 || i == panels) ? 1 : (i % 2 ? 4 : 2);
    const double slope = (-6 * xi + 6 * xi * xi) / l;  // H1'(s)
    const double position = start + xi * l;
    integral += weight * position * position * slope * slope;
  }
  integral *= l / (3.0 * panels);
  EXPECT_NEAR(k(1, 1), integral, 1e-10 * std::abs(integral));
  EXPECT_NEAR(k(2, 2), integral, 1e-10 * std::abs(integral));
}

}  // namespace
}  // namespace mechdyn
