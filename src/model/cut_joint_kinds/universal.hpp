// Universal cut joint (4 rows): the cut points coincide and the first axis n1, carried by
// body a, keeps its angle to the second n2, carried by body b (EC §2.3, eq. 24). Which
// axis each body carries is the model file's convention (docs/model-file.md, "loops").
//   rows      p_a − p_b; (Q_b n2) · (Q_a n1) − n1 · n2          labels x, y, z, angle
//   freedoms  rotation about Q_a n1 and about Q_b n2
//   split     f_r = |f|, τ_r = |τ · (n1 × n2)| / |n1 × n2| (the tree's universal)
//   MJCF      none: MuJoCo 2.2.2 has no equality constraint for it
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct Universal {
  static constexpr LoopType type = LoopType::Universal;
  static constexpr const char* type_name = "universal";
  static constexpr int rows = 4;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::Axes;
  static constexpr bool planar_only = false;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::None;
  static constexpr const char* row_labels[rows] = {"x", "y", "z", "angle"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop& loop) {
    r.position();
    r.alignment(loop.second_axis, loop.axis, loop.axis.dot(loop.second_axis));
  }
  static int freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b, CutFreedom* out) {
    out[0] = {true, rotation_a * loop.axis, CutCarrier::A};
    out[1] = {true, rotation_b * loop.second_axis, CutCarrier::B};
    return 2;
  }
  static ReactionSplit split_reaction(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b,
                                      const Vec3& force, const Vec3& torque) {
    const Vec3 normal = (rotation_a * loop.axis).cross(rotation_b * loop.second_axis);
    const double length = magnitude(normal);
    return {length > 0.0 ? std::abs(normal.dot(torque)) / length : 0.0, magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::cut_joint_kinds
