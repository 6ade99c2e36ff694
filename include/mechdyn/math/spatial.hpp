// Spatial (6D) vector algebra in world coordinates referred to the world origin.
//
// Motion vectors m = [ω; v_O] (angular velocity, velocity of the body point at the
// world origin); force vectors f = [n_O; f] (moment about the world origin, force).
// Featherstone, "Rigid Body Dynamics Algorithms" (2008), §2.9 (crm, crf) and §2.13
// (spatial inertia). All operations use fixed-size 3D blocks and never allocate.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

inline Vec3 angular(const Vec6& m) { return m.head<3>(); }
inline Vec3 linear(const Vec6& m) { return m.tail<3>(); }

inline Vec6 make_vec6(const Vec3& top, const Vec3& bottom) {
  Vec6 out;
  out << top, bottom;
  return out;
}

/// Motion cross product m × x (Featherstone crm(m) x).
inline Vec6 cross_motion(const Vec6& m, const Vec6& x) {
  const Vec3 w = m.head<3>(), v = m.tail<3>();
  const Vec3 xw = x.head<3>(), xv = x.tail<3>();
  return make_vec6(w.cross(xw), w.cross(xv) + v.cross(xw));
}

/// Force cross product m ×* f (Featherstone crf(m) f).
inline Vec6 cross_force(const Vec6& m, const Vec6& f) {
  const Vec3 w = m.head<3>(), v = m.tail<3>();
  const Vec3 fn = f.head<3>(), ff = f.tail<3>();
  return make_vec6(w.cross(fn) + v.cross(ff), w.cross(ff));
}

/// Moment about `point` of a force vector referred to the world origin.
inline Vec3 moment_about(const Vec6& f, const Vec3& point) {
  return f.head<3>() - point.cross(f.tail<3>());
}

/// Spatial inertia of a rigid body about the world origin, kept as its
/// centre-of-mass quantities: mass m, world centre of mass c, and the first
/// moment h = m c; the rotational block about the origin is I_c − m c̃ c̃.
struct SpatialInertia {
  double mass = 0.0;
  Vec3 first_moment = Vec3::Zero();     // h = m c (world)
  Mat3 rotational = Mat3::Zero();       // I_O = I_c − m c̃ c̃ (about world origin)

  static inline SpatialInertia from_com(double mass, const Vec3& com, const Mat3& inertia_com);

  /// I * m for a motion vector m (returns a force vector).
  Vec6 apply(const Vec6& m) const {
    const Vec3 w = m.head<3>(), v = m.tail<3>();
    return make_vec6(rotational * w + first_moment.cross(v), mass * v - first_moment.cross(w));
  }

  SpatialInertia& operator+=(const SpatialInertia& o) {
    mass += o.mass;
    first_moment += o.first_moment;
    rotational += o.rotational;
    return *this;
  }

  /// The full 6x6 matrix [[I_O, h̃], [h̃ᵀ, m 1]].
  Mat6 matrix() const;
};

inline SpatialInertia SpatialInertia::from_com(double mass, const Vec3& com, const Mat3& inertia_com) {
  SpatialInertia out;
  out.mass = mass;
  out.first_moment = mass * com;
  // Parallel-axis theorem: I_O = I_c − m c̃ c̃ = I_c + m (|c|² 1 − c cᵀ), with
  // m c cᵀ = h cᵀ (h = m c): symmetric, 6 distinct entries.
  const Vec3& h = out.first_moment;
  const double hc = h.dot(com);
  const double xx = h.x() * com.x(), yy = h.y() * com.y(), zz = h.z() * com.z();
  const double xy = h.x() * com.y(), xz = h.x() * com.z(), yz = h.y() * com.z();
  Mat3& r = out.rotational;
  r(0, 0) = inertia_com(0, 0) + hc - xx;
  r(1, 1) = inertia_com(1, 1) + hc - yy;
  r(2, 2) = inertia_com(2, 2) + hc - zz;
  r(1, 0) = inertia_com(1, 0) - xy;
  r(0, 1) = inertia_com(0, 1) - xy;
  r(2, 0) = inertia_com(2, 0) - xz;
  r(0, 2) = inertia_com(0, 2) - xz;
  r(2, 1) = inertia_com(2, 1) - yz;
  r(1, 2) = inertia_com(1, 2) - yz;
  return out;
}

}  // namespace mechdyn
