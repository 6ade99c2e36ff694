// The two-node 12-DoF 3D Euler–Bernoulli beam element in its local axes.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §2 (FFR), eqs. (3)–(9) shape functions,
// eq. (33) and Appendix 1 stiffness k_f; docs/flexible-bodies.md for the corrections.
//
// Local axes: x along the neutral axis (node a at s = 0, node b at s = ℓ), y the section's
// y axis, z = x × y. Nodal vector (paper eq. 4, nodes o = a, b):
//   q_f = [u_a v_a w_a θx_a θy_a θz_a  u_b v_b w_b θx_b θy_b θz_b]
// Fields at ξ = s / ℓ, right-hand rule (so that Appendix 1 holds; eq. 9's printed signs
// and its swapped axial functions do not, docs/flexible-bodies.md "Disagreements"):
//   u  = (1−ξ) u_a + ξ u_b                                   eqs. (5)–(6)
//   v  = H1 v_a + ℓ H2 θz_a + H3 v_b + ℓ H4 θz_b              eqs. (7)–(8), v' = θz
//   w  = H1 w_a − ℓ H2 θy_a + H3 w_b − ℓ H4 θy_b              w' = −θy
//   θx = (1−ξ) θx_a + ξ θx_b                                  (torsion, linear as the axial field)
//   H1 = 1 − 3ξ² + 2ξ³, H2 = ξ − 2ξ² + ξ³, H3 = 3ξ² − 2ξ³, H4 = −ξ² + ξ³    (eq. 9)
// Section rotation (small, the section stays plane and normal to the axis):
//   θ = (θx, −w', v').
//
// Section model (docs/flexible-bodies.md "Section model"): mass ρA per length on the axis
// plus the section's rotary inertia ρ diag(I_p, I_y, I_z) on the section rotation θ.
#pragma once

#include <Eigen/Core>

#include "mechdyn/flexible/flexible_beam.hpp"

namespace mechdyn {

using Mat3x12 = Eigen::Matrix<double, 3, 12>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

/// Gauss–Legendre rule on [0, 1] with 4 points: exact for polynomials of degree ≤ 7, so
/// for every element integral of this library (at most degree 6: cubic × cubic, or a
/// quadratic axial force × quadratic slopes).
struct GaussRule4 {
  static constexpr int size = 4;
  static const double point[4];   // ξ_g
  static const double weight[4];  // w_g, Σ w_g = 1
};

/// Shape functions at ξ = s / ℓ (eq. 9 corrected): the displacement N_u (3 x 12) and the
/// section rotation N_θ = (θx, −w', v') (3 x 12), local axes.
void beam_shape_functions(double xi, double element_length, Mat3x12& displacement, Mat3x12& rotation);

/// Derivatives along s of the fields at ξ: rows u', v', w', θx' (4 x 12). Used by the
/// geometric stiffness (second-order axial strain) and by the tests of the stiffness.
void beam_shape_slopes(double xi, double element_length, Eigen::Matrix<double, 4, 12>& slopes);

/// Element stiffness k_f (Appendix 1, eq. 33): axial EA/ℓ, torsion GJ/ℓ, bending E I_z in
/// x–y (v, θz) and E I_y in x–z (w, θy). Closed form.
Mat12 beam_element_stiffness(const BeamSection& section, const BeamMaterial& material, double element_length);

/// Consistent element mass ∫ (N_uᵀ ρA N_u + N_θᵀ ρ diag(I_p, I_y, I_z) N_θ) ds by
/// GaussRule4 (exact): translational part Przemieniecki's consistent mass, rotational part
/// the torsional inertia ρ I_p ℓ/6 [2 1; 1 2] and Rayleigh's rotary inertia of bending.
Mat12 beam_element_mass(const BeamSection& section, double density, double element_length);

/// Geometric (axial-load) stiffness of the element whose node a lies at arclength s_a,
/// for the axial force N(s) = c0 + c1 s + c2 s² (s the beam's arclength, tension > 0):
///   k_G = ∫ N(s) (v'ᵀ v' + w'ᵀ w' + (I_p / A) θx'ᵀ θx') ds
/// — the Hessian of ∫ N ε₂ ds with the second-order axial strain averaged over the
/// section, ε₂ = ½ (v'² + w'²) + ½ (y² + z²) θx'² (Wagner's term). GaussRule4 (exact).
Mat12 beam_element_geometric_stiffness(const BeamSection& section, double element_length, double start,
                                       double c0, double c1, double c2);

}  // namespace mechdyn
