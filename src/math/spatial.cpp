#include "mechdyn/math/spatial.hpp"

#include "mechdyn/math/skew.hpp"

namespace mechdyn {

SpatialInertia SpatialInertia::from_com(double mass, const Vec3& com, const Mat3& inertia_com) {
  SpatialInertia out;
  out.mass = mass;
  out.first_moment = mass * com;
  const Mat3 c = skew(com);
  out.rotational = inertia_com - mass * (c * c);  // parallel-axis theorem: I_O = I_c − m c̃ c̃
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
