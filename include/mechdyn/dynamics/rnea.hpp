// Recursive Newton–Euler inverse dynamics in body coordinates (natural frames).
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §5.3, Table 5.1.
//
// Reads: Model, q, v, a. Writes: data.joint_rotation, data.joint_translation,
// data.local_motion_axis, data.local_velocity, data.local_acceleration (with −g),
// data.body_force (f_i, body coordinates), data.tau; data.rnea_world_rotation only for
// bodies on a spherical/free path (model.needs_world_rotation). The kinematics stage is
// not touched. Cost O(n). Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// tau = M a + h into data.tau (data.body_force holds the joint forces f_i in body
/// coordinates; the world kinematics block of Data is not filled). No allocation.
const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
