// Closed-form inverse position kinematics of a parallel manipulator whose limbs are
// straight U–P legs (ParallelModel::StraightLeg) or a single joint between the ground and
// the platform.
//
// Source: momentum-screw-schoenflies-2UPS-2UPU §3.2, eqs. (15)–(19): the platform point
// C_i = r_{O_M} + R r_{O_M C_i}, the leg vector r_{A_iC_i} = C_i − A_i, its length l_i and
// direction e_i. Here, per leg with universal joint axes n₁ (fixed in the ground), n₂
// (carried) and prismatic axis d (its direction at q = 0): the prismatic coordinate is
// s_i − s₀ (s_i = ±l_i with the sign of the previous one; s₀: where the leg end lies on the
// axis at q = 0), e_i = r_{A_iC_i}/s_i, and the universal joint's world second axis
// n₂' = R(n₁, θ₁) n₂ keeps n₂'·n₁ = n₁·n₂ and n₂'·e_i = n₂·d, so n₂' = a n₁ + b e_i ± γ n₁ × e_i —
// Paden–Kahan subproblem 2 (Murray, Li & Sastry, "A Mathematical Introduction to Robotic
// Manipulation" (1994) §3.2.2) written in the world —, the sign nearest the previous n₂'.
// θ₁ and θ₂ by subproblem 1 (one atan2 each); the leg's rotation
// R_leg = [n₂', e, n₂' × e][n₂, d, n₂ × d]⁻¹ (the inverse constant, parallel_model.hpp) without
// further trigonometric functions. The platform's own joint (universal or spherical, on a
// leg or on the ground) takes the rotation between the leg and the platform: a
// quaternion, or two angles from subproblem 1.
// With `kinematics`, the bodies' poses come out as a by-product — every body of such a
// model belongs to a leg or to the platform — and are written where forward_kinematics(q)
// writes them: rotation, position, com_position, motion_axis, and in the first form
// inertia_world (tested equal to forward_kinematics(q) to round-off). The second form,
// the per-sample path, remembers per leg the n₂' it wrote (LimbState::leg), so that the
// next call, while q still holds the angle written with it, chooses the branch without
// cos θ₁ and sin θ₁ of the previous angle.
// Errors (InvalidArgument): a leg that cannot reach its platform point, a leg along an
// axis of its universal joint, a platform orientation that a universal joint cannot take,
// a platform centre that moves off a ground joint — each a motion that violates the
// closure. Cost O(bodies): two atan2 per leg and per universal platform joint. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/limb_kinematics.hpp"
#include "mechdyn/parallel/parallel_model.hpp"

namespace mechdyn {

/// The platform pose → every joint coordinate of q (ParallelModel::closed_form_positions
/// must hold; q holds the previous configuration on input, for the branch). With
/// `kinematics`, also the position kinematics of every body (as forward_kinematics(q)).
void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data* kinematics = nullptr);

/// The same on the per-sample path of the momentum-screw method: every body's rotation,
/// position, com_position and motion axes (not inertia_world), and each leg's memory in `limbs`.
void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data& kinematics, LimbWorkspace& limbs);

}  // namespace mechdyn
