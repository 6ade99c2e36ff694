// Two independent items side by side for SSE2: `Lanes` holds one number of item 0 and the
// same number of item 1 (one 128-bit register), `Vec3Lanes` a 3-vector of each (x, y, z
// rows). Where a loop's iterations do not depend on each other — the per-body products of
// the derivatives' force pass, the per-coordinate rows (src/dynamics/derivative_forces.cpp)
// — two iterations run as one: every multiplication and addition is one packed
// instruction for both, and each number is loaded or stored once per item, as in scalar
// code. (math/vector_pairs.hpp pairs two vectors that meet the SAME operand; here the
// operands differ between the lanes too.) A lane whose item is absent (an odd count) may
// repeat item 0: it rides along and is not stored. Not installed.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

using Lanes = Eigen::Array2d;  // (item 0, item 1)

struct Vec3Lanes {
  Lanes x, y, z;
};

/// (a of item 0, a of item 1) for each component.
inline Vec3Lanes load_lanes(const double* first, const double* second) {
  return {Lanes(first[0], second[0]), Lanes(first[1], second[1]), Lanes(first[2], second[2])};
}

inline void store_lanes(const Vec3Lanes& a, double* first, double* second) {
  first[0] = a.x[0], first[1] = a.y[0], first[2] = a.z[0];
  second[0] = a.x[1], second[1] = a.y[1], second[2] = a.z[1];
}

inline Vec3Lanes operator+(const Vec3Lanes& a, const Vec3Lanes& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3Lanes operator-(const Vec3Lanes& a, const Vec3Lanes& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3Lanes operator*(const Lanes& s, const Vec3Lanes& a) { return {s * a.x, s * a.y, s * a.z}; }

/// a × b in each lane.
inline Vec3Lanes cross(const Vec3Lanes& a, const Vec3Lanes& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// a · b in each lane.
inline Lanes dot(const Vec3Lanes& a, const Vec3Lanes& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/// (item 0's number in both lanes, item 1's number in both lanes): the rows stored with each
/// number twice (DerivativeData::composite_axis_rows).
inline void store_twice(const Lanes& a, double* first, double* second) {
  Eigen::Map<Lanes, Eigen::Aligned16> out0(first), out1(second);
  out0.setConstant(a[0]);
  out1.setConstant(a[1]);
}

}  // namespace mechdyn
