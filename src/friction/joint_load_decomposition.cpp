// Joint load decomposition and equivalent normal load (EC §3.1–3.3, eqs. 36–39, 43–47
// in the form of model-format.md). See friction/joint_load_decomposition.hpp.
//
// Reads: data.reaction_force, data.reaction_torque, data.motion_axis. Writes:
// data.constraint_torque, data.constraint_force, data.axial_load, data.normal_load.
// Cost O(n). Allocates nothing.
#include "mechdyn/friction/joint_load_decomposition.hpp"

#include <cmath>
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

double joint_normal_load(const Joint& joint, double constraint_torque, double constraint_force, double axial_load) {
  if (!joint.friction || !joint.friction->load) return 1.0;
  const FrictionLoad& arms = *joint.friction->load;
  if (joint.type == JointType::Revolute)  // τ_n = R_p (f_r + τ_r / R_b) + R_n f_m
    return arms.pin_radius * (constraint_force + constraint_torque / arms.bending_arm) + arms.friction_arm * axial_load;
  // prismatic: f_n = f_p + τ_p / R_b + τ_m / R_n
  return constraint_force + constraint_torque / arms.bending_arm + axial_load / arms.friction_arm;
}

void joint_load_decomposition(const Model& model, Data& data) {
  check_data(model, data, "joint_load_decomposition");
  for (int u = 0; u < model.num_bodies(); ++u) {
    const Joint& joint = model.joints[u];
    const ReactionSplit split = joint_reaction_split(joint, data.motion_axis.data() + joint.v_index,
                                                     data.reaction_force[u], data.reaction_torque[u]);
    data.constraint_torque[u] = split.constraint_torque;
    data.constraint_force[u] = split.constraint_force;
    data.axial_load[u] = split.axial_load;
    data.normal_load[u] = (joint.friction && joint.friction->load)
                              ? joint_normal_load(joint, split.constraint_torque, split.constraint_force,
                                                  split.axial_load)
                              : 0.0;
  }
}

}  // namespace mechdyn
