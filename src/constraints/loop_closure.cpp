// Closure equations of cut joints (EC §2.3, eq. 24): Φ(q) and J(q). See the header.
//
// The rows are the table of constraints/loop_rows.hpp; J's row r is read off the row's
// unit wrenches: J(r, k) = s_kᵀ W_a,r for the coordinates k on the chain ground → a,
// plus s_kᵀ W_b,r on the chain ground → b (EC eq. 24: the relative velocity of the cut
// seen from both chains).
#include "mechdyn/constraints/loop_closure.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "../model/cut_joint_dispatch.hpp"
#include "loop_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// J(row, k) += s_kᵀ W for every coordinate k on the chain ground → body.
void add_chain(const Model& model, const Data& data, int body, const Vec6& wrench, MatX& jacobian, int row) {
  for (int b = body; b != kGround; b = model.bodies[b].parent) {
    const Joint& joint = model.joints[b];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) jacobian(row, k) += data.motion_axis[k].dot(wrench);
  }
}

}  // namespace

void detail::loop_jacobian_from_rows(const Model& model, Data& data) {
  data.loop_jacobian.setZero();
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int first = model.loop_row_index[i], end = first + loop_rows(loop.type);
    for (int r = first; r < end; ++r) {
      add_chain(model, data, loop.a.body, data.loop_row_wrench_a[r], data.loop_jacobian, r);
      add_chain(model, data, loop.b.body, data.loop_row_wrench_b[r], data.loop_jacobian, r);
    }
  }
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {  // g = q_b − ratio q_a − offset: J = e_bᵀ − ratio e_aᵀ
    const Coupling& coupling = model.couplings[c];
    const int row = model.coupling_row_index + static_cast<int>(c);
    visit_coupling_kind(coupling.type, [&](auto kind) {  // cut_joint_kinds/gear.hpp
      using Kind = decltype(kind);
      data.loop_jacobian(row, model.joints[static_cast<std::size_t>(coupling.b)].v_index) += Kind::coefficient_b(coupling);
      data.loop_jacobian(row, model.joints[static_cast<std::size_t>(coupling.a)].v_index) += Kind::coefficient_a(coupling);
    });
  }
}

void detail::closure_from_stage(const Model& model, Data& data) {
  evaluate_loop_rows(model, data, false);  // Φ and the unit wrenches
  loop_jacobian_from_rows(model, data);
}

void loop_closure(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "loop_closure");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
  detail::closure_from_stage(model, data);
}

void loop_closure_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "loop_closure_from_kinematics");
  check_kinematics(data, 0, "loop_closure_from_kinematics");
  detail::closure_from_stage(model, data);
}

}  // namespace mechdyn
