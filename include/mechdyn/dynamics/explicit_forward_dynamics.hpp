// Forward dynamics by the explicit method: M(q) q̈ = τ − h(q, q̇) (EC eq. 16), by the M
// route on shallow trees and the articulated-body recursion on deep ones
// (src/dynamics/explicit_forward_dynamics.cpp states the rule).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Accelerations into data.ddq. With nv ≤ 8: M, h and the branch-sparse LTDL (what
/// explicit_forward_dynamics_mass_matrix writes); above: the articulated-body recursion
/// on the same kinematics stage (what aba writes), O(n), no M.
/// Throws SolverError when M (or an articulated inertia) is singular. No allocation on a
/// Data with the dense workspace (the ABA route needs none).
const VecX& explicit_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau);

/// On the velocity stage in Data: the same two routes (the stage is read, not redone).
const VecX& explicit_forward_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& tau);

/// Whether explicit_forward_dynamics takes the M route for this model (nv ≤ 8).
bool explicit_forward_dynamics_uses_mass_matrix(const Model& model, Data& data);

/// The M route always: M (explicit_mass_matrix), h (explicit_bias_force), LTDL, q̈ —
/// the papers' explicit model; O(Σ_k d_k²), O(n³) on a chain. Writes data.mass_matrix,
/// data.mass_matrix_factor, data.bias_force, data.ddq and the kinematics stage.
const VecX& explicit_forward_dynamics_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau);

}  // namespace mechdyn
