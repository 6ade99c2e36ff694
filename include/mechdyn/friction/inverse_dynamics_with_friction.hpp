// Inverse dynamics of a tree with load-dependent joint friction.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §4.1, Algorithm 1 (lines 4–9)
// and eq. (54): per joint u, τ_d = nᵀ(M_[u] q̈ + h_[u]) + τ_f, i.e. τ_d = M a + h + τ_f.
// The constraint loads do not depend on the friction (the friction of joint u acts
// along its own free direction, and the friction of the other joints of uL is internal
// to the subtree, EC §3.2.2), so the algorithm is explicit:
//   1. reaction wrenches and M a + h by the resultant-force backward iteration (eq. 17);
//   2. constraint loads and normal loads (eqs. 39, 44, 46, 47; joint_load_decomposition.hpp);
//   3. friction efforts (eq. 42 or 52; LuGre; Brown–McPhee; friction_models.hpp);
//   4. τ_d = M a + h + τ_f (eq. 54).
// Cost O(n + nv), the cost of the reactions; no mass matrix is formed. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// How LuGre joints are evaluated in inverse dynamics.
enum class LuGreEvaluation {
  State,        // from the bristle deflection z in data.friction_state (a simulation)
  SteadyState,  // at the steady state ż = 0 (the Stribeck curve); for one state without history
};

/// Writes data.tau (M a + h), the reactions, the load decomposition, data.friction_effort
/// and data.tau_with_friction (returned). With LuGreEvaluation::State also
/// data.friction_state_rate (ż of the LuGre joints). Runs joint_reactions(q, v, a) (the
/// kinematics stage included), then friction_from_reactions. Reads data.friction_state.
const VecX& inverse_dynamics_with_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                           const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a,
                                           LuGreEvaluation lugre = LuGreEvaluation::State);

/// Steps 2–4 on the reactions already in Data (joint_reactions or
/// joint_reactions_from_kinematics at the same q, v, a): reads data.reaction_force,
/// data.reaction_torque, data.motion_axis, data.tau, data.friction_state; writes the
/// load decomposition, data.friction_effort, data.friction_state_rate (State),
/// data.tau_with_friction (returned).
const VecX& friction_from_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& v,
                                    const Eigen::Ref<const VecX>& a, LuGreEvaluation lugre = LuGreEvaluation::State);

/// True when any joint of the model has friction.
bool has_joint_friction(const Model& model);

}  // namespace mechdyn
