// 3-vectors, 3x3 matrices, spatial motion and force vectors and spatial inertias of
// symbolic expressions (expression_graph.hpp), for the symbolic algorithms of
// `mechdyn codegen`. Every product is written entry by entry, so the graph folds each
// structural 0 and ±1 away: a rotation about e_z times a vector costs 4 multiplications,
// a diagonal inertia times a vector 3. Spatial conventions as in math/spatial.hpp and
// dynamics/rnea.cpp (Featherstone 2008 §2): motion [ω; u], force [n; f], here in body
// coordinates at the body frame origin. Not installed.
#pragma once

#include "expression_graph.hpp"
#include "mechdyn/math/types.hpp"

namespace mechdyn::codegen {

struct SVec3 {
  Expr e[3];
  Expr& operator[](int k) { return e[k]; }
  const Expr& operator[](int k) const { return e[k]; }
  static SVec3 constant(const Vec3& v) { return {{Expr(v[0]), Expr(v[1]), Expr(v[2])}}; }
};

inline SVec3 operator+(const SVec3& a, const SVec3& b) { return {{a[0] + b[0], a[1] + b[1], a[2] + b[2]}}; }
inline SVec3 operator-(const SVec3& a, const SVec3& b) { return {{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
inline SVec3 operator-(const SVec3& a) { return {{-a[0], -a[1], -a[2]}}; }
inline SVec3 operator*(Expr s, const SVec3& a) { return {{s * a[0], s * a[1], s * a[2]}}; }
inline SVec3& operator+=(SVec3& a, const SVec3& b) { return a = a + b; }
inline Expr dot(const SVec3& a, const SVec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline SVec3 cross(const SVec3& a, const SVec3& b) {
  return {{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
inline SVec3 named(const SVec3& a, const std::string& hint) {
  return {{named(a[0], hint + "_x"), named(a[1], hint + "_y"), named(a[2], hint + "_z")}};
}

struct SMat3 {
  Expr m[3][3];
  Expr& operator()(int i, int j) { return m[i][j]; }
  const Expr& operator()(int i, int j) const { return m[i][j]; }
  static SMat3 identity() {
    SMat3 r;
    r(0, 0) = r(1, 1) = r(2, 2) = Expr(1.0);
    return r;
  }
  static SMat3 constant(const Mat3& a) {
    SMat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r(i, j) = Expr(a(i, j));
    return r;
  }
};

inline SVec3 operator*(const SMat3& a, const SVec3& x) {  // A x
  SVec3 r;
  for (int i = 0; i < 3; ++i) r[i] = a(i, 0) * x[0] + a(i, 1) * x[1] + a(i, 2) * x[2];
  return r;
}
inline SVec3 transpose_times(const SMat3& a, const SVec3& x) {  // Aᵀ x
  SVec3 r;
  for (int i = 0; i < 3; ++i) r[i] = a(0, i) * x[0] + a(1, i) * x[1] + a(2, i) * x[2];
  return r;
}
inline SMat3 operator*(const SMat3& a, const SMat3& b) {
  SMat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = a(i, 0) * b(0, j) + a(i, 1) * b(1, j) + a(i, 2) * b(2, j);
  return r;
}
inline SMat3 named(const SMat3& a, const std::string& hint) {
  SMat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = named(a(i, j), hint + "_" + std::to_string(i) + std::to_string(j));
  return r;
}

/// A spatial motion [ω; u] or force [n; f] vector.
struct SSpatial {
  SVec3 top, bottom;
};
inline SSpatial operator+(const SSpatial& a, const SSpatial& b) { return {a.top + b.top, a.bottom + b.bottom}; }
inline SSpatial operator*(Expr s, const SSpatial& a) { return {s * a.top, s * a.bottom}; }
inline Expr dot(const SSpatial& a, const SSpatial& b) { return dot(a.top, b.top) + dot(a.bottom, b.bottom); }
/// Motion cross product m × x = [ω × x_ω; ω × x_u + u × x_ω] (Featherstone crm).
inline SSpatial cross_motion(const SSpatial& m, const SSpatial& x) {
  return {cross(m.top, x.top), cross(m.top, x.bottom) + cross(m.bottom, x.top)};
}

/// A rigid body's spatial inertia about a frame origin, in that frame's coordinates:
/// mass m, first moment h = m c, rotational inertia Ī = J + m(|c|²1 − c cᵀ) (symmetric).
struct SInertia {
  Expr mass;
  SVec3 first_moment;
  Expr xx, yy, zz, xy, xz, yz;
  SMat3 rotational() const {
    SMat3 r;
    r(0, 0) = xx, r(1, 1) = yy, r(2, 2) = zz;
    r(0, 1) = r(1, 0) = xy;
    r(0, 2) = r(2, 0) = xz;
    r(1, 2) = r(2, 1) = yz;
    return r;
  }
};

/// I [ω; u] = [Ī ω + h × u; m u − h × ω].
inline SSpatial apply(const SInertia& inertia, const SSpatial& m) {
  return {inertia.rotational() * m.top + cross(inertia.first_moment, m.bottom),
          inertia.mass * m.bottom - cross(inertia.first_moment, m.top)};
}

}  // namespace mechdyn::codegen
