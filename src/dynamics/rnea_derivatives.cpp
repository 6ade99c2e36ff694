// Analytical derivatives of inverse dynamics, ∂τ/∂q (tangent space) and ∂τ/∂v.
//
// Source: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
// algorithms", RSS 2018, §III–IV: differentiate the world-frame RNEA (Featherstone 2008
// §5.3, absolute coordinates) and split every variation into the part a rigid motion of
// the moved subtree explains and the rest. The equations and the derivation for mechdyn's
// axis conventions (spherical and free joints turn about WORLD-fixed directions, which
// Pinocchio's joints do not): docs/derivatives.md. In world coordinates at the world origin:
//   V_i = V_λ + Σ_k s_k v_k,  A^g_i = A^g_λ + Σ_k (s_k a_k + ṡ_k v_k),  A^g_0 = [0; −g]
//   f_i = I_i A^g_i + V_i ×* I_i V_i,  F_i = f_i + Σ_children F_c,  τ_k = s_kᵀ F_{body(k)}
// A tangent perturbation q ⊕ ε e_j moves the subtree of j's body b rigidly by the twist
// s_j, so every body quantity there varies as s_j × (motion) or s_j ×* (force) plus a
// remainder Δ (eqs. D3–D8). This file holds the columns of the fast form (eqs.
// D11–D12, the RSS 2018 composite structure), which applies when every axis strictly below
// b is carried rigidly by a body (no spherical or free joint deeper in the subtree): the
// remainder is then one pair (α, β) for the whole subtree, ΔF_k = I^c_k α + B^c_k β +
// β ×* H^c_k with subtree composites formed once, and each entry of column j is two
// 6-vector dot products with rows f_k = I^c s_k, u_k = B^c s_k − s_k ×* H^c made once per
// coordinate (u_k's linear part is 0: B^c's vector is the linear momentum H^c_f, eq. D11);
// the forces, composites and rows: derivative_forces.cpp.
// The two columns of coordinate j, ∂/∂q_j and ∂/∂v_j, are computed side by side in SSE2
// register pairs (math/vector_pairs.hpp): one packed product per row for both. For a one-axis joint carried by its parent (revolute, prismatic: every
// joint of a robot arm) α and β have a closed form (eq. D16, docs/derivatives.md):
//   β = V_λ × s_j,  α = A^g_λ × s_j + V_λ × β,  and for ∂/∂v_j:  α_v = 2 β,  β_v = s_j.
// That step: rnea_derivatives_single_axis.cpp, which also runs every column in one loop when
// all the joints are such joints or fixed (DerivativeData::every_single_axis). Other
// joints' own step and the general form (body by body, for coordinates with a spherical or
// free joint below): rnea_derivatives_general.cpp. With DerivativeData::with_reactions, also
// the joint reactions' columns (eq. D13, src/dynamics/joint_reaction_derivatives.cpp).
// Cost: O(n) for the forces and composites, then per coordinate j O(size of its subtree +
// depth): O(nv · depth) like the RSS 2018 algorithm.
// Reads: Model; the kinematics stage at (q, v, a) (data.motion_axis, velocity,
// acceleration, position, com_position, inertia_world). Writes: work.dtau_dq,
// work.dtau_dv, work.tau and the scratch of the DerivativeData (the kinematics stage only
// through rnea_derivatives, which runs it). Allocates nothing.
#include "mechdyn/dynamics/rnea_derivatives.hpp"

#include <string>

#include "../kinematics/kinematics_stage.hpp"
#include "derivative_stages.hpp"

#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void check_derivative_data(const Model& model, const DerivativeData& work, const char* function) {
  if (work.num_bodies != model.num_bodies() || work.nv != model.nv)
    throw InvalidArgument(std::string(function) + ": the DerivativeData was made for another model (" +
                          std::to_string(work.num_bodies) + " bodies, nv = " + std::to_string(work.nv) +
                          "; this model has " + std::to_string(model.num_bodies()) + " and " +
                          std::to_string(model.nv) + ")");
}

