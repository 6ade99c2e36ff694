// Inline fast paths of the joint model (joint.hpp: the one place where joint types
// differ) for the per-body loops of kinematics and dynamics: the revolute (and
// prismatic) cases are written out here, every other case calls the out-of-line
// function of joint.cpp. Not installed.
#pragma once

#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn::detail {

/// joint_relative_pose with the revolute case (EC eq. 3) inline: the body-frame passes
/// call it once per body.
inline void joint_relative_pose_inline(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
  if (joint.type == JointType::Revolute) {
    rotation = axis_angle_rotation(joint.axis, q[0]);
    translation = joint.origin;
  } else {
    joint_relative_pose(joint, q, rotation, translation);
  }
}

/// joint_motion_axes with the revolute and prismatic cases inline; writes the nv world
/// axes to `axes` (world origin).
inline void joint_motion_axes_inline(const Joint& joint, const double* q, const Mat3& parent_rotation,
                                     const Mat3& body_rotation, const Vec3& body_origin, Vec6* axes) {
  if (joint.type == JointType::Revolute) {  // [n; o × n], n = Q_λ n̄ (EC eq. 1)
    const Vec3 n = parent_rotation * joint.axis;
    axes[0].head<3>() = n;
    axes[0].tail<3>() = body_origin.cross(n);
  } else if (joint.type == JointType::Prismatic) {  // [0; n]
    axes[0].head<3>().setZero();
    axes[0].tail<3>().noalias() = parent_rotation * joint.axis;
  } else {
    MotionAxes s;
    joint_motion_axes(joint, q, parent_rotation, body_rotation, body_origin, s);
    for (int k = 0; k < joint.nv; ++k) axes[k] = s.col(k);
  }
}

/// The joints of several coordinates (universal, spherical, free, fixed) of
/// joint_local_motion, through joint_local_motion_axes and joint_local_bias_acceleration.
void joint_local_motion_general(const Joint& joint, const double* q, const double* v, const double* a,
                                const Mat3& body_rotation, const Vec6& parent_velocity, Vec6* axes,
                                Vec6& relative_velocity, Vec6& joint_acceleration);

/// For joint l with parent velocity X v_λ in body coordinates (`parent_velocity`):
/// writes the joint's local axes S (nv columns) to `axes`, S q̇ to `relative_velocity`
/// and S q̈ + Ṡ q̇ to `joint_acceleration` (body coordinates, body frame origin).
/// Revolute and prismatic joints are written out here (S = [n; 0] or [0; n] is constant
/// in body coordinates, Ṡ q̇ = X v_λ × S q̇); the others are joint_local_motion_general.
inline void joint_local_motion(const Joint& joint, const double* q, const double* v, const double* a,
                               const Mat3& body_rotation, const Vec6& parent_velocity, Vec6* axes,
                               Vec6& relative_velocity, Vec6& joint_acceleration) {
  const Vec3& n = joint.axis;
  if (joint.type == JointType::Revolute) {  // S = [n; 0]: S q̈ + X v_λ × S q̇ = [n q̈ + ω × n q̇; u × n q̇]
    const Vec3 spin = n * v[0];
    axes[0].head<3>() = n;
    axes[0].tail<3>().setZero();
    relative_velocity.head<3>() = spin;
    relative_velocity.tail<3>().setZero();
    joint_acceleration.head<3>() = n * a[0] + parent_velocity.head<3>().cross(spin);
    joint_acceleration.tail<3>() = parent_velocity.tail<3>().cross(spin);
  } else if (joint.type == JointType::Prismatic) {  // S = [0; n]: S q̈ + X v_λ × S q̇ = [0; n q̈ + ω × n q̇]
    const Vec3 slide = n * v[0];
    axes[0].head<3>().setZero();
    axes[0].tail<3>() = n;
    relative_velocity.head<3>().setZero();
    relative_velocity.tail<3>() = slide;
    joint_acceleration.head<3>().setZero();
    joint_acceleration.tail<3>() = n * a[0] + parent_velocity.head<3>().cross(slide);
  } else {
    joint_local_motion_general(joint, q, v, a, body_rotation, parent_velocity, axes, relative_velocity,
                               joint_acceleration);
  }
}

}  // namespace mechdyn::detail
