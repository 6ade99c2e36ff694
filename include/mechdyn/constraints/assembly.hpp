// Assembly of a closed chain: solve the closure Φ(q) = 0 for the passive coordinates.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eq. (24) (Φ̇ = J v);
// Newton's method with a backtracking (Armijo) line search on ½‖Φ‖² (Nocedal & Wright,
// "Numerical Optimization", 2nd ed., Alg. 3.1 and §11.2). The actuated coordinates
// (joints with actuated: true) stay as given; the passive ones start at the user's
// guess. Each step solves J_p Δ = −Φ in the minimum-norm least-squares sense with a
// one-sided Jacobi SVD (math/jacobi_svd.hpp), so redundant closure rows (rank-deficient J_p by
// rows) are handled. A step Δ in velocity coordinates is applied to q by
// apply_velocity_increment (exact for revolute, prismatic, universal; a rotation-vector
// update for quaternion joints).
// Errors (SolverError, never NaN): the residual cannot be brought below tolerance (the
// mechanism cannot be assembled with these inputs: Newton stalls at a residual minimum
// > 0), or the assembled configuration is singular (J_p loses column rank: the passive
// coordinates are not determined by the actuated ones — a dead point or a branch point).
// Cost per iteration O(rows · np² + n · depth). Allocates nothing (Data's
// passive_svd, constraint_* scratch).
//
// Reads: Model, q (the actuated coordinates and the initial guess of the passive ones).
// Writes: q (assembled), the position stage at q, data.loop_residual, data.loop_jacobian,
// data.loop_row_wrench_a/_b, data.constraint_passive, data.passive_svd,
// data.assembly_q, data.assembly_step, data.constraint_solution.
// apply_velocity_increment reads the position stage (parent rotations) and writes q.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct AssemblyOptions {
  double tolerance = 1e-12;         // on ‖Φ‖∞ (m or rad)
  int max_iterations = 100;
  double singular_tolerance = 1e-9; // J_p column rank: singular values below this × the largest are zero
  bool check_singular = true;       // throw when the assembled configuration is singular
};

struct AssemblyResult {
  int iterations = 0;
  double residual = 0.0;  // ‖Φ‖∞ at the end
};

/// Solves Φ(q) = 0 for the passive coordinates of q in place. Leaves data.loop_residual,
/// data.loop_jacobian and data.constraint_passive (J_p) at the solution, and
/// data.passive_svd factorised. Throws SolverError (see above).
AssemblyResult assemble(const Model& model, Data& data, Eigen::Ref<VecX> q, const AssemblyOptions& options = {});

/// q ← q ⊕ dv for a velocity-space increment dv (nv), given data's kinematics at q
/// (parent rotations for quaternion joints). Renormalises quaternions.
void apply_velocity_increment(const Model& model, const Data& data, Eigen::Ref<VecX> q,
                              const Eigen::Ref<const VecX>& dv);

/// J_p = J(:, passive) into data.constraint_passive and its decomposition into
/// data.passive_svd; returns true when J_p has full column rank (passive motion determined).
bool factor_passive_jacobian(const Model& model, Data& data, double singular_tolerance);

}  // namespace mechdyn
