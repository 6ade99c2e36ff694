// Time integration of a tree's state x = (q, v).
//
// The state derivative is ẋ = (q̇, v̇): q̇ from the joint model's configuration rate
// (model/joint.hpp joint_configuration_rate; quaternion rates need the parent's world
// rotation, which ConfigurationRate keeps in its own workspace), v̇ = a(t, q, v) from
// a user callback (forward dynamics under efforts, or prescribed accelerations).
//
// Integrators:
//   Rk4Integrator            classic fixed-step Runge–Kutta of order 4
//                            (Hairer, Nørsett, Wanner, "Solving ODEs I", §II.1, Table 1.2).
//   DormandPrinceIntegrator  adaptive explicit Runge–Kutta 5(4) of Dormand & Prince
//                            (J. Comp. Appl. Math. 6 (1980) 19–26; Hairer I §II.5, Table 5.2),
//                            local extrapolation (the 5th-order solution is kept), error
//                            norm and step-size control of Hairer I §II.4, eqs. (4.11)–(4.13).
//                            `advance` reaches the requested end time exactly.
// After every accepted step the quaternions of spherical and free joints are
// renormalised, and a non-finite state is a SolverError naming the time. A stage state or
// a derivative that is not finite (a numerical blow-up) is a SolverError naming the time
// and the joint, raised before any algorithm sees it. An IntegrationBudget shared by the
// integrators of a run bounds its total number of steps (integration_budget.hpp).
// Every workspace is allocated in the constructor; stepping allocates nothing
// (as long as the callback allocates nothing).
#pragma once

#include <functional>
#include <limits>
#include <vector>

#include "mechdyn/math/types.hpp"
#include "mechdyn/model/model.hpp"
#include "mechdyn/simulation/integration_budget.hpp"

namespace mechdyn {

/// v̇ = a(t, q, v): writes the nv accelerations into `a`.
using AccelerationFunction = std::function<void(double t, const Eigen::Ref<const VecX>& q,
                                                const Eigen::Ref<const VecX>& v, Eigen::Ref<VecX> a)>;

/// τ(t, q, v): writes the nv generalized (driving) efforts (friction_simulation.hpp,
/// constraints/augmented_lagrangian_trapezoidal.hpp, evaluation/simulate.hpp).
using EffortFunction = std::function<void(double t, const Eigen::Ref<const VecX>& q,
                                          const Eigen::Ref<const VecX>& v, Eigen::Ref<VecX> tau)>;

/// Extended state x = (q, v, z) with auxiliary variables z integrated with the dynamics
/// (e.g. the LuGre bristle deflections of friction/friction_simulation.hpp): writes
/// v̇ = a and ż = z_rate.
using ExtendedDerivativeFunction =
    std::function<void(double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                       const Eigen::Ref<const VecX>& z, Eigen::Ref<VecX> a, Eigen::Ref<VecX> z_rate)>;

/// q̇(q, v) of every joint. Keeps the world rotations of the bodies as workspace.
class ConfigurationRate {
 public:
  explicit ConfigurationRate(const Model& model);

  /// q̇ (size nq) for configuration q (nq) and velocities v (nv). Allocates nothing.
  void evaluate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, Eigen::Ref<VecX> q_rate);

 private:
  const Model& model_;
  std::vector<Mat3> rotation_;  // Q^i_l of every body at q (world ← body)
};

/// Renormalises every quaternion of q in place. Throws SolverError naming the joint
/// when a quaternion has collapsed to zero (or is not finite).
void normalize_configuration(const Model& model, Eigen::Ref<VecX> q);

/// Throws SolverError naming the time and the first non-finite coordinate of (q, v).
void check_finite_state(const Model& model, double t, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v);

