// J̇ v of the closure equations (EC eq. 24 differentiated): the rows' accelerations at
// q̈ = 0 from the table of constraints/loop_rows.hpp. See the header.
#include "mechdyn/constraints/loop_acceleration.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "loop_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

const VecX& detail::loop_bias_from_stage(const Model& model, Data& data) {
  bias_accelerations(model, data);        // a⁰ of every body
  evaluate_loop_rows(model, data, true);  // Φ, the unit wrenches and J̇ v
  return data.loop_bias;
}

const VecX& loop_bias_acceleration(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const Eigen::Ref<const VecX>& v) {
  check_data(model, data, "loop_bias_acceleration");
  check_state(model, q, &v);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
  return detail::loop_bias_from_stage(model, data);
}

const VecX& loop_bias_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "loop_bias_from_kinematics");
  check_kinematics(data, 1, "loop_bias_from_kinematics");
  return detail::loop_bias_from_stage(model, data);
}

}  // namespace mechdyn
