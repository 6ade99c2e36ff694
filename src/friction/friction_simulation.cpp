// Forward-dynamics simulation with joint friction: extended state (q, v, z), RK4 or
// DOPRI5, velocity-reversal events located by the Illinois method. See
// friction/friction_simulation.hpp. Stepping allocates nothing beyond the callbacks.
#include "mechdyn/friction/friction_simulation.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/friction/friction_models.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void friction_state_derivative(const Model& model, Data& data, const FrictionSolverOptions& options,
                               const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                               const Eigen::Ref<const VecX>& z, const Eigen::Ref<const VecX>& tau,
                               Eigen::Ref<VecX> a, Eigen::Ref<VecX> z_rate) {
  check_data(model, data, "friction_state_derivative");
  check_vector(z, model.nv, "z");
  if (a.size() != model.nv || z_rate.size() != model.nv)
    throw InvalidArgument("friction_state_derivative: a and z_rate need " + std::to_string(model.nv) +
                          " numbers, got " + std::to_string(a.size()) + " and " + std::to_string(z_rate.size()));
  data.friction_state = z;
  a = forward_dynamics_with_friction(model, data, q, v, tau, options);
  z_rate = data.friction_state_rate;
}

FrictionSimulation::FrictionSimulation(const Model& model, EffortFunction effort,
                                       const FrictionSimulationOptions& options)
    : model_(model),
      effort_(std::move(effort)),
      options_(options),
      data_(model, DenseWorkspace::MassMatrix | DenseWorkspace::Friction) {  // what forward_dynamics_with_friction uses
  if (!effort_) throw InvalidArgument("friction simulation: no effort function given");
  if (!(options.step > 0.0) || !std::isfinite(options.step))
    throw InvalidArgument("friction simulation: the step must be positive and finite");
  if (!(options.event_time_tolerance > 0.0)) throw InvalidArgument("friction simulation: event tolerance must be > 0");
  const Eigen::Index nq = model.nq, nv = model.nv;
  tau_ = VecX::Zero(nv);
  q0_ = VecX::Zero(nq), q1_ = VecX::Zero(nq);
  v0_ = VecX::Zero(nv), v1_ = VecX::Zero(nv);
  z0_ = VecX::Zero(nv), z1_ = VecX::Zero(nv);
  frozen_ = VecX::Zero(nv);
  ExtendedDerivativeFunction derivative = [this](double t, const Eigen::Ref<const VecX>& q,
                                                 const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& z,
                                                 Eigen::Ref<VecX> a, Eigen::Ref<VecX> z_rate) {
    effort_(t, q, v, tau_);
    try {
      add_force_elements(t, q, v);
      friction_state_derivative(model_, data_, options_.solver, q, v, z, tau_, a, z_rate);
    } catch (const SolverError& e) {  // say when
      std::ostringstream message;
      message.precision(17);
      message << e.what() << " at t = " << t << " s";
      throw SolverError(message.str());
    }
  };
  if (options.adaptive) {
    DormandPrinceOptions dp = options.dormand_prince;
    dp.max_step = std::min(dp.max_step, options.step);
    if (options.budget != nullptr) dp.budget = options.budget;
    dopri_ = std::make_unique<DormandPrinceIntegrator>(model, derivative, static_cast<int>(nv), dp);
  } else {
    rk4_ = std::make_unique<Rk4Integrator>(model, derivative, static_cast<int>(nv));
    rk4_->set_budget(options.budget);
  }
}

// Force elements (format 3): Q_f(q, v, t) on the solver's own Data, added to the actuators'
// τ; their body wrenches stay in that Data for the joint loads of the friction
// (forward_dynamics_with_friction.hpp).
void FrictionSimulation::add_force_elements(double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v) {
  if (!model_.has_force_elements) return;
  force_elements(model_, data_, q, v, t);
  tau_ += data_.applied_force;
}

int FrictionSimulation::evaluations() const { return rk4_ ? rk4_->evaluations() : dopri_->evaluations(); }

void FrictionSimulation::integrate(double t0, double t1, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                   Eigen::Ref<VecX> z) {
  if (t1 <= t0) return;
  if (dopri_) {
    dopri_->advance(t0, t1, q, v, z);
    return;
  }
  const double span = t1 - t0;  // equal RK4 steps of at most `step`
  const long steps = std::max(1L, static_cast<long>(std::ceil(span / options_.step * (1.0 - 1e-12))));
  const double h = span / static_cast<double>(steps);
  for (long k = 0; k < steps; ++k) rk4_->step(t0 + static_cast<double>(k) * h, h, q, v, z);
}

// The first switching joint whose velocity reached zero or changed sign: a coordinate index, or −1.
int FrictionSimulation::first_reversal(const VecX& v_before, const VecX& v_after) const {
  for (const Joint& joint : model_.joints) {
    if (!joint.friction || !friction_switches(*joint.friction)) continue;
    const int k = joint.v_index;
    if (v_before[k] != 0.0 && v_before[k] * v_after[k] <= 0.0) return k;
  }
  return -1;
}

void FrictionSimulation::advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                 Eigen::Ref<VecX> z) {
  if (!(t_end >= t)) throw InvalidArgument("friction simulation: end time lies before the start time");
  // Chunks of at most `step` (one RK4 step, or the DOPRI5 step limit): a velocity
  // reversal is seen as a sign change between the chunk's ends.
  const double span = t_end - t;
  const long chunks = span <= 0.0 ? 0 : std::max(1L, static_cast<long>(std::ceil(span / options_.step * (1.0 - 1e-12))));
  const double start = t;
  for (long c = 1; c <= chunks; ++c) {
    const double chunk_end = c == chunks ? t_end : start + span * static_cast<double>(c) / static_cast<double>(chunks);
    advance_chunk(t, chunk_end, q, v, z);
    t = chunk_end;
    capture_resting_joints(t, q, v, z);
  }
}

