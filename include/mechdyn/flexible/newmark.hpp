// Time integration of mechanisms with rigid and flexible bodies: Newmark-β (average
// acceleration) and HHT-α, for the constrained equations with Baumgarte stabilisation.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (60)–(64): Baumgarte's constraint
// Φ̈ + 2 ζ ω_b Φ̇ + ω_b² Φ = 0 (eq. 60 writes 2α, β²) and Newmark's update (eq. 64, whose
// printed form has a stray "+ 1" and reuses α, β of eq. 60 for Newmark's γ, β:
// docs/flexible-bodies.md "Disagreements"); Hilber, Hughes & Taylor, Earthquake Eng. Struct.
// Dyn. 5 (1977) 283–292, in the form of Negrut, Rampalli, Ottarsson & Sajdak (J. Comput.
// Nonlinear Dyn. 2, 2007) for multibody equations:
//   M(q₁) a₁ + (1 + α) F₁ − α F₀ = 0,    F = h(q, v, t) − τ − Jᵀλ        (α ∈ [−1/3, 0])
//   J(q₁) a₁ + J̇v(q₁, v₁) + 2 ζ ω_b Φ̇(q₁, v₁) + ω_b² Φ(q₁) = 0          (eq. 60 at t₁)
//   q₁ = q₀ ⊕ (Δt v₀ + Δt² ((½ − β) a₀ + β a₁)),  v₁ = v₀ + Δt ((1 − γ) a₀ + γ a₁)   (eq. 64)
//   γ = ½ − α, β = ¼ (1 − α)²;  α = 0: Newmark's average acceleration (no numerical damping),
//   α < 0: damping of the high (element-level) modes, second order accurate.
// Solved per step by Newton's method on (a₁, λ₁) with the iteration matrix
//   [M + (1 + α)(γ Δt D_e + β Δt² K_e)   −(1 + α) Jᵀ]
//   [J (1 + 2ζω_b γΔt + ω_b² βΔt²)        0        ]
// (K_e, D_e the beams' elastic stiffness and damping plus the force elements' K_f, D_f
// (flexible_force_element_tangent, at the step's first iterate): the stiff part of ∂F/∂q,
// ∂F/∂v; the rest of the Jacobian is left out — a modified Newton iteration, converging
// linearly). h contains −Q_f(q, v, t) of the force elements, evaluated exactly at every
// iterate at t₁ (servo targets, applied loads), and M the armature.
// The geometric stiffness of each beam uses the previous step's acceleration for a_0.
// Prescribed (rheonomic) motion of joint coordinates (NewmarkOptions::prescribed): the
// coordinates q_a follow q_a(t) exactly — at every step q_a, v_a and a_a are set from the
// prescription (partitioning: they leave the unknowns) and the efforts μ that make them
// follow are unknowns instead, M a + h = τ + Jᵀλ + Sᵀμ with S the selector of the
// prescribed coordinates (the Lagrange multipliers of q_a − q_a(t) = 0). All other
// coordinates, passive joints and elastic ones, stay free. With α < 0, μ is HHT's weighted
// effort ((1 + α) μ₁ − α μ₀ balances the weighted forces), exactly the effort at t₁ for α = 0.
// Cost per iteration: the kinematics, M a (M itself once per step), h, the loop closure;
// one dense LU of size nv + rows + prescribed per step. No allocation per step after the first.
#pragma once

#include <vector>

#include <Eigen/LU>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn {

struct NewmarkOptions {
  double alpha = 0.0;                 // HHT α ∈ [−1/3, 0]; 0: Newmark average acceleration
  double baumgarte_damping = 1.0;     // ζ of eq. (60)
  double baumgarte_frequency = 0.0;   // ω_b (rad/s) of eq. (60); 0: 1/(2 Δt) when stepping
  int max_iterations = 50;
  double tolerance = 1e-10;           // on the acceleration update, relative to 1 + |a|; an update that
                                      // stalls below 1000 × tolerance (round-off) is accepted too
  std::vector<int> prescribed;        // velocity indices of joint coordinates whose motion is prescribed
                                      // (revolute, prismatic, universal, cylindrical: q̇ = v); empty: none
};

/// The prescribed coordinates' motion at one time (NewmarkOptions::prescribed order).
struct PrescribedMotion {
  VecX position, velocity, acceleration;  // q_a(t), q̇_a(t), q̈_a(t)
};

/// The state of the integration at time t.
struct NewmarkState {
  double time = 0.0;
  VecX q, v, a;        // nq, nv, nv
  VecX multipliers;    // λ (num_loop_rows)
  VecX prescribed_efforts;  // μ: the efforts on the prescribed coordinates (NewmarkOptions::prescribed)
  VecX force;          // F = h − τ − Jᵀλ − Sᵀμ at this state (nv), HHT's previous-step term
  int iterations = 0;  // Newton iterations of the last step
};

/// Newmark / HHT stepping with its own workspace (sized once).
class FlexibleNewmark {
 public:
  FlexibleNewmark(const Model& model, const FlexibleSystem& system, const NewmarkOptions& options = {});

  /// Consistent accelerations and multipliers at (q, v) under the efforts τ (nv; zero on the
  /// elastic coordinates): [M −Jᵀ; J 0] [a; λ] = [τ − h; −J̇v − 2ζω_b Φ̇ − ω_b² Φ]. With
  /// prescribed coordinates, `motion` (their values at state.time) is required: it sets q_a,
  /// v_a in the state, a_a = q̈_a, and μ is solved for with λ.
  void initialize(FlexibleSystemData& data, NewmarkState& state, const Eigen::Ref<const VecX>& effort,
                  const PrescribedMotion* motion = nullptr) const;

  /// One step of size dt to state.time + dt under the efforts τ(t + dt) (and, with prescribed
  /// coordinates, their motion at t + dt, required). SolverError when Newton does not
  /// converge (reduce the step).
  void step(FlexibleSystemData& data, NewmarkState& state, double dt, const Eigen::Ref<const VecX>& effort,
            const PrescribedMotion* motion = nullptr);

  const NewmarkOptions& options() const { return options_; }

 private:
  // F = h − τ − Jᵀλ, the constraint residual and the Jacobian at (q, v) into the workspace.
  void evaluate(FlexibleSystemData& data, const VecX& q, const VecX& v, const VecX& previous_acceleration,
                const Eigen::Ref<const VecX>& effort, const VecX& multipliers, const VecX& prescribed_efforts,
                double baumgarte_frequency, bool mass_matrix, double time) const;
  void check_motion(const PrescribedMotion* motion, const char* where) const;

  const Model& model_;
  const FlexibleSystem& system_;
  NewmarkOptions options_;
  MatX elastic_stiffness_;   // K_e (nv x nv): the beams' K on their elastic blocks
  MatX elastic_damping_;     // D_e
  std::vector<int> prescribed_q_;  // configuration index of each prescribed coordinate
  // ---- workspace ----
  mutable VecX force_, constraint_;
  mutable MatX iteration_matrix_;
  mutable Eigen::PartialPivLU<MatX> factor_;
  mutable VecX rhs_, solution_, q1_, v1_, a1_, lambda1_, mu1_, displacement_;
};

}  // namespace mechdyn
