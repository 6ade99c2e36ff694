// Spherical (ball) joint: q = unit quaternion (w, x, y, z) of Q^{l̄}_l; v = the relative
// angular velocity ω_rel in WORLD components (../shared/spec/model-format.md), so
// q̇ = ½ (0, Q_λᵀ ω_rel) ⊗ q (docs/joints.md §1).
//   relative pose    Q = Q(q),  r = r_{l0}
//   body coordinates S = [Q_lᵀ; 0] (Q_l the body's world rotation), c = [0; u_λ × Q_lᵀ ω_rel]
//   world            s_k = [e_k; o × e_k] (world-fixed directions), Ṡ q̇ = [0; ȯ × ω_rel],
//                    ȯ = v_λ,O + ω_λ × o (o is fixed in the parent)
//   reaction split   the force only: τ_c = 0, f_c = |f| (its torque is the driving effort)
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

struct Spherical : GeneralRotation {
  static constexpr int nq = 4, nv = 3;
  static constexpr JointType type = JointType::Spherical;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"spherical", 0, false, false,
                                         0, {}, "URDF has no such joint (write MJCF or mechdyn YAML)",
                                         1, {{"ball", "", -1}}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {1, {{JointMotion::Quaternion, -1}}};
  static bool accepts(const Joint&) { return true; }
  static constexpr bool uses_world_rotation = true;
  static constexpr AxisCarrier carrier(int) { return AxisCarrier::WorldDirection; }  // e_k through o
  static constexpr int quaternion_offset = 0;  // q[0..3] is the unit quaternion

  static void neutral(const Joint&, double* q) { q[0] = 1.0, q[1] = q[2] = q[3] = 0.0; }
  static void integrate(const Joint&, const Mat3& parent_rotation, const double* q, const double* dv, double* out) {
    quaternion_integrate(q, parent_rotation.transpose() * Vec3(dv[0], dv[1], dv[2]), out);
  }
  static void difference(const Joint&, const Mat3& parent_rotation, const double* q0, const double* q1, double* dv) {
    vec3_at(dv) = parent_rotation * quaternion_difference(q0, q1);
  }
  static void configuration_rate(const Joint&, const Mat3& parent_rotation, const double* q, const double* v,
                                 double* rate) {
    quaternion_rate(q, parent_rotation.transpose() * Vec3(v[0], v[1], v[2]), rate);
  }
  static double normalize(const Joint&, double* q) { return quaternion_normalize(q); }
  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"_qw", ""}, {"_qx", ""}, {"_qy", ""}, {"_qz", ""}});
    append_names(joint, v, {{"_rx", "rad"}, {"_ry", "rad"}, {"_rz", "rad"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    rotation = quaternion_rotation(q);
    translation = joint.origin;
  }

  static void world_axes(const Joint&, const Mat3&, const Mat3&, const Vec3& origin, Vec6* axes) {
    for (int k = 0; k < 3; ++k) rotational_axis(Vec3::Unit(k), origin, axes[k]);
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3& origin, Vec6& joint_velocity, Vec6& joint_bias) {
    joint_velocity = axes[0] * v[0] + axes[1] * v[1] + axes[2] * v[2];
    const Vec3 origin_velocity = parent_velocity.tail<3>() + parent_velocity.head<3>().cross(origin);  // ȯ
    joint_bias << Vec3::Zero(), origin_velocity.cross(Vec3(v[0], v[1], v[2]));
  }

  static void body_motion(const Joint&, const double*, const double* v, const double* a, const Mat3& world_rotation,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    for (int k = 0; k < 3; ++k) axes[k] << world_rotation.row(k).transpose(), Vec3::Zero();  // world ω → Qᵀ ω
    const Vec3 omega = world_rotation.transpose() * Vec3(v[0], v[1], v[2]);
    velocity = parent_velocity;
    velocity.head<3>() += omega;
    // S q̈ + [0; ȯ × ω], ȯ the origin's velocity as a point of the parent
    acceleration.head<3>() += world_rotation.transpose() * Vec3(a[0], a[1], a[2]);
    acceleration.tail<3>() += parent_velocity.tail<3>().cross(omega);
  }

  static void project(const Joint&, const Vec6* axes, const Vec6& force, double* tau) {
    for (int k = 0; k < 3; ++k) tau[k] = axes[k].dot(force);
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6*, const Vec3& force, const Vec3&) {
    return {0.0, magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::joint_kinds
