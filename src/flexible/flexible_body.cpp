// Building a FlexibleBody: the clamped beam matrices and the inertia shape integrals of
// the floating frame of reference (flexible/flexible_body.hpp).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (17)–(18), (23)–(24) (the blocks of the
// mass matrix, whose integrals are computed here once; the q_f-dependent parts are
// assembled from them at evaluation, flexible/ffr_dynamics.hpp); Shabana (2013) ch. 5.
// Every integral is summed element by element with GaussRule4, exact for these
// polynomials (degree ≤ 6), from the same shape functions as the element mass matrix, so
// that M_ee = S_xx + S_yy + S_zz + M_r equals the assembled consistent mass exactly.
// Cost O(n · 12² · 9) plus O((6n)³) for modal reduction; built once.
#include "mechdyn/flexible/flexible_body.hpp"

#include <cmath>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/modal_reduction.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {
namespace {

constexpr int kPairK[6] = {0, 1, 2, 0, 1, 2};  // (x,x) (y,y) (z,z) (x,y) (y,z) (z,x)
constexpr int kPairL[6] = {0, 1, 2, 1, 2, 0};

// X Φ and Φᵀ X Φ in place (modal projection).
template <typename Matrix>
void project_right(Matrix& x, const MatX& basis) {
  Matrix projected = x * basis;
  x = projected;
}
void project_both(MatX& x, const MatX& basis) {
  MatX projected = basis.transpose() * x * basis;
  x = 0.5 * (projected + projected.transpose());  // symmetric to the last bit
}

}  // namespace

const MatX& FlexibleBody::product(int k, int l, bool& transposed) const {
  for (int p = 0; p < 6; ++p) {
    if (kPairK[p] == k && kPairL[p] == l) {
      transposed = false;
      return shape_product[static_cast<std::size_t>(p)];
    }
    if (kPairK[p] == l && kPairL[p] == k) {
      transposed = true;
      return shape_product[static_cast<std::size_t>(p)];
    }
  }
  throw InvalidArgument("FlexibleBody::product: index out of range");
}

int FlexibleBody::nodal_index(int element, int local_dof) const {
  const int node = element + local_dof / 6;  // 0-based: node 0 is node 1, clamped
  return node == 0 ? -1 : 6 * (node - 1) + local_dof % 6;
}

