// Equations of motion of one flexible body in the floating frame of reference (FFR),
// at body level: what a system assembly needs from each flexible body.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §2 eqs. (10)–(40): kinetic energy (11),
// (20), (26); mass matrix blocks (17)–(18), (23)–(24); elastic forces (32)–(35), gravity
// (36); Coriolis and centrifugal forces Q_V = −Ṁ q̇ + ∂/∂q(½ q̇ᵀ M q̇) (40). The paper's
// eq. (30) claim of an asymmetric mass matrix does not hold (a kinetic energy's Hessian is
// symmetric; Bᵀ M B is symmetric for any B): docs/flexible-bodies.md "Disagreements".
//
// Generalized velocity of the body, all in BODY-frame components:
//   y = [ω; v; ė]  (6 + n_e)
//   ω: the frame's angular velocity, v: the velocity of the frame origin (node 1),
//   ė: elastic velocities (flexible_body.hpp). [ω; v] is the body-coordinate spatial
//   velocity of the project (Featherstone order, as Data::local_velocity), so the
//   acceleration ẏ = [ω̇; v̇; ë] holds the body-coordinate spatial acceleration
//   (v̇ = d/dt of the body components; the origin's world acceleration is R (v̇ + ω × v)).
// Equations of motion (Boltzmann–Hamel form of Lagrange's eq. 10 for body-frame velocities):
//   M(e) ẏ + Q_v(e, y) = Q_gravity + Q_elastic + Q_damping + Q_applied
// with Q_elastic = −(K + K_G) e, Q_damping = −D ė on the elastic rows, and Q_applied the
// generalized forces of point forces/torques (ffr_point_wrench). Kinetic energy T = ½ yᵀ M y.
//
// Section model: mass ρA on the axis plus the section's rotary inertia J_s per length with
// the section angular velocity ω + θ̇ (linear in the small rotation, J_s fixed in the frame):
//   T = ½ ∫ ρA |v + ω × ū + N ė|² ds + ½ ∫ (ω + N_θ ė)ᵀ J_s (ω + N_θ ė) ds,  ū = s d + N e
// plus ½ m_r |v + ω × c|² + ½ ωᵀ J_c ω of the welded rigid part. M is exactly its Hessian
// in y, and Q_v follows from T with no term dropped.
//
// System level (second wave): with y_i = B_i q̇ (B_i maps the generalized velocities to the
// body's [ω; v; ė]) the system mass matrix is Σ B_iᵀ M_i B_i and the bias
// Σ B_iᵀ (M_i Ḃ_i q̇ + Q_v,i − Q_i).
#pragma once

#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {

/// Results and scratch of the FFR functions for one FlexibleBody, allocated once.
struct FlexibleBodyData {
  explicit FlexibleBodyData(const FlexibleBody& body);

  MatX mass_matrix;          // M(e): (6 + n_e)², rows/columns [ω; v; ė], symmetric positive definite
  VecX quadratic_velocity;   // Q_v(e, y): centrifugal, Coriolis, gyroscopic terms (6 + n_e)
  VecX gravity_force;        // Q_gravity (6 + n_e): [moment about the origin; force; elastic] of g
  VecX elastic_force;        // −(K + K_G) e (n_e); K_G as last computed by ffr_geometric_stiffness
  VecX damping_force;        // −D ė (n_e)
  MatX geometric_stiffness;  // K_G (n_e x n_e); zero until ffr_geometric_stiffness, and with stiffening off

  // ---- scratch ----
  MatX products;        // column 3k+l: S_kl e (n_e x 9)
  MatX rate_products;   // column 3k+l: S_kl ė (n_e x 9)
};

/// Assembles M(e) into data.mass_matrix:
///   M_ωω = tr(U) 1 − U + J_r + J_c − m_r c̃²,  U = ∫ρA ū ūᵀ = I_t + F e + (F e)ᵀ + [eᵀ S_kl e]
///   M_ωv = (S_t + S̄ e + m_r c)~ = M_vωᵀ,   M_vv = (m + m_r) 1
///   M_ωe = ∫ ρA ū~ N ds + J_θ (row k: F_ab − F_ba + (S_ba e − S_ab e)ᵀ, (k, a, b) cyclic)
///   M_ve = S̄,   M_ee = S_xx + S_yy + S_zz + M_r
void ffr_mass_matrix(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e);

/// Q_v into data.quadratic_velocity: the generalized inertia force at ẏ = 0,
/// ∫ [ū × a_q; a_q; Nᵀ a_q] ρA ds with a_q = ω × v + ω × (ω × ū) + 2 ω × N ė, plus the
/// rotary part [ω × (J_r ω + J_θ ė); 0; 0] and the welded part.
void ffr_quadratic_velocity(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                            const Vec3& angular_velocity, const Vec3& linear_velocity,
                            const Eigen::Ref<const VecX>& elastic_velocity);

/// K_G into data.geometric_stiffness (zero when beam.geometric_stiffening is false): the
/// stiffness of the axial force N(s) that the inertial and gravity loads of the rigid
/// motion cause in the beam (docs/flexible-bodies.md "Geometric stiffening"):
///   N(s) = ρA [ d·(g − a_0) (L − s) + |ω × d|² (L² − s²)/2 ] + P
///   K_G  = P K_G0 + ρA d·(g − a_0) K_G1 + ρA |ω × d|² K_G2
/// a_0: the frame origin's acceleration (body components, R (v̇ + ω × v) rotated back),
/// g: gravity (body components), P: an axial tension applied at the tip (N).
void ffr_geometric_stiffness(const FlexibleBody& body, FlexibleBodyData& data, const Vec3& angular_velocity,
                             const Vec3& origin_acceleration, const Vec3& gravity, double tip_tension = 0.0);

/// data.elastic_force = −(K + K_G) e and data.damping_force = −D ė.
void ffr_elastic_forces(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                        const Eigen::Ref<const VecX>& elastic_velocity);

/// data.gravity_force for gravity g (body components): [(S_t + S̄ e + m_r c) × g; (m + m_r) g; S̄ᵀ g].
void ffr_gravity_force(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                       const Vec3& gravity);

/// Adds to `generalized` (6 + n_e) the generalized force of a force f at the point and a
/// torque τ on its section (both body components; the point's kinematics at the current e):
///   [p̄ × f + τ; f; J_pᵀ f + J_θᵀ τ] — the transpose of the point's velocity map.
void ffr_point_wrench(const BeamPointKinematics& point, const Vec3& force, const Vec3& torque,
                      Eigen::Ref<VecX> generalized);

/// Strain energy ½ eᵀ K e (J).
double ffr_strain_energy(const FlexibleBody& body, const Eigen::Ref<const VecX>& e);

}  // namespace mechdyn
