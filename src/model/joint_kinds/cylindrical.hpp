// Cylindrical joint (a project extension of model-format.md, docs/model-file.md): rotation
// φ about and translation d along one axis-invariant n through the body frame origin —
// a revolute and a prismatic joint on the same axis (EC eqs. 2–3 at once). q = v = (φ, d).
//   relative pose    Q = 1 + ñ sin φ + ñ²(1 − cos φ),  r = r_{l0} + n d
//   body coordinates S = [n, 0; 0, n] (Q n = n), c_J = 0, so c = X v_λ × S q̇
//   world            s₁ = [Q_λ n; o × Q_λ n], s₂ = [0; Q_λ n]; both columns are fixed in the
//                    parent (o slides along n, which leaves o × n unchanged), so
//                    Ṡ q̇ = v_λ × S q̇
//   reaction split   τ_c = |τ − n nᵀτ|, f_c = |f − n nᵀf|; nothing axial is a constraint
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

struct Cylindrical : EuclideanCoordinates<2>, GeneralRotation {
  static constexpr JointType type = JointType::Cylindrical;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"cylindrical", 1, false, false,  // MJCF: hinge and slide on one axis
                                         0, {}, "URDF has no such joint (write MJCF or mechdyn YAML)",
                                         2, {{"hinge", "/angle", 0}, {"slide", "/shift", 0}}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {2, {{JointMotion::Turn, 0}, {JointMotion::Slide, 0}}};
  static bool accepts(const Joint&) { return true; }
  static constexpr bool uses_world_rotation = false;
  static constexpr AxisCarrier carrier(int) { return AxisCarrier::Parent; }  // both columns (docs/joints.md §3)

  static void coordinate_names(const Joint& joint, std::vector<CoordinateName>& q, std::vector<CoordinateName>& v) {
    append_names(joint, q, {{"_angle", "rad"}, {"_shift", "m"}});
    append_names(joint, v, {{"_angle", "rad"}, {"_shift", "m"}});
  }

  static void relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
    rotation = axis_angle_rotation(joint.axis, q[0]);  // EC eq. (3)
    translation = joint.origin + joint.axis * q[1];   // EC eq. (2)
  }

  static void world_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3&, const Vec3& origin,
                         Vec6* axes) {
    const Vec3 n = parent_rotation * joint.axis;
    rotational_axis(n, origin, axes[0]);
    axes[1] << Vec3::Zero(), n;
  }

  static void world_motion(const Joint&, const Vec6* axes, const double* v, const Vec6& parent_velocity,
                           const Vec3&, Vec6& joint_velocity, Vec6& joint_bias) {
    joint_velocity = axes[0] * v[0] + axes[1] * v[1];             // S q̇
    joint_bias = cross_motion(parent_velocity, joint_velocity);  // Ṡ q̇ = v_λ × S q̇
  }

  static void body_motion(const Joint& joint, const double*, const double* v, const double* a, const Mat3&,
                          const Vec6& parent_velocity, Vec6* axes, Vec6& velocity, Vec6& acceleration) {
    const Vec3& n = joint.axis;
    axes[0] << n, Vec3::Zero();
    axes[1] << Vec3::Zero(), n;
    Vec6 relative;
    relative << n * v[0], n * v[1];  // S q̇
    velocity = parent_velocity + relative;
    acceleration.head<3>() += n * a[0];
    acceleration.tail<3>() += n * a[1];
    acceleration += cross_motion(parent_velocity, relative);
  }

  static void project(const Joint& joint, const Vec6*, const Vec6& force, double* tau) {
    tau[0] = joint.axis.dot(force.head<3>());
    tau[1] = joint.axis.dot(force.tail<3>());
  }

  static ReactionSplit split_reaction(const Joint&, const Vec6* axes, const Vec3& force, const Vec3& torque) {
    const Vec3 n = axes[0].head<3>();
    return {off_axis(n, torque), off_axis(n, force), 0.0};
  }
};

}  // namespace mechdyn::joint_kinds
