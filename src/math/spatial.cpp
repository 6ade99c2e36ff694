#include "mechdyn/math/spatial.hpp"

#include "mechdyn/math/skew.hpp"

namespace mechdyn {

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
