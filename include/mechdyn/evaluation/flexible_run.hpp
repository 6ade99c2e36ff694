// A mechanism with flexible bodies simulated in time, from an assembled start to the rows
// an observer receives: the library form of `mechdyn simulate` on models with flexible
// bodies (docs/flexible-bodies.md "Time integration", "Position-driven runs"), used by the
// CLI and Python.
//
// Integration: Newmark average acceleration (alpha 0) or HHT-α (alpha < 0, e.g. −0.1) with
// Baumgarte-stabilised cut joints (flexible/newmark.hpp), one step per output interval.
//  - forward: efforts τ(t) on the joints, given by a callback (the elastic coordinates
//    take none);
//  - driven (position-driven, `mechdyn simulate --mode inverse`): the actuated coordinates
//    follow q_a(t), q̇_a(t), q̈_a(t) given by a callback; everything else — passive joints
//    and elastic coordinates — free; the efforts that make them follow are the multipliers
//    of q_a − q_a(t) = 0 (NewmarkState::prescribed_efforts).
// Start: (q0, v0) as given, the actuated coordinates set to the prescription at t = 0
// (driven), then assembled (flexible/assembly.hpp: loops closed and J v = 0 by moving the
// passive joints only).
// Rigid reference (option rigid_reference): the rigid equivalent (every beam rigid, its
// undeformed inertia; flexible/assembly.hpp rigid_equivalent) runs alongside under the
// same inputs, for the markers' deviation from the rigid mechanism and its efforts. When
// its step fails (a rigid mechanism falling through a singular pose, say) it stops with
// one warning line and the rows carry no reference from there; the flexible run goes on.
// Rows: t = 0, then every `every`-th output interval and the last (at `duration`); each
// holds the state (t, q, v, a), the efforts, the markers, the largest constraint
// violation, the Newton iterations and the energies, measured once at the row's state.
// Force elements (format 3) act in both mechanisms at the step's time (Q_f in Newmark's
// residual), couplings are closure rows (their efforts: the multipliers from
// model.coupling_row_index on), the armature is in M.
//
// Cost per output interval: one Newmark step of each mechanism (Newton iterations, one
// dense LU of size nv + loop rows + prescribed each). Reads only the Model; owns its own
// workspaces (the model's and its rigid equivalent's).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/flexible/newmark.hpp"

namespace mechdyn {

struct FlexibleRunOptions {
  bool driven = false;          // position-driven: the actuated coordinates follow FlexibleInputs::actuated_motion
  double alpha = 0.0;           // HHT α ∈ [−1/3, 0]; 0: Newmark average acceleration (CLI: hht is −0.1)
  double duration = 1.0;        // s
  double step = 1e-3;           // output interval = integration step (s)
  long every = 1;               // keep every N-th output interval (the last always)
  bool rigid_reference = true;  // run the rigid equivalent alongside
  std::function<void()> started;                    // the start assembled and initialised, before the first row
  std::function<void(double)> progress;             // fraction done after every output interval; may be empty
  std::function<void(const std::string&)> warning;  // one line each, without the "mechdyn: warning: "
};

struct FlexibleInputs {
  // Forward (and driven: efforts on the free joints too): the joints' efforts at t into
  // `joint_effort` (model.rigid_nv entries, zeroed before the call; the elastic coordinates
  // take none). Called once per time, before the steps to it. Empty: zero efforts.
  std::function<void(double t, Eigen::Ref<VecX> joint_effort)> effort;
  // Driven: q_a, q̇_a, q̈_a at t into `motion` (each sized na, the actuated coordinates of
  // flexible/equilibrium.hpp actuated_velocities, in that order). Called once per time.
  std::function<void(double t, PrescribedMotion& motion)> actuated_motion;
};

/// The rigid equivalent's part of a row (FlexibleRow::reference), while it runs.
struct FlexibleReferenceRow {
  const NewmarkState& state;        // its q, v, a (rigid_nq, rigid_nv)
  const FlexibleSystemData& data;   // its markers (data.marker_position)
  const VecX& actuated_effort;      // na: driven: its prescribed efforts; forward: the applied ones
};

struct FlexibleRow {
  double time;
  const NewmarkState& state;        // q (nq: joints, then elastic), v, a (nv), multipliers, prescribed_efforts
  const VecX& effort;               // nv: the applied efforts at `time` (zero on the elastic coordinates)
  const VecX& actuated_effort;      // na: driven: the prescribed efforts μ; forward: the applied efforts
  const FlexibleSystemData& data;   // kinematics, mass matrix, loop residual at the row's state (marker_position),
                                    // the force elements' values and energies (element_value, element_energy)
  double constraint_violation;      // the largest |Φ| row (m for positions, rad-like for directions); 0 without loops
  int newton_iterations;            // of the step that reached this row (NewmarkState::iterations)
  FlexibleEnergies energy;          // kinetic (with the armature), gravity, strain, force elements (J)
  const FlexibleReferenceRow* reference;  // nullptr: rigid_reference off, or the reference stopped
};
using FlexibleObserver = std::function<void(const FlexibleRow&)>;

struct FlexibleRunSummary {
  long rows = 0;
  bool reference_stopped = false;  // the rigid reference stopped (its warning line said when)
  double reference_stop_time = 0.0;
};

/// The actuated coordinates of a flexible run (velocity indices, the order of
/// PrescribedMotion's entries and of FlexibleRow::actuated_effort).
std::vector<int> flexible_run_actuated(const Model& model);

/// Runs the simulation from (q0 (nq), v0 (nv)). Throws InvalidArgument on sizes, a non-finite start, options
/// or missing inputs (driven without actuated_motion or actuated joints), SolverError when
/// the start cannot be assembled, a Newmark step fails or the configuration becomes
/// non-finite (the messages name the time). An exception from the observer stops the run.
FlexibleRunSummary run_flexible(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                                const FlexibleInputs& inputs, const FlexibleRunOptions& options,
                                const FlexibleObserver& observer);

}  // namespace mechdyn
