// Every term of one state in one pass: the entry point behind `mechdyn eval`.
//
// Like Pinocchio's computeAllTerms (and MuJoCo's mj_forward): the kinematics stage
// (kinematics/forward_kinematics.hpp) runs once at (q, v), and every term reads it —
//   M(q)               the world-frame CRBA (dynamics/crba.hpp; = EJ eqs. 30–37 aggregated),
//                      held as the dense nv × nv data.mass_matrix or — MassMatrixForm::Rows,
//                      recursive method — left as CRBA's column forces F_k = I^c_i S_k in
//                      data.composite_force, any row by mass_matrix_row (no nv × nv matrix
//                      anywhere: O(n) memory, dynamics/mass_matrix_rows.hpp)
//   h(q, v), g(q)      explicit: the reaction iteration at q̈ = 0 (EC eqs. 19–22,
//                      dynamics/explicit_bias.hpp); recursive: RNEA(q, v, 0), RNEA(q, 0, 0)
//   Φ(q), J(q)         the cut-joint rows (constraints/loop_rows.hpp, EC eq. 24), with loops
// and, when `a` is given, the stage's acceleration level at a (EC eqs. 8, 10) with
//   reactions          EC eq. (17) (dynamics/joint_reactions.hpp)
//   friction           load decomposition and τ_d = M a + h + τ_f (EC Algorithm 1 lines
//                      6–9, eq. 54; friction/inverse_dynamics_with_friction.hpp)
//   Q_f                the force elements' generalized force at (q, v, t) (format 3,
//                      dynamics/force_elements.hpp): τ below is M a + h − Q_f (the
//                      actuators' effort; M with the armature), q̈ solves M q̈ = τ + Q_f − h,
//                      and the reactions carry the elements' body wrenches
//   τ = M a + h        explicit: the reactions' projection on the axes (EC eq. 17, the
//                      resultant iteration; no M a product); recursive: RNEA(q, v, a)
// and, when `tau` is given,
//   q̈                 explicit: M q̈ = τ − h by the branch-sparse Lᵀ D L of the M above
//                      (dynamics/sparse_cholesky.hpp); recursive: ABA passes 2–3 on the stage.
// RNEA (the recursive h, g, τ) runs in body coordinates by design and fills no world
// stage (docs/dynamics.md); everything else reads the one stage. The numbers are those of
// the separate entry points (the same functions on the same stage).
//
// Cost: one kinematics pass O(n), M O(Σ depth) (its rows form: O(n)), h O(n + nv), Φ and
// J O(rows · depth), the rest O(n + nv) (+ the factorisation O(Σ depth²)). Allocates
// nothing, except a dense workspace the Data was made without (model/data.hpp,
// DenseWorkspace) on the first call that needs it: the dense form reserves MassMatrix,
// the explicit q̈ MassMatrixFactor; the rows form of the recursive method needs none.
//
// Reads: Model, q, v, a, tau, data.friction_state (LuGreEvaluation::State only).
// Writes: the kinematics stage (poses at q, velocities at v; data.acceleration at a, or at
// q̈ after the recursive forward dynamics), data.mass_matrix (dense form) or
// data.composite_force (rows form), data.composite_inertia,
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
  Explicit,   // the papers' explicit method (EC, EJ): reaction iteration (h, τ), M, Lᵀ D L
  Recursive,  // Featherstone's RNEA and ABA
};

/// How M(q) is left in Data.
enum class MassMatrixForm {
  Dense,  // data.mass_matrix, nv × nv, both triangles (DenseWorkspace::MassMatrix)
  Rows,   // CRBA's column forces in data.composite_force; row i by mass_matrix_row
          // (dynamics/mass_matrix_rows.hpp), bit for bit the dense form's row. No nv × nv
          // matrix: what `mechdyn eval` uses for large trees. Recursive method only (the
          // explicit one reads the dense M for M q̈ = τ − h).
};

struct AllTermsOptions {
  DynamicsMethod method = DynamicsMethod::Explicit;
  MassMatrixForm mass_matrix = MassMatrixForm::Dense;
  /// LuGre joints: one state has no bristle history, so the steady state by default.
  LuGreEvaluation lugre = LuGreEvaluation::SteadyState;
  /// The time t (s) of the force elements' time functions (servo targets, applied loads).
  double time = 0.0;
};

/// Everything above at (q, v) and, when not null, at the accelerations `a` and the
/// efforts `tau` (nv each). Throws InvalidArgument naming the argument for a wrong size or
/// a non-finite number, a Data made for another model, or MassMatrixForm::Rows with the
/// explicit method; SolverError when M (explicit)
/// or a joint's articulated inertia (recursive) is singular.
void compute_all_terms(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const Eigen::Ref<const VecX>& v, const VecX* a = nullptr, const VecX* tau = nullptr,
                       const AllTermsOptions& options = {});

}  // namespace mechdyn
