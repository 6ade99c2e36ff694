// Simulation in time of a rigid model, rows to an observer or as arrays: the library form
// of `mechdyn simulate` (docs/cli.md) — forward mode (simulate), behind Python's
// `mechdyn.simulate` and every sample of a sweep (`mechdyn sweep`, docs/python.md), and
// the inverse mode of a tree (simulate_inverse), behind Python's `mechdyn.simulate_inverse`.
//
// v̇ = q̈(t, q, v) from the efforts τ(t, q, v) given by a callback:
//   trees           explicit forward dynamics (EJ/EC: M q̈ = τ − h by the branch-sparse
//                   Lᵀ D L) or ABA (Featherstone), RK4 or Dormand–Prince 5(4);
//   joint friction  the implicit friction equation with stick–slip events and LuGre
//                   states (friction/friction_simulation.hpp, EC §4.1);
//   loops           the closed-chain run of evaluation/closed_chain_run.hpp with rk4 or
//                   dopri5 (range-space constrained dynamics, EC eqs. 25–26, projection),
//                   from the consistent start of constraints/initial_state.hpp: the very
//                   code of `mechdyn simulate` on a model with loops.
// A tree's forward run here is `mechdyn simulate`'s (its rows written by an observer,
// SimulationRow); with loops it is the CLI's closed-chain run with rk4/dopri5 (one loop:
// tests/unit/test_sweep_and_simulate.cpp compares the two).
//
// Inverse mode (simulate_inverse; `mechdyn simulate --mode inverse` on a tree): the
// prescribed accelerations a(t) (a callback, nv) integrated from (q0, v0) by RK4 or
// DOPRI5; each row's efforts by inverse dynamics, τ = M a + h (explicit) or RNEA
// (recursive); with joint friction τ + τ_f (friction/inverse_dynamics_with_friction.hpp,
// EC eq. 54), the LuGre states z integrated along with (q, v).
//
// Output grid: K = ⌈duration / step⌉ intervals, the last ending at `duration`; a row at
// t = 0, then every `every`-th interval and the last one. Rows hold t, q, v, q̈ (at the
// row's state) and τ.
//
// Cost: per output interval one RK4 step (4 forward dynamics) or the adaptive steps.
// Allocates the result arrays and the integrators once; the time loop allocates nothing
// except when friction events are searched. Reads only the Model; owns its own Data.
#pragma once

#include <functional>

#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/friction/friction_simulation.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct SimulationOptions {
  double duration = 1.0;               // s
  double step = 1e-3;                  // output interval; the RK4 step; the largest DOPRI5 step (s)
  bool adaptive = false;               // false: RK4; true: Dormand–Prince 5(4)
  double relative_tolerance = 1e-8;    // DOPRI5
  double absolute_tolerance = 1e-10;   // DOPRI5
  DynamicsMethod method = DynamicsMethod::Explicit;  // trees without friction
  long every = 1;                      // keep every N-th output interval (the last always)
  long max_steps = 0;                  // integration step budget; 0: 100000 + 1000 K
  double max_wall_time = 0.0;          // s; 0: none
  // Called after every output interval with the fraction done (0..1); may be empty.
  std::function<void(double)> progress;
};

struct SimulationResult {
  VecX time;  // rows
  MatX q;     // rows × nq
  MatX v;     // rows × nv
  MatX a;     // rows × nv: q̈ at the row's state
  MatX tau;   // rows × nv: the efforts at the row
};

/// One output row, as simulate's observer receives it: the state, q̈ and τ at the row (q̈
/// from the same dynamics as the run's), the LuGre bristle states (joint friction; zeros
/// otherwise), and the row's Data, whose kinematics stage and dynamics terms hold this
/// state after q̈ was computed: an observer computes further terms from it (reactions,
/// energies, joint loads) without another forward-dynamics pass. `mechdyn simulate`'s
/// forward run of a tree writes its CSV rows this way.
struct SimulationRow {
  double time = 0.0;
  const VecX& q;               // nq
  const VecX& v;               // nv
  const VecX& a;               // nv: q̈
  const VecX& tau;             // nv: the efforts
  const VecX& friction_state;  // nv: LuGre z (joint friction), zeros otherwise
  Data& data;                  // the row's workspace (valid during the call only)
};
using SimulationObserver = std::function<void(SimulationRow&)>;

/// The same run, each output row handed to `observer` as it is computed (nothing is held:
/// the memory does not grow with the duration). An exception from the observer stops the
/// run and propagates.
void simulate(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
              const EffortFunction& effort, const SimulationOptions& options, const SimulationObserver& observer);

/// Simulates from (q0, v0) under `effort` (writes nv efforts at (t, q, v); may be empty:
/// zero efforts). Throws InvalidArgument on sizes, non-finite or bad options, a
/// non-normalised quaternion (beyond 1e-6; then normalised exactly); ModelError for a
/// flexible model or loops without a passive joint; SolverError when the dynamics or the
/// integrator fails (the message names the time) or the step budget is exhausted.
SimulationResult simulate(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                          const EffortFunction& effort, const SimulationOptions& options = {});

/// The prescribed accelerations of an inverse run: a(t) into `a` (nv numbers).
using PrescribedAccelerationFunction = std::function<void(double t, Eigen::Ref<VecX> a)>;

/// Inverse dynamics along prescribed accelerations, integrated in time (header): each
/// output row to `observer` with q, v, a(t), τ (inverse dynamics, with friction τ + τ_f),
/// the LuGre states, and the row's Data (after the inverse dynamics: reactions, joint loads
/// and energies computable from it; friction: data.friction_effort). `options.method`
/// picks the inverse dynamics; `adaptive` the integrator. `acceleration` may be empty
/// (zero accelerations). Throws as simulate does, and InvalidArgument when a(t) is not
/// finite; ModelError for a model with loops (evaluation/closed_chain_run.hpp) or
/// flexible bodies (evaluation/flexible_run.hpp).
void simulate_inverse(const Model& model, const Eigen::Ref<const VecX>& q0, const Eigen::Ref<const VecX>& v0,
                      const PrescribedAccelerationFunction& acceleration, const SimulationOptions& options,
                      const SimulationObserver& observer);

/// The same, rows as arrays (tau: the inverse dynamics' efforts, with friction τ + τ_f).
SimulationResult simulate_inverse(const Model& model, const Eigen::Ref<const VecX>& q0,
                                  const Eigen::Ref<const VecX>& v0, const PrescribedAccelerationFunction& acceleration,
                                  const SimulationOptions& options = {});

}  // namespace mechdyn
