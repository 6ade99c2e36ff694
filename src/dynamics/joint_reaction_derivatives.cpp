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
// Cost: O(1) per (coordinate, joint) pair on top of rnea_derivatives: O(nv · n) writes
// (the 6n × nv result itself). Reads and writes: what rnea_derivatives does, and
// work.dreaction_dq, work.dreaction_dv. Allocates nothing.
#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "derivative_stages.hpp"
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

void joint_reaction_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "joint_reaction_derivatives");
  check_derivative_data(model, work, "joint_reaction_derivatives");
  if (!work.with_reactions)
    throw InvalidArgument(
        "joint_reaction_derivatives: the DerivativeData was made without reactions (DerivativeData(model, true))");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  rnea_derivatives_from_kinematics(model, data, work, v, a);  // fills the reaction columns too (with_reactions)
}

}  // namespace mechdyn
