// The 12-DoF beam element: shape functions, stiffness, consistent mass, geometric
// stiffness (flexible/beam_element.hpp).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (5)–(9) (shape functions, with the
// axial functions and the rotation signs corrected, docs/flexible-bodies.md), eq. (33) and
// Appendix 1 (k_f). Cost: a few hundred flops per call; called when a FlexibleBody is
// built, never during evaluation.
#include "mechdyn/flexible/beam_element.hpp"

namespace mechdyn {

// Abscissae (1 ± 0.861136…)/2, (1 ± 0.339981…)/2 and half the weights 0.347854…, 0.652145…
// of the 4-point Gauss–Legendre rule on [−1, 1].
const double GaussRule4::point[4] = {0.5 * (1.0 - 0.8611363115940526), 0.5 * (1.0 - 0.3399810435848563),
                                     0.5 * (1.0 + 0.3399810435848563), 0.5 * (1.0 + 0.8611363115940526)};
const double GaussRule4::weight[4] = {0.5 * 0.3478548451374538, 0.5 * 0.6521451548625461,
                                      0.5 * 0.6521451548625461, 0.5 * 0.3478548451374538};

namespace {

// Hermite cubics of eq. (9) and their ξ-derivatives.
struct Hermite {
  double h1, h2, h3, h4, d1, d2, d3, d4;
  explicit Hermite(double x) {
    const double x2 = x * x, x3 = x2 * x;
    h1 = 1.0 - 3.0 * x2 + 2.0 * x3;  // y_o = z_o
    h2 = x - 2.0 * x2 + x3;          // θ_o / L
    h3 = 3.0 * x2 - 2.0 * x3;        // y_b = z_b
    h4 = -x2 + x3;                   // θ_b / L
    d1 = -6.0 * x + 6.0 * x2;
    d2 = 1.0 - 4.0 * x + 3.0 * x2;
    d3 = 6.0 * x - 6.0 * x2;
    d4 = -2.0 * x + 3.0 * x2;
  }
};

}  // namespace

void beam_shape_functions(double xi, double element_length, Mat3x12& displacement, Mat3x12& rotation) {
  const double l = element_length;
  const Hermite h(xi);
  displacement.setZero();
  rotation.setZero();
  // eqs. (5)–(6): axial, linear; node a carries 1 − ξ (eq. 9 prints x_o = e: swapped).
  displacement(0, 0) = 1.0 - xi;
  displacement(0, 6) = xi;
  // eqs. (7)–(8): transverse, cubic; v' = θz, w' = −θy (right-hand rule, as Appendix 1).
  displacement(1, 1) = h.h1;
  displacement(1, 5) = l * h.h2;
  displacement(1, 7) = h.h3;
  displacement(1, 11) = l * h.h4;
  displacement(2, 2) = h.h1;
  displacement(2, 4) = -l * h.h2;
  displacement(2, 8) = h.h3;
  displacement(2, 10) = -l * h.h4;
  // Section rotation θ = (θx, −w', v').
  rotation(0, 3) = 1.0 - xi;
  rotation(0, 9) = xi;
  rotation(1, 2) = -h.d1 / l;
  rotation(1, 4) = h.d2;
  rotation(1, 8) = -h.d3 / l;
  rotation(1, 10) = h.d4;
  rotation(2, 1) = h.d1 / l;
  rotation(2, 5) = h.d2;
  rotation(2, 7) = h.d3 / l;
  rotation(2, 11) = h.d4;
}

void beam_shape_slopes(double xi, double element_length, Eigen::Matrix<double, 4, 12>& slopes) {
  const double l = element_length;
  const Hermite h(xi);
  slopes.setZero();
  slopes(0, 0) = -1.0 / l;  // u'
  slopes(0, 6) = 1.0 / l;
  slopes(1, 1) = h.d1 / l;  // v' = θz
  slopes(1, 5) = h.d2;
  slopes(1, 7) = h.d3 / l;
  slopes(1, 11) = h.d4;
  slopes(2, 2) = h.d1 / l;  // w' = −θy
  slopes(2, 4) = -h.d2;
  slopes(2, 8) = h.d3 / l;
  slopes(2, 10) = -h.d4;
  slopes(3, 3) = -1.0 / l;  // θx'
  slopes(3, 9) = 1.0 / l;
}

Mat12 beam_element_stiffness(const BeamSection& section, const BeamMaterial& material, double element_length) {
  const double l = element_length, l2 = l * l, l3 = l2 * l;
  Mat12 k = Mat12::Zero();
  const double axial = material.youngs_modulus * section.area / l;    // EA/L
  const double torsion = material.shear_modulus * section.torsion / l;  // G I_p/L (J for any section)
  k(0, 0) = k(6, 6) = axial;
  k(0, 6) = k(6, 0) = -axial;
  k(3, 3) = k(9, 9) = torsion;
  k(3, 9) = k(9, 3) = -torsion;
  // Bending in x–y (v, θz): E I_zz; in x–z (w, θy): E I_yy with the signs of w' = −θy.
  const int plane_index[2][4] = {{1, 5, 7, 11}, {2, 4, 8, 10}};
  const double rigidity[2] = {material.youngs_modulus * section.iz, material.youngs_modulus * section.iy};
  for (int p = 0; p < 2; ++p) {
    const double sign = p == 0 ? 1.0 : -1.0;  // the rotation columns change sign in x–z
    const double e = rigidity[p];
    Eigen::Matrix4d b;
    b << 12.0 / l3, sign * 6.0 / l2, -12.0 / l3, sign * 6.0 / l2,
         sign * 6.0 / l2, 4.0 / l, -sign * 6.0 / l2, 2.0 / l,
         -12.0 / l3, -sign * 6.0 / l2, 12.0 / l3, -sign * 6.0 / l2,
         sign * 6.0 / l2, 2.0 / l, -sign * 6.0 / l2, 4.0 / l;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) k(plane_index[p][r], plane_index[p][c]) = e * b(r, c);
  }
  return k;
}

Mat12 beam_element_mass(const BeamSection& section, double density, double element_length) {
  const double l = element_length;
  const Eigen::Vector3d rotary(density * section.polar(), density * section.iy, density * section.iz);
  Mat12 m = Mat12::Zero();
  Mat3x12 n_u, n_theta;
  for (int g = 0; g < GaussRule4::size; ++g) {
    beam_shape_functions(GaussRule4::point[g], l, n_u, n_theta);
    const double w = GaussRule4::weight[g] * l;  // ds = ℓ dξ
    m.noalias() += (w * density * section.area) * n_u.transpose() * n_u;
    m.noalias() += w * n_theta.transpose() * rotary.asDiagonal() * n_theta;
  }
  return m;
}

Mat12 beam_element_geometric_stiffness(const BeamSection& section, double element_length, double start,
                                       double c0, double c1, double c2) {
  const double l = element_length;
  const double wagner = section.polar() / section.area;  // I_p / A
  Mat12 k = Mat12::Zero();
  Eigen::Matrix<double, 4, 12> d;
  for (int g = 0; g < GaussRule4::size; ++g) {
    const double xi = GaussRule4::point[g];
    const double s = start + xi * l;
    const double axial_force = c0 + c1 * s + c2 * s * s;  // N(s)
    beam_shape_slopes(xi, l, d);
    const double w = GaussRule4::weight[g] * l * axial_force;
    k.noalias() += w * (d.row(1).transpose() * d.row(1) + d.row(2).transpose() * d.row(2) +
                        wagner * d.row(3).transpose() * d.row(3));
  }
  return k;
}

}  // namespace mechdyn
