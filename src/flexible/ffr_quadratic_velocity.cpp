// The FFR quadratic velocity vector of one flexible body (flexible/ffr_dynamics.hpp).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eq. (40), Q_V = −Ṁ q̇ + ∂/∂q (½ q̇ᵀ M q̇), for
// the kinetic energy of eqs. (11), (20); written here (sign: on the left-hand side,
// M ẏ + Q_v = Q) as the inertia force of the acceleration field at ẏ = 0. A beam point ū
// = s d + N e has the body-component acceleration
//   a = v̇ + ω × v + ω̇ × ū + ω × (ω × ū) + 2 ω × N ė + N ë,
// whose velocity part a_q = ω × v + ω × (ω × ū) + 2 ω × N ė gives
//   Q_v = ∫ [ū × a_q; a_q; Nᵀ a_q] ρA ds + [ω × (J_r ω + J_θ ė); 0; 0] + welded part:
//   rotation: S × (ω × v) + ω × (I_O ω) + 2 (tr V 1 − V) ω,  I_O = tr U 1 − U,
//             V = ∫ ρA (N ė) ūᵀ ds, V_kl = F_lk ė + ėᵀ S_kl e
//   translation: m ω × v + ω × (ω × S) + 2 ω × S̄ ė
//   elastic: S̄ᵀ (ω × v) + Σ_kl Ω_kl (F_lkᵀ + S_kl e) + 2 Σ_kl ω̃_kl S_kl ė,  Ω = ω̃ ω̃
// The last term is the Coriolis (gyroscopic, skew) coupling, Ω's the centrifugal one
// (which softens the beam: the linear FFR's trap without K_G, docs/flexible-bodies.md).
// Rotary inertia adds no elastic term (J_s is fixed in the frame: T does not depend on e).
// Checked against finite differences of the kinetic energy in tests/properties/test_ffr_dynamics.cpp.
// Cost: 18 products of n_e x n_e; no allocation.
#include "ffr_products.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

void ffr_quadratic_velocity(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                            const Vec3& angular_velocity, const Vec3& linear_velocity,
                            const Eigen::Ref<const VecX>& elastic_velocity) {
  const int ne = body.num_elastic;
  const Vec3& w = angular_velocity;
  const Vec3& v = linear_velocity;
  const auto& e_rate = elastic_velocity;
  detail::shape_products(body, e, data.products);             // S_kl e
  detail::shape_products(body, e_rate, data.rate_products);   // S_kl ė

  const Mat3 u = detail::second_moment(body, e, data.products);
  Mat3 rate_moment;  // V = ∫ ρA (N ė) ūᵀ ds
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      rate_moment(k, l) = body.weighted_shape.row(3 * l + k).dot(e_rate) + e_rate.dot(data.products.col(3 * k + l));
  const Vec3 first = body.first_moment + body.first_moment_shape * e;  // S
  const Vec3 first_rate = body.first_moment_shape * e_rate;             // S̄ ė
  const Vec3 transport = w.cross(v);                                    // ω × v
  const Mat3 inertia_origin = u.trace() * Mat3::Identity() - u;          // I_O of the line

  Vec3 rotation = first.cross(transport) + w.cross(inertia_origin * w) +
                  2.0 * (rate_moment.trace() * w - rate_moment * w) +
                  w.cross(body.rotary_inertia * w + body.rotary_shape * e_rate);
  Vec3 translation = body.mass * transport + w.cross(w.cross(first)) + 2.0 * w.cross(first_rate);
  // The welded rigid part: a_q = ω × v + ω × (ω × c) at its centre of mass.
  const Vec3& c = body.rigid_com;
  const Vec3 rigid_acceleration = transport + w.cross(w.cross(c));
  rotation += body.rigid_mass * c.cross(rigid_acceleration) + w.cross(body.rigid_inertia * w);
  translation += body.rigid_mass * rigid_acceleration;

  Eigen::Matrix<double, 9, 1> centrifugal, gyroscopic;  // Ω_kl and ω̃_kl, index 3k + l
  const Mat3 w_skew = skew(w);
  const Mat3 w_square = w_skew * w_skew;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      centrifugal(3 * k + l) = w_square(k, l);
      gyroscopic(3 * k + l) = w_skew(k, l);
    }

  VecX& q = data.quadratic_velocity;
  q.head<3>() = rotation;
  q.segment<3>(3) = translation;
  auto elastic = q.tail(ne);
  elastic.noalias() = body.first_moment_shape.transpose() * transport;
  // Σ Ω_kl F_lkᵀ = Σ Ω_kl F_klᵀ (Ω symmetric).
  elastic.noalias() += body.weighted_shape.transpose() * centrifugal;
  elastic.noalias() += data.products * centrifugal;
  elastic.noalias() += 2.0 * (data.rate_products * gyroscopic);
}

}  // namespace mechdyn
