// Fixed cut joint (6 rows): the cut points coincide and the bodies keep the relative
// orientation they have at q = 0 (natural frames parallel; EC §2.3, eq. 24).
//   rows      p_a − p_b; e = ½ Σ (Q_a e_i) × (Q_b e_i)      labels x, y, z, rx, ry, rz
//   freedoms  none
//   split     τ = |τ|, f = |f| (the tree's fixed joint)
//   MJCF      a weld
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct Fixed {
  static constexpr LoopType type = LoopType::Fixed;
  static constexpr const char* type_name = "fixed";
  static constexpr int rows = 6;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::None;
  static constexpr bool planar_only = false;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::Weld;
  static constexpr const char* row_labels[rows] = {"x", "y", "z", "rx", "ry", "rz"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop&) {
    r.position();
    r.orientation();
  }
  static int freedom_axes(const Loop&, const Mat3&, const Mat3&, CutFreedom*) { return 0; }
  static ReactionSplit split_reaction(const Loop&, const Mat3&, const Mat3&, const Vec3& force, const Vec3& torque) {
    return {magnitude(torque), magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::cut_joint_kinds
