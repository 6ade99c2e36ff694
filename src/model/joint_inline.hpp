// Inline fast paths of the joint model (joint.hpp: the one place where joint types
// differ) for the per-body loops of kinematics and dynamics: the revolute (and
// prismatic) cases are written out here, every other case calls the out-of-line
// function of joint.cpp. Not installed.
#pragma once

#include <cmath>

#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn::detail {

// ---- principal axes ------------------------------------------------------------
// Most robot joints turn about a coordinate axis of their natural frame (n = ±e_k; every
// benchmark model, the Panda, the five-axis tree). A rotation about e_k moves only the
// other two coordinates (i, j) = (k+1, k+2) mod 3:
//   R = [c −s; s c] in rows/columns (i, j), R_kk = 1,  c = cos φ, s = n_k sin φ,
// so R x, Rᵀ x and P R cost 4, 4 and 12 multiplications instead of 9, 9 and 27 (the
// specialisation RBDL and Pinocchio make with their RX/RY/RZ joint types). The axis
// is classified on every call from its exact components (no derived flag to go stale);
// k = −1 means a general axis and the full products.

/// k when n = ±e_k exactly (a unit axis with two zero components), else −1.
inline int principal_axis(const Vec3& n) {
  if (n.y() == 0.0 && n.z() == 0.0) return 0;
  if (n.x() == 0.0 && n.z() == 0.0) return 1;
  if (n.x() == 0.0 && n.y() == 0.0) return 2;
  return -1;
}

/// The revolute joint's axis class: principal_axis of its axis, −1 for other joints.
inline int revolute_principal_axis(const Joint& joint) {
  return joint.type == JointType::Revolute ? principal_axis(joint.axis) : -1;
}

/// Q = 1 + ñ sin φ + ñ²(1 − cos φ) (EC eq. 3) for n = ±e_k: [c −s; s c] in (i, j).
inline void principal_rotation(int k, double sign, double angle, Mat3& rotation) {
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  const double c = std::cos(angle), s = sign * std::sin(angle);
  rotation.setZero();
  rotation(k, k) = 1.0;
  rotation(i, i) = c;
  rotation(j, j) = c;
  rotation(j, i) = s;
  rotation(i, j) = -s;
}

// The products for a fixed K, so that every index is a compile-time constant (a run-time
// index defeats the registers and costs more than the multiplications it saves).
template <int K>
inline Vec3 rotate_fixed(const Mat3& r, const Vec3& x) {  // R x
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  const double c = r(i, i), s = r(j, i);
  Vec3 out;
  out[i] = c * x[i] - s * x[j];
  out[j] = s * x[i] + c * x[j];
  out[K] = x[K];
  return out;
}

template <int K>
inline Vec3 rotate_transpose_fixed(const Mat3& r, const Vec3& x) {  // Rᵀ x
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  const double c = r(i, i), s = r(j, i);
  Vec3 out;
  out[i] = c * x[i] + s * x[j];
  out[j] = c * x[j] - s * x[i];
  out[K] = x[K];
  return out;
}

template <int K>
inline void compose_rotation_fixed(const Mat3& parent, const Mat3& r, Mat3& out) {  // P R
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  const double c = r(i, i), s = r(j, i);
  out.col(i) = c * parent.col(i) + s * parent.col(j);
  out.col(j) = c * parent.col(j) - s * parent.col(i);
  out.col(K) = parent.col(K);
}

/// R x, with R a rotation about e_k when k ≥ 0 (read from its entries).
inline Vec3 rotate(const Mat3& r, int k, const Vec3& x) {
  switch (k) {
    case 0: return rotate_fixed<0>(r, x);
    case 1: return rotate_fixed<1>(r, x);
    case 2: return rotate_fixed<2>(r, x);
    default: return r * x;
  }
}

/// Rᵀ x, with R a rotation about e_k when k ≥ 0.
inline Vec3 rotate_transpose(const Mat3& r, int k, const Vec3& x) {
  switch (k) {
    case 0: return rotate_transpose_fixed<0>(r, x);
    case 1: return rotate_transpose_fixed<1>(r, x);
    case 2: return rotate_transpose_fixed<2>(r, x);
    default: return r.transpose() * x;
  }
}

/// out = P R (EC eq. 4: Q^i_l = Q^i_{l̄} Q^{l̄}_l), with R a rotation about e_k when k ≥ 0.
inline void compose_rotation(const Mat3& parent, const Mat3& r, int k, Mat3& out) {
  switch (k) {
    case 0: compose_rotation_fixed<0>(parent, r, out); return;
    case 1: compose_rotation_fixed<1>(parent, r, out); return;
    case 2: compose_rotation_fixed<2>(parent, r, out); return;
    default: out.noalias() = parent * r; return;
  }
}

// ---- per-body joint steps ----------------------------------------------------------

/// joint_relative_pose with the revolute case (EC eq. 3) inline: the body-frame passes
/// call it once per body. `principal` is revolute_principal_axis(joint).
inline void joint_relative_pose_inline(const Joint& joint, int principal, const double* q, Mat3& rotation,
                                       Vec3& translation) {
  if (principal >= 0) {
    principal_rotation(principal, joint.axis[principal], q[0], rotation);
    translation = joint.origin;
  } else if (joint.type == JointType::Revolute) {
    rotation = axis_angle_rotation(joint.axis, q[0]);
    translation = joint.origin;
  } else {
    joint_relative_pose(joint, q, rotation, translation);
  }
}

/// joint_motion_axes with the revolute and prismatic cases inline; writes the nv world
/// axes to `axes` (world origin).
/// (Revolute joints about ±e_k have their own step in forward_kinematics.cpp.)
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
