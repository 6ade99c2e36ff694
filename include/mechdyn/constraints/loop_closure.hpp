// Closure equations of the cut joints (loops) at position and velocity level.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eq. (24): the velocity
// of the cut point seen from body a's chain equals that seen from body b's chain,
//   Σ_{u∈chain a} (r̃_{cS}ᵀ n_u ϕ̇_u or n_u ṙ_u) − Σ_{u∈chain b} (...) = 0,
// i.e. J q̇ = 0 with J built from the world motion axes. The position residual Φ(q)
// whose time derivative is J q̇ is, per cut-joint type (rows):
//   spherical (3):       p_a − p_b
//   revolute (5):        p_a − p_b; t1_b · n_a, t2_b · n_a        (axis fixed in both)
//   prismatic (5):       t1_a · (p_b − p_a), t2_a · (p_b − p_a); orientation error (3)
//   universal (4):       p_a − p_b; (Q_a n1) · (Q_b n2) − n1 · n2
//   fixed (6):           p_a − p_b; orientation error e = ½ Σ_i (Q_a e_i) × (Q_b e_i)
//   planar-revolute (2): t1_a · (p_a − p_b), t2_a · (p_a − p_b)   (t1, t2 ⟂ axis, default z)
// where p is the cut point in the world, n the loop axis carried by a body, and t1, t2
// a fixed orthonormal pair perpendicular to the axis. J is the exact derivative.
// Cost O(rows · depth). Reads Data's kinematics; writes data.loop_residual/loop_jacobian.
#pragma once

#include "mechdyn/constraints/loop_rows.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Φ(q) into data.loop_residual and J(q) into data.loop_jacobian (and the rows' unit
/// wrenches, loop_rows.hpp). Runs forward_kinematics(q) itself. Allocates nothing.
void loop_closure(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// Φ and J on the position stage in Data (forward_kinematics(q) or any overload).
/// Reads data.rotation, data.position, data.motion_axis. Writes data.loop_residual,
/// data.loop_jacobian and the unit wrenches data.loop_row_wrench_a / _b.
void loop_closure_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn
