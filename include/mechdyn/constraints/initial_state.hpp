// A consistent initial state of a closed chain from the coordinates the user states.
//
// A user states some coordinates of the start (the crank at 0.3 rad turning at 6 rad/s)
// and leaves the others to the loops. consistent_initial_state completes (q, v) so that
// Φ(q) = 0 and J(q) v = 0 (EC §2.3, eq. 24: Φ̇ = J v) while the stated — kept —
// coordinates stay exactly as given wherever the loops allow it, and says what it had
// to change (Simbody's Assembler locks what the user set and reports what moved; ADAMS
// marks initial conditions "exact"; HOUSE-STYLE "Never change the user's numbers
// silently").
//
// Method.
//  1. Positions: the closure Φ(q) = 0 is solved for the coordinates not kept
//     (assemble_keeping, constraints/assembly_recovery.hpp: Newton with line search,
//     then Levenberg–Marquardt and seeded restarts), the kept ones fixed. No adjustment
//     of kept positions is made: a start the loops cannot close is an error.
//  2. Velocities, kept set K, free set F (the rest): J_F v_F = −J_K v_K in the
//     minimum-norm least-squares sense (one-sided Jacobi SVD, math/jacobi_svd.hpp).
//     J_F must have full column rank (else the free rates are not determined by the
//     kept ones: "singular start", an error naming the undetermined coordinates).
//     When the residual J v is not zero (relative to |J| |v_K|, velocity_tolerance) the
//     kept rates are incompatible with the loops (an over-determined request, or a
//     coordinate the loops lock): the kept rates are moved by the least change, in the
//     2-norm of their SI values, that makes them compatible,
//        v_K ← v_K − A⁺ A v_K,   A = (I − J_F J_F⁺) J_K
//     (A v_K = 0 is exactly the condition for J_F v_F = −J_K v_K to be solvable), the
//     free rates are solved from them again, and every kept rate that moved is listed.
//     Why not the mass-weighted projection of drift control (drift_control.hpp): it
//     moves kept and free rates alike, so a request the loops allow as it stands (the
//     slider-crank's crank at 6 rad/s, the rest left free) would start at a fraction of
//     it; here the free rates cost nothing and the kept ones move only as far as they
//     must.
//
// Reads: Model, q (nq: kept coordinates as stated, the others as the assembly's starting
// guess), v (nv: kept rates as stated; the others are ignored), options.
// Writes: q (assembled), v (consistent), data's position stage and closure terms at q
// (data.loop_residual, data.loop_jacobian, ...); data's passive and actuated sets are
// not changed. Allocates (SVD workspaces sized by the kept and free sets, a private Data
// for a kept set other than the actuated one): meant for the set-up of a run, not for an
// evaluation loop. Cost: one assembly, two or three SVDs of rows × nv.
// Throws: InvalidArgument (sizes, non-finite input, a kept index outside [0, nv) or
// repeated); SolverError, never a NaN state: the loops cannot close with the kept
// positions ("unassemblable start"), the free positions or rates are not determined by
// the kept ones ("singular start", naming them), the kept rates violate the loops and
// options.allow_velocity_adjustment is false ("impossible initial velocity", naming
// them and their nearest compatible values).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct InitialStateOptions {
  /// Velocity indices (into v) of the coordinates whose positions stay as given in q; a
  /// quaternion joint is kept by its rotation-vector coordinates (all three keep its
  /// orientation). Default (nullopt): the actuated coordinates (data.actuated_dofs).
  std::optional<std::vector<int>> kept_positions;
  /// Velocity indices of the coordinates whose rates stay as given in v. Default
  /// (nullopt): the actuated coordinates.
  std::optional<std::vector<int>> kept_velocities;
  /// Incompatible kept rates: true moves them by the least change and reports it; false
  /// throws SolverError ("impossible initial velocity").
  bool allow_velocity_adjustment = true;
  /// ‖J v‖∞ ≤ velocity_tolerance · max_ij |J_ij| · ‖v‖∞ (v: the kept rates and the free
  /// rates solved from them): the kept rates are compatible.
  double velocity_tolerance = 1e-10;
  /// Assembly tolerances (‖Φ‖∞, iterations); its singular_tolerance is also the relative
  /// singular-value threshold of the velocity solves. check_singular is not read: the
  /// determinacy of both levels is checked here, naming the coordinates.
  AssemblyOptions assembly;
};

/// One kept rate that the loops did not allow as stated.
struct InitialStateAdjustment {
  int coordinate = 0;   // index into v
  std::string name;     // the coordinate's name (model/joint.hpp joint_coordinate_names), e.g. "crank_joint"
  std::string unit;     // of the rate's base quantity: "rad" (rad/s) or "m" (m/s)
  double given = 0.0;   // the rate stated
  double used = 0.0;    // the rate in the returned state
  double difference() const { return used - given; }
};

struct InitialStateResult {
  std::vector<int> kept_positions;   // the kept sets as used (sorted velocity indices)
  std::vector<int> kept_velocities;
  std::vector<InitialStateAdjustment> adjustments;  // kept rates moved (empty: every stated value kept)
  std::string assembly_method;       // assemble_with_recovery's report ("newton", "restart 1 (newton)", ...)
  double closure_residual = 0.0;     // ‖Φ(q)‖∞ at the returned q (m, rad)
  double velocity_residual = 0.0;    // ‖J v‖∞ at the returned state
};

/// Makes (q, v) consistent with the loops, keeping the stated coordinates (see above).
/// A model without loops: q and v are returned unchanged, with no adjustment.
InitialStateResult consistent_initial_state(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                            const InitialStateOptions& options = {});

}  // namespace mechdyn
