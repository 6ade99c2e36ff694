// Free joint (floating base): q = (position of the body origin in the parent, parent
// coordinates, added to r_{l0}; unit quaternion (w, x, y, z)); v = (relative linear
// velocity of the body origin, relative angular velocity), both in WORLD components
// (../shared/spec/model-format.md; docs/joints.md §1).
//   relative pose    Q = Q(q₃…₆),  r = r_{l0} + (q₀, q₁, q₂)
//   body coordinates S = [0, Q_lᵀ; Q_lᵀ, 0], c = [0; (u_λ + Q_lᵀ v_rel) × Q_lᵀ ω_rel]
//   world            [0; e_k] and [e_k; o × e_k]; Ṡ q̇ = [0; ȯ × ω_rel],
//                    ȯ = v_λ,O + ω_λ × o + v_rel
//   reaction split   nothing is constrained: all 0
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

struct Free : GeneralRotation {
  static constexpr int nq = 7, nv = 6;
  static constexpr JointType type = JointType::Free;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"free", 0, false, false,
                                         1, {{"floating", "", -1}}, "",
                                         1, {{"free", "", -1}}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {2, {{JointMotion::Shift, -1}, {JointMotion::Quaternion, -1}}};
  static bool accepts(const Joint&) { return true; }
  static constexpr bool uses_world_rotation = true;
  static constexpr AxisCarrier carrier(int column) {  // [0; e_k], then [e_k; o × e_k]
    return column < 3 ? AxisCarrier::World : AxisCarrier::WorldDirection;
  }
  static constexpr int quaternion_offset = 3;  // q[3..6] is the unit quaternion

  static void neutral(const Joint&, double* q) {
    for (int k = 0; k < 7; ++k) q[k] = 0.0;
    q[3] = 1.0;
  }
  static void integrate(const Joint&, const Mat3& parent_rotation, const double* q, const double* dv, double* out) {
    vec3_at(out) = vec3_at(q) + parent_rotation.transpose() * Vec3(dv[0], dv[1], dv[2]);
    quaternion_integrate(q + 3, parent_rotation.transpose() * Vec3(dv[3], dv[4], dv[5]), out + 3);
  }
  static void difference(const Joint&, const Mat3& parent_rotation, const double* q0, const double* q1, double* dv) {
    vec3_at(dv) = parent_rotation * (vec3_at(q1) - vec3_at(q0));
    vec3_at(dv + 3) = parent_rotation * quaternion_difference(q0 + 3, q1 + 3);
  }
  static void configuration_rate(const Joint&, const Mat3& parent_rotation, const double* q, const double* v,
                                 double* rate) {
    vec3_at(rate) = parent_rotation.transpose() * Vec3(v[0], v[1], v[2]);
    quaternion_rate(q + 3, parent_rotation.transpose() * Vec3(v[3], v[4], v[5]), rate + 3);
  }
  static double normalize(const Joint&, double* q) { return quaternion_normalize(q + 3); }
  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"_x", "m"}, {"_y", "m"}, {"_z", "m"}, {"_qw", ""}, {"_qx", ""}, {"_qy", ""}, {"_qz", ""}});
    append_names(joint, v, {{"_x", "m"}, {"_y", "m"}, {"_z", "m"}, {"_rx", "rad"}, {"_ry", "rad"}, {"_rz", "rad"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    rotation = quaternion_rotation(q + 3);
    translation = joint.origin + Vec3(q[0], q[1], q[2]);
  }

  static void world_axes(const Joint&, const Mat3&, const Mat3&, const Vec3& origin, Vec6* axes) {
    for (int k = 0; k < 3; ++k) {
      axes[k] << Vec3::Zero(), Vec3::Unit(k);
      rotational_axis(Vec3::Unit(k), origin, axes[3 + k]);
    }
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3& origin, Vec6& joint_velocity, Vec6& joint_bias) {
    joint_velocity.setZero();
    for (int k = 0; k < 6; ++k) joint_velocity.noalias() += axes[k] * v[k];
    const Vec3 origin_velocity =
        parent_velocity.tail<3>() + parent_velocity.head<3>().cross(origin) + Vec3(v[0], v[1], v[2]);  // ȯ
    joint_bias << Vec3::Zero(), origin_velocity.cross(Vec3(v[3], v[4], v[5]));
  }

  static void body_motion(const Joint&, const double*, const double* v, const double* a, const Mat3& world_rotation,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    for (int k = 0; k < 3; ++k) {  // [v; ω] world → [Qᵀ ω; Qᵀ v]
      axes[k] << Vec3::Zero(), world_rotation.row(k).transpose();
      axes[3 + k] << world_rotation.row(k).transpose(), Vec3::Zero();
    }
    const Vec3 linear = world_rotation.transpose() * Vec3(v[0], v[1], v[2]);
    const Vec3 omega = world_rotation.transpose() * Vec3(v[3], v[4], v[5]);
    velocity = parent_velocity;
    velocity.head<3>() += omega;
    velocity.tail<3>() += linear;
    // S q̈ + [0; ȯ × ω], ȯ including the joint's own translation
    acceleration.head<3>() += world_rotation.transpose() * Vec3(a[3], a[4], a[5]);
    acceleration.tail<3>() += world_rotation.transpose() * Vec3(a[0], a[1], a[2]) +
                              (parent_velocity.tail<3>() + linear).cross(omega);
  }

  static void project(const Joint&, const Vec6* axes, const Vec6& force, double* tau) {
    for (int k = 0; k < 6; ++k) tau[k] = axes[k].dot(force);
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6*, const Vec3&, const Vec3&) { return {0.0, 0.0, 0.0}; }
};

}  // namespace mechdyn::joint_kinds
