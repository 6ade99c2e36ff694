// Universal (Hooke) joint: angle q₁ about n₁ = joint.axis, then q₂ about n₂ =
// joint.second_axis as carried by the first rotation (docs/joints.md §1).
//   relative pose    Q = Q(n₁, q₁) Q(n₂, q₂),  r = r_{l0}
//   body coordinates S = [Q₂ᵀ n₁, n₂; 0] (n₁ fixed in the parent, n₂ in the child);
//                    c = X v_λ × S q̇ + (s₁ q̇₁) × (s₂ q̇₂)
//   world            s₁ = [Q_λ n₁; o × Q_λ n₁], s₂ = [Q_l n₂; o × Q_l n₂];
//                    Ṡ q̇ = v_λ × S q̇ + (s₁ q̇₁) × (s₂ q̇₂)  (docs/joints.md §3)
//   reaction split   τ_c = |ê·τ|, ê = n₁ × n₂ / |n₁ × n₂| (the cross's bending torque), f_c = |f|
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

struct Universal : EuclideanCoordinates<2>, GeneralRotation {
  static constexpr JointType type = JointType::Universal;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"universal", 2, false, false,  // the cross as two revolute joints
                                         2, {{"continuous", "/1", 0}, {"continuous", "/2", 1}}, "",
                                         2, {{"hinge", "/1", 0}, {"hinge", "/2", 1}}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {2, {{JointMotion::Turn, 0}, {JointMotion::Turn, 1}}};
  static bool accepts(const Joint&) { return true; }
  static constexpr bool uses_world_rotation = false;
  static constexpr AxisCarrier carrier(int column) {  // the cross: first axis in the parent, second in the child
    return column == 0 ? AxisCarrier::Parent : AxisCarrier::Child;
  }

  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"_1", "rad"}, {"_2", "rad"}});
    append_names(joint, v, {{"_1", "rad"}, {"_2", "rad"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    rotation = axis_angle_rotation(joint.axis, q[0]) * axis_angle_rotation(joint.second_axis, q[1]);
    translation = joint.origin;
  }

  static void world_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3& rotation, const Vec3& origin,
                         Vec6* axes) {
    rotational_axis(parent_rotation * joint.axis, origin, axes[0]);  // fixed in the parent
    rotational_axis(rotation * joint.second_axis, origin, axes[1]);  // fixed in the child
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3&, Vec6& joint_velocity, Vec6& joint_bias) {
    const Vec6 first = axes[0] * v[0], second = axes[1] * v[1];
    joint_velocity = first + second;
    joint_bias = cross_motion(parent_velocity, joint_velocity) + cross_motion(first, second);
  }

  static void body_motion(const Joint& joint, const double* q, const double* v, const double* a, const Mat3&,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    // Q = Q₁ Q₂: n₁ in the child is Q₂ᵀ n₁; n₂ is fixed in the child.
    axes[0] << axis_angle_rotation(joint.second_axis, q[1]).transpose() * joint.axis, Vec3::Zero();
    axes[1] << joint.second_axis, Vec3::Zero();
    const Vec6 first = axes[0] * v[0], second = axes[1] * v[1];
    const Vec6 relative = first + second;
    velocity = parent_velocity + relative;
    acceleration += axes[0] * a[0] + axes[1] * a[1] + cross_motion(parent_velocity, relative) +
                    cross_motion(first, second);
  }

  static void project(const Joint&, const Vec6* axes, const Vec6& force, double* tau) {
    tau[0] = axes[0].dot(force);
    tau[1] = axes[1].dot(force);
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6* axes, const Vec3& force, const Vec3& torque) {
    const Vec3 normal = Vec3(axes[0].head<3>()).cross(Vec3(axes[1].head<3>()));
    const double length = magnitude(normal);
    return {length > 0.0 ? std::abs(normal.dot(torque)) / length : 0.0, magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::joint_kinds
