// A flexible beam body of the floating frame of reference (FFR) formulation: the constant
// matrices and inertia shape integrals ("invariants") derived once from a FlexibleBeam.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §2: position of a beam point eq. (1)
// r_k = r_0 + R (ξ_0 + ξ_f), ξ_f = N q_f eq. (3); kinetic energy eqs. (11)–(26); the
// blocks M_tt … M_ff of eqs. (17)–(18) and (23)–(24) are assembled from the invariants
// below (docs/flexible-bodies.md gives each block). Shabana, Dynamics of Multibody Systems
// (4th ed., 2013) ch. 5 names the same integrals the inertia shape integrals.
//
// Frame and coordinates (../shared/spec/flexible-bodies.md): the body frame is the floating
// frame clamped to node 1 (node 1's elastic displacements and rotations are zero). The
// nodal elastic coordinates are nodes 2…n+1, each u_x u_y u_z θ_x θ_y θ_z in body-frame
// components: e ∈ R^{6n}. With `modes: k` they are modal amplitudes η: e_nodal = Φ η, Φ
// the k lowest clamped modes (mass-normalised), and every matrix below is projected
// (Φᵀ X Φ, X Φ). "n_e" is the number of elastic coordinates either way.
//
// Notation: x̄₀(s) = s d, the undeformed axis point at arclength s; N(s) (3 x n_e), the
// displacement shape functions in body components (rows N_x, N_y, N_z), N_θ(s) (3 x n_e)
// the section rotation; ρA mass per length; J_s = C ρ diag(I_p, I_y, I_z) Cᵀ the section's
// rotary inertia per length (body frame). Integrals run over s ∈ [0, L].
#pragma once

#include <array>

#include "mechdyn/flexible/beam_assembly.hpp"
#include "mechdyn/flexible/flexible_beam.hpp"

namespace mechdyn {

struct Body;

using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;
using Mat9X = Eigen::Matrix<double, 9, Eigen::Dynamic>;

struct FlexibleBody {
  FlexibleBeam beam;             // the description it was built from
  Mat3 section_axes;             // C = [d, y, z]: local → body (beam_assembly.hpp)
  double element_length = 0.0;   // ℓ = L / n
  int num_nodal = 0;             // 6 n: nodal elastic coordinates (nodes 2…n+1)
  int num_elastic = 0;           // n_e: 6 n, or k with modal reduction
  MatX modal_basis;              // Φ (6 n x k), mass-normalised, ascending frequency; empty: nodal
  VecX modal_frequencies;        // ω_i of Φ's columns (rad/s), clamped at node 1; empty: nodal

  // ---- the rigid part welded to the body frame (the body's optional mass/com/inertia) ----
  double rigid_mass = 0.0;             // m_r (kg)
  Vec3 rigid_com = Vec3::Zero();       // c: body frame origin → its centre of mass (body frame)
  Mat3 rigid_inertia = Mat3::Zero();   // J_c about its centre of mass (body frame)

  // ---- inertia shape integrals of the beam (body frame) ------------------------------------
  double mass = 0.0;              // m = ∫ ρA ds                                  (eq. 17 M_tt = m 1)
  Vec3 first_moment;              // S_t = ∫ ρA x̄₀ ds = m L/2 d                   (Shabana I_1)
  Mat3 second_moment;             // I_t = ∫ ρA x̄₀ x̄₀ᵀ ds = ρA L³/3 d dᵀ          (Shabana Ī_kl)
  Mat3X first_moment_shape;       // S̄ = ∫ ρA N ds (3 x n_e)                     (eq. 18 M_tf; Shabana S̄)
  Mat9X weighted_shape;           // row 3k+l: F_kl = ∫ ρA x̄₀_k N_l ds (1 x n_e)  (eq. 18 M_θf at q_f = 0)
  std::array<MatX, 6> shape_product;  // S_kl = ∫ ρA N_kᵀ N_l ds (n_e x n_e) for (k,l) =
                                      //   (x,x) (y,y) (z,z) (x,y) (y,z) (z,x); S_lk = S_klᵀ
                                      //   (eq. 18 M_ff = S_xx + S_yy + S_zz; Shabana S̄_kl)
  Mat3 rotary_inertia;            // J_r = ∫ J_s ds                               (eq. 24 m_θθ)
  Mat3X rotary_shape;             // J_θ = ∫ J_s N_θ ds (3 x n_e)                 (eq. 24 m_θf)
  MatX rotary_mass;               // M_r = ∫ N_θᵀ J_s N_θ ds (n_e x n_e)          (eq. 24 m_ff)

  // ---- elastic matrices (n_e x n_e) ----------------------------------------------------------
  MatX elastic_mass;              // M_ee = S_xx + S_yy + S_zz + M_r (= the assembled consistent mass)
  MatX stiffness;                 // K: k_f (Appendix 1) assembled, node 1 clamped
  MatX damping;                   // D = α M_ee + β K (Rayleigh; beam.damping_mass, damping_stiffness)
  MatX geometric_stiffness_constant;   // K_G0: for N(s) = 1 N (an axial tip load)
  MatX geometric_stiffness_linear;     // K_G1: for N(s) = (L − s) N/m
  MatX geometric_stiffness_quadratic;  // K_G2: for N(s) = (L² − s²)/2 N/m²

  /// S_kl (k, l ∈ {0, 1, 2}) as stored, and whether it must be transposed.
  const MatX& product(int k, int l, bool& transposed) const;
  /// Nodal column index of element j's local DOF r (0…11), or −1 for node 1's (clamped).
  int nodal_index(int element, int local_dof) const;
  /// The total mass: beam and welded rigid part.
  double total_mass() const { return mass + rigid_mass; }
};

/// Builds a FlexibleBody from a beam (checked with check_flexible_beam; ModelError) and an
/// optional rigid part welded to the body frame (checked with check_inertia). Modal
/// reduction (beam.modes > 0): the k lowest modes of (K, M_ee) with node 1 clamped.
FlexibleBody make_flexible_body(const FlexibleBeam& beam, double rigid_mass = 0.0,
                                const Vec3& rigid_com = Vec3::Zero(), const Mat3& rigid_inertia = Mat3::Zero());

/// The same for a model body with a `flexible` block (its mass, com, inertia are the welded part).
FlexibleBody make_flexible_body(const Body& body);

}  // namespace mechdyn
