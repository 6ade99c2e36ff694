// Cross-product matrices and 3D helpers of the axis-invariant notation.
//
// skew(n) is the paper's ñ (explicit-canonical-dynamics-joint-friction, Table 1):
// skew(a) * b = a x b.
#pragma once

#include <cmath>

#include "mechdyn/math/sine_cosine.hpp"
#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// ñ: the cross-product (skew-symmetric) matrix of a, so that skew(a) * b = a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(),
       a.z(), 0.0, -a.x(),
       -a.y(), a.x(), 0.0;
  return m;
}

/// Axis-invariant rotation Q = 1 + ñ sin(φ) + ñ² (1 − cos φ)
/// (explicit-canonical-dynamics-joint-friction eq. 3; Rodrigues) from c = cos φ and
/// s = sin φ (the kinematics stage takes them one body ahead). n must be unit.
/// Evaluated as Q = cos φ 1 + sin φ ñ + (1 − cos φ) n nᵀ (the same matrix, since
/// ñ² = n nᵀ − 1 for a unit n): 15 multiplications.
inline Mat3 axis_angle_rotation(const Vec3& n, double cosine, double sine) {
  const double s = sine, c = cosine, t = 1.0 - c;
  const double x = n.x(), y = n.y(), z = n.z();
  const double tx = t * x, ty = t * y, tz = t * z;
  const double txy = tx * y, txz = tx * z, tyz = ty * z;
  const double sx = s * x, sy = s * y, sz = s * z;
  Mat3 q;
  q << c + tx * x, txy - sz, txz + sy,
       txy + sz, c + ty * y, tyz - sx,
       txz - sy, tyz + sx, c + tz * z;
  return q;
}

/// The same from the angle φ: one sin/cos pair, then the above.
inline Mat3 axis_angle_rotation(const Vec3& n, double angle) {
  double sine, cosine;
  sine_cosine(angle, sine, cosine);
  return axis_angle_rotation(n, cosine, sine);
}

}  // namespace mechdyn
