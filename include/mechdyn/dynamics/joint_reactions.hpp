// Joint reaction wrenches of a tree by the explicit resultant-force backward iteration.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §3.1–3.2, eqs. (17), (28)–(38):
// the resultant force f_{uL} and torque τ_{uL} that joint u transmits to the closed
// subtree uL are the sums over l ∈ uL of each body's inertial wrench minus gravity,
// taken about the joint's origin; the driving effort is their projection on the
// motion axes (n_uᵀ τ_{uL} or n_uᵀ f_{uL}, eq. 17), the rest is the constraint part.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Reaction wrench of every joint (parent on child; world frame; torque about the
/// child's frame origin) into data.reaction_force / data.reaction_torque, and the
/// joint efforts Sᵀ (projection on the motion axes) into data.tau.
/// Runs the kinematics itself. Allocates nothing.
void joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
