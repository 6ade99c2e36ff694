// Prismatic cut joint (5 rows): the cut point of b stays on the line through a's along
// n, and the bodies keep their relative orientation (EC §2.3, eq. 24).
//   rows      t1_a · (p_b − p_a), t2_a · (p_b − p_a); e = ½ Σ (Q_a e_i) × (Q_b e_i)
//             labels offset_1, offset_2, rx, ry, rz
//   freedoms  translation along n
//   split     τ_p = |τ − n nᵀτ|, f_p = |f − n nᵀf|, τ_m = |nᵀτ| (the tree's prismatic, EC eqs. 36–46)
//   MJCF      none: MuJoCo 2.2.2's connect and weld cannot leave a slide free
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::cut_joint_kinds {

struct Prismatic {
  static constexpr LoopType type = LoopType::Prismatic;
  static constexpr const char* type_name = "prismatic";
  static constexpr int rows = 5;
  static constexpr CutAxisKeys axis_keys = CutAxisKeys::Axis;
  static constexpr bool planar_only = false;  // a joint of planar mechanisms only
  static constexpr MjcfCut mjcf = MjcfCut::None;
  static constexpr const char* row_labels[rows] = {"offset_1", "offset_2", "rx", "ry", "rz"};

  template <class Rows>
  static void closure_rows(Rows& r, const Loop& loop) {
    r.offset(loop.axis, -1.0);
    r.orientation();
  }
  static int freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3&, CutFreedom* out) {
    out[0] = {false, rotation_a * loop.axis, CutCarrier::Both};
    return 1;
  }
  static ReactionSplit split_reaction(const Loop& loop, const Mat3& rotation_a, const Mat3&, const Vec3& force,
                                      const Vec3& torque) {
    const Vec3 n = rotation_a * loop.axis;
    return {off_axis(n, torque), off_axis(n, force), std::abs(n.dot(torque))};
  }
};

}  // namespace mechdyn::cut_joint_kinds
