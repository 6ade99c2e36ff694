#include "mechdyn/math/spatial.hpp"

#include "mechdyn/math/skew.hpp"

namespace mechdyn {

SpatialInertia SpatialInertia::from_com(double mass, const Vec3& com, const Mat3& inertia_com) {
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

Mat6 SpatialInertia::matrix() const {
  Mat6 out;
  const Mat3 h = skew(first_moment);
  out.topLeftCorner<3, 3>() = rotational;
  out.topRightCorner<3, 3>() = h;
  out.bottomLeftCorner<3, 3>() = h.transpose();
  out.bottomRightCorner<3, 3>() = mass * Mat3::Identity();
  return out;
}

}  // namespace mechdyn