namespace {

using detail::point_velocity;

}  // namespace

namespace {

/// Column j in the fast form from the pair (α, β) of ∂/∂q_j and (α_v, s_j) of ∂/∂v_j
/// (eq. D12'): the rows of the subtree of b by dot products, b's own axes' Δs_kᵀ F_b
/// (multi-axis joints; `own_axes`), the reactions and the rows above b from ΔF_b.
inline __attribute__((always_inline)) void rigid_column(const Model& model, const Data& data, DerivativeData& work,
                                                        int moved, int j, const Vec6& alpha_q, const Vec6& beta_q,
                                                        const Vec6& alpha_v, bool own_axes) {
  const Vec6& twist = data.motion_axis[j];
  const detail::SpatialPair first = detail::spatial_pair(alpha_q, alpha_v), second = detail::spatial_pair(beta_q, twist);
  const auto row = [&](int k) {  // eq. (D12'), both columns in one pass over the rows
    const Eigen::RowVector2d entries =
        detail::rows_times(work.composite_axis_rows[static_cast<std::size_t>(k)], first, second.angular);
    work.dtau_dq(k, j) = entries[0];
    work.dtau_dv(k, j) = entries[1];
  };
  const SubtreeIndex::Range subtree = model.subtree[moved];
  const int end = work.subtree_dof_end[static_cast<std::size_t>(moved)];
  if (end >= 0) {  // the subtree's coordinates are one range (depth-first numbering: every chain)
    for (int k = model.joints[moved].v_index; k < end; ++k) row(k);
  } else {
    for (const int i : subtree) {
      const Joint& joint = model.joints[i];
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) row(k);
    }
  }
  if (own_axes) {
    const Joint& joint = model.joints[moved];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)  // b's own axes: + Δs_kᵀ F_b (eq. D8)
      work.dtau_dq(k, j) += work.axis_variation[k].dot(work.transmitted_force[moved]);
  }
  if (work.with_reactions) {  // eq. (D13) with the composites of each joint below b
    for (std::size_t r = 1; r < subtree.size(); ++r) {
      const int i = subtree[r];
      detail::reaction_column(
          data, work, i, j, cross_force(twist, work.transmitted_force[i]) + detail::composite_variation(work, i, alpha_q, beta_q),
          detail::composite_variation(work, i, alpha_v, twist), point_velocity(twist, data.position[i]));
    }
  } else if (model.bodies[moved].parent == kGround) {
    return;  // no rows above a root
  }
  detail::columns_above(model, data, work, moved, j,
                        cross_force(twist, work.transmitted_force[moved]) +
                            detail::composite_variation(work, moved, alpha_q, beta_q),
                        detail::composite_variation(work, moved, alpha_v, twist));
}

/// Fast form for any other joint whose subtree carries its axes rigidly: ΔV_b, ΔA_b and
/// ∂A_b/∂v_j from the general body step (eqs. D3–D6, D9), then β = ΔV_b, α = ΔA_b − ΔV_b × V_b,
/// α_v = ∂A_b/∂v_j − s_j × V_b (eq. D12).
void differentiate_coordinate_rigid(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                                    const double* v, const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];
  detail::body_step(model, data, work, moved, true, j, v, a, base_acceleration);
  const Vec6& velocity = data.velocity[moved];
  const Vec6& beta_q = work.velocity_variation[moved];
  const Vec6 alpha_q = work.acceleration_variation[moved] - cross_motion(beta_q, velocity);
  const Vec6 alpha_v = work.acceleration_velocity_derivative[moved] - cross_motion(twist, velocity);
  rigid_column(model, data, work, moved, j, alpha_q, beta_q, alpha_v, true);
}

