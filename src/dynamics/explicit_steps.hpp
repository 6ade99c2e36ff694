// Private to src/dynamics: the explicit algorithms' steps after the kinematics, so
// that inverse and forward dynamics run the kinematics once (explicit_jsim.cpp,
// explicit_bias.cpp; used by explicit_inverse_dynamics.cpp and
// explicit_forward_dynamics.cpp). Not installed.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::detail {

/// explicit_mass_matrix after forward_kinematics(q): M from data's position kinematics.
void explicit_mass_matrix_from_kinematics(const Model& model, Data& data);

/// explicit_bias_force after forward_kinematics(q, v): h and g from data's velocity kinematics.
void explicit_bias_force_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn::detail
