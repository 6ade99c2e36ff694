// Spherical cut joint (3 rows): the cut points on a and b coincide (EC §2.3, eq. 24).
//   rows      p_a − p_b                       labels x, y, z
//   freedoms  rotation about any axis through the cut point
//   split     f_r = |f| (no torque is carried), as the tree's spherical joint
//   MJCF      one connect
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct Spherical {
  static constexpr LoopType type = LoopType::Spherical;
  static constexpr const char* type_name = "spherical";  // model-format.md
  static constexpr int rows = 3;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::None;
  static constexpr bool planar_only = false;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::Connect;
  static constexpr const char* row_labels[rows] = {"x", "y", "z"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop&) {
    r.position();
  }
  static int freedom_axes(const Loop&, const Mat3&, const Mat3&, CutFreedom* out) { return world_rotations(out); }
  static ReactionSplit split_reaction(const Loop&, const Mat3&, const Mat3&, const Vec3& force, const Vec3&) {
    return {0.0, magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::cut_joint_kinds