/// Evaluates ẋ = (q̇, a(t, q, v)) for the stacked state x = (q, v), or (q̇, a, ż) for
/// x = (q, v, z) with auxiliary variables. Shared by the integrators.
class StateDerivative {
 public:
  StateDerivative(const Model& model, AccelerationFunction acceleration);
  StateDerivative(const Model& model, ExtendedDerivativeFunction derivative, int auxiliary_size);
  int auxiliary_size() const { return auxiliary_size_; }
  void evaluate(double t, const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> x_rate);
  int evaluations() const { return evaluations_; }
  const Model& model() const { return model_; }

 private:
  const Model& model_;
  AccelerationFunction acceleration_;
  ExtendedDerivativeFunction extended_;
  int auxiliary_size_ = 0;
  ConfigurationRate configuration_rate_;
  int evaluations_ = 0;
};

/// Fixed-step classic RK4.
class Rk4Integrator {
 public:
  Rk4Integrator(const Model& model, AccelerationFunction acceleration);
  Rk4Integrator(const Model& model, ExtendedDerivativeFunction derivative, int auxiliary_size);

  /// Advances (q, v) from t by one step h: x ← x + h/6 (k1 + 2 k2 + 2 k3 + k4).
  void step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);
  /// The same for the extended state (q, v, z) (the extended constructor).
  void step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);

  /// Advances (q, v) from t to t_end in ceil((t_end − t)/h) equal steps of at most h.
  void advance(double t, double t_end, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);

  int evaluations() const { return derivative_.evaluations(); }

  /// Every step charges `budget` (not owned; nullptr: no budget).
  void set_budget(IntegrationBudget* budget) { budget_ = budget; }

 private:
  IntegrationBudget* budget_ = nullptr;
  StateDerivative derivative_;
  VecX x_, stage_, k1_, k2_, k3_, k4_;
  VecX no_auxiliary_;  // empty z for the (q, v) interface
};

struct DormandPrinceOptions {
  double relative_tolerance = 1e-8;   // rtol
  double absolute_tolerance = 1e-10;  // atol
  double initial_step = 0.0;          // 0: chosen automatically (Hairer I §II.4 "starting step size")
  double min_step = 1e-12;            // a step the controller wants below this is a SolverError
  double max_step = std::numeric_limits<double>::infinity();
  double safety = 0.9;                // fac in h_new = h · min(facmax, max(facmin, fac · err^(−1/5)))
  double min_factor = 0.2;            // facmin
  double max_factor = 5.0;            // facmax
  long max_steps = 10000000;          // per advance call, accepted + rejected
  IntegrationBudget* budget = nullptr;  // shared by a run: every step attempt charges it (not owned)
};

/// Adaptive Dormand–Prince 5(4).
class DormandPrinceIntegrator {
 public:
  DormandPrinceIntegrator(const Model& model, AccelerationFunction acceleration,
                          const DormandPrinceOptions& options = {});
  DormandPrinceIntegrator(const Model& model, ExtendedDerivativeFunction derivative, int auxiliary_size,
                          const DormandPrinceOptions& options = {});

  /// Advances (q, v) from t to exactly t_end with adaptive steps. The step size
  /// carries over between calls. Throws SolverError on step-size underflow, too many
  /// steps, or a non-finite state.
  void advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);
  /// The same for the extended state (q, v, z) (the extended constructor).
  void advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z);

  int accepted_steps() const { return accepted_; }
  int rejected_steps() const { return rejected_; }
  int evaluations() const { return derivative_.evaluations(); }
  double step_size() const { return step_; }

 private:
  double initial_step(double t, double t_end);  // uses x_ and k1_ = f(t, x_)
  double error_norm() const;                    // eq. (4.11) on error_, x_, x_new_
  void allocate(const Model& model);

  DormandPrinceOptions options_;
  StateDerivative derivative_;
  double step_ = 0.0;  // next step size proposed by the controller
  int accepted_ = 0;
  int rejected_ = 0;
  VecX x_, x_new_, stage_, error_;
  VecX k_[7];
  VecX no_auxiliary_;  // empty z for the (q, v) interface
};

}  // namespace mechdyn
