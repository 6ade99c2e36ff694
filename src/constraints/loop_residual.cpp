// Closure residual without the Jacobian (the rows of loop_closure.cpp). See the header.
#include "mechdyn/constraints/loop_residual.hpp"

#include <algorithm>
#include <cmath>

#include "mechdyn/constraints/loop_closure.hpp"

namespace mechdyn {

double loop_residual_norm(const Model& model, const Data& data) {
  double largest = 0.0;
  auto keep = [&](double x) { largest = std::max(largest, std::abs(x)); };
  static const Mat3 identity = Mat3::Identity();
  static const Vec3 zero = Vec3::Zero();
  for (const Loop& loop : model.loops) {
    const Mat3& ra = loop.a.body == kGround ? identity : data.rotation[loop.a.body];
    const Mat3& rb = loop.b.body == kGround ? identity : data.rotation[loop.b.body];
    const Vec3& oa = loop.a.body == kGround ? zero : data.position[loop.a.body];
    const Vec3& ob = loop.b.body == kGround ? zero : data.position[loop.b.body];
    auto at = [](const Vec3& origin, const Mat3& rotation, const Vec3& point) {  // origin + R p (p = 0: a body origin)
      if (point.x() == 0.0 && point.y() == 0.0 && point.z() == 0.0) return origin;
      return Vec3(origin + rotation * point);
    };
    const Vec3 d = at(oa, ra, loop.a.point) - at(ob, rb, loop.b.point);
    auto orientation = [&] {  // e = ½ Σ a_i × b_i
      Vec3 e = Vec3::Zero();
      for (int c = 0; c < 3; ++c) e += 0.5 * Vec3(ra.col(c)).cross(Vec3(rb.col(c)));
      for (int c = 0; c < 3; ++c) keep(e[c]);
    };
    auto position = [&] {
      for (int c = 0; c < 3; ++c) keep(d[c]);
    };
    Vec3 t1, t2;
    switch (loop.type) {
      case LoopType::Spherical:
        position();
        break;
      case LoopType::Revolute: {
        position();
        perpendicular_pair(loop.axis, t1, t2);
        const Vec3 na = ra * loop.axis;
        keep((rb * t1).dot(na));
        keep((rb * t2).dot(na));
        break;
      }
      case LoopType::Prismatic:
        perpendicular_pair(loop.axis, t1, t2);
        keep((ra * t1).dot(-d));
        keep((ra * t2).dot(-d));
        orientation();
        break;
      case LoopType::PlanarRevolute:
        perpendicular_pair(loop.axis, t1, t2);
        keep((ra * t1).dot(d));
        keep((ra * t2).dot(d));
        break;
      case LoopType::Universal:
        position();
        keep((ra * loop.axis).dot(rb * loop.second_axis) - loop.axis.dot(loop.second_axis));
        break;
      case LoopType::Fixed:
        position();
        orientation();
        break;
    }
  }
  return largest;
}

}  // namespace mechdyn
