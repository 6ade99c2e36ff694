// Kinetic and potential energy of a tree: T = ½ Σ (m v_Iᵀ v_I + ωᵀ J ω), V = −Σ m gᵀ r_I
// (explicit-canonical-dynamics-joint-friction eq. 12).
//
// Reads: Model, q (and v). Writes: the kinematics stage (kinematics/forward_kinematics.hpp:
// poses, and velocities for the kinetic energy). Cost O(n). Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

double kinetic_energy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);
double potential_energy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The same on the kinematics stage in Data (velocity level for the kinetic energy, any
/// level for the potential one): no kinematics pass of their own (e.g. after the joint
/// reactions of an output row).
double kinetic_energy_from_kinematics(const Model& model, const Data& data);
double potential_energy_from_kinematics(const Model& model, const Data& data);

}  // namespace mechdyn
