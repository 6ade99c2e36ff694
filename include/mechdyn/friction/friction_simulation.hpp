// Time integration of a tree with joint friction: forward dynamics under efforts τ_d(t),
// stick–slip events, and the LuGre bristle states.
//
// State: x = (q, v, z). z has one entry per velocity coordinate: the LuGre bristle
// deflection of that coordinate's joint (0 and constant for every other coordinate); it
// is integrated with the dynamics by the same Runge–Kutta stages (the extended state of
// simulation/integrators.hpp), ż = v − σ0 |v| z / g(v).
// Integrators: RK4 at a fixed step (as in EC §5.1) or Dormand–Prince 5(4).
//
// Stick–slip (docs/friction.md): v̇ from forward_dynamics_with_friction.hpp, which holds
// a joint at rest (v = 0 exactly) stuck while its holding effort stays within static
// friction. A Coulomb–viscous or Stribeck joint that is moving can only come to rest
// through a velocity reversal event. Every step (RK4 step, or DOPRI5 output interval) is
// integrated with each moving switching joint's friction direction held at its sign at the
// step start (the smooth continuation of the motion through v = 0;
// FrictionSolverOptions::frozen_direction; joints at rest keep the switching law): until a
// moving joint stops this is the true motion, and a stop shows as a sign change of v_k at
// the step end (or v_k = 0). The crossing time is then located by the Illinois variant of
// regula falsi on the same held motion (each trial re-integrates from the start of the
// step to the trial time) to within event_time_tolerance, the state is taken there, v_k is
// set to exactly 0, and the integration resumes from that time under the switching law:
// the joint then sticks or slips back as forward dynamics decides. No trial mixes the two
// friction branches, so the located time is the stop of the true motion to the
// integrator's accuracy (closed-form incline: 1e-12 s; torsion pendulum: RK4's phase
// error; tests/reference). Error bound: the velocity reset changes v_k by at most
// |q̈_k| · event_time_tolerance. (Before issue 25 the step was first tried under the
// switching law, whose last stages already saw the reversed friction and could keep v_k
// on its side: a stop late in an RK4 step was missed, an error of first order in the step.)
// Rest band: a joint that starts a step at rest follows the switching law, within which
// the adaptive integrator may reach v_k ≈ 0 without a sign change at the step end (the
// Filippov sliding of a sign function); forward dynamics therefore counts
// |v_k| ≤ solver.rest_velocity (1e-9) as rest, and after each chunk a joint held stuck
// inside the band gets v_k = 0 exactly. Creep bound: rest_velocity
// times one step (1e-12 rad or m at the default step), then none.
//
// Force elements (format 3): the effort function gives the actuators' τ; the simulation
// adds the elements' Q_f(q, v, t), evaluated on its own Data, so that the friction's joint
// loads include their body wrenches (forward_dynamics_with_friction.hpp).
// friction_state_derivative reads Model, q, v, z, tau and writes data.friction_state = z
// and what forward_dynamics_with_friction writes; FrictionSimulation owns its Data.
#pragma once

#include <functional>
#include <limits>
#include <memory>

#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

/// The solver options of a simulation: |v| ≤ 1e-9 (rad/s or m/s) counts as rest.
inline FrictionSolverOptions rest_band() {
  FrictionSolverOptions options;
  options.rest_velocity = 1e-9;
  return options;
}

struct FrictionSimulationOptions {
  bool adaptive = false;                 // false: RK4 at `step`; true: Dormand–Prince 5(4)
  double step = 1e-3;                    // RK4 step; DOPRI5: largest step
  DormandPrinceOptions dormand_prince;   // tolerances of the adaptive integrator
  FrictionSolverOptions solver = rest_band();  // the implicit friction solve (rest band 1e-9)
  bool locate_events = true;             // velocity-reversal events (see above)
  double event_time_tolerance = 1e-12;   // s: width of the bracket around a located reversal
  int max_event_iterations = 100;
  IntegrationBudget* budget = nullptr;   // charged by every step, event searches included (not owned)
};

class FrictionSimulation {
 public:
  FrictionSimulation(const Model& model, EffortFunction effort, const FrictionSimulationOptions& options = {});

  /// Advances (q, v, z) from t to t_end (z: nv LuGre states, see above).
  void advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);

  /// Number of located velocity-reversal events so far.
  int events() const { return events_; }
  /// Time of the last located reversal (s); NaN before the first.
  double last_event_time() const { return last_event_time_; }
  int evaluations() const;

 private:
  void capture_resting_joints(double t, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);
  void add_force_elements(double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);
  void advance_chunk(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);
  void integrate(double t0, double t1, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);
  int first_reversal(const VecX& v_before, const VecX& v_after) const;

  const Model& model_;
  EffortFunction effort_;
  FrictionSimulationOptions options_;
  Data data_;
  VecX tau_;
  std::unique_ptr<Rk4Integrator> rk4_;
  std::unique_ptr<DormandPrinceIntegrator> dopri_;
  VecX q0_, v0_, z0_, q1_, v1_, z1_;
  VecX frozen_;  // friction directions held during an event search (see advance_chunk)
  int events_ = 0;
  double last_event_time_ = std::numeric_limits<double>::quiet_NaN();
};

/// The derivative (v̇, ż) with friction for the extended state: effort τ_d(t, q, v), then
/// forward_dynamics_with_friction with data.friction_state = z.
void friction_state_derivative(const Model& model, Data& data, const FrictionSolverOptions& options,
                               const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                               const Eigen::Ref<const VecX>& z, const Eigen::Ref<const VecX>& tau,
                               Eigen::Ref<VecX> a, Eigen::Ref<VecX> z_rate);

}  // namespace mechdyn
