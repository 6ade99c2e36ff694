// The closure residual ‖Φ(q)‖∞ alone, from Data's position kinematics: the rows of
// constraints/loop_closure.hpp (EC eq. 24 integrated) without the Jacobian, for callers
// that already have the poses and only check the closure (the momentum-screw method's
// closed-form positions, parallel/limb_positions.hpp). Same rows, same order, same values
// as loop_closure's data.loop_residual (tested on every cut-joint type). Cost O(loops).
// Reads Data's rotation and position; writes nothing. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// max_r |Φ_r| over every closure row at Data's kinematics (0 without loops).
double loop_residual_norm(const Model& model, const Data& data);

}  // namespace mechdyn
