// Private to src/constraints: the closure equations and J̇ v after the kinematics, so
// that constrained forward dynamics runs forward_kinematics(q, v, 0) once for M, Φ, J
// and J̇ v (loop_closure.cpp, loop_acceleration.cpp; used by
// constrained_forward_dynamics.cpp). Not installed.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::detail {

/// loop_closure after forward_kinematics at q (any overload): Φ and J. No checks.
void loop_closure_from_kinematics(const Model& model, Data& data);

/// loop_bias_acceleration after forward_kinematics(q, v, 0): J̇ v from Data's velocity
/// and velocity-product acceleration kinematics. No checks.
const VecX& loop_bias_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn::detail
