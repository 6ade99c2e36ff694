// Forward dynamics by the explicit method: M(q) a = tau − h(q, q̇), solved with the
// branch-sparse factorisation (dynamics/sparse_cholesky.hpp).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Accelerations into data.ddq. Throws SolverError when M is singular. No allocation.
const VecX& explicit_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau);

/// On the velocity stage in Data: M, h, the LTDL factor, then q̈. Reads and writes what
/// crba_from_kinematics and explicit_bias_force_from_kinematics do, and
/// data.mass_matrix_factor, data.ddq.
const VecX& explicit_forward_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& tau);

}  // namespace mechdyn
