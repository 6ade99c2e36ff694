// Articulated-body algorithm for forward dynamics in world coordinates.
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §7.3, Table 7.1.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Accelerations a for efforts tau into data.ddq. Throws SolverError when a joint's
/// articulated inertia Sᵀ I^A S is singular. No allocation.
const VecX& aba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                const Eigen::Ref<const VecX>& tau);

/// Passes 2 and 3 on the velocity stage in Data (forward_kinematics(q, v)). Reads
/// data.velocity, data.motion_axis, data.joint_bias, data.com_position,
/// data.inertia_world; writes what aba does after its kinematics (data.ddq, the ABA
/// scratch, data.acceleration for q̈).
const VecX& aba_from_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& tau);

}  // namespace mechdyn
