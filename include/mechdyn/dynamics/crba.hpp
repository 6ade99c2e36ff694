// Composite-rigid-body algorithm for M(q) in world coordinates.
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.2, Table 6.2.
// The explicit inertia matrix of EJ eqs. (30)–(37) evaluated by subtree aggregates is this
// same recursion (dynamics/explicit_jsim.hpp, docs/dynamics.md).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// M(q) into data.mass_matrix (both triangles): runs forward_kinematics(q), then
/// crba_from_kinematics. Allocates nothing.
const MatX& crba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The recursion alone, on the kinematics stage in Data (forward_kinematics(q) or any
/// overload). Reads data.com_position, data.inertia_world, data.motion_axis. Writes
/// data.composite_inertia (I^c_i, world origin) and data.mass_matrix.
const MatX& crba_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn
