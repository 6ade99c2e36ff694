// Static equilibrium of a rigid mechanism (tree or closed chain, with force elements,
// couplings and armature) under gravity, the elements at time t and constant efforts, with
// the actuated joints held or free (`mechdyn static`; contract ../shared/spec/linearisation.md,
// output form of flexible-bodies.md; docs/linearisation.md).
//
// Unknowns: the free independent coordinates q_F (analysis/reduced_dynamics.hpp; the held
// joints L are neither free nor dependent; the dependent ones follow by assembly). The
// residual is the reduced effort balance at rest
//   r(q_F) = [τ_I(q, 0, 0) − Gᵀ τ]_F = [Gᵀ (g(q) − Q_f(q, 0, t) − τ)]_F = 0,
// solved by Newton's method with the tangent K_FF = ∂r/∂q_F (the reduced stiffness,
// including the closure's curvature term), the step limited to 0.5 rad (or m) per
// coordinate and halved while ‖r‖∞ does not decrease (at most 10 halvings). When the
// tangent is singular (a horizontal link under gravity: zero stiffness) or no halving
// helps, the shifted step (K + μ M) δ = −r is tried with μ = 1e-6 … 1e7 × ‖K‖/‖M‖: towards
// the mass-weighted steepest descent of the potential (Levenberg–Marquardt's idea, Nocedal
// & Wright, "Numerical Optimization", 2nd ed., §10.3); when no step lowers ‖r‖∞ enough
// (a plateau: a saturated servo exerts a constant effort), the iteration turns into
// pseudo-transient continuation, (K + μ M) δ = −r with μ = 1/Δt² following the residual
// (Kelley & Keyes 1998), every step taken: along the acceleration from rest on the plateau,
// Newton's step near the equilibrium. Converged when ‖r‖∞ ≤ tolerance · (1 + ‖Gᵀ g‖∞ at the start).
// Stable when the symmetric part of K_FF at the equilibrium is positive definite (its
// smallest eigenvalue above 1e-9 of its largest magnitude); a mechanism with no free
// coordinate is stable. No convergence: SolverError (exit status 3 from the CLI).
// Models with flexible bodies go to flexible/equilibrium.hpp (null-space elimination,
// differenced stiffness; docs/flexible-bodies.md) with the same meaning of the options
// (`independent` refused; no marker shapes). These are analyses: they allocate.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "mechdyn/analysis/reduced_dynamics.hpp"

namespace mechdyn {

struct EquilibriumOptions {
  double time = 0.0;                     // time-dependent force elements at this t
  VecX tau;                              // constant efforts (nv; empty: zero)
  bool lock_actuated = true;             // hold the actuated joints at their start values
  std::vector<std::string> independent;  // free independent joints of a closed chain (empty: chosen)
  double tolerance = 1e-10;
  int max_iterations = 100;
  FrictionTreatment friction = FrictionTreatment::Refuse;  // joint friction (reduced_dynamics.hpp)
  AssemblyOptions assembly;
};

struct MechanismEquilibrium {
  VecX q;                          // the equilibrium (nq; loops closed)
  std::vector<Vec3> markers;       // every marker's world position there
  bool stable = false;             // K_FF positive definite
  VecX stiffness_eigenvalues;      // of the symmetric part of K_FF, ascending
  std::vector<int> free_joints;    // F (model order)
  std::vector<int> locked_joints;  // L (model order)
  VecX held_efforts;               // nv: the efforts the held coordinates need (0 elsewhere)
  int iterations = 0;
};

/// The equilibrium reached by the damped Newton iteration from q_start (assembled first).
MechanismEquilibrium mechanism_equilibrium(const Model& model, const Eigen::Ref<const VecX>& q_start,
                                           const EquilibriumOptions& options = {});

struct DampedMode {
  double frequency = 0.0;       // |Im λ| / 2π (Hz)
  double damping_ratio = 0.0;   // −Re λ / |λ|
};

struct ModesOptions {
  EquilibriumOptions equilibrium;  // where and how (locking, efforts, time)
  bool at_state = false;           // about (q_start, v) as given instead of the equilibrium
  VecX v;                          // with at_state (nv; empty: zero)
  double threshold = 1e-6;         // Hz: below it a mode is a zero mode
};

struct MechanismModes {
  std::vector<double> frequencies;  // undamped natural frequencies (Hz), ascending, nonzero
  int zero_modes = 0;               // |f| < threshold: mechanism motions (a free body, an unloaded joint)
  int unstable_modes = 0;           // negative stiffness beyond the threshold
  double threshold = 1e-6;
  std::vector<std::string> locked;  // names of the held joints
  bool damped_model = false;        // damping (dampers, servo k_d, gyroscopic terms at v ≠ 0)
  std::vector<DampedMode> damped;   // one per oscillatory pair, ascending by frequency
  std::vector<std::complex<double>> eigenvalues;  // of the reduced first-order model (1/s)
  MatX shapes;                      // nv × frequencies: the mode shapes in every joint coordinate (G z,
                                    // zᵀ M_F z = 1), in the order of `frequencies`
  std::vector<std::vector<Vec3>> marker_shapes;  // per mode, per marker: J_marker · shape (m)
  VecX q, v;                        // where the model was linearised
  std::vector<int> free_joints;
};

/// Modes about the equilibrium that mechanism_equilibrium finds from q_start (or about the
/// given state with at_state): K_FF z = ω² M_FF z (symmetric parts; Eigen's generalized
/// self-adjoint solver, eigenvalues refined as Rayleigh quotients), and with damping the
/// eigenvalues of [[A_qq, 1], [−M⁻¹K, −M⁻¹C]] on F (Eigen's EigenSolver).
MechanismModes mechanism_modes(const Model& model, const Eigen::Ref<const VecX>& q_start,
                               const ModesOptions& options = {});

}  // namespace mechdyn
