// Prismatic joint: translation r along the axis-invariant n (EC §2.1, eq. 2). K = 0, 1,
// 2: n = ±e_K (JointKind::PrismaticX/Y/Z, the sign read from joint.axis[K]); K = −1:
// any unit n (JointKind::Prismatic).
//   relative pose    Q = 1,  r = r_{l0} + n r  (eq. 2)
//   body coordinates S = [0; n], c_J = 0, so c = X v_λ × S q̇
//   world            s = [0; Q_λ n], Ṡ q̇ = v_λ × S q̇ (n turns with the parent)
//   reaction split   f_p = |f − n nᵀf|, τ_p = |τ − n nᵀτ|, τ_m = |nᵀ τ| (EC eqs. 36–39, 44, 46)
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

template <int K>
struct Prismatic : EuclideanCoordinates<1>, IdentityRotation {
  static constexpr JointType type = JointType::Prismatic;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"prismatic", 1, true, true,
                                         1, {{"prismatic", "", 0}}, "",
                                         1, {{"slide", "", 0}}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {1, {{JointMotion::Slide, 0}}};
  /// This kind serves a prismatic joint whose axis is ±e_K (K ≥ 0) or any axis (K = −1).
  static bool accepts(const Joint& joint) {
    if constexpr (K >= 0) return joint.axis[(K + 1) % 3] == 0.0 && joint.axis[(K + 2) % 3] == 0.0;
    return true;
  }
  static constexpr bool uses_world_rotation = false;
  static constexpr AxisCarrier carrier(int) { return AxisCarrier::Parent; }  // n turns with the parent

  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"", "m"}});
    append_names(joint, v, {{"", "m"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    rotation.setIdentity();
    translation = joint.origin;  // eq. (2): r = n r + r_{l0}
    if constexpr (K >= 0)
      translation[K] += joint.axis[K] * q[0];
    else
      translation += joint.axis * q[0];
  }

  static void world_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3&, const Vec3&, Vec6* axes) {
    axes[0].head<3>().setZero();
    if constexpr (K >= 0)
      axes[0].tail<3>() = joint.axis[K] * parent_rotation.col(K);
    else
      axes[0].tail<3>().noalias() = parent_rotation * joint.axis;
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3&, Vec6& joint_velocity, Vec6& joint_bias) {
    joint_velocity.noalias() = axes[0] * v[0];                      // S q̇
    joint_bias = cross_motion(parent_velocity, joint_velocity);  // Ṡ q̇ = v_λ × S q̇
  }

  static void body_motion(const Joint& joint, const double*, const double* v, const double* a, const Mat3&,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    velocity = parent_velocity;
    if constexpr (K >= 0) {
      // S = [0; ±e_K]: a += [0; S q̈ + ω × rate e_K], x × e_K = x_J e_I − x_I e_J
      constexpr int I = (K + 1) % 3, J = (K + 2) % 3;
      const double sign = joint.axis[K];
      const double rate = sign * v[0];
      axes[0].setZero();
      axes[0][3 + K] = sign;
      velocity[3 + K] += rate;
      acceleration[3 + I] += parent_velocity[J] * rate;
      acceleration[3 + J] -= parent_velocity[I] * rate;
      acceleration[3 + K] += sign * a[0];
    } else {
      // S = [0; n]: S q̈ + X v_λ × S q̇ = [0; n q̈ + ω × n q̇]
      const Vec3& n = joint.axis;
      const Vec3 slide = n * v[0];
      axes[0].head<3>().setZero();
      axes[0].tail<3>() = n;
      velocity.tail<3>() += slide;
      acceleration.tail<3>() += n * a[0] + parent_velocity.head<3>().cross(slide);
    }
  }

  static void project(const Joint& joint, const Vec6*, const Vec6& force, double* tau) {  // τ = Sᵀ f
    if constexpr (K >= 0)
      tau[0] = joint.axis[K] * force[3 + K];
    else
      tau[0] = joint.axis.dot(force.template tail<3>());
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6* axes, const Vec3& force, const Vec3& torque) {
    const Vec3 n = axes[0].tail<3>();
    // f_p = |n̄² f_uL| (eqs. 38–39), τ_p = |n̄² τ_uL| (eqs. 43–44), τ_m = |n nᵀ τ_uL| (eqs. 45–46)
    return {off_axis(n, torque), off_axis(n, force), std::abs(n.dot(torque))};
  }
};

}  // namespace mechdyn::joint_kinds
