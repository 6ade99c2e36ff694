// Inverse dynamics by the explicit method: tau = M(q) a + h(q, q̇)
// (explicit-canonical-dynamics-joint-friction eq. 16 / 17).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// tau = M a + h with M from explicit_mass_matrix and h from explicit_bias_force,
/// into data.tau (data.mass_matrix and data.bias_force are filled too). No allocation.
const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// On the velocity stage in Data (forward_kinematics(q, v) or (q, v, a)): M, h, then
/// τ = M a + h. Reads and writes what crba_from_kinematics and
/// explicit_bias_force_from_kinematics do, and data.tau.
const VecX& explicit_inverse_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
