// The FFR mass matrix of one flexible body (flexible/ffr_dynamics.hpp).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (16)–(18) (translational blocks M_tt,
// M_tθ, M_tf, M_θθ, M_θf, M_ff) and (22)–(24) (rotational blocks), here with body-frame
// velocities [ω; v; ė] and the invariants of flexible_body.hpp (Shabana 2013 ch. 5):
//   M_ωω = tr(U) 1 − U + J_r + J_c − m_r c̃²,  U = ∫ρA ū ūᵀ           (eqs. 18, 24 θθ)
//   M_ωv = (S_t + S̄ e + m_r c)~,  M_vv = (m + m_r) 1                  (eqs. 17–18 tθ, tt)
//   M_ωe = ∫ ρA ū~ N ds + J_θ,  M_ve = S̄,  M_ee = ∫ ρA NᵀN + M_r      (eqs. 18, 24 θf, tf, ff)
// Symmetric by construction (the Hessian of T; the paper's eq. 30 remark is wrong).
// Cost: 9 products of n_e x n_e (S_kl e) plus O(n_e²) copying of M_ee; no allocation.
#include "ffr_products.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

void ffr_mass_matrix(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e) {
  const int ne = body.num_elastic;
  detail::shape_products(body, e, data.products);  // S_kl e
  const Mat3 u = detail::second_moment(body, e, data.products);
  const Vec3 first = body.first_moment + body.first_moment_shape * e;  // S(e) = ∫ ρA ū ds
  const Vec3& c = body.rigid_com;
  const Mat3 c_skew = skew(c);

  MatX& m = data.mass_matrix;
  Mat3 rotational = u.trace() * Mat3::Identity() - u + body.rotary_inertia;  // ∫ ρA ū~ᵀ ū~ + J_r
  rotational += body.rigid_inertia - body.rigid_mass * c_skew * c_skew;
  const Mat3 coupling = skew(first + body.rigid_mass * c);  // M_ωv
  m.block<3, 3>(0, 0) = rotational;
  m.block<3, 3>(0, 3) = coupling;
  m.block<3, 3>(3, 0) = coupling.transpose();
  m.block<3, 3>(3, 3) = body.total_mass() * Mat3::Identity();

  // M_ωe row k = ∫ ρA (ū_a N_b − ū_b N_a) ds + J_θ row k, (k, a, b) cyclic;
  // ∫ ρA ū_a N_b ds = F_ab + (S_ba e)ᵀ.
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    auto row = m.block(k, 6, 1, ne);
    row = body.weighted_shape.row(3 * a + b) - body.weighted_shape.row(3 * b + a) + body.rotary_shape.row(k);
    row += (data.products.col(3 * b + a) - data.products.col(3 * a + b)).transpose();
    m.block(6, k, ne, 1) = row.transpose();
  }
  m.block(3, 6, 3, ne) = body.first_moment_shape;  // M_ve = S̄
  m.block(6, 3, ne, 3) = body.first_moment_shape.transpose();
  m.bottomRightCorner(ne, ne) = body.elastic_mass;
}

}  // namespace mechdyn
