// Revolute joint: rotation φ about the axis-invariant n through the body frame origin
// (EC §2.1, eqs. 1 and 3). K = 0, 1, 2: n = ±e_K (JointKind::RevoluteX/Y/Z, the sign
// read from joint.axis[K]); K = −1: any unit n (JointKind::Revolute).
//   relative pose    Q = 1 + ñ sin φ + ñ²(1 − cos φ)  (eq. 3),  r = r_{l0}
//   body coordinates S = [n; 0] (Q n = n), c_J = 0, so c = X v_λ × S q̇
//   world            s = [Q_λ n; o × Q_λ n] (eq. 1), Ṡ q̇ = v_λ × S q̇ (fixed in the parent)
//   reaction split   τ_r = |τ − n nᵀτ|, f_r = |f − n nᵀf|, f_m = |nᵀ f| (EC eqs. 36–39, 43–46)
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

template <int K>
struct Revolute : EuclideanCoordinates<1>,
                  std::conditional_t<(K >= 0), PrincipalRotation<(K >= 0 ? K : 0)>, GeneralRotation> {
  static constexpr JointType type = JointType::Revolute;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"revolute", 1, true, true,
                                         1, {{"revolute", "", 0}}, "",
                                         1, {{"hinge", "", 0}}, ""};
  /// The written-out steps (kinematics, explicit inverse dynamics) take cos q₀ and sin q₀
  /// from the caller, computed one body ahead (joint_trigonometry.hpp).
  static constexpr bool caller_cosine_sine = true;
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {1, {{JointMotion::Turn, 0}}};
  /// This kind serves a revolute joint whose axis is ±e_K (K ≥ 0) or any axis (K = −1).
  static bool accepts(const Joint& joint) {
    if constexpr (K >= 0) return joint.axis[(K + 1) % 3] == 0.0 && joint.axis[(K + 2) % 3] == 0.0;
    return true;
  }
  static constexpr bool uses_world_rotation = false;
  static constexpr AxisCarrier carrier(int) { return AxisCarrier::Parent; }  // n turns with the parent

  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"", "rad"}});
    append_names(joint, v, {{"", "rad"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    if constexpr (K >= 0)
      PrincipalRotation<K>::make(joint.axis[K], q[0], rotation);  // eq. (3), n = ±e_K
    else
      rotation = axis_angle_rotation(joint.axis, q[0]);  // eq. (3)
    translation = joint.origin;
  }

  static void world_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3& rotation, const Vec3& origin,
                         Vec6* axes) {
    if constexpr (K >= 0)
      rotational_axis(joint.axis[K] * rotation.col(K), origin, axes[0]);  // n = Q_λ n̄ = ±Q_l e_K
    else
      rotational_axis(parent_rotation * joint.axis, origin, axes[0]);  // n = Q_λ n̄ (eq. 1)
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3&, Vec6& joint_velocity, Vec6& joint_bias) {
    joint_velocity.noalias() = axes[0] * v[0];                      // S q̇
    joint_bias = cross_motion(parent_velocity, joint_velocity);  // Ṡ q̇ = v_λ × S q̇
  }

  static void body_motion(const Joint& joint, const double*, const double* v, const double* a, const Mat3&,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    if constexpr (K >= 0) {
      // S = [±e_K; 0]: v = X v_λ + rate e_K; a += S q̈ + X v_λ × rate e_K, with
      // x × e_K = x_J e_I − x_I e_J, (I, J, K) cyclic.
      constexpr int I = (K + 1) % 3, J = (K + 2) % 3;
      const double sign = joint.axis[K];
      const double rate = sign * v[0];
      axes[0].setZero();
      axes[0][K] = sign;
      velocity = parent_velocity;
      velocity[K] += rate;
      acceleration[I] += parent_velocity[J] * rate;
      acceleration[J] -= parent_velocity[I] * rate;
      acceleration[K] += sign * a[0];
      acceleration[3 + I] += parent_velocity[3 + J] * rate;
      acceleration[3 + J] -= parent_velocity[3 + I] * rate;
    } else {
      // S = [n; 0]: S q̈ + X v_λ × S q̇ = [n q̈ + ω × n q̇; u × n q̇]
      const Vec3& n = joint.axis;
      const Vec3 spin = n * v[0];
      axes[0].head<3>() = n;
      axes[0].tail<3>().setZero();
      velocity = parent_velocity;
      velocity.head<3>() += spin;
      acceleration.head<3>() += n * a[0] + parent_velocity.head<3>().cross(spin);
      acceleration.tail<3>() += parent_velocity.tail<3>().cross(spin);
    }
  }

  static void project(const Joint& joint, const Vec6*, const Vec6& force, double* tau) {  // τ = Sᵀ f
    if constexpr (K >= 0)
      tau[0] = joint.axis[K] * force[K];
    else
      tau[0] = joint.axis.dot(force.template head<3>());
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6* axes, const Vec3& force, const Vec3& torque) {
    const Vec3 n = axes[0].head<3>();
    // τ_r = |n̄² τ_uL| (eqs. 38–39), f_r = |n̄² f_uL| (eqs. 43–44), f_m = |n nᵀ f_uL| (eqs. 45–46)
    return {off_axis(n, torque), off_axis(n, force), std::abs(n.dot(force))};
  }
};

}  // namespace mechdyn::joint_kinds
