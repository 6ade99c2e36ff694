// Inverse dynamics of a closed chain: passive motion, actuated efforts, cut-joint
// forces and the actuated joints' friction.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eqs. (23)–(27), and
// §4.2, eqs. (55)–(56) with Algorithm 1 (closed-chain branch, lines 11–16):
//  1. assembly: Φ(q) = 0 for the passive coordinates (constraints/assembly.hpp);
//  2. passive velocities from eq. (24):      J_p v_p = −J_a v_a;
//  3. passive accelerations (eq. 24 differentiated): J_p a_p = −J_a a_a − J̇ v;
//  4. τ_tree = M a + h of the spanning tree (RNEA), and eqs. (23), (25)–(26):
//         M a + h = S_a τ_a + Jᵀ λ,   i.e.  [S_a  Jᵀ] [τ_a; λ] = τ_tree
//     (S_a selects the actuated coordinates; τ_c = Jᵀ λ are the cut joints' forces);
//  5. cut-joint wrenches from λ and the closed chain's joint reactions, with those
//     wrenches applied as external forces (EC eqs. 39, 44, 46; constraints/cut_joint_forces.hpp);
//  6. friction of every actuated joint with friction parameters from its normal load
//     (eq. 47 in the model-format.md form) and eq. (42) or (52); driving effort
//     τ_d = τ_a + τ_f (eq. 56: friction opposes the joint velocity).
// External wrenches: data.external_wrench (per body, on the body) enters step 4 as
// −Σ_b J_bᵀ E_b and step 5 as an applied load; with force elements (format 3) also their
// joint efforts data.element_effort: call force_elements(q, v, t) on this Data first, so
// that τ_a balances M a + h − Q_f (dynamics/force_elements.hpp).
// Redundancy: with redundant closure rows or redundant actuation [S_a Jᵀ] has more columns
// than rank and (τ_a, λ) is not unique. Returned: the minimum-2-norm actuator efforts τ_a
// (over τ_a alone — not mixed with λ, whose rows have other units and depend on the
// choice of cut joints), then the minimum-norm λ among them (math/minimum_effort.hpp;
// data.effort_solver holds the internal-force dimension and basis). The passive motion (steps 2–3) must be
// determined: J_p must have full column rank (else SolverError, singular configuration),
// and the actuated motion must be compatible with the loops (else SolverError).
// Friction: friction/joint_load_decomposition.hpp (normal load) and
// friction/friction_models.hpp (friction_effort; LuGre at its steady state) of the
// friction library; passive joints are frictionless, as in EC §5.2.
// Allocates nothing after Data is built.
//
// Reads: Model, q, v, a (actuated parts), data.external_wrench, data.element_effort. Writes: q, v, a
// (completed), the kinematics stage at (q, v, a), data.tau (the efforts), data.loop_*
// (residual, jacobian, bias, multiplier, row wrenches), data.cut_* (wrenches, points,
// forces, torques), data.cut_subtree_wrench, the reactions (data.reaction_force,
// reaction_torque, subtree_force), RNEA's scratch, data.effort_solver, the constraint_*
// scratch, and with friction the load decomposition, data.friction_effort,
// data.tau_with_friction.
#pragma once

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct ClosedChainOptions {
  AssemblyOptions assembly;             // step 1
  double rank_tolerance = 1e-10;        // step 4: relative singular-value threshold of [S_a Jᵀ]
  double compatibility_tolerance = 1e-8;  // steps 2–3: relative residual allowed in J v = 0, J a = −J̇v
};

/// q, v, a (nq, nv, nv): on input the actuated coordinates/velocities/accelerations
/// (and an initial guess of the passive coordinates in q); on output the passive parts
/// are filled in. Results: data.tau (actuated efforts τ_a, zero at passive coordinates),
/// data.friction_effort (τ_f), data.loop_multiplier (λ), data.cut_force/cut_torque/
/// cut_wrench_*, data.reaction_force/reaction_torque (closed chain). Returns data.tau.
const VecX& closed_chain_inverse_dynamics(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                          Eigen::Ref<VecX> a, const ClosedChainOptions& options = {});

/// Friction efforts of the actuated joints at (v, a) from data.reaction_* (run
/// closed_chain_joint_reactions first) into data.friction_effort.
void actuated_joint_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& v,
                             const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
