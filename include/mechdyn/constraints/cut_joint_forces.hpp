// Cut-joint constraint wrenches from the multipliers λ, and joint reactions of a
// closed chain (the tree's reactions with the cut-joint wrenches as external forces).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eqs. (25)–(26): the
// joint-generalized external force τ_c = Jᵀ λ mimics the cut joints' constraint forces
// l_cS on the spanning tree; §4.2, Algorithm 1 lines 12–13: the joint constraint forces
// (eqs. 39, 44, 46) of a closed chain follow from the tree's with l_cS applied.
//
// Per closure row r, the unit wrench W_a,r on body a and W_b,r on body b (spatial
// forces [moment about the world origin; force], world) are those whose power equals
// the row's rate: (J v)_r = Σ_{k∈chain a} s_kᵀ W_a,r + Σ_{k∈chain b} s_kᵀ W_b,r. So the
// constraint wrench on body a is Σ_r λ_r W_a,r and on body b Σ_r λ_r W_b,r; together
// they have zero resultant (action and reaction at the cut joint).
//
// Sign convention (docs/closed-chains.md): M a + h = τ + Jᵀ λ; cut_force[i] is the force
// that body b exerts on body a through cut joint i, at the cut point p_a, world frame;
// cut_torque[i] the torque about p_a; body b receives the opposite.
// Cost O(rows + n · depth). Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// data.loop_row_wrench_a / _b at the configuration of data's kinematics (run
/// forward_kinematics or loop_closure first).
void loop_row_wrenches(const Model& model, Data& data);

/// From data.loop_multiplier: data.cut_wrench_a/_b, cut_point, cut_force, cut_torque.
/// Computes the row wrenches itself (needs data's kinematics at q).
void cut_joint_wrenches(const Model& model, Data& data);

/// Joint reactions of the closed chain: joint_reactions(q, v, a) with the cut-joint
/// wrenches of data.cut_wrench_a/_b (set them first, e.g. by cut_joint_wrenches) and
/// data.external_wrench applied as external forces. Writes data.reaction_force, data.reaction_torque (parent
/// on child, torque about the child's frame origin) and data.tau = Sᵀ (reaction
/// wrench): the effort each joint transmits about its axes (zero at ideal passive joints).
void closed_chain_joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