FlexibleBody make_flexible_body(const FlexibleBeam& beam, double rigid_mass, const Vec3& rigid_com,
                                const Mat3& rigid_inertia) {
  check_flexible_beam(beam, "flexible body", "beam");
  if (!std::isfinite(rigid_mass) || rigid_mass < 0.0)
    throw ModelError("flexible body: welded rigid part: mass must be finite and not negative");
  if (!rigid_com.allFinite()) throw ModelError("flexible body: welded rigid part: com is not finite");
  check_inertia(rigid_inertia, "flexible body", "welded rigid part");

  FlexibleBody body;
  body.beam = beam;
  body.section_axes = beam_section_axes(beam);
  const int n = beam.elements;
  const int size = 6 * n;
  const double l = beam.length / n;
  body.element_length = l;
  body.num_nodal = size;
  body.rigid_mass = rigid_mass;
  body.rigid_com = rigid_com;
  body.rigid_inertia = rigid_inertia;

  // ---- clamped matrices: drop node 1 (rows/columns 0…5) -----------------------------------
  const BeamMatrices free = assemble_free_beam(beam);
  body.stiffness = free.stiffness.bottomRightCorner(size, size);
  body.geometric_stiffness_constant = free.geometric_stiffness_constant.bottomRightCorner(size, size);
  body.geometric_stiffness_linear = free.geometric_stiffness_linear.bottomRightCorner(size, size);
  body.geometric_stiffness_quadratic = free.geometric_stiffness_quadratic.bottomRightCorner(size, size);

  // ---- inertia shape integrals ------------------------------------------------------------
  const double rho_a = beam.material.density * beam.section.area;  // ρA
  const Vec3& d = beam.direction;
  const Mat3& c = body.section_axes;
  const Mat3 section_rotary =  // J_s = C ρ diag(I_p, I_y, I_z) Cᵀ
      c * Vec3(beam.section.polar(), beam.section.iy, beam.section.iz).asDiagonal() * c.transpose() *
      beam.material.density;
  body.mass = rho_a * beam.length;
  body.first_moment = body.mass * 0.5 * beam.length * d;
  body.second_moment = rho_a * beam.length * beam.length * beam.length / 3.0 * d * d.transpose();
  body.rotary_inertia = beam.length * section_rotary;

  body.first_moment_shape.setZero(3, size);
  body.weighted_shape.setZero(9, size);
  for (MatX& s : body.shape_product) s.setZero(size, size);
  body.rotary_shape.setZero(3, size);
  body.rotary_mass.setZero(size, size);

  const Mat12 rotation = beam_element_rotation(c);
  Mat3x12 n_local, theta_local;
  for (int j = 0; j < n; ++j) {
    int index[12];
    for (int r = 0; r < 12; ++r) index[r] = body.nodal_index(j, r);
    for (int g = 0; g < GaussRule4::size; ++g) {
      const double xi = GaussRule4::point[g];
      const double s = (j + xi) * l;
      const double w = GaussRule4::weight[g] * l;
      beam_shape_functions(xi, l, n_local, theta_local);
      const Mat3x12 shape = c * n_local * rotation.transpose();       // N (body in, body out)
      const Mat3x12 rotation_shape = c * theta_local * rotation.transpose();  // N_θ
      const Vec3 x0 = s * d;
      const Eigen::Matrix<double, 3, 12> rotary_row = w * section_rotary * rotation_shape;
      for (int a = 0; a < 12; ++a) {
        const int ia = index[a];
        if (ia < 0) continue;
        body.first_moment_shape.col(ia) += (w * rho_a) * shape.col(a);
        for (int k = 0; k < 3; ++k)
          for (int m = 0; m < 3; ++m) body.weighted_shape(3 * k + m, ia) += w * rho_a * x0(k) * shape(m, a);
        body.rotary_shape.col(ia) += rotary_row.col(a);
        for (int b = 0; b < 12; ++b) {
          const int ib = index[b];
          if (ib < 0) continue;
          for (int p = 0; p < 6; ++p)
            body.shape_product[static_cast<std::size_t>(p)](ia, ib) +=
                w * rho_a * shape(kPairK[p], a) * shape(kPairL[p], b);
          body.rotary_mass(ia, ib) += rotation_shape.col(a).dot(rotary_row.col(b));
        }
      }
    }
  }
  // Symmetric to the last bit (the sums above add (a, b) and (b, a) products in another
  // order), so that the mass matrix is exactly symmetric.
  const auto symmetrize = [](auto& x) { x = (0.5 * (x + x.transpose())).eval(); };
  for (int p = 0; p < 3; ++p) symmetrize(body.shape_product[static_cast<std::size_t>(p)]);
  symmetrize(body.rotary_mass);
  symmetrize(body.stiffness);
  symmetrize(body.geometric_stiffness_constant);
  symmetrize(body.geometric_stiffness_linear);
  symmetrize(body.geometric_stiffness_quadratic);
  symmetrize(body.second_moment);
  symmetrize(body.rotary_inertia);
  symmetrize(body.rigid_inertia);
  body.elastic_mass = body.shape_product[0] + body.shape_product[1] + body.shape_product[2] + body.rotary_mass;

  // ---- modal reduction: e = Φ η -------------------------------------------------------------
  if (beam.modes > 0) {
    lowest_modes(body.stiffness, body.elastic_mass, beam.modes, body.modal_basis, body.modal_frequencies);
    const MatX& phi = body.modal_basis;
    project_right(body.first_moment_shape, phi);
    project_right(body.weighted_shape, phi);
    project_right(body.rotary_shape, phi);
    for (int p = 0; p < 6; ++p) {
      MatX& s = body.shape_product[static_cast<std::size_t>(p)];
      if (p < 3) {
        project_both(s, phi);  // S_kk: symmetric
      } else {
        MatX projected = phi.transpose() * s * phi;  // S_kl, k ≠ l: not symmetric
        s = projected;
      }
    }
    for (MatX* x : {&body.rotary_mass, &body.elastic_mass, &body.stiffness, &body.geometric_stiffness_constant,
                    &body.geometric_stiffness_linear, &body.geometric_stiffness_quadratic})
      project_both(*x, phi);
  }
  body.num_elastic = beam.num_elastic();
  body.damping = beam.damping_mass * body.elastic_mass + beam.damping_stiffness * body.stiffness;
  return body;
}

FlexibleBody make_flexible_body(const Body& body) {
  if (!body.flexible) throw InvalidArgument("make_flexible_body: body '" + body.name + "' is not flexible");
  return make_flexible_body(*body.flexible, body.mass, body.com, body.inertia);
}

}  // namespace mechdyn
