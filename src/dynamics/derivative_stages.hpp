// Private to src/dynamics: the step of rnea_derivatives that joint_reaction_derivatives
// adds (src/dynamics/joint_reaction_derivatives.cpp). Not installed.
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// Column j of ∂(reaction force, torque)/∂q and ∂/∂v for joint u (rows 6u … 6u + 5 of
/// work.dreaction_dq, work.dreaction_dv), from the variation of the wrench u transmits,
/// `force_change` = ∂F_u/∂q_j, `force_derivative` = ∂F_u/∂v_j (world origin), and the
/// motion of u's origin, `origin_shift` = ∂o_u/∂q_j (eq. D13).
void reaction_column(const Data& data, DerivativeData& work, int u, int j, const Vec6& force_change,
                     const Vec6& force_derivative, const Vec3& origin_shift);

}  // namespace mechdyn::detail
