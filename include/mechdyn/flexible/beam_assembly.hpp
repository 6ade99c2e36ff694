// Assembly of a beam's n elements into the matrices of all n + 1 nodes (free–free), in
// body-frame components.
//
// Nodal vector of the free beam: nodes 1…n+1 (node 1 at the body frame origin, node i at
// s = (i − 1) L / n along `direction`), each u_x u_y u_z θ_x θ_y θ_z in the BODY frame
// (the contract's order). An element's local vector q_f (flexible/beam_element.hpp) is
// q_f = Λᵀ q_body with Λ = diag(C, C, C, C) and C = [d, y, z] (local → body), so every
// element matrix enters as Λ k Λᵀ (papers/rigid-flexible-3RRRU-ffr.txt eqs. 28–29, the
// transformation B, here constant because the elements are straight in the body frame).
//
// FlexibleBody (flexible_body.hpp) takes the blocks of nodes 2…n+1 (the tangent frame
// clamps node 1). The free matrices serve the tests of the other boundary conditions
// (pinned–pinned, free–free, clamped–clamped) and the change of coordinates test of the
// floating frame. Cost O(n) element matrices; built once.
#pragma once

#include "mechdyn/flexible/beam_element.hpp"
#include "mechdyn/flexible/flexible_beam.hpp"

namespace mechdyn {

/// Matrices of the free beam, 6 (n + 1) square, body-frame nodal components.
struct BeamMatrices {
  MatX mass;                           // M: consistent mass (ρA and the section's rotary inertia)
  MatX stiffness;                      // K: k_f of Appendix 1 assembled
  MatX geometric_stiffness_constant;   // K_G for the axial force N(s) = 1 N (a tip load)
  MatX geometric_stiffness_linear;     // K_G for N(s) = (L − s) N/m
  MatX geometric_stiffness_quadratic;  // K_G for N(s) = (L² − s²)/2 N/m²
};

/// C = [d, y, z]: the beam's local axes as columns, body components (local → body).
Mat3 beam_section_axes(const FlexibleBeam& beam);

/// Assembles the free–free matrices of `beam` (checked with check_flexible_beam first).
BeamMatrices assemble_free_beam(const FlexibleBeam& beam);

/// The element's 12 x 12 local → body transformation Λ = diag(C, C, C, C).
Mat12 beam_element_rotation(const Mat3& section_axes);

}  // namespace mechdyn