/// ∂τ/∂q, ∂τ/∂v on the stage, the inputs checked by the caller.
void differentiate(const Model& model, const Data& data, DerivativeData& work, const double* v, const double* a) {
  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // A^g_0 = [0; −g]
  detail::forces_and_composites(model, data, work, base_acceleration);
  detail::derivative_columns(model, data, work, v, a, base_acceleration);
}

}  // namespace

void detail::derivative_columns(const Model& model, const Data& data, DerivativeData& work, const double* v,
                                const double* a, const Vec6& base_acceleration) {
  if (!work.single_path) {  // entries of coordinates neither above nor below j stay 0
    work.dtau_dq.setZero();
    work.dtau_dv.setZero();
  }
  if (work.with_reactions) {
    work.dreaction_dq.setZero();  // joints neither above nor below j stay 0
    work.dreaction_dv.setZero();
  }
  if (work.every_single_axis) {
    detail::differentiate_every_single_axis(model, data, work, base_acceleration);
    return;
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Joint& joint = model.joints[b];
    if (joint.nv == 0) continue;
    if (!work.rigid_below[static_cast<std::size_t>(b)]) {
      for (int j = joint.v_index; j < joint.v_index + joint.nv; ++j)
        detail::differentiate_coordinate(model, data, work, b, j, v, a, base_acceleration);
    } else if (joint.nv == 1 && work.dof_carrier[static_cast<std::size_t>(joint.v_index)] == AxisCarrier::Parent) {
      detail::differentiate_single_axis(model, data, work, b, joint.v_index, base_acceleration);
    } else {
      for (int j = joint.v_index; j < joint.v_index + joint.nv; ++j)
        differentiate_coordinate_rigid(model, data, work, b, j, v, a, base_acceleration);
    }
  }
}

void detail::columns_above(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                           const Vec6& force_change, const Vec6& force_derivative) {
  columns_above(model, data, work, moved, j, spatial_pair(force_change, force_derivative));
}

void detail::columns_above(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                           const SpatialPair& force_variations) {
  if (work.with_reactions) {  // b and the joints above it: ∂F_u = ∂F_b; o_b moves with s_j, o_u above does not (D13)
    const Vec6 force_change = lane(force_variations, 0), force_derivative = lane(force_variations, 1);
    reaction_column(data, work, moved, j, force_change, force_derivative,
                    point_velocity(data.motion_axis[j], data.position[moved]));
    for (int u = model.bodies[moved].parent; u != kGround; u = model.bodies[u].parent)
      reaction_column(data, work, u, j, force_change, force_derivative, Vec3::Zero());
  }
  // every coordinate above b: the expanded parent array from b's first coordinate
  for (int k = model.dof_parent[static_cast<std::size_t>(model.joints[moved].v_index)]; k != -1;
       k = model.dof_parent[static_cast<std::size_t>(k)]) {
    const Eigen::RowVector2d entries = axis_times(work.composite_axis_rows[static_cast<std::size_t>(k)], force_variations);
    work.dtau_dq(k, j) = entries[0];
    work.dtau_dv(k, j) = entries[1];
  }
}

void rnea_derivatives_from_kinematics(const Model& model, const Data& data, DerivativeData& work,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "rnea_derivatives_from_kinematics");
  check_derivative_data(model, work, "rnea_derivatives_from_kinematics");
  check_kinematics(data, 2, "rnea_derivatives_from_kinematics");
  check_vector(v, model.nv, "v");
  check_vector(a, model.nv, "a");
  differentiate(model, data, work, v.data(), a.data());
  if (model.has_armature) work.tau += model.armature.cwiseProduct(a);  // the drives' armature a (no q, v derivative)
}

void rnea_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "rnea_derivatives");
  check_derivative_data(model, work, "rnea_derivatives");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  differentiate(model, data, work, v.data(), a.data());  // the inputs checked once, here
  if (model.has_armature) work.tau += model.armature.cwiseProduct(a);  // the drives' armature a (no q, v derivative)
}

}  // namespace mechdyn
