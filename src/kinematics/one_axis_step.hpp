// Private to forward_kinematics.cpp (included once, inside its anonymous namespace's
// place): the kinematics stage's written-out step for one-axis joints and the per-body
// centre of mass and world inertia, with the register layouts they use.
//
// one_axis_step<J, Level> — Revolute<K>, Prismatic<K> (K = 0, 1, 2: axis ±e_K; K = −1: any
// axis), EC §2.1 eqs. (1)–(10): Q = Q_λ R(φ) (eqs. 3–4; about ±e_K on two columns, 6
// multiplications per column pair instead of 27), r = r_λ + Q_λ r̄ (eq. 6), n = Q_λ n̄ (for
// ±e_K a column of Q_λ, no product), S = [n; r × n] or [0; n] (eq. 1), S q̇, v = v_λ + S q̇,
// Ṡ q̇ = v_λ × S q̇, a = a_λ + Ṡ q̇ + S q̈ (eqs. 7–10), then com_and_inertia. Columns are
// carried as Split3 ((x, y) in one SSE2 register, z alone), the 6-vectors as their three
// aligned packets; every number stays in a register from its one load to its one store
// (the generic step stored S q̇ and Ṡ q̇ and read them back). cos φ, sin φ come from the
// caller, one body ahead. Cost per body about ±e_K at level 2: ~100 multiplications,
// ~330 instructions with the centre of mass and inertia (callgrind, panda_like_arm).
// Reads the Model and the parent's Data; writes body l's rotation, position, com_position,
// inertia_world, motion_axis, and at level ≥ 1 joint_velocity, joint_bias, velocity, at 2
// acceleration — the same fields and values (to rounding) as the generic step.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../model/joint_dispatch.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

const Mat3 kIdentity = Mat3::Identity();  // the ground's rotation
const Vec3 kOrigin = Vec3::Zero();        // the ground's origin
const Vec6 kRest = Vec6::Zero();          // the ground's velocity

/// K of a one-axis kind's axis ±e_K (−1: any axis) and whether it turns (revolute) or
/// slides (prismatic); `value` false for the other kinds.
template <class J>
struct OneAxis : std::false_type {};
template <int K>
struct OneAxis<joint_kinds::Revolute<K>> : std::true_type {
  static constexpr int axis = K;
  static constexpr bool revolute = true;
};
template <int K>
struct OneAxis<joint_kinds::Prismatic<K>> : std::true_type {
  static constexpr int axis = K;
  static constexpr bool revolute = false;
};

using Packed = Eigen::Array2d;  // two doubles, one SSE2 register

/// A 3-vector (a column of a Mat3) as its (x, y) in one register and z alone.
struct Split3 {
  Packed xy;
  double z;
  double operator[](int k) const { return k == 2 ? z : xy[k]; }
};
inline Split3 load_split(const double* p) { return {Eigen::Map<const Packed>(p), p[2]}; }
inline void store_split(const Split3& a, double* p) {
  Eigen::Map<Packed> out(p);
  out = a.xy;
  p[2] = a.z;
}
inline Split3 operator+(const Split3& a, const Split3& b) { return {a.xy + b.xy, a.z + b.z}; }
inline Split3 operator-(const Split3& a, const Split3& b) { return {a.xy - b.xy, a.z - b.z}; }
inline Split3 operator*(double s, const Split3& a) { return {s * a.xy, s * a.z}; }

/// The packets (0, 1), (2, 3), (4, 5) of an aligned Vec6.
inline Eigen::Map<Packed, Eigen::Aligned16> packet(Vec6& x, int k) {
  return Eigen::Map<Packed, Eigen::Aligned16>(x.data() + 2 * k);
}
inline Eigen::Map<const Packed, Eigen::Aligned16> packet(const Vec6& x, int k) {
  return Eigen::Map<const Packed, Eigen::Aligned16>(x.data() + 2 * k);
}

