// Assembly that tries harder before it gives up: Newton (assembly.hpp), then
// Levenberg–Marquardt, then restarts from perturbed guesses.
//
// Why: Newton from a poor guess can stall where ½‖Φ‖² is stationary but Φ ≠ 0 — the
// four-bar at q = 0 has every link along +x, J_p loses the row that would close the
// 0.15 m gap, and the gradient J_pᵀΦ vanishes: no descent method can move from there.
// Strategy, each stage from the user's guess q (actuated coordinates never change):
//  1. Newton with backtracking (assemble(), unchanged);
//  2. Levenberg–Marquardt on ½‖Φ(q_p)‖² (Moré 1978; Nocedal & Wright, "Numerical
//     Optimization", 2nd ed., §10.3): (J_pᵀJ_p + λ D) Δ = −J_pᵀΦ, D = diag(J_pᵀJ_p)
//     floored at 1e-12·max, λ divided by 3 after a decrease, multiplied by 4 after a
//     failure; it copes with rank-deficient and far-from-solution steps that make Newton's
//     line search stall;
//  3. restarts: the passive coordinates of the guess perturbed by a fixed, seeded
//     sequence (angles uniform in ±π, displacements uniform in ±L with L the model's
//     length scale, rotation vectors of length up to π), each tried with stages 1–2.
// The first configuration with ‖Φ‖∞ ≤ tolerance is polished by Newton and returned; the
// seed is fixed, so the same input always assembles to the same branch. Which stage
// succeeded is reported. When all fail: SolverError with Newton's message and what else
// was tried. The singularity check (J_p rank at the solution) is the same as assemble()'s.
// Cost: up to (restarts + 1) × (Newton + LM) iterations, each O(rows · np² + np³);
// allocates (np × np scratch): meant for the set-up of a run, not for an evaluation loop.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"

namespace mechdyn {

struct AssemblyRecoveryOptions {
  int levenberg_marquardt_iterations = 200;
  int restarts = 32;            // perturbed guesses after the user's own
  unsigned seed = 20240611u;    // of the perturbation sequence (fixed: reproducible branch)
};

struct RecoveredAssembly {
  AssemblyResult result;      // of the final Newton polish
  std::string method;         // "newton", "levenberg-marquardt", "restart k (newton)", ...
  int attempts = 1;           // starting guesses tried (1: the user's own)
};

/// Solves Φ(q) = 0 for the passive coordinates of q in place (see above). Leaves Data as
/// assemble() does. Throws SolverError when no stage closes the loops, or when the
/// assembled configuration is singular and options.check_singular is set.
RecoveredAssembly assemble_with_recovery(const Model& model, Data& data, Eigen::Ref<VecX> q,
                                         const AssemblyOptions& options = {},
                                         const AssemblyRecoveryOptions& recovery = {});

/// As assemble_with_recovery, with the coordinates to keep named instead of taken from
/// the joints' `actuated` flags: the velocity coordinates in `kept` (indices into v, each
/// at most once, any order; an empty list keeps none) stay as given — for a quaternion
/// joint, its rotation about the kept world axes stays — and every other coordinate is
/// solved. With `kept` equal to data.actuated_dofs as a set this is assemble_with_recovery
/// itself. Otherwise the method runs on a private Data whose passive set is the complement
/// of `kept` (allocated per call: set-up, not an evaluation loop); on return data holds
/// the closure terms at q (loop_closure), and its own passive and actuated sets are
/// unchanged. The singularity check, when options.check_singular is set, is on the
/// columns of the coordinates solved. Throws InvalidArgument for an index outside
/// [0, nv) or a repeated one, SolverError as assemble_with_recovery.
RecoveredAssembly assemble_keeping(const Model& model, Data& data, Eigen::Ref<VecX> q, const std::vector<int>& kept,
                                   const AssemblyOptions& options = {}, const AssemblyRecoveryOptions& recovery = {});

/// Levenberg–Marquardt on the passive coordinates from q (stage 2 above): returns true and
/// updates q when ‖Φ‖∞ ≤ tolerance was reached; false (q at the best point) otherwise.
bool levenberg_marquardt_assembly(const Model& model, Data& data, Eigen::Ref<VecX> q, double tolerance,
                                  int max_iterations);

}  // namespace mechdyn
