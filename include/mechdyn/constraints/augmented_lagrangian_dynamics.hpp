// Forward dynamics of a closed chain by the augmented-Lagrangian iteration: robust through
// redundant rows and singular configurations, O(nv) per evaluation for mechanisms of many
// local loops.
//
// Source: Bayo, García de Jalón & Serna, "A modified Lagrangian formulation for the
// dynamic analysis of constrained mechanical systems", Comput. Methods Appl. Mech. Eng. 71
// (1988) 183–195; García de Jalón & Bayo, "Kinematic and Dynamic Simulation of Multibody
// Systems" (1994), §5.3. With the closure rows of EC §2.3, eq. (24) (J ä-level:
// J a + J̇ v = 0) and the constrained equations of motion EC eqs. (23)–(26)
// (M a + h = τ + Jᵀ λ, here written M a + Jᵀ λ* = Q with Q = τ − h and λ* = −λ):
//   (M + α JᵀJ) a₀     = Q − α Jᵀ c
//   (M + α JᵀJ) a_{i+1} = M a_i − α Jᵀ c,        c = J̇ v + 2ξ J v + ω² Φ (Baumgarte)
//   λ*_{i+1} = λ*_i + α (J a_{i+1} + c)
// The matrix T = M + α JᵀJ stays positive definite when J loses rank, so the iteration
// converges to the accelerations of least constraint violation at a singular
// configuration instead of a pseudo-inverse's discontinuous rank decision
// (constrained_forward_dynamics.hpp). α is set from the model, α = p · max M_ii /
// max (JᵀJ)_kk with p = penalty_ratio (default 1e6: the constraint stiffness six orders
// above the inertia; each iteration shrinks the constraint error ~p times, and round-off
// grows as ε·p, so 1e8 already costs digits); the iteration stops when
// ‖a_{i+1} − a_i‖∞ ≤ tolerance · (1 + ‖a‖∞), or when the change stops shrinking (the
// round-off floor, or a direction J has lost at a singular configuration).
// T is factorised sparse (sparse_closure.hpp). Cost per evaluation: one RNEA, one sparse
// CRBA, one factorisation, 2–4 sparse solves: O(nv) for local loops.
// Writes data.ddq (a), data.loop_multiplier (λ, mechdyn's sign: M a + h = τ + Jᵀ λ),
// data.loop_residual (Φ), data.loop_bias (J̇ v), the unit wrenches, the cut-joint
// wrenches (cut_joint_forces.hpp), the kinematics at (q, v, 0) and data.tau (h). Not
// written: the dense data.loop_jacobian / data.mass_matrix. Allocates nothing after
// construction.
#pragma once

#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/sparse_closure.hpp"

namespace mechdyn {

struct AugmentedLagrangianOptions {
  double penalty_ratio = 1e8;    // p: α max (JᵀJ)_kk = p · max M_ii
  double baumgarte_alpha = 0.0;  // ξ (1/s), as ConstrainedDynamicsOptions
  double baumgarte_beta = 0.0;   // ω (1/s)
  double tolerance = 1e-11;      // on ‖a_{i+1} − a_i‖∞ / (1 + ‖a‖∞)
  int max_iterations = 50;
};

class AugmentedLagrangianDynamics {
 public:
  explicit AugmentedLagrangianDynamics(const Model& model);

  /// Accelerations (into data.ddq) and multipliers under efforts tau (nv). Throws
  /// SolverError when M + α JᵀJ is not positive definite or the state is not finite.
  const VecX& evaluate(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                       const AugmentedLagrangianOptions& options = {});

  int iterations() const { return iterations_; }      // of the last evaluate
  double penalty() const { return penalty_; }          // α of the last evaluate
  SparseClosureSystem& system() { return system_; }    // J, M, T at the last state
  const SparseClosureSystem& system() const { return system_; }

 private:
  SparseClosureSystem system_;
  VecX rhs_, previous_, constraint_, multiplier_;
  int iterations_ = 0;
  double penalty_ = 0.0;
};

}  // namespace mechdyn
