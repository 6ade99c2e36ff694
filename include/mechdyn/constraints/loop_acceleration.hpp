// Acceleration-level closure term J̇ v of the cut joints.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eq. (24) differentiated
// once more in time: Φ̈ = J q̈ + J̇ q̇ = 0. J̇ v is the closure acceleration at a = 0,
// i.e. the relative acceleration of the cut points (and cut directions) when every
// joint acceleration is zero. It is computed exactly from the velocity-product
// accelerations at q̈ = 0 (data.bias_acceleration), no finite differences:
//   point p on body k:      v_p = v_O + ω × p,  a_p = a_O + α × p + ω × v_p
//   direction d on body k:  ḋ = ω × d,          d̈ = α × d + ω × (ω × d)
//   product row x · y:      d²/dt² = ẍ · y + 2 ẋ · ẏ + x · ÿ
// applied to every row type of constraints/loop_closure.hpp (position p_a − p_b;
// t_b · n_a; t_a · δ; (Q_a n1) · (Q_b n2); e = ½ Σ a_i × b_i).
// Cost O(n + rows).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// J̇(q, v) v into data.loop_bias (model.num_loop_rows); runs forward_kinematics(q, v),
/// then loop_bias_from_kinematics. Allocates nothing.
const VecX& loop_bias_acceleration(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const Eigen::Ref<const VecX>& v);

/// On the velocity stage in Data (forward_kinematics(q, v) or (q, v, a)). Reads
/// data.rotation, data.position, data.velocity, data.joint_bias. Writes
/// data.bias_acceleration (a⁰), data.loop_bias, and the rows' residuals and unit wrenches.
const VecX& loop_bias_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn
