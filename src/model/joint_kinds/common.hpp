// Pieces shared by the joint kinds (src/model/joint_kinds/*.hpp): the products of a
// rotation about ±e_K written out for a compile-time K, the identity and general
// rotation products, Euclidean coordinates (q̇ = v, q ⊕ dv = q + dv) and unit
// quaternions (w, x, y, z). Not installed.
//
// Every kind is a struct of static inline functions with one interface (the joint-kind
// contract of docs/joints.md §5); the algorithms reach it through visit_joint_kind
// (joint_dispatch.hpp), one switch per body. The bases below supply the parts of that
// contract that several kinds share, so each kind file holds only what is its own.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "mechdyn/math/sine_cosine.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/model/joint.hpp"

// A per-body step instantiated for every kind is kept out of line: inlined into the one
// loop over the bodies, a dozen kinds' steps crowd the loop and the compiler vectorises
// the 3x3 products worse (measured with callgrind: +5 % instructions in the kinematics).
#define MECHDYN_NOINLINE __attribute__((noinline, flatten))

namespace mechdyn::joint_kinds {

// ---- the joint as a product of elementary motions -------------------------------------

/// One elementary motion of a joint (a kind's `motions`). The relative pose is their
/// product in order from the parent, each taken in the frame the ones before it leave (a
/// chain of single screws, Featherstone 2008 §4.4): e.g. cylindrical = turn about n, then
/// slide along n; universal = turn about n₁, then about n₂. Read by `mechdyn codegen`
/// (src/codegen/symbolic_kinematics.cpp), which builds the symbolic pose, S and c from it;
/// tests/properties/test_joint_kinds.cpp checks it against relative_pose and world_axes.
struct JointMotion {
  enum Kind : unsigned char {
    Turn,        // rotation about the joint's axis `axis` by one coordinate
    Slide,       // translation along the joint's axis `axis` by one coordinate
    Quaternion,  // rotation by a unit quaternion (w, x, y, z): 4 coordinates, 3 velocities (world ω_rel)
    Shift        // translation by 3 coordinates (parent axes), 3 velocities (world v_rel)
  };
  Kind kind = Turn;
  int axis = 0;  // Turn, Slide: 0 joint.axis, 1 joint.second_axis
};
struct JointMotions {
  int count = 0;
  JointMotion steps[2] = {};
};

// ---- rotations ------------------------------------------------------------------

/// Rotation products of a kind whose relative rotation is the identity (prismatic, fixed).
struct IdentityRotation {
  static Vec3 rotate(const Mat3& /*rotation*/, const Vec3& x) { return x; }
  static Vec3 rotate_transpose(const Mat3& /*rotation*/, const Vec3& x) { return x; }
  static void compose(const Mat3& parent, const Mat3& /*rotation*/, Mat3& out) { out = parent; }
};

/// Full 3x3 products (general axes, universal, spherical, free, cylindrical).
struct GeneralRotation {
  static Vec3 rotate(const Mat3& rotation, const Vec3& x) { return rotation * x; }
  static Vec3 rotate_transpose(const Mat3& rotation, const Vec3& x) { return rotation.transpose() * x; }
  static void compose(const Mat3& parent, const Mat3& rotation, Mat3& out) { out.noalias() = parent * rotation; }
};

/// A rotation about e_K by φ moves only the coordinates (I, J) = (K+1, K+2) mod 3:
///   R = [c −s; s c] in rows/columns (I, J), R_KK = 1,  c = cos φ, s = ±sin φ,
/// so R x, Rᵀ x and P R cost 4, 4 and 12 multiplications instead of 9, 9 and 27 (the
/// RX/RY/RZ joints of RBDL and Pinocchio). K is a compile-time constant, so every index
/// is one (a run-time index defeats the registers and costs more than it saves).
template <int K>
struct PrincipalRotation {
  static constexpr int I = (K + 1) % 3, J = (K + 2) % 3;

