// Private to src/flexible: the static residual G(q, λ) = Q(q) + J(q)ᵀ λ of a mechanism with
// flexible bodies and its finite-difference tangent, shared by static_equilibrium and
// natural_frequencies (flexible/equilibrium.hpp). Not installed.
#pragma once

#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn::detail {

/// G = Q(q) + J(q)ᵀ λ (nv) at v = 0: gravity, elastic forces (with the geometric stiffness of
/// gravity) and the cut-joint reactions; runs flexible_kinematics(q) and the loop closure
/// (data.loop_residual, loop_jacobian hold Φ(q), J(q) afterwards).
void static_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                     const VecX& multipliers, VecX& out);

/// Columns `columns` (velocity indices) of −∂G/∂q by central differences q ⊕ (±h e_j):
/// out is nv x columns.size().
void static_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                    const VecX& multipliers, const std::vector<int>& columns, double step, MatX& out);

}  // namespace mechdyn::detail