// A switching joint that ended the chunk inside the rest band (0 < |v_k| ≤ rest_velocity)
// and that forward dynamics holds stuck there is stopped exactly (v_k = 0): the band
// makes an adaptive step that lands near v = 0 stick instead of chattering (Filippov
// sliding), and the capture removes the residual creep (≤ rest_velocity · step).
void FrictionSimulation::capture_resting_joints(double t, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                                Eigen::Ref<VecX> z) {
  bool any = false;
  for (const Joint& joint : model_.joints)
    if (joint.friction && friction_switches(*joint.friction) && v[joint.v_index] != 0.0 &&
        std::abs(v[joint.v_index]) <= options_.solver.rest_velocity)
      any = true;
  if (!any) return;
  effort_(t, q, v, tau_);
  add_force_elements(t, q, v);
  data_.friction_state = z;
  forward_dynamics_with_friction(model_, data_, q, v, tau_, options_.solver);
  for (int u = 0; u < model_.num_bodies(); ++u)
    if (data_.joint_stuck[u]) v[model_.joints[u].v_index] = 0.0;
}

// Stick–slip event search. A step that crosses v_k = 0 under the switching law is
// contaminated: its later Runge–Kutta stages already see the reversed friction, so the
// zero of v_k(s) on such trials is first-order wrong in the step (issue 16, defect 11),
// and the reversed friction can even keep v_k at the step end on the side it started
// from, so that the reversal is not seen at all and the contaminated step is accepted
// (issue 25: RK4 at 1 ms, a Coulomb–viscous pendulum stopped 7.9e-5 s late, 1e-4 rad off).
// Every chunk is therefore integrated with each moving switching joint's friction
// direction held at its sign at the chunk start (frozen_,
// FrictionSolverOptions::frozen_direction; joints at rest keep the switching law). Before
// the first stop that is exactly the true motion, and it is smooth through v_k = 0, so the
// stop shows as a sign change at the chunk end and the Illinois iteration converges to
// the stop of the actual dynamics to integration accuracy. At the located time the
// joint's v_k is set to 0 and the switching law resumes for it.
void FrictionSimulation::advance_chunk(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                       Eigen::Ref<VecX> z) {
  struct Unfreeze {  // the switching law again when the chunk ends, also by an exception
    FrictionSolverOptions& solver;
    ~Unfreeze() { solver.frozen_direction = nullptr; }
  };
  Unfreeze unfreeze{options_.solver};
  while (t < t_end) {
    q0_ = q, v0_ = v, z0_ = z;
    frozen_.setZero();
    if (options_.locate_events) {
      for (const Joint& joint : model_.joints)
        if (joint.friction && friction_switches(*joint.friction)) {
          const double velocity = v0_[joint.v_index];
          frozen_[joint.v_index] = velocity > 0.0 ? 1.0 : (velocity < 0.0 ? -1.0 : 0.0);
        }
      options_.solver.frozen_direction = &frozen_;
    }
    q1_ = q0_, v1_ = v0_, z1_ = z0_;
    integrate(t, t_end, q1_, v1_, z1_);
    int k = options_.locate_events ? first_reversal(v0_, v1_) : -1;
    if (k < 0) {  // no moving joint stops in this chunk: the held motion is the true one
      q = q1_, v = v1_, z = z1_;
      return;
    }
    // Illinois regula falsi on v_k(s), s ∈ (lo, hi]: v_k(lo) has the sign of v0_k.
    double lo = t, hi = t_end, f_lo = v0_[k], f_hi = v1_[k];
    int side = 0;
    for (int iteration = 0; iteration < options_.max_event_iterations && hi - lo > options_.event_time_tolerance;
         ++iteration) {
      double s = (f_hi != f_lo) ? hi - f_hi * (hi - lo) / (f_hi - f_lo) : 0.5 * (lo + hi);
      if (!(s > lo && s < hi)) s = 0.5 * (lo + hi);
      q1_ = q0_, v1_ = v0_, z1_ = z0_;
      integrate(t, s, q1_, v1_, z1_);
      const int earlier = first_reversal(v0_, v1_);
      if (earlier >= 0 && earlier != k) {  // another joint reverses before s: locate that one
        k = earlier, lo = t, hi = s, f_lo = v0_[k], f_hi = v1_[k], side = 0;
        continue;
      }
      const double f = v1_[k];
      if (f * v0_[k] > 0.0) {  // still before the reversal
        lo = s, f_lo = f;
        if (side == -1) f_hi *= 0.5;
        side = -1;
      } else {
        hi = s, f_hi = f;
        if (side == 1) f_lo *= 0.5;
        side = 1;
      }
    }
    // Take the held motion at hi (just past the stop, |v_k| ≤ |q̈_k| · tolerance) and stop the joint.
    q1_ = q0_, v1_ = v0_, z1_ = z0_;
    integrate(t, hi, q1_, v1_, z1_);
    v1_[k] = 0.0;
    q = q1_, v = v1_, z = z1_;
    t = hi;
    last_event_time_ = hi;
    ++events_;
  }
}

}  // namespace mechdyn
