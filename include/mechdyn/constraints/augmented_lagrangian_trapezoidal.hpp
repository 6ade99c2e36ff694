// Time integration of a closed chain by the index-3 augmented Lagrangian with the
// trapezoidal rule and mass-orthogonal projections of velocities and accelerations
// ("ALI3-P"): implicit, second order, stays on the physical branch through singular
// configurations, O(nv) per step for mechanisms of many local loops.
//
// Source: Bayo & Ledesma, "Augmented Lagrangian and mass-orthogonal projection methods for
// constrained multibody dynamics", Nonlinear Dynamics 9 (1996) 113–130; Cuadrado,
// Cardenal & Bayo, "Modeling and solution methods for efficient real-time simulation of
// multibody dynamics", Multibody System Dynamics 1 (1997) 259–280 (the formulation the
// IFToMM benchmark references were computed with: González et al., Multibody Syst. Dyn.
// 16 (2006) 179–190). With the closure Φ(q) = 0 of EC §2.3 (eq. 24) and the equations of
// motion M a + h = τ + Jᵀλ (EC eqs. 23–26):
//   M a + h − τ + Jᵀ (α Φ + λ*) = 0,   λ*_{i+1} = λ*_i + α Φ_{i+1}    (index-3 AL)
// Trapezoidal rule in the tangent space: q_{n+1} = q_n ⊕ Δ,
//   v_{n+1} = (2/h) Δ − v_n,   a_{n+1} = (4/h²) Δ − (4/h) v_n − a_n.
// For a spherical or free joint under a moving parent, whose velocity coordinates are the
// world components of parent-frame rates (v = R_p u), the rule is applied to u (the
// increment Δ is a parent-frame rotation vector): v = R_p u, a = R_p u̇ + ω_p × v at each
// state. Applied to the world components instead it is first order there (measured on the
// IFToMM spatial slider-crank, whose rod hangs on the 6 rad/s crank by a spherical joint:
// 4.9e-2 m slider error at h = 1 ms).
// Newton on Δ with the tangent T = M + (h²/4) α JᵀJ (the forces' stiffness and damping
// and the geometric term ∂(Jᵀλ)/∂q left out, as Cuadrado et al.), refactorised at every
// iterate (sparse_closure.hpp: O(nv); a tangent frozen over the step diverged at the
// N-four-bar's singular crossings), each iteration
//   λ* ← λ* + αΦ (from the second iteration on: the update uses Φ after a Newton step),
//   T δ = −(h²/4) [M a + h − τ + Jᵀ(αΦ + λ*)],  Δ ← Δ + δ,
// until ‖δ‖∞ ≤ tolerance. When the corrections stop contracting (near a singular
// configuration the multiplier along J's vanishing direction is undetermined) the
// multiplier update is frozen for the rest of the step: the penalty iteration converges.
// Then at q_{n+1}, with T refactorised there, the mass-orthogonal projections
// (Bayo & Ledesma 1996):
//   T v = M v*,      T a = M a* − (h²/4) α Jᵀ (J̇ v)
// of the trapezoidal v*, a* onto J v = 0 and J a + J̇ v = 0. T is positive definite even
// where J loses rank, so there is no pseudo-inverse and no rank decision: at a singular
// configuration the motion carries on along the branch its velocity points to.
// (h²/4) α = p · max M_ii / max (JᵀJ)_kk, p = penalty_ratio.
// A step whose Newton iteration does not converge is retried as two half steps (up to
// max_halvings levels); then SolverError naming the time.
// After every accepted step J Jᵀ is factorised (sparse) and the smallest pivot ratio is
// kept (last_gram_pivot_ratio): a screen for a rank drop of J, for the caller's warning.
// The integrator owns its Data; it allocates nothing after construction.
#pragma once

#include <functional>
#include <limits>
#include <vector>

#include "mechdyn/constraints/augmented_lagrangian_dynamics.hpp"
#include "mechdyn/simulation/integrators.hpp"  // EffortFunction, IntegrationBudget

