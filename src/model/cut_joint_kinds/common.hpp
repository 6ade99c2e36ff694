// Pieces shared by the cut-joint kinds (src/model/cut_joint_kinds/*.hpp). Not installed.
//
// Every cut-joint kind is a struct of static inline members with one interface, reached
// through visit_cut_joint_kind (../cut_joint_dispatch.hpp), one switch per loop:
//   type, type_name, rows, axis_keys, mjcf, row_labels[rows]     the facts (model/cut_joint.hpp)
//   closure_rows(Rows& rows, const Loop&)   its rows, in order, as calls to the row families
//       of a row writer (constraints/loop_rows.hpp; the residual-only writer of
//       loop_residual.cpp): each family writes the residual, the unit wrenches W_a, W_b
//       (J's row, EC eq. 24) and J̇ v of its rows:
//         rows.position()              p_a − p_b                                   (3)
//         rows.tilt(n)                 t1_b · n_a, t2_b · n_a, t1, t2 ⟂ n          (2)
//         rows.alignment(x, y, c)      (Q_b x) · (Q_a y) − c                      (1)
//         rows.offset(n, ±1)           ±t_a · (p_a − p_b), t1, t2 ⟂ n             (2)
//         rows.orientation()           e = ½ Σ_i (Q_a e_i) × (Q_b e_i)             (3)
//   freedom_axes(loop, Q_a, Q_b, out)      the relative motions the closed cut allows
//   split_reaction(loop, Q_a, Q_b, f, τ)   the reaction's split for friction (joint.hpp)
#pragma once

#include <cmath>

#include "../joint_kinds/common.hpp"  // magnitude, off_axis
#include "mechdyn/model/cut_joint.hpp"

namespace mechdyn::cut_joint_kinds {

using joint_kinds::magnitude;
using joint_kinds::off_axis;

/// The three rotations about the world axes through the cut point (a ball's freedoms).
inline int world_rotations(CutFreedom* out) {
  for (int c = 0; c < 3; ++c) out[c] = {true, Vec3::Unit(c), CutCarrier::World};
  return 3;
}

}  // namespace mechdyn::cut_joint_kinds
