// Inverse dynamics with joint friction: τ_d = M a + h + τ_f (EC §4.1, Algorithm 1,
// eq. 54). See friction/inverse_dynamics_with_friction.hpp.
//
// Reads: Model, data.friction_state (LuGre). Writes: the kinematics block,
// data.reaction_force/torque, data.tau, data.subtree_force, the load decomposition,
// data.friction_effort, data.friction_state_rate, data.tau_with_friction.
// Cost O(n + nv). Allocates nothing.
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"

#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/friction/friction_models.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

bool has_joint_friction(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.friction) return true;
  return false;
}

const VecX& inverse_dynamics_with_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                           const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a,
                                           LuGreEvaluation lugre) {
  check_data(model, data, "inverse_dynamics_with_friction");
  joint_reactions(model, data, q, v, a);  // Algorithm 1 line 4, eq. (17): reactions and data.tau = M a + h
  return friction_from_reactions(model, data, v, a, lugre);
}

const VecX& friction_from_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& v,
                                    const Eigen::Ref<const VecX>& a, LuGreEvaluation lugre) {
  check_data(model, data, "friction_from_reactions");
  check_vector(v, model.nv, "v");
  check_vector(a, model.nv, "a");
  joint_load_decomposition(model, data);  // lines 6–7: eqs. (39), (44), (46), (47)
  data.friction_effort.setZero();
  data.friction_state_rate.setZero();
  for (int u = 0; u < model.num_bodies(); ++u) {  // line 8: eq. (42) or (52)
    const Joint& joint = model.joints[u];
    if (!joint.friction) continue;
    const JointFriction& friction = *joint.friction;
    const int k = joint.v_index;  // revolute or prismatic: one coordinate
    const double normal = friction.load ? data.normal_load[u] : 1.0;
    if (friction.model == FrictionModel::LuGre && lugre == LuGreEvaluation::State) {
      const double z = data.friction_state[k];
      const double rate = lugre_state_rate(friction, normal, v[k], z);
      data.friction_state_rate[k] = rate;
      data.friction_effort[k] = lugre_effort(friction, normal, v[k], z, rate);
    } else {
      data.friction_effort[k] = friction_effort(friction, normal, v[k], a[k]);  // v = 0: opposes a
    }
  }
  data.tau_with_friction = data.tau + data.friction_effort;  // line 9: eq. (54)
  return data.tau_with_friction;
}

}  // namespace mechdyn
