// Cross-product matrices and 3D helpers of the axis-invariant notation.
//
// skew(n) is the paper's ñ (explicit-canonical-dynamics-joint-friction, Table 1):
// skew(a) * b = a x b.
#pragma once

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
/// (explicit-canonical-dynamics-joint-friction eq. 3; Rodrigues). n must be unit.
inline Mat3 axis_angle_rotation(const Vec3& n, double angle) {
  const Mat3 n_skew = skew(n);
  return Mat3::Identity() + std::sin(angle) * n_skew + (1.0 - std::cos(angle)) * (n_skew * n_skew);
}

}  // namespace mechdyn