/// Body l's centre of mass r_{lI} = r + Q c̄ and world inertia i|J = Q J Qᵀ from its pose,
/// Q by its columns q_k: with w_k = (Q J) e_k = Σ_m J_mk q_m (J_kk q_k alone when J is
/// diagonal in the body frame, as in most models: 9 multiplications instead of 27), the six
/// distinct entries Σ_k w_k,r q_k,c, (0,0) with (1,1) and (0,2) with (1,2) one packed
/// product each.
inline void com_and_inertia(const Body& body, const Split3 (&q)[3], const Split3& position, double* com,
                            double* inertia) {
  const Vec3& c = body.com;
  store_split(((position + c[0] * q[0]) + c[1] * q[1]) + c[2] * q[2], com);
  const Mat3& j = body.inertia;
  Split3 w[3];
  std::uint64_t off[3];  // J_01, J_02, J_12 as bits: all ±0 when J is diagonal (one test, not three)
  std::memcpy(&off[0], &j(0, 1), sizeof(double));
  std::memcpy(&off[1], &j(0, 2), sizeof(double));
  std::memcpy(&off[2], &j(1, 2), sizeof(double));
  if (((off[0] | off[1] | off[2]) << 1) == 0) {
    for (int k = 0; k < 3; ++k) w[k] = j(k, k) * q[k];
  } else {
    for (int k = 0; k < 3; ++k) w[k] = (j(0, k) * q[0] + j(1, k) * q[1]) + j(2, k) * q[2];
  }
  const Packed diagonal = (w[0].xy * q[0].xy + w[1].xy * q[1].xy) + w[2].xy * q[2].xy;  // (0,0), (1,1)
  const double upper = (w[0].xy[0] * q[0].xy[1] + w[1].xy[0] * q[1].xy[1]) + w[2].xy[0] * q[2].xy[1];  // (0,1)
  const Packed last = (w[0].xy * q[0].z + w[1].xy * q[1].z) + w[2].xy * q[2].z;  // (0,2), (1,2)
  const double corner = (w[0].z * q[0].z + w[1].z * q[1].z) + w[2].z * q[2].z;  // (2,2)
  inertia[0] = diagonal[0], inertia[4] = diagonal[1];
  inertia[1] = inertia[3] = upper;
  Eigen::Map<Packed>(inertia + 6) = last;
  inertia[2] = last[0], inertia[5] = last[1];
  inertia[8] = corner;
}

