// Closed-form inverse position kinematics of a parallel manipulator whose limbs are
// straight U–P legs (ParallelModel::StraightLeg) or a single joint between the ground and
// the platform.
//
// Source: momentum-screw-schoenflies-2UPS-2UPU §3.2, eqs. (15)–(19): the platform point
// C_i = r_{O_M} + R r_{O_M C_i}, the leg vector r_{A_iC_i} = C_i − A_i, its length l_i and
// direction e_i. Here, per leg with universal joint axes n₁ (fixed in the ground), n₂
// (carried) and prismatic axis d (its direction at q = 0): the prismatic coordinate is
// l_i − s₀ (s₀: where the leg end lies on the axis at q = 0), and the universal joint's
// angles solve R(n₁, θ₁) R(n₂, θ₂) d = e_i — Paden–Kahan subproblem 2 (Murray, Li & Sastry,
// "A Mathematical Introduction to Robotic Manipulation" (1994) §3.2.2): the intermediate
// vector z = R(n₂, θ₂) d = α n₁ + β n₂ ± γ n₁ × n₂, with θ₂ and θ₁ from subproblem 1
// (the rotation about one axis taking one vector to another). Of the two solutions the
// one nearest the previous configuration (q on input) is taken. The platform's own joint
// (universal or spherical, on a leg or on the ground) takes the rotation between the leg
// and the platform: a quaternion, or two angles from subproblem 1.
// With `kinematics`, the bodies' poses come out as a by-product — every body of such a
// model belongs to a leg or to the platform — and are written where forward_kinematics(q)
// writes them (rotation, position, com_position, inertia_world, motion_axis), built from
// the cosines and sines the subproblems already have, without evaluating the trigonometric
// functions again (tested equal to forward_kinematics(q) to round-off).
// Errors (InvalidArgument): a leg that cannot reach its platform point, a leg along an
// axis of its universal joint, a platform orientation that a universal joint cannot take,
// a platform centre that moves off a ground joint — each a motion that violates the
// closure. Cost O(bodies), a few atan2 per leg. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/parallel_model.hpp"

namespace mechdyn {

/// The platform pose → every joint coordinate of q (ParallelModel::closed_form_positions
/// must hold; q holds the previous configuration on input, for the branch). With
/// `kinematics`, also the position kinematics of every body (as forward_kinematics(q)).
void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data* kinematics = nullptr);

}  // namespace mechdyn
