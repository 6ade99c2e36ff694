// Two independent items side by side for SSE2: `Lanes` holds one number of item 0 and the
// same number of item 1 (one 128-bit register), `Vec3Lanes` a 3-vector of each (x, y, z
// rows). Where a loop's iterations do not depend on each other — the per-body products of
// the derivatives' force pass, the per-coordinate rows (src/dynamics/derivative_forces.cpp)
// — two iterations run as one: every multiplication and addition is one packed
// instruction for both, and each number is loaded or stored once per item, as in scalar
// code. (math/vector_pairs.hpp pairs two vectors that meet the SAME operand; here the
// operands differ between the lanes too.) The same code, written on a lane type T, runs a
// lone last item (an odd count) with T = One: plain scalar arithmetic. Not installed.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>  // SSE2, the x86-64 baseline
#endif

#include <type_traits>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

using Lanes = Eigen::Array2d;  // (item 0, item 1)

/// One item alone, with the interface of `Lanes` (constructed from (item 0, item 1) and
/// ignoring item 1; [0] and [1] read the one number): the code written for `Lanes` runs a
/// lone last item (an odd count) as scalar code instead of a pair with a repeated lane.
struct One {
  double value = 0.0;
  One() = default;
  One(double first, double /*second*/) : value(first) {}
  static One Constant(double x) { return One(x, x); }
  double operator[](int) const { return value; }
};
inline One operator+(One a, One b) { return One(a.value + b.value, 0.0); }
inline One operator-(One a, One b) { return One(a.value - b.value, 0.0); }
inline One operator*(One a, One b) { return One(a.value * b.value, 0.0); }
inline One& operator+=(One& a, One b) { a.value += b.value; return a; }

/// Whether T carries two items (Lanes) or one (One).
template <class T>
constexpr bool kTwoItems = !std::is_same_v<T, One>;

/// A 3-vector of each item, one component per member.
template <class T>
struct Vec3Of {
  T x, y, z;
};
using Vec3Lanes = Vec3Of<Lanes>;

/// (a of item 0, a of item 1) for each component.
template <class T = Lanes>
inline Vec3Of<T> load_lanes(const double* first, const double* second) {
  return {T(first[0], second[0]), T(first[1], second[1]), T(first[2], second[2])};
}

template <class T>
inline void store_lanes(const Vec3Of<T>& a, double* first, double* second) {
  first[0] = a.x[0], first[1] = a.y[0], first[2] = a.z[0];
  if constexpr (kTwoItems<T>) second[0] = a.x[1], second[1] = a.y[1], second[2] = a.z[1];
}

template <class T>
inline Vec3Of<T> operator+(const Vec3Of<T>& a, const Vec3Of<T>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T>
inline Vec3Of<T> operator-(const Vec3Of<T>& a, const Vec3Of<T>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T>
inline Vec3Of<T> operator*(const T& s, const Vec3Of<T>& a) { return {s * a.x, s * a.y, s * a.z}; }

/// a × b in each lane.
template <class T>
inline Vec3Of<T> cross(const Vec3Of<T>& a, const Vec3Of<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// a · b in each lane.
template <class T>
inline T dot(const Vec3Of<T>& a, const Vec3Of<T>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/// (item 0's number in both lanes, item 1's number in both lanes): the rows stored with each
/// number twice (DerivativeData::composite_axis_rows).
template <class T>
inline void store_twice(const T& a, double* first, double* second) {
#if defined(__SSE2__)
  if constexpr (kTwoItems<T>) {  // pshufd copies a lane to both in one non-destructive instruction
    const __m128i both = _mm_castpd_si128(_mm_load_pd(a.data()));  // (GCC picks copy + unpck otherwise)
    _mm_store_pd(first, _mm_castsi128_pd(_mm_shuffle_epi32(both, 0x44)));
    _mm_store_pd(second, _mm_castsi128_pd(_mm_shuffle_epi32(both, 0xEE)));
    return;
  }
#endif
  Eigen::Map<Lanes, Eigen::Aligned16>(first).setConstant(a[0]);
  if constexpr (kTwoItems<T>) Eigen::Map<Lanes, Eigen::Aligned16>(second).setConstant(a[1]);
}

}  // namespace mechdyn