/// One body with a one-axis joint (Revolute<K>, Prismatic<K>), written out (EC eqs. 1–10):
/// Q = Q_λ R(φ) on two columns for ±e_K (eq. 4), r = r_λ + Q_λ r^{λ}_l (eq. 6), n = Q_λ n̄
/// (for ±e_K: ±Q_λ e_K, a column), S = [n; r × n] (revolute) or [0; n] (prismatic) (eq. 1),
/// S q̇, v = v_λ + S q̇, Ṡ q̇ = v_λ × S q̇, a = a_λ + Ṡ q̇ + S q̈ (eqs. 7–10). Columns are
/// carried as Split3, the 6-vectors as their three aligned packets.
template <class J, int Level>
MECHDYN_NOINLINE void one_axis_step(const Model& model, Data& data, int l, const double* q, const double* v,
                                    const double* a, double c, double s) {
  using Axis = OneAxis<J>;
  constexpr int K = Axis::axis;
  const Joint& joint = model.joints[l];
  const int parent = model.bodies[l].parent;
  const bool root = parent == kGround;
  const double* P = root ? kIdentity.data() : data.rotation[parent].data();  // Q_λ by columns
  const Split3 base = load_split(root ? kOrigin.data() : data.position[parent].data());
  const Split3 column[3] = {load_split(P), load_split(P + 3), load_split(P + 6)};
  Split3 Q[3];  // Q^i_l by columns
  double x[3] = {joint.origin[0], joint.origin[1], joint.origin[2]};  // r^{λ}_l (eqs. 2, 6)
  Split3 n;  // the world axis Q_λ n̄ (eq. 1)
  if constexpr (Axis::revolute && K >= 0) {
    constexpr int I = (K + 1) % 3, L = (K + 2) % 3;
    const double sign = joint.axis[K];
    const double signed_sine = sign * s;
    Q[I] = c * column[I] + signed_sine * column[L];  // eqs. (3)–(4) on two columns
    Q[L] = c * column[L] - signed_sine * column[I];
    Q[K] = column[K];
    n = sign * column[K];
  } else if constexpr (Axis::revolute) {
    const Mat3 relative = axis_angle_rotation(joint.axis, c, s);  // eq. (3)
    for (int k = 0; k < 3; ++k)  // eq. (4)
      Q[k] = (relative(0, k) * column[0] + relative(1, k) * column[1]) + relative(2, k) * column[2];
    n = joint.axis[0] * column[0] + joint.axis[1] * column[1] + joint.axis[2] * column[2];
  } else {
    for (int k = 0; k < 3; ++k) Q[k] = column[k];  // eq. (2): Q = 1
    if constexpr (K >= 0) {
      x[K] += joint.axis[K] * q[joint.q_index];
      n = joint.axis[K] * column[K];
    } else {
      for (int k = 0; k < 3; ++k) x[k] += joint.axis[k] * q[joint.q_index];
      n = joint.axis[0] * column[0] + joint.axis[1] * column[1] + joint.axis[2] * column[2];
    }
  }
  const Split3 r = base + (x[0] * column[0] + x[1] * column[1] + x[2] * column[2]);  // eq. (6)
  double* rotation = data.rotation[l].data();
  for (int k = 0; k < 3; ++k) store_split(Q[k], rotation + 3 * k);
  store_split(r, data.position[l].data());
  com_and_inertia(model.bodies[l], Q, r, data.com_position[l].data(), data.inertia_world[l].data());
  Vec6& axis = data.motion_axis[joint.v_index];  // S = [n; r × n] (revolute), [0; n] (prismatic)
  Packed S[3];
  if constexpr (Axis::revolute) {
    const double t0 = r[1] * n[2] - r[2] * n[1], t1 = r[2] * n[0] - r[0] * n[2], t2 = r[0] * n[1] - r[1] * n[0];
    S[0] = n.xy;
    S[1] = Packed(n.z, t0);
    S[2] = Packed(t1, t2);
  } else {
    S[0] = Packed::Zero();
    S[1] = Packed(0.0, n[0]);
    S[2] = Packed(n[1], n[2]);
  }
  for (int k = 0; k < 3; ++k) packet(axis, k) = S[k];
  if constexpr (Level >= 1) {
    const Vec6& parent_velocity = root ? kRest : data.velocity[parent];
    const double rate = v[joint.v_index];
    Packed M[3];  // S q̇
    for (int k = 0; k < 3; ++k) M[k] = S[k] * rate;
    // Ṡ q̇ = v_λ × S q̇ = [ω × u; ω × m + ν × u] for S q̇ = [u; m], v_λ = [ω; ν]
    const double* w = parent_velocity.data();
    const double u0 = M[0][0], u1 = M[0][1], u2 = M[1][0], m0 = M[1][1], m1 = M[2][0], m2 = M[2][1];
    Packed B[3];
    if constexpr (Axis::revolute) {
      B[0] = Packed(w[1] * u2 - w[2] * u1, w[2] * u0 - w[0] * u2);
      B[1] = Packed(w[0] * u1 - w[1] * u0, (w[1] * m2 - w[2] * m1) + (w[4] * u2 - w[5] * u1));
      B[2] = Packed((w[2] * m0 - w[0] * m2) + (w[5] * u0 - w[3] * u2), (w[0] * m1 - w[1] * m0) + (w[3] * u1 - w[4] * u0));
    } else {
      B[0] = Packed::Zero();
      B[1] = Packed(0.0, w[1] * m2 - w[2] * m1);
      B[2] = Packed(w[2] * m0 - w[0] * m2, w[0] * m1 - w[1] * m0);
    }
    Vec6& joint_velocity = data.joint_velocity[l];
    Vec6& joint_bias = data.joint_bias[l];
    Vec6& velocity = data.velocity[l];
    for (int k = 0; k < 3; ++k) {
      packet(joint_velocity, k) = M[k];
      packet(joint_bias, k) = B[k];
      packet(velocity, k) = packet(parent_velocity, k) + M[k];  // eqs. (7), (9)
    }
    if constexpr (Level >= 2) {
      const Vec6& parent_acceleration = root ? kRest : data.acceleration[parent];
      const double second = a[joint.v_index];
      Vec6& acceleration = data.acceleration[l];
      for (int k = 0; k < 3; ++k)  // eqs. (8), (10)
        packet(acceleration, k) = packet(parent_acceleration, k) + B[k] + S[k] * second;
    }
  }
}

}  // namespace
}  // namespace mechdyn