namespace mechdyn {

struct AugmentedLagrangianTrapezoidalOptions {
  double penalty_ratio = 1e8;  // p: (h²/4) α max (JᵀJ)_kk = p · max M_ii
  double tolerance = 1e-10;    // Newton: ‖δ‖∞ (m, rad) of the last correction
  int max_iterations = 30;
  int max_halvings = 12;
  bool screen_singularity = true;  // factorise J Jᵀ after each step (gram pivot ratio)
  // Error control (advance): the local error of the position increment, (Δ − Δ⁰)/3 with
  // Δ⁰ the predictor, in the RMS norm scaled by atol + rtol |Δ_i|, kept ≤ 1.
  bool adaptive = false;
  double relative_tolerance = 1e-6;
  double absolute_tolerance = 1e-8;
  double max_step = std::numeric_limits<double>::infinity();
  double min_step = 1e-10;
};

class AugmentedLagrangianTrapezoidal {
 public:
  AugmentedLagrangianTrapezoidal(const Model& model, EffortFunction effort,
                                 const AugmentedLagrangianTrapezoidalOptions& options = {});

  /// Starts from a state on the constraint manifold (Φ = 0, J v = 0: assemble and project
  /// first): a₀ and λ*₀ from the augmented-Lagrangian dynamics.
  void initialize(double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);

  /// Advances (q, v) from t by h (the state given must be the one of the last call).
  /// Fixed step (options.adaptive false); a step whose Newton iteration fails is halved.
  void step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);
  /// With options.adaptive: from t to exactly t_end in steps chosen by the error control
  /// (the step carries over between calls). SolverError below min_step.
  void advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);
  int rejected_steps() const { return rejected_; }

  const VecX& acceleration() const { return a_; }    // a_{n+1}, projected
  int newton_iterations() const { return iterations_; }  // summed over all steps
  int steps() const { return steps_; }
  /// Accepted steps whose multiplier update was frozen (near-singular J; see the header).
  int frozen_multiplier_steps() const { return frozen_steps_; }
  double last_gram_pivot_ratio() const { return gram_ratio_; }
  int last_gram_small_pivots(double relative) const { return dynamics_.system().gram_small_pivots(relative); }
  void set_budget(IntegrationBudget* budget) { budget_ = budget; }

 private:
  bool try_step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v);
  void step_recursive(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, int depth);
  void to_parent_frames(Eigen::Ref<VecX> x) const;
  void to_world(Eigen::Ref<VecX> x) const;
  void trapezoidal_state(const Eigen::Ref<const VecX>& q, double h);  // velocity_, a_ from delta_ at q
  void update_scale();      // c = (h²/4) α = p · max M_ii / max (JᵀJ)_kk from the system's M, J
  void tangent_at_stage();  // Φ, J, M and T = M + c JᵀJ on the kinematics stage in data_

  struct RotatingBlock {
    int v_index;  // first of 3 velocity coordinates: world components of a parent-frame rate
    int parent;   // the moving parent body
  };
  const Model& model_;
  std::vector<RotatingBlock> rotating_blocks_;
  EffortFunction effort_;
  AugmentedLagrangianTrapezoidalOptions options_;
  Data data_;
  AugmentedLagrangianDynamics dynamics_;
  IntegrationBudget* budget_ = nullptr;
  VecX u_start_, du_start_;  // v_n, a_n with the rotating blocks in parent frames (u, u̇)
  VecX a_, lambda_, delta_, correction_, q_start_, v_start_, a_start_, lambda_start_, velocity_, force_, tau_,
      scratch_, rows_;
  double scale_ = 0.0;  // c = (h²/4) α, set at the last accepted state
  double gram_ratio_ = 1.0;
  int iterations_ = 0, steps_ = 0, frozen_steps_ = 0, stalled_ = 0, rejected_ = 0;
  VecX predictor_;            // Δ⁰ of the step (error estimate)
  double error_ = 0.0;        // scaled local error of the last trial step
  bool rejected_for_error_ = false;
  double next_step_ = 0.0;    // the controller's proposal (advance)
};

}  // namespace mechdyn
