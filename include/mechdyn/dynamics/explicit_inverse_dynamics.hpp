// Inverse dynamics by the explicit method (explicit-canonical-dynamics-joint-friction
// §2.2 eq. 17, §3.1–3.2): the resultant-force iteration, with every joint's reaction.
#pragma once

#include "mechdyn/model/data.hpp"

// explicit_inverse_dynamics_mass_matrix and explicit_forward_dynamics_mass_matrix exist
// (before them, explicit_inverse_dynamics was M a + h; bench/profile_driver.cpp).
#define MECHDYN_HAS_EXPLICIT_MASS_MATRIX_FORMS 1

namespace mechdyn {

/// τ by the resultant-force iteration in natural (world-parallel) frames, O(n): each
/// joint's resultant force f_{uL} and torque τ_{uL} on its closed subtree (EC eq. 17),
/// summed from the leaves to the root, projected on the joint's axes. Writes data.tau,
/// data.reaction_force and data.reaction_torque (the whole joint wrench, parent on child,
/// world components, torque about the child's frame origin: what joint_reactions gives)
/// and the data.natural_* workspace; leaves the kinematics stage and data.mass_matrix
/// untouched. No allocation.
const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// On the velocity stage in Data (forward_kinematics(q, v) or (q, v, a)): the acceleration
/// level at a, then the same iteration on the stage (joint_reactions_from_kinematics).
/// Writes data.acceleration (level 2), data.subtree_force, data.reaction_force,
/// data.reaction_torque, data.tau. O(n).
const VecX& explicit_inverse_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& a);

/// τ = M a + h (EC eq. 16), M from explicit_mass_matrix and h from explicit_bias_force:
/// the papers' M-based form, O(nv·depth). Fills data.mass_matrix and data.bias_force
/// too (and the kinematics stage at (q, v)). No allocation on a Data with MassMatrix.
const VecX& explicit_inverse_dynamics_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
