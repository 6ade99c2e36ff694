// Private to src: the kinematics stage without its input checks, for the public
// functions that have checked their inputs already (each checks under its own name,
// model/checks.hpp). The stage itself: kinematics/forward_kinematics.hpp. Not installed.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// forward_kinematics(q), (q, v), (q, v, a) with v, a = nullptr for the lower levels.
void kinematics_stage(const Model& model, Data& data, const double* q, const double* v, const double* a);

/// forward_kinematics_accelerations without its checks (sets the level to 2).
void stage_accelerations(const Model& model, Data& data, const double* a);

/// forward_kinematics_bias_accelerations without its checks.
void bias_accelerations(const Model& model, Data& data);

}  // namespace mechdyn::detail
