// Every term of one state in one pass: the entry point behind `mechdyn eval`.
//
// Like Pinocchio's computeAllTerms (and MuJoCo's mj_forward): the kinematics stage
// (kinematics/forward_kinematics.hpp) runs once at (q, v), and every term reads it —
//   M(q)               the world-frame CRBA (dynamics/crba.hpp; = EJ eqs. 30–37 aggregated)
//   h(q, v), g(q)      explicit: the reaction iteration at q̈ = 0 (EC eqs. 19–22,
//                      dynamics/explicit_bias.hpp); recursive: RNEA(q, v, 0), RNEA(q, 0, 0)
//   Φ(q), J(q)         the cut-joint rows (constraints/loop_rows.hpp, EC eq. 24), with loops
// and, when `a` is given, the stage's acceleration level at a (EC eqs. 8, 10) with
//   reactions          EC eq. (17) (dynamics/joint_reactions.hpp)
//   friction           load decomposition and τ_d = M a + h + τ_f (EC Algorithm 1 lines
//                      6–9, eq. 54; friction/inverse_dynamics_with_friction.hpp)
//   τ = M a + h        explicit: h + M a from the M above (EC eq. 16); recursive: RNEA(q, v, a)
// and, when `tau` is given,
//   q̈                 explicit: M q̈ = τ − h by the branch-sparse Lᵀ D L of the M above
//                      (dynamics/sparse_cholesky.hpp); recursive: ABA passes 2–3 on the stage.
// RNEA (the recursive h, g, τ) runs in body coordinates by design and fills no world
// stage (docs/dynamics.md); everything else reads the one stage. The numbers are those of
// the separate entry points (the same functions on the same stage).
//
// Cost: one kinematics pass O(n), M O(Σ depth), h O(n + nv), Φ and J O(rows · depth), the
// rest O(n + nv) (+ the factorisation O(Σ depth²)). Allocates nothing.
//
// Reads: Model, q, v, a, tau, data.friction_state (LuGreEvaluation::State only).
// Writes: the kinematics stage (poses at q, velocities at v; data.acceleration at a, or at
// q̈ after the recursive forward dynamics), data.mass_matrix, data.composite_inertia,
// data.bias_force, data.gravity_force, data.bias_acceleration, data.subtree_force,
// data.subtree_inertia; with loops data.loop_residual, data.loop_jacobian,
// data.loop_row_wrench_a/_b; with a: data.reaction_force, data.reaction_torque, the load
// decomposition (data.constraint_torque, constraint_force, axial_load, normal_load),
// data.friction_effort, data.tau_with_friction, data.tau (= M a + h by the method); with
// tau: data.ddq (explicit: data.mass_matrix_factor; recursive: the ABA scratch). The
// recursive method also writes RNEA's body-coordinate scratch.
#pragma once

#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Which family computes h, g, τ and q̈ (M is the one recursion either way).
enum class DynamicsMethod {
  Explicit,   // the papers' explicit method (EC, EJ): reaction iteration, M a + h, Lᵀ D L
  Recursive,  // Featherstone's RNEA and ABA
};

struct AllTermsOptions {
  DynamicsMethod method = DynamicsMethod::Explicit;
  /// LuGre joints: one state has no bristle history, so the steady state by default.
  LuGreEvaluation lugre = LuGreEvaluation::SteadyState;
};

/// Everything above at (q, v) and, when not null, at the accelerations `a` and the
/// efforts `tau` (nv each). Throws InvalidArgument naming the argument for a wrong size or
/// a non-finite number, or a Data made for another model; SolverError when M (explicit)
/// or a joint's articulated inertia (recursive) is singular.
void compute_all_terms(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const Eigen::Ref<const VecX>& v, const VecX* a = nullptr, const VecX* tau = nullptr,
                       const AllTermsOptions& options = {});

}  // namespace mechdyn
