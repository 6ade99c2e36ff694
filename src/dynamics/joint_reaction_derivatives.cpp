// Derivatives of the joint reaction wrenches (eval's `reactions`: the force f_u and the
// torque τ_u about the child's origin o_u that joint u transmits, EC §3.1 eq. 17) with
// respect to q (tangent space) and v — what none of the peers give.
//
// Source: docs/derivatives.md eq. (D13). The reaction of joint u is the wrench F_u that
// rnea_derivatives differentiates anyway (F_u = [n_O; f], about the world origin, eq. D2),
// referred to o_u: f_u = f, τ_u = n_O − o_u × f. So
//   ∂f_u = ∂f,   ∂τ_u = ∂n_O − ∂o_u × f − o_u × ∂f,
// with ∂F_u/∂q_j = s_j ×* F_u + ΔF_u and ∂o_u/∂q_j = s_j's velocity at o_u when u is in the
// subtree moved by q_j, ∂F_u = ∂F_b and ∂o_u = 0 when u is above it, 0 otherwise (the
// ΔF_u of the general form's backward sums or the fast form's composites, eq. D12).
// With force elements (format 3) the reaction is W_u = F_u − E_u, E_u = Σ_{l ∈ subtree u} E_l
// the elements' world wrenches on the subtree (detail::subtract_applied_wrenches), so
//   ∂f_u −= ∂E_u,f,   ∂τ_u −= ∂E_u,n − ∂o_u × E_u,f − o_u × ∂E_u,f                        (D30)
// with ∂E_u the sum of the elements' wrench columns (D26–D29, force_element_rates.hpp) over
// the element sides on bodies of the subtree.
// Cost: O(1) per (coordinate, joint) pair on top of rnea_derivatives: O(nv · n) writes
// (the 6n × nv result itself); with elements O(elements · nv · depth) more. Reads and
// writes: what rnea_derivatives does, and work.dreaction_dq, work.dreaction_dv; with
// elements what force_elements writes, data.cut_subtree_wrench (scratch) and
// work.transmitted_force (then W_u). Allocates nothing.
#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "derivative_stages.hpp"
#include "force_element_rates.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void detail::reaction_column(const Data& data, DerivativeData& work, int u, int j, const Vec6& force_change,
                             const Vec6& force_derivative, const Vec3& origin_shift) {
  const Vec3 force = work.transmitted_force[u].tail<3>();
  const Vec3& origin = data.position[u];
  const Eigen::Index row = 6 * static_cast<Eigen::Index>(u);
  work.dreaction_dq.block<3, 1>(row, j) = force_change.tail<3>();                        // ∂f_u/∂q_j
  work.dreaction_dq.block<3, 1>(row + 3, j) = force_change.head<3>() - origin_shift.cross(force) -
                                              origin.cross(Vec3(force_change.tail<3>()));  // ∂τ_u/∂q_j
  work.dreaction_dv.block<3, 1>(row, j) = force_derivative.tail<3>();
  work.dreaction_dv.block<3, 1>(row + 3, j) = force_derivative.head<3>() - origin.cross(Vec3(force_derivative.tail<3>()));
}

namespace {

// The force elements' share (D30): the reactions' derivatives minus those of E_u, and the
// transmitted wrenches minus E_u. Reads the elements as force_elements left them in data.
void subtract_element_wrenches(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& v) {
  const int n = model.num_bodies();
  // E_u = Σ_{l ∈ subtree u} E_l into data.cut_subtree_wrench (scratch).
  for (int l = 0; l < n; ++l) data.cut_subtree_wrench[l] = data.external_wrench[l];
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[l].parent;
    if (parent != kGround) data.cut_subtree_wrench[parent] += data.cut_subtree_wrench[l];
  }
  // + ∂o_u × E_u,f: the torque is taken about the moving origin o_u.
  for (int u = 0; u < n; ++u) {
    const Vec3 force = data.cut_subtree_wrench[u].tail<3>();
    if (force.isZero(0.0)) continue;
    const Eigen::Index row = 6 * static_cast<Eigen::Index>(u);
    for (int m = 0; m < model.nv; ++m)
      if (detail::moves_body(model, m, u))
        work.dreaction_dq.block<3, 1>(row + 3, m) += detail::point_axis(data, m, data.position[u]).cross(force);
  }
  // − ∂E_u: each element side's wrench column on the joints above its body.
  detail::ElementWrenchState state;
  detail::WrenchColumn column;
  const auto subtract_side = [&](int body, int m, const Vec6& w_dq, const Vec6& w_dv) {
    for (int u = body; u != kGround; u = model.bodies[u].parent) {
      const Vec3& origin = data.position[u];
      const Eigen::Index row = 6 * static_cast<Eigen::Index>(u);
      work.dreaction_dq.block<3, 1>(row, m) -= w_dq.tail<3>();
      work.dreaction_dq.block<3, 1>(row + 3, m) -= Vec3(w_dq.head<3>()) - origin.cross(Vec3(w_dq.tail<3>()));
      work.dreaction_dv.block<3, 1>(row, m) -= w_dv.tail<3>();
      work.dreaction_dv.block<3, 1>(row + 3, m) -= Vec3(w_dv.head<3>()) - origin.cross(Vec3(w_dv.tail<3>()));
    }
  };
  for (int i = 0; i < static_cast<int>(model.forces.size()); ++i) {
    if (is_joint_element(model.forces[static_cast<std::size_t>(i)].type)) continue;  // no body wrench
    detail::element_wrench_state(model, data, i, state);
    if (!state.active) continue;
    for (int m = 0; m < model.nv; ++m) {
      detail::element_wrench_column(model, data, v, state, m, column);
      subtract_side(state.body_a, m, column.a_dq, column.a_dv);
      subtract_side(state.body_b, m, column.b_dq, column.b_dv);
    }
  }
  for (int u = 0; u < n; ++u) work.transmitted_force[u] -= data.cut_subtree_wrench[u];  // W_u
}

bool has_body_wrench_elements(const Model& model) {
  for (const ForceElement& e : model.forces)
    if (!is_joint_element(e.type)) return true;
  return false;
}

}  // namespace

void joint_reaction_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  joint_reaction_derivatives(model, data, work, q, v, a, 0.0);
}

void joint_reaction_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a, double t) {
  check_data(model, data, "joint_reaction_derivatives");
  check_derivative_data(model, work, "joint_reaction_derivatives");
  if (!work.with_reactions)
    throw InvalidArgument(
        "joint_reaction_derivatives: the DerivativeData was made without reactions (DerivativeData(model, true))");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  rnea_derivatives_from_kinematics(model, data, work, v, a);  // fills the reaction columns too (with_reactions)
  if (model.has_force_elements) {  // their wrenches at (q, v, t) on the same stage, then (D30)
    force_elements_from_kinematics(model, data, q, v, t);
    if (has_body_wrench_elements(model)) subtract_element_wrenches(model, data, work, v);
  }
}

}  // namespace mechdyn
