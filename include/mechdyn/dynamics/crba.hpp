// Composite-rigid-body algorithm for M(q) in world coordinates.
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.2, Table 6.2.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// M(q) into data.mass_matrix (both triangles). No allocation.
const MatX& crba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

}  // namespace mechdyn
