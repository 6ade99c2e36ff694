// Forward dynamics of a tree with load-dependent joint friction, with stick–slip.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §4.1, eq. (53)
// M(q) q̈ + h(q, q̇) = τ_d − τ_f (τ_f as an effort of the sign of v, friction_models.hpp),
// solved for q̈ given τ_d. The normal loads (EC eq. 47, model-format.md) depend on the
// reactions, hence on q̈: the equation is implicit. It is solved by fixed-point
// iteration on the friction efforts (docs/friction.md):
//   q̈⁽ⁱ⁾ = M⁻¹ (τ_d − h − τ_f⁽ⁱ⁾);  N⁽ⁱ⁾ = N(reactions at q̈⁽ⁱ⁾);  τ_f⁽ⁱ⁺¹⁾ = τ_f(N⁽ⁱ⁾, v, ...),
// stopping when ‖τ_f⁽ⁱ⁺¹⁾ − τ_f⁽ⁱ⁾‖∞ ≤ tolerance · (1 + ‖τ_f‖∞) and the stick set is settled.
// The map contracts when k_c dN/dq̈ is small against M (every realistic joint); when it
// does not converge in max_iterations a SolverError names the joint and the change.
//
// Stick–slip (Coulomb–viscous and Stribeck joints; LuGre and Brown–McPhee are continuous):
// a joint with |v| ≤ rest_velocity is at rest. It sticks (q̈_k = 0, and its friction is
// whatever effort holds it, τ_f,k = τ_d,k − (M q̈ + h)_k) while that effort is within
// the static limit k_s N (k_c N for Coulomb–viscous); otherwise it slips with the
// friction of v = 0 opposing its acceleration (model-format.md). The joint with the
// largest violation is released first; a released joint whose acceleration turns against
// its slip direction sticks again. Sticking joints are removed from the solve exactly
// (rows and columns of M replaced by identity), so a stuck joint has q̈ = 0 to the last
// bit: no creep, no chatter (the velocity reversal events that bring a joint to exactly
// v = 0 are located by friction_simulation.hpp).
// Cost per iteration: reactions O(n) plus a dense Cholesky O(nv³); typically 2–6
// iterations. Allocates nothing.
//
// Force elements (format 3): call force_elements(model, data, q, v, t) on this Data first
// and pass tau = τ + data.applied_force (the actuators' plus Q_f). The reactions that set
// the normal loads then include the elements' body wrenches (data.external_wrench: each
// joint transmits its subtree's inertial load minus gravity and minus those wrenches, as
// compute_all_terms' reactions), and the stick test compares tau with M q̈ + h, the
// elements' generalized force included in tau. A Data on which force_elements never ran
// holds no element wrenches (the loads are then those of the bare tree).
// Kinematics, M and h are computed once per call; each iteration redoes only the
// acceleration level of the stage and the reactions at its q̈.
// Reads: Model, q, v, tau, data.friction_state (LuGre), with force elements
// data.external_wrench, data.applied_force, data.element_effort. Writes: the kinematics stage
// (data.acceleration at the last q̈), data.ddq, data.friction_effort,
// data.friction_state_rate, data.joint_stuck, data.tau_with_friction, data.tau, the
// reactions, the load decomposition, data.mass_matrix, data.composite_inertia,
// data.bias_force, data.gravity_force, data.bias_acceleration, data.subtree_*, and the
// friction scratch (friction_previous, friction_rhs, friction_direction,
// friction_matrix, friction_factor), with force elements data.cut_subtree_wrench.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct FrictionSolverOptions {
  double tolerance = 1e-12;    // on ‖Δτ_f‖∞ relative to 1 + ‖τ_f‖∞
  int max_iterations = 100;    // fixed-point iterations (stick-set changes included)
  double rest_velocity = 0.0;  // |v| ≤ this: a switching joint is at rest (stick candidate)
  // Event search of friction_simulation.hpp: nv entries; a switching joint whose entry is
  // ±1 slides in that direction whatever the sign of its v (friction level(|v|) · direction
  // + k_v v, never a stick candidate): the smooth continuation of its motion through v = 0,
  // so that a Runge–Kutta step across the stop does not mix the two friction branches.
  // nullptr (default) or 0 entries: the normal switching law.
  const VecX* frozen_direction = nullptr;
};

/// q̈ with friction into data.ddq (returned); also data.friction_effort, data.joint_stuck,
/// data.tau_with_friction (= τ_d), data.tau (= M q̈ + h), the reactions, the load
/// decomposition and, for LuGre joints, data.friction_state_rate from data.friction_state.
/// Throws SolverError when M is not positive definite or the iteration does not converge.
const VecX& forward_dynamics_with_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                           const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                                           const FrictionSolverOptions& options = {});

}  // namespace mechdyn
