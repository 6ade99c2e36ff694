// The rows of the cut joints: one table per loop type, read by the closure equations
// (constraints/loop_closure.hpp), the acceleration term (constraints/loop_acceleration.hpp)
// and the cut-joint forces (constraints/cut_joint_forces.hpp).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eqs. (24)–(26). Every
// closure row r of a cut joint between bodies a and b is described by
//   φ_r           the position residual (data.loop_residual), zero when the loop is closed;
//   W_a,r, W_b,r  unit wrenches on body a and on body b (spatial forces [moment about the
//                 world origin; force], world), whose power is the row's rate:
//                 φ̇_r = Σ_{k∈chain a} s_kᵀ W_a,r + Σ_{k∈chain b} s_kᵀ W_b,r = (J v)_r,
//                 so J's row is read off them, and λ_r W_a,r, λ_r W_b,r are the
//                 constraint wrenches the row carries (EC eqs. 25–26, τ_c = Jᵀ λ);
//   (J̇ v)_r       the row's acceleration at q̈ = 0 (data.loop_bias).
// The rows per loop type (p: cut point in the world; t1, t2 ⟂ axis, perpendicular_pair;
// n, n1, n2 the loop axes carried by a body; e = ½ Σ_i (Q_a e_i) × (Q_b e_i)):
//   spherical (3):       p_a − p_b
//   revolute (5):        p_a − p_b; t1_b · n_a, t2_b · n_a          (axis fixed in both)
//   prismatic (5):       t1_a · (p_b − p_a), t2_a · (p_b − p_a); e  (3)
//   universal (4):       p_a − p_b; (Q_a n1) · (Q_b n2) − n1 · n2
//   fixed (6):           p_a − p_b; e
//   planar-revolute (2): t1_a · (p_a − p_b), t2_a · (p_a − p_b)
// The unit wrenches of the row families (u: force at point p, w: torque):
//   p_a − p_b, row c:    W_a = [p_a × e_c; e_c],  W_b = −[p_b × e_c; e_c]
//   x_b · y_a:           W_a = [y_a × x_b; 0],     W_b = −W_a        (revolute, universal)
//   ±t_a · δ, δ = p_a − p_b:  W_a = ±[t_a × δ + p_a × t_a; t_a],  W_b = ∓[p_b × t_a; t_a]
//   e, row c:            W_a = [A_c; 0], W_b = [B_c; 0],  ė = A ω_a + B ω_b,
//                        A = ½ Σ b̃_i ã_i, B = −½ Σ ã_i b̃_i
// J̇ v per family (exact, from the q̈ = 0 accelerations; no finite differences):
//   point:     a_p = a_O + α × p + ω × v_p;   direction: d̈ = α × d + ω × (ω × d)
//   x · y:     ẍ · y + 2 ẋ · ẏ + x · ÿ;       e: ½ Σ (ä_i × b_i + 2 ȧ_i × ḃ_i + a_i × b̈_i)
// Which families a type uses, in which order, is its kind's closure_rows
// (src/model/cut_joint_kinds/<type>.hpp); adding a type: docs/joints.md §7.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// The rows' unit wrenches W_a,r, W_b,r into data.loop_row_wrench_a / _b (and their
/// residuals into data.loop_residual) at the position stage in Data
/// (forward_kinematics(q) or any overload): model.num_loop_rows each, world, about the
/// world origin — the constraint wrench basis of each cut joint (the reciprocal screws
/// of its freedoms). Reads data.rotation, data.position. Allocates nothing.
void loop_row_wrenches(const Model& model, Data& data);

/// Pose and motion of one side of a cut joint: the frame that carries the loop point and
/// axes — a rigid body's frame (or the ground's, at rest at the identity), or the section
/// frame of a flexible beam at the loop point (flexible/flexible_system.hpp). World
/// components; [ω; v_O] and [α; a_O] the spatial velocity and the acceleration at q̈ = 0.
struct CutFrame {
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
  Vec3 omega = Vec3::Zero(), velocity_origin = Vec3::Zero();      // [ω; v_O]
  Vec3 alpha = Vec3::Zero(), acceleration_origin = Vec3::Zero();  // [α; a_O] at q̈ = 0

  Vec3 point(const Vec3& local) const { return position + rotation * local; }
  Vec3 point_velocity(const Vec3& p) const { return velocity_origin + omega.cross(p); }
  Vec3 point_acceleration(const Vec3& p) const {
    return acceleration_origin + alpha.cross(p) + omega.cross(point_velocity(p));
  }
  Vec3 direction_rate(const Vec3& d) const { return omega.cross(d); }
  Vec3 direction_acceleration(const Vec3& d) const { return alpha.cross(d) + omega.cross(omega.cross(d)); }
};

/// The rows of one cut joint between the frames a and b (the table above): residuals,
/// unit wrenches and (with_bias) J̇ v into the arrays from index 0 on (loop_rows(type)
/// entries each; `bias` unused without with_bias). Allocates nothing.
void cut_joint_rows(const Loop& loop, const CutFrame& a, const CutFrame& b, bool with_bias, double* residual,
                    Vec6* wrench_a, Vec6* wrench_b, double* bias);

/// A fixed orthonormal pair (t1, t2) perpendicular to the unit vector n.
void perpendicular_pair(const Vec3& n, Vec3& t1, Vec3& t2);

}  // namespace mechdyn
