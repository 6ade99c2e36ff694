// Joint reaction wrenches of a tree by the explicit resultant-force backward iteration.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §3.1–3.2 with §2.2 eq. (17).
// Joint u transmits to the closed subtree uL the resultant force f_{uL} and torque τ_{uL}
// that balance the subtree's inertial wrenches and gravity (EC §3.2.2, "force backward
// iteration": the efforts of the other joints of uL are internal to it):
//   f_{uL} = Σ_{l∈uL} m_l (a_{lI} − g)                                         eq. (17), f
//   τ_{uL} = Σ_{l∈uL} [ (c_l − o_u) × m_l (a_{lI} − g) + J_l α_l + ω_l × J_l ω_l ]  eq. (17), τ
// about the frame origin o_u of body u (a point on its rotation axes). The driving
// effort is their projection on the motion axes (n_uᵀ τ_{uL} or n_uᵀ f_{uL}, eq. 17;
// here s_iᵀ [τ about the world origin; f] for every velocity coordinate i of joint u);
// the remainder, orthogonal to the axis of a one-axis joint (the ñ_u² τ_{uL}, ñ_u² f_{uL}
// of EC eqs. (37)–(38)), is the constraint part.
// Per body, a_{lI} = a_O + α × c_l + ω × v_{lI} from the spatial acceleration (world
// origin, EC eqs. (8), (10)) and v_{lI} = v_O + ω × c_l. Cost O(n + nv).
//
// Reads: Model; runs forward_kinematics(q, v, a) (joint_reactions) or reads the stage
// (joint_reactions_from_kinematics). Writes: data.reaction_force, data.reaction_torque
// (parent on child, world frame, torque about the child's frame origin), data.tau,
// data.subtree_force (subtree wrenches about the world origin).
// Allocates nothing.
#include "mechdyn/dynamics/joint_reactions.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "body_wrench.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void detail::subtree_wrenches(const Model& model, Data& data, const AlignedVector<Vec6>& acceleration) {
  const int n = model.num_bodies();
  const Vec3& g = model.gravity;
  for (int l = 0; l < n; ++l) {  // each body's inertial wrench minus gravity, about the world origin
    // [c × F + J α + ω × J ω; F], F = m_l (a_{lI} − g) (body_wrench.hpp), about the origin
    data.subtree_force[l] = detail::body_wrench(model.bodies[l].mass, data.com_position[l], data.inertia_world[l],
                                                data.velocity[l], acceleration[l], g);
  }
  for (int l = n - 1; l >= 0; --l) {  // W_{uL} = W_u + Σ_{children c} W_{cL}
    const int parent = model.bodies[l].parent;
    if (parent != kGround) data.subtree_force[parent] += data.subtree_force[l];
  }
}

void detail::reactions_from_stage(const Model& model, Data& data) {
  subtree_wrenches(model, data, data.acceleration);
  for (int u = 0; u < model.num_bodies(); ++u) {
    const Vec6& wrench = data.subtree_force[u];
    data.reaction_force[u] = wrench.tail<3>();                         // f_{uL}, eq. (17)
    data.reaction_torque[u] = moment_about(wrench, data.position[u]);  // τ_{uL} about o_u, eq. (17)
    const Joint& joint = model.joints[u];
    for (int i = joint.v_index; i < joint.v_index + joint.nv; ++i)
      data.tau[i] = data.motion_axis[i].dot(wrench);  // n_uᵀ τ_{uL} or n_uᵀ f_{uL}, eq. (17)
  }
}

void detail::subtract_applied_wrenches(const Model& model, Data& data) {
  const int n = model.num_bodies();
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[l].parent;
    if (parent != kGround) data.cut_subtree_wrench[parent] += data.cut_subtree_wrench[l];
  }
  // reaction + gravity + applied wrenches = inertial rate of the subtree uL.
  for (int u = 0; u < n; ++u) {
    const Vec6 w = data.subtree_force[u] - data.cut_subtree_wrench[u];
    data.subtree_force[u] = w;
    data.reaction_force[u] = w.tail<3>();
    data.reaction_torque[u] = moment_about(w, data.position[u]);
    const Joint& joint = model.joints[u];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) data.tau[k] = data.motion_axis[k].dot(w);
  }
}

void joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "joint_reactions");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  detail::reactions_from_stage(model, data);
}

void joint_reactions_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "joint_reactions_from_kinematics");
  check_kinematics(data, 2, "joint_reactions_from_kinematics");
  detail::reactions_from_stage(model, data);
}

}  // namespace mechdyn
