// J̇ v of the closure equations (EC eq. 24 differentiated): the rows' accelerations at
// q̈ = 0 from the table of constraints/loop_rows.hpp. See the header.
#include "mechdyn/constraints/loop_acceleration.hpp"

#include "loop_steps.hpp"
#include "mechdyn/constraints/loop_rows.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn {

const VecX& loop_bias_acceleration(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const Eigen::Ref<const VecX>& v) {
  check_state(model, q, &v);
  forward_kinematics(model, data, q, v);
  return detail::loop_bias_from_kinematics(model, data);
}

const VecX& detail::loop_bias_from_kinematics(const Model& model, Data& data) {
  forward_kinematics_bias_accelerations(model, data);  // a⁰ of every body
  evaluate_loop_rows(model, data, true);
  return data.loop_bias;
}

}  // namespace mechdyn
