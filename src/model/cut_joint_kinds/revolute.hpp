// Revolute cut joint (5 rows): the cut points coincide and the axis n, fixed in both
// bodies, stays aligned (EC §2.3, eq. 24).
//   rows      p_a − p_b; t1_b · n_a, t2_b · n_a (t1, t2 ⟂ n)   labels x, y, z, tilt_1, tilt_2
//   freedoms  rotation about n (Q_a n = Q_b n when closed)
//   split     τ_r = |τ − n nᵀτ|, f_r = |f − n nᵀf|, f_m = |nᵀf| (the tree's revolute, EC eqs. 36–46)
//   MJCF      two connects: the cut point and a point on the axis
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct Revolute {
  static constexpr LoopType type = LoopType::Revolute;
  static constexpr const char* type_name = "revolute";
  static constexpr int rows = 5;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::Axis;
  static constexpr bool planar_only = false;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::AxisConnects;
  static constexpr const char* row_labels[rows] = {"x", "y", "z", "tilt_1", "tilt_2"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop& loop) {
    r.position();
    r.tilt(loop.axis);
  }
  static int freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3&, CutFreedom* out) {
    out[0] = {true, rotation_a * loop.axis, CutCarrier::Both};
    return 1;
  }
  static ReactionSplit split_reaction(const Loop& loop, const Mat3& rotation_a, const Mat3&, const Vec3& force,
                                      const Vec3& torque) {
    const Vec3 n = rotation_a * loop.axis;
    return {off_axis(n, torque), off_axis(n, force), std::abs(n.dot(force))};
  }
};

}  // namespace mechdyn::cut_joint_kinds
