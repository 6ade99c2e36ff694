// Articulated-body algorithm for forward dynamics in world coordinates.
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §7.3, Table 7.1.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Accelerations a for efforts tau into data.ddq. Throws SolverError when a joint's
/// articulated inertia Sᵀ I^A S is singular. No allocation.
const VecX& aba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                const Eigen::Ref<const VecX>& tau);

}  // namespace mechdyn
