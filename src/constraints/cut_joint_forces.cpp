// Cut-joint wrenches and closed-chain joint reactions (EC eqs. 25–26; Algorithm 1,
// lines 12–13). See the header. The per-row unit wrenches come from the one table of
// constraints/loop_rows.hpp.
#include "mechdyn/constraints/cut_joint_forces.hpp"

#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "loop_stages.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void detail::cut_wrenches_from_rows(const Model& model, Data& data) {
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int r0 = model.loop_row_index[i], rows = loop_rows(loop.type);
    Vec6 on_a = Vec6::Zero(), on_b = Vec6::Zero();
    for (int r = r0; r < r0 + rows; ++r) {  // l_cS = Σ_r λ_r W_r  (EC eqs. 25–26)
      on_a += data.loop_multiplier[r] * data.loop_row_wrench_a[r];
      on_b += data.loop_multiplier[r] * data.loop_row_wrench_b[r];
    }
    data.cut_wrench_a[i] = on_a;
    data.cut_wrench_b[i] = on_b;
    data.cut_point[i] = point_position(data, loop.a);
    data.cut_force[i] = on_a.tail<3>();
    data.cut_torque[i] = moment_about(on_a, data.cut_point[i]);
  }
}

void detail::closed_chain_reactions_from_stage(const Model& model, Data& data) {
  reactions_from_stage(model, data);  // tree: f_{uL}, τ_{uL} without the cut joints (EC eq. 17)
  const int n = model.num_bodies();
  for (int l = 0; l < n; ++l) data.cut_subtree_wrench[l] = data.external_wrench[l];  // external wrenches on l
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    if (loop.a.body != kGround) data.cut_subtree_wrench[loop.a.body] += data.cut_wrench_a[i];
    if (loop.b.body != kGround) data.cut_subtree_wrench[loop.b.body] += data.cut_wrench_b[i];
  }
  subtract_applied_wrenches(model, data);  // reaction + gravity + cut and external wrenches = inertial rate of uL
}

void cut_joint_wrenches(const Model& model, Data& data) {
  check_data(model, data, "cut_joint_wrenches");
  check_kinematics(data, 0, "cut_joint_wrenches");
  detail::evaluate_loop_rows(model, data, false);
  detail::cut_wrenches_from_rows(model, data);
}

void closed_chain_joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "closed_chain_joint_reactions");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  detail::closed_chain_reactions_from_stage(model, data);
}

void closed_chain_joint_reactions_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "closed_chain_joint_reactions_from_kinematics");
  check_kinematics(data, 2, "closed_chain_joint_reactions_from_kinematics");
  detail::closed_chain_reactions_from_stage(model, data);
}

}  // namespace mechdyn