  /// Q = 1 + ñ sin φ + ñ²(1 − cos φ) (EC eq. 3) for n = sign · e_K.
  static void make(double sign, double angle, Mat3& rotation) {
    double c, s;
    sine_cosine(angle, s, c);
    s *= sign;
    rotation.setZero();
    rotation(K, K) = 1.0;
    rotation(I, I) = c;
    rotation(J, J) = c;
    rotation(J, I) = s;
    rotation(I, J) = -s;
  }
  static Vec3 rotate(const Mat3& r, const Vec3& x) {  // R x
    const double c = r(I, I), s = r(J, I);
    Vec3 out;
    out[I] = c * x[I] - s * x[J];
    out[J] = s * x[I] + c * x[J];
    out[K] = x[K];
    return out;
  }
  static Vec3 rotate_transpose(const Mat3& r, const Vec3& x) {  // Rᵀ x
    const double c = r(I, I), s = r(J, I);
    Vec3 out;
    out[I] = c * x[I] + s * x[J];
    out[J] = c * x[J] - s * x[I];
    out[K] = x[K];
    return out;
  }
  static void compose(const Mat3& parent, const Mat3& r, Mat3& out) {  // P R (EC eq. 4)
    const double c = r(I, I), s = r(J, I);
    out.col(I) = c * parent.col(I) + s * parent.col(J);
    out.col(J) = c * parent.col(J) - s * parent.col(I);
    out.col(K) = parent.col(K);
  }
};

// ---- coordinates --------------------------------------------------------------------

/// N coordinates that are plain numbers (angles, displacements): q̇ = v, q ⊕ dv = q + dv,
/// q1 ⊖ q0 = q1 − q0, neutral 0, nothing to normalise.
template <int N>
struct EuclideanCoordinates {
  static constexpr int nq = N, nv = N;
  static constexpr int quaternion_offset = -1;  // no quaternion among the coordinates
  static void neutral(const Joint&, double* q) {
    for (int k = 0; k < N; ++k) q[k] = 0.0;
  }
  static void integrate(const Joint&, const Mat3&, const double* q, const double* dv, double* out) {
    for (int k = 0; k < N; ++k) out[k] = q[k] + dv[k];
  }
  static void difference(const Joint&, const Mat3&, const double* q0, const double* q1, double* dv) {
    for (int k = 0; k < N; ++k) dv[k] = q1[k] - q0[k];
  }
  static void configuration_rate(const Joint&, const Mat3&, const double*, const double* v, double* rate) {
    for (int k = 0; k < N; ++k) rate[k] = v[k];
  }
  static double normalize(const Joint&, double*) { return 1.0; }
};

/// Appends `joint.name + suffix` with `unit` for each of the `count` coordinates.
inline void append_names(const Joint& joint, std::vector<CoordinateName>& out,
                         std::initializer_list<CoordinateName> names) {
  for (const CoordinateName& n : names) out.push_back({joint.name + n.name, n.unit});
}

/// The three numbers at p as a 3-vector (no copy).
inline Eigen::Map<Vec3> vec3_at(double* p) { return Eigen::Map<Vec3>(p); }
inline Eigen::Map<const Vec3> vec3_at(const double* p) { return Eigen::Map<const Vec3>(p); }

// ---- unit quaternions (w, x, y, z) stored at q ----------------------------------------

inline Mat3 quaternion_rotation(const double* q) { return Quat(q[0], q[1], q[2], q[3]).toRotationMatrix(); }

/// q̇ = ½ (0, ω) ⊗ q for ω in the parent's coordinates (x_parent = R(q) x_body).
inline void quaternion_rate(const double* q, const Vec3& omega, double* rate) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  rate[0] = 0.5 * (-omega.x() * x - omega.y() * y - omega.z() * z);
  rate[1] = 0.5 * (omega.x() * w + omega.y() * z - omega.z() * y);
  rate[2] = 0.5 * (-omega.x() * z + omega.y() * w + omega.z() * x);
  rate[3] = 0.5 * (omega.x() * y - omega.y() * x + omega.z() * w);
}

/// q ⊕ θ: the quaternion turned by the rotation vector θ (parent coordinates), exp(θ) ⊗ q.
inline void quaternion_integrate(const double* q, const Vec3& rotation_vector, double* out) {
  const double angle = rotation_vector.norm();
  Quat turn = Quat::Identity();
  if (angle > 0.0) turn = Quat(Eigen::AngleAxisd(angle, rotation_vector / angle));
  const Quat next = (turn * Quat(q[0], q[1], q[2], q[3])).normalized();
  out[0] = next.w(), out[1] = next.x(), out[2] = next.y(), out[3] = next.z();
}

/// q1 ⊖ q0: the rotation vector θ (parent coordinates) with exp(θ) ⊗ q0 = q1, |θ| ≤ π.
inline Vec3 quaternion_difference(const double* q0, const double* q1) {
  Quat turn = Quat(q1[0], q1[1], q1[2], q1[3]) * Quat(q0[0], q0[1], q0[2], q0[3]).conjugate();
  if (turn.w() < 0.0) turn.coeffs() = -turn.coeffs();  // the shorter way round
  const Eigen::AngleAxisd angle_axis(turn);
  return angle_axis.angle() * angle_axis.axis();
}

/// Renormalises the quaternion at q; returns its norm before.
inline double quaternion_normalize(double* q) {
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (norm > 0.0)
    for (int k = 0; k < 4; ++k) q[k] /= norm;
  return norm;
}

/// s = [n; o × n]: a rotational world axis with direction n through the point o.
inline void rotational_axis(const Vec3& n, const Vec3& origin, Vec6& axis) {
  axis.head<3>() = n;
  axis.tail<3>() = origin.cross(n);
}

/// |x − n nᵀ x|: the part of x orthogonal to the unit vector n.
// |x| without overflow: a reaction with finite components whose squared norm overflows
// (issue 16, defect 3) still has a finite magnitude.
inline double magnitude(const Vec3& x) { return std::hypot(x[0], x[1], x[2]); }
inline double off_axis(const Vec3& n, const Vec3& x) { return magnitude(x - n * n.dot(x)); }

}  // namespace mechdyn::joint_kinds
