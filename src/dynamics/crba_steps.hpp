// Private to src: CRBA after the kinematics, so that an algorithm that has already run
// forward_kinematics (constrained forward dynamics: one pass for M, the closure
// Jacobian and J̇ v) does not run it again (crba.cpp; used by
// src/constraints/constrained_forward_dynamics.cpp). Not installed.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::detail {

/// crba after forward_kinematics(q) (or any overload at q): M from Data's position
/// kinematics into data.mass_matrix; writes data.composite_inertia. No checks.
const MatX& crba_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn::detail
