// Drift control of a closed chain's numerical integration: projection of the state
// onto the constraint manifold after a step.
//
// Integrating Φ̈ = 0 lets Φ and J v drift. Two remedies (docs/closed-chains.md):
//  - Baumgarte stabilisation inside the dynamics (constrained_forward_dynamics.hpp);
//  - projection after each step (this file): positions by Gauss–Newton with minimum-
//    norm steps on all coordinates, q ← q ⊕ (−J⁺ Φ) until ‖Φ‖∞ ≤ tolerance (the closest
//    point of the manifold to first order, Euclidean metric in v-coordinates); then
//    velocities by the mass-weighted projection v ← v − M⁻¹Jᵀ (J M⁻¹ Jᵀ)⁺ J v, which
//    removes the constraint-violating part with the least kinetic energy change
//    (Eich-Soellner & Führer, "Numerical Methods in Multibody Dynamics", §5.3).
// Source of the closure rows: EC §2.3, eq. (24). Allocates nothing.
//
// project_positions reads Model, q; writes q, the position stage, data.loop_residual,
// data.loop_jacobian, data.loop_row_wrench_a/_b, data.full_svd, data.assembly_step.
// project_velocities reads Model, q, v; writes v, the position stage, the closure terms
// above, data.mass_matrix, data.composite_inertia, data.mass_llt, data.constraint_factor,
// data.factor_svd, data.constraint_rhs, data.constraint_solution, data.constraint_rhs_nv.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct ProjectionOptions {
  double tolerance = 1e-12;  // ‖Φ‖∞ after projection
  int max_iterations = 20;
  double rank_tolerance = 1e-9;   // relative singular-value threshold (math/jacobi_svd.hpp)
};

/// Projects q onto Φ(q) = 0 (all coordinates may move). Returns ‖Φ‖∞ after. Throws
/// SolverError when it does not converge.
double project_positions(const Model& model, Data& data, Eigen::Ref<VecX> q, const ProjectionOptions& options = {});

/// Projects v onto J(q) v = 0 in the metric of M(q). Returns ‖J v‖∞ after.
double project_velocities(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> v,
                          const ProjectionOptions& options = {});

}  // namespace mechdyn
