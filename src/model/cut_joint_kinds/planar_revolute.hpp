// Planar-revolute cut joint (2 rows): a revolute joint of a planar mechanism, closing only
// the two in-plane components of p_a − p_b; the plane's normal n (`axis`, default z) is
// carried by body a (EC §2.3, eq. 24; the three-loop mechanism of EC §4.2).
//   rows      t1_a · (p_a − p_b), t2_a · (p_a − p_b) (t1, t2 ⟂ n)   labels offset_1, offset_2
//   freedoms  translation along Q_a n and rotation about any axis
//   split     f_r = |f − n nᵀf| (the in-plane force; no torque and no load along n is carried)
//   MJCF      one connect shifted along n, when both bodies move in planes normal to n
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct PlanarRevolute {
  static constexpr LoopType type = LoopType::PlanarRevolute;
  static constexpr const char* type_name = "planar-revolute";
  static constexpr int rows = 2;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::OptionalAxis;
  static constexpr bool planar_only = true;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::PlanarConnect;
  static constexpr const char* row_labels[rows] = {"offset_1", "offset_2"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop& loop) {
    r.offset(loop.axis, 1.0);
  }
  static int freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3&, CutFreedom* out) {
    out[0] = {false, rotation_a * loop.axis, CutCarrier::A};
    return 1 + world_rotations(out + 1);
  }
  static ReactionSplit split_reaction(const Loop& loop, const Mat3& rotation_a, const Mat3&, const Vec3& force,
                                      const Vec3&) {
    return {0.0, off_axis(rotation_a * loop.axis, force), 0.0};
  }
};

}  // namespace mechdyn::cut_joint_kinds
