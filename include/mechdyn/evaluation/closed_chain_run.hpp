// A closed chain's simulation in time, from a consistent start to the rows an observer
// receives: the library form of `mechdyn simulate` for models with loops (docs/cli.md,
// docs/closed-chains.md), used by the CLI and Python.
//
// Forward mode (efforts given by a callback):
//   ali3p   index-3 augmented Lagrangian, trapezoidal rule, mass-orthogonal projections at
//           every step (constraints/augmented_lagrangian_trapezoidal.hpp; Bayo & Ledesma
//           1996): implicit, O(nv) per step, stays on the physical branch through singular
//           configurations; fixed step `step`.
//   rk4     classic RK4 at `step` on the range-space constrained dynamics
//           (constraints/constrained_forward_dynamics.hpp), the state projected back onto
//           Φ = 0, J v = 0 after every step (constraints/drift_control.hpp).
//   dopri5  Dormand–Prince 5(4) with error control, projected after every output interval.
// Inverse mode: the actuated coordinates' accelerations (or velocities) as functions of t;
// closed-chain inverse dynamics at every row (constraints/closed_chain_inverse_dynamics.hpp).
// Start: constraints/initial_state.hpp keeps the stated coordinates where the loops allow
// (its adjustments go to the warning callback and the summary).
// Near-singular configurations: after every output interval the closure Jacobian is
// screened (sparse_closure.hpp: the LDLᵀ pivots of J Jᵀ, redundant rows of the start set
// aside); a pivot ratio below singular_ratio × the start's opens an episode, reported as
// one warning line naming its times when it closes (ratio back above 10× the threshold)
// or at the end.
// Rows: t = 0, then every `every`-th output interval and the last (at `duration`). Each row
// holds t, q, v, a, the efforts, the cut-joint wrenches and joint reactions (data), the
// closure residual and the energies, from one pass of the dynamics at the row's state.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "mechdyn/constraints/augmented_lagrangian_trapezoidal.hpp"
#include "mechdyn/constraints/initial_state.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

enum class ClosedChainIntegrator { Ali3p, Rk4, DormandPrince };
const char* closed_chain_integrator_name(ClosedChainIntegrator integrator);  // "ali3p", "rk4", "dopri5"
std::optional<ClosedChainIntegrator> closed_chain_integrator_from_name(const std::string& name);

struct ClosedChainRunOptions {
  bool inverse = false;
  ClosedChainIntegrator integrator = ClosedChainIntegrator::Rk4;
  double duration = 1.0;              // s
  double step = 1e-3;                 // output interval; the step of rk4 and ali3p; dopri5's largest (s)
  bool ali3p_adaptive = false;        // ali3p with error control (the tolerances below), steps ≤ `step`
  double relative_tolerance = 1e-8;   // dopri5; ali3p_adaptive
  double absolute_tolerance = 1e-10;  // dopri5
  long every = 1;                     // keep every N-th output interval (the last always)
  IntegrationBudget* budget = nullptr;  // not owned; nullptr: none
  InitialStateOptions start;            // the coordinates kept at t = 0
  AugmentedLagrangianTrapezoidalOptions ali3p;
  double singular_ratio = 1e-3;  // near-singular screen: pivot ratio of J Jᵀ below this × the start's
  std::function<void(const InitialStateResult&)> started;  // after the start was made consistent
  std::function<void(double)> progress;                // fraction done after every output interval
  std::function<void(const std::string&)> warning;     // one line each, without the "mechdyn: warning: "
};

struct ClosedChainInputs {
  EffortFunction effort;  // forward: τ(t, q, v) (nv; passive entries normally 0); empty: zero efforts
  // Inverse: the actuated coordinates' accelerations a_a(t) (na) or velocities v_a(t) (na;
  // then a_a by a central difference, h = 1e-6 max(1, |t|)); exactly one of them.
  std::function<void(double t, Eigen::Ref<VecX> actuated)> actuated_acceleration;
  std::function<void(double t, Eigen::Ref<VecX> actuated)> actuated_velocity;
};

struct ClosedChainRow {
  double t;
  const VecX& q;
  const VecX& v;
  const VecX& a;
  const VecX& tau;   // forward: the applied efforts (nv); inverse: the efforts of inverse dynamics (data.tau)
  Data& data;  // cut_force/_torque, reaction_force/_torque, friction_effort (inverse); valid during the call
  double closure_residual;  // ‖Φ‖∞
  double kinetic_energy, potential_energy;
};
using ClosedChainObserver = std::function<void(const ClosedChainRow&)>;

struct ClosedChainRunSummary {
  long rows = 0;
  InitialStateResult start;        // what the start kept and moved
  int near_singular_episodes = 0;  // reported by the warning callback
  long steps = 0;                  // integration steps (ali3p, rk4) or accepted steps (dopri5)
  long newton_iterations = 0;      // ali3p
};

/// Runs the simulation from (q0, v0) (made consistent first). Throws InvalidArgument on
/// sizes or options, ModelError for loops without a passive joint, SolverError (naming the
/// time) when the start cannot be made consistent, the dynamics or an integrator fails.
ClosedChainRunSummary run_closed_chain(const Model& model, const Eigen::Ref<const VecX>& q0,
                                       const Eigen::Ref<const VecX>& v0, const ClosedChainInputs& inputs,
                                       const ClosedChainRunOptions& options, const ClosedChainObserver& observer);

}  // namespace mechdyn
