// Joint reaction wrenches of a tree by the explicit resultant-force backward iteration.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §3.1–3.2, eqs. (17), (28)–(38):
// the resultant force f_{uL} and torque τ_{uL} that joint u transmits to the closed
// subtree uL are the sums over l ∈ uL of each body's inertial wrench minus gravity,
// taken about the joint's origin; the driving effort is their projection on the
// motion axes (n_uᵀ τ_{uL} or n_uᵀ f_{uL}, eq. 17), the rest is the constraint part.
// The explicit bias h(q, q̇) is this iteration at a = 0 (dynamics/explicit_bias.hpp).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Reaction wrench of every joint (parent on child; world frame; torque about the
/// child's frame origin) into data.reaction_force / data.reaction_torque, and the
/// joint efforts Sᵀ W (projection on the motion axes, = M a + h without the armature: a
/// drive's armature · a is not in its joint's reaction, force-elements.md) into data.tau.
/// Runs forward_kinematics(q, v, a), then joint_reactions_from_kinematics.
/// Allocates nothing.
void joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// The iteration alone, on the acceleration stage in Data (forward_kinematics(q, v, a) or
/// forward_kinematics_accelerations). Reads data.velocity, data.acceleration,
/// data.com_position, data.inertia_world, data.position, data.motion_axis. Writes
/// data.subtree_force, data.reaction_force, data.reaction_torque, data.tau.
void joint_reactions_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn
