// The general form of the inverse-dynamics derivatives (rnea_derivatives, docs/derivatives.md
// eqs. D3–D9): column j of ∂τ/∂q and ∂τ/∂v by propagating the remainders ΔV, ΔA body by body
// over the subtree moved by q_j, for any joints there — the form rnea_derivatives takes for a
// coordinate with a spherical or free joint strictly below its body, whose world-fixed axes
// do not move rigidly with the subtree (eq. D5), so the composites of the fast form
// (rnea_derivatives.cpp, eqs. D11–D12) do not apply.
//
// Source: Carpentier & Mansard, RSS 2018, §III–IV, with mechdyn's axis carriers
// (model/joint.hpp, AxisCarrier). In world coordinates at the world origin, for the subtree of
// j's body b (s_j its twist):
//   ΔV_b = −s_j × V_λ(b) + Σ Δs_k v_k,         ΔV_i = ΔV_λ + Σ Δs_k v_k             (D3)
//   ΔA_b = −s_j × A^g_λ(b) + Σ (Δs_k a_k + Δṡ_k v_k),  ΔA_i = ΔA_λ + Σ (…)           (D4)
//   Δs_k per carrier (D5), Δṡ_k (D6); Δf_i = I_i ΔA_i + ΔV_i ×* I_i V_i + V_i ×* I_i ΔV_i (D7)
//   ∂τ_k/∂q_j = s_kᵀ ΔF_{body(k)} + Δs_kᵀ F_{body(k)}  (k in the subtree),  s_kᵀ (s_j ×* F_b + ΔF_b) above (D8)
//   ∂/∂v_j: V varies by s_j on the subtree, A by Σ ∂ṡ_k/∂v_j v_k + ṡ_j (D9).
// Cost per coordinate: O(size of the subtree + depth). Reads the kinematics stage and what
// rnea_derivatives' force pass put in `work` (I_i, I_i V_i, F_i); writes the column j of
// work.dtau_dq, work.dtau_dv (and of the reactions) and the per-body scratch. Allocates nothing.
#include "derivative_stages.hpp"

namespace mechdyn::detail {

void body_step(const Model& model, const Data& data, DerivativeData& work, int i, bool own, int j, const double* v,
               const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];  // s_j
  const int parent = model.bodies[i].parent;
  const Vec6 parent_velocity = parent == kGround ? Vec6::Zero() : data.velocity[parent];
  Vec6 parent_variation, parent_acceleration_variation, parent_acceleration_derivative;
  if (own) {  // λ(b) lies outside the moved subtree: its V, A^g do not vary
    const Vec6 parent_acceleration = (parent == kGround ? Vec6::Zero() : data.acceleration[parent]) + base_acceleration;
    parent_variation = -cross_motion(twist, parent_velocity);                    // ΔV_λ = −s_j × V_λ
    parent_acceleration_variation = -cross_motion(twist, parent_acceleration);  // ΔA_λ = −s_j × A^g_λ
    parent_acceleration_derivative.setZero();                                    // ∂A_λ/∂v_j = 0
  } else {
    parent_variation = work.velocity_variation[parent];
    parent_acceleration_variation = work.acceleration_variation[parent];
    parent_acceleration_derivative = work.acceleration_velocity_derivative[parent];
  }
  const Joint& joint = model.joints[i];
  const Vec6& velocity = data.velocity[i];
  const Vec3& origin = data.position[i];
  const Vec3 origin_shift = point_velocity(twist, origin);  // δo: how the body origin moves (eq. D5)

  Vec6 velocity_variation = parent_variation;  // eq. (D3)
  for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
    const Vec6& axis = data.motion_axis[k];
    Vec6& axis_variation = work.axis_variation[k];  // Δs_k, eq. (D5)
    switch (work.dof_carrier[k]) {
      case AxisCarrier::Parent:  // fixed in λ(i): moves rigidly unless λ(i) is outside the subtree
        axis_variation = own ? Vec6(-cross_motion(twist, axis)) : Vec6::Zero();
        break;
      case AxisCarrier::Child:  // fixed in body i, which moves rigidly
        axis_variation.setZero();
        break;
      case AxisCarrier::WorldDirection:  // [e; o × e], e fixed in the world, o moves by δo
        axis_variation << Vec3::Zero(), origin_shift.cross(Vec3(axis.head<3>()));
        axis_variation -= cross_motion(twist, axis);
        break;
      case AxisCarrier::World:  // constant
        axis_variation = -cross_motion(twist, axis);
        break;
    }
    velocity_variation += axis_variation * v[k];
  }
  work.velocity_variation[i] = velocity_variation;

  // Acceleration level: Δṡ_k (eq. D6), ∂ṡ_k/∂v_j (eq. D9), and ṡ_j of coordinate j itself.
  Vec6 acceleration_variation = parent_acceleration_variation;
  Vec6 acceleration_derivative = parent_acceleration_derivative;
  const Vec3 origin_velocity = point_velocity(velocity, origin);  // ȯ (spherical, free)
  for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
    const Vec6& axis = data.motion_axis[k];
    const Vec6& axis_variation = work.axis_variation[k];
    Vec6 rate_variation, rate_derivative, rate;  // Δṡ_k, ∂ṡ_k/∂v_j, ṡ_k
    switch (work.dof_carrier[k]) {
      case AxisCarrier::Parent:  // ṡ = V_λ × s
        rate_variation = cross_motion(parent_variation, axis) + cross_motion(parent_velocity, axis_variation);
        rate_derivative = own ? Vec6(Vec6::Zero()) : cross_motion(twist, axis);
        rate = cross_motion(parent_velocity, axis);
        break;
      case AxisCarrier::Child:  // ṡ = V_i × s
        rate_variation = cross_motion(velocity_variation, axis);
        rate_derivative = cross_motion(twist, axis);
        rate = cross_motion(velocity, axis);
        break;
      case AxisCarrier::WorldDirection: {  // ṡ = [0; ȯ × e], ȯ = V_i at o
        const Vec3 direction = axis.head<3>();
        const Vec6 velocity_change = cross_motion(twist, velocity) + velocity_variation;  // ∂V_i/∂q_j
        const Vec3 origin_velocity_change =
            point_velocity(velocity_change, origin) + velocity.head<3>().cross(origin_shift);  // ∂ȯ/∂q_j
        rate << Vec3::Zero(), origin_velocity.cross(direction);
        rate_variation << Vec3::Zero(), origin_velocity_change.cross(direction);
        rate_variation -= cross_motion(twist, rate);
        rate_derivative << Vec3::Zero(), origin_shift.cross(direction);  // ∂ȯ/∂v_j = s_j at o
        break;
      }
      case AxisCarrier::World:
      default:
        rate_variation.setZero();
        rate_derivative.setZero();
        rate.setZero();
        break;
    }
    acceleration_variation += axis_variation * a[k] + rate_variation * v[k];  // eq. (D4)
    acceleration_derivative += rate_derivative * v[k];                        // eq. (D9)
    if (k == j) acceleration_derivative += rate;
  }
  work.acceleration_variation[i] = acceleration_variation;
  work.acceleration_velocity_derivative[i] = acceleration_derivative;
}

void differentiate_coordinate(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                              const double* v, const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];  // s_j
  const SubtreeIndex::Range subtree = model.subtree[moved];
  for (const int i : subtree) {  // forward: parents before children
    body_step(model, data, work, i, i == moved, j, v, a, base_acceleration);
    const SpatialInertia& inertia = work.body_inertia[i];
    const Vec6& momentum = work.body_momentum[i];
    const Vec6& velocity = data.velocity[i];
    const Vec6& velocity_variation = work.velocity_variation[i];
    work.force_variation[i] = inertia.apply(work.acceleration_variation[i]) + cross_force(velocity_variation, momentum) +
                              cross_force(velocity, inertia.apply(velocity_variation));  // Δf_i, eq. (D7)
    work.force_velocity_derivative[i] = inertia.apply(work.acceleration_velocity_derivative[i]) +
                                        cross_force(twist, momentum) +
                                        cross_force(velocity, inertia.apply(twist));  // ∂f_i/∂v_j, eq. (D9)
  }
  for (std::size_t r = subtree.size(); r-- > 1;) {  // backward: children before parents, b last
    const int i = subtree[r];
    const int parent = model.bodies[i].parent;
    work.force_variation[parent] += work.force_variation[i];
    work.force_velocity_derivative[parent] += work.force_velocity_derivative[i];
  }
  for (const int i : subtree) {  // coordinates in the moved subtree, eq. (D8) first line
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      work.dtau_dq(k, j) =
          data.motion_axis[k].dot(work.force_variation[i]) + work.axis_variation[k].dot(work.transmitted_force[i]);
      work.dtau_dv(k, j) = data.motion_axis[k].dot(work.force_velocity_derivative[i]);
    }
  }
  if (work.with_reactions)
    for (std::size_t r = 1; r < subtree.size(); ++r) {  // eq. (D13), joints below b (b itself: columns_above)
      const int i = subtree[r];
      reaction_column(data, work, i, j, cross_force(twist, work.transmitted_force[i]) + work.force_variation[i],
                      work.force_velocity_derivative[i], point_velocity(twist, data.position[i]));
    }
  columns_above(model, data, work, moved, j,
                cross_force(twist, work.transmitted_force[moved]) + work.force_variation[moved],
                work.force_velocity_derivative[moved]);
}

}  // namespace mechdyn::detail
