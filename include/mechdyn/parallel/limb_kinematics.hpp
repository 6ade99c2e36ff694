// Screw-form kinematics of the limbs of a parallel manipulator along a platform motion:
// joint positions in closed form, joint rates and accelerations limb by limb.
//
// Sources: momentum-screw-schoenflies-2UPS-2UPU §3.2, eqs. (15)–(24) (inverse displacement
// of a limb: r_{A_iC_i} = r_{O_M} + R r_{O_M C_i} − r_{A_i}, l_i = |r_{A_iC_i}|, e_i); and
// screw-kinematics-3UPS-UPU-S §2.1 eqs. (1)–(5) and §4 eqs. (28)–(44):
//   velocities     V_P = S_i θ̇_i                      (eq. 4: the platform twist is the sum of
//                                                       joint rates times unit screws, per limb)
//   accelerations  A_P = S_i θ̈_i + Σ_{j<k} [θ̇_j $_j, θ̇_k $_k]   (eqs. 42–44, Lie brackets, eq. 36)
// with V_P = (ω; v_O) the platform twist about the world origin and A_P = dV_P/dt =
// (ω̇; a_O − ω × v_O) its acceleration in screw form (eq. 30; Featherstone's spatial
// acceleration). The Lie-bracket sum is evaluated as the forward recursion
// A_k = A_{k−1} + s_k θ̈_k + ṡ_k θ̇_k with ṡ = [V, s] for a screw carried by the body before
// the joint, [V_after, s] for one carried by the body after it (a universal joint's second
// axis) and (0; ṗ × e) for the world-direction screws of a spherical joint (whose rates are
// world angular-velocity components) — the same sum, term by term. Per limb the 6 × k_i
// system is solved through the Cholesky factor of S_iᵀS_i (θ̇ = D_iᵀ V_P: least squares for k_i < 6, with a check that
// V_P lies in the span of the limb's freedoms: otherwise the motion violates the closure).
// The factorisation also gives what the momentum-screw method needs: D_i = S_i (S_iᵀS_i)⁻¹ (Sᵀ D = 1)
// and N_i, an orthonormal basis of the limb's constraint wrenches (S_iᵀ N_i = 0, the
// reciprocal screws of §2.2, eq. 8, as spatial forces [m; f] whose pairing with a twist is
// the dot product).
// Straight U–P–S/U legs (Limb::leg.closed_form_motion, chosen once when the limbs are
// recognised) take the paper's vector formulas instead (parallel/straight_leg.hpp: no 6 × k
// system, no Gram factor; LimbState::closed_form says which path a limb took at the last
// sample); LimbWorkspace::closed_form_legs = false sends every limb through the general path.
// Positions: parallel/limb_positions.hpp (closed form) or the general Newton method
// (parallel/prescribed_motion_kinematics.hpp).
// Reads Model, ParallelModel and Data's position kinematics (rotation, position, motion
// axes); writes v, a and the workspace. Cost O(Σ k_i²) per sample. Allocates nothing.
#pragma once

#include <array>
#include <limits>

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/parallel_model.hpp"
#include "mechdyn/parallel/screw_gram.hpp"

namespace mechdyn {


/// An angle with its cosine and sine: the closed-form positions take nearby angles from it
/// by the series of atan instead of atan2 (limb_positions.cpp, angle_near).
struct AngleAnchor {
  double value = 0.0, cosine = 1.0, sine = 0.0;
};

/// A straight leg's closed-form state at the last sample (parallel/straight_leg.hpp,
/// momentum-screw eqs. 15–24 and their derivatives), world coordinates.
struct StraightLegState {
  Vec3 end = Vec3::Zero();                   // C_i: the platform joint's centre, eq. (15)
  Vec3 direction = Vec3::UnitZ();            // e_i: the prismatic axis, eq. (19)
  double length = 0.0;                       // s_i with C_i − A_i = s_i e_i (l_i, signed by the axis' sense), eq. (18)
  Vec3 second_axis = Vec3::UnitY();          // n₂': the universal joint's second axis
  Vec3 cross_axis = Vec3::UnitX();           // w = n₁ × n₂': the axis of the universal joint's constraint torque
  double cross_along = 0.0;                  // w·e (zero: the leg lies in the plane of the joint's axes, singular)
  double rate = 0.0, acceleration = 0.0;     // ṡ, s̈: the prismatic joint's rate and acceleration
  Vec3 angular_velocity = Vec3::Zero();      // ω_i of the leg's two bodies, eq. (23)
  Vec3 angular_acceleration = Vec3::Zero();  // ω̇_i
  // The closed-form positions' memory (limb_positions): the first angle of the universal
  // joint they wrote last and the n₂' of that angle, so that the branch of the next pose is
  // chosen without trigonometric functions while q still holds that angle.
  double remembered_angle = std::numeric_limits<double>::quiet_NaN();
  Vec3 remembered_second_axis = Vec3::UnitY();
  std::array<AngleAnchor, 2> anchor{};       // the universal joint's angles
};

/// Per-limb scratch.
struct LimbState {
  LimbScrews screws;                        // S_i: unit screws (ω; v) at the world origin, eqs. (18)–(20)
  std::array<ScrewCarrier, 6> carrier{};    // how each column moves
  std::array<Vec3, 6> point{};              // WorldDirection columns: the joint centre
  ScrewGram gram;                           // G_i = S_iᵀ S_i = L Lᵀ: θ̇ = G⁻¹ Sᵀ V, D_i = S_i G⁻¹
  LimbScrews constraint;                    // N_i: 6 × (6 − k), orthonormal, S_iᵀ N_i = 0
  LimbVector rates, accelerations;          // θ̇_i, θ̈_i (k)
  Vec6 bias = Vec6::Zero();                 // Σ ṡ θ̇ over the limb (the Lie-bracket terms)
  StraightLegState leg;                     // closed-form legs: their geometry and motion
  bool closed_form = false;                 // this sample's rates came from straight_leg_motion (screws, gram unset)
};

struct LimbWorkspace {
  LimbWorkspace() = default;
  LimbWorkspace(const Model& model, const ParallelModel& parallel);
  std::vector<LimbState> limbs;
  std::vector<AlignedVector<Vec6>> joint_bias;  // per limb, per joint: ṡ θ̇ of the joint (its Lie-bracket term)
  AlignedVector<Vec6> body_velocity;      // per body: twist (ω; v_O) at the world origin
  AlignedVector<Vec6> body_acceleration;  // per body: dV/dt (ω̇; a_O − ω × v_O)
  Vec6 platform_velocity = Vec6::Zero();
  Vec6 platform_acceleration = Vec6::Zero();
  double rank_tolerance = 1e-7;           // a limb screw closer than this (relative) to the span of the others: singular
  double compatibility_tolerance = 1e-8;  // relative misfit of V_P, A_P outside a limb's span
  /// Straight legs with Limb::leg.closed_form_motion in closed form (straight_leg.hpp); false:
  /// every limb by the general screw-form path (the two are tested equal).
  std::array<AngleAnchor, 2> root_anchor{};  // the platform group's universal joint (closed-form positions)
  bool closed_form_legs = true;
  /// The closed form of a leg needs |w·e| ≥ margin |w| (straight_leg.hpp); closer to the plane
  /// of its universal joint's axes the leg takes the general path for that sample.
  double closed_form_margin = 1e-3;
  bool closed_form(const Limb& limb) const { return closed_form_legs && limb.leg.closed_form_motion; }
};

/// Screw-form joint rates and accelerations of every limb for the platform twist and its
/// acceleration (screw form, about the world origin), at the configuration of Data's
/// position kinematics (run forward_kinematics(q) first). Writes v, a (nv) and the
/// workspace (S_i, D_i, N_i, θ̇_i, θ̈_i, body twists and accelerations). Throws
/// InvalidArgument when a limb is singular or the motion leaves a limb's span.
void limb_screw_kinematics(const Model& model, const ParallelModel& parallel, const Data& data, LimbWorkspace& work,
                           const Vec6& platform_velocity, const Vec6& platform_acceleration, Eigen::Ref<VecX> v,
                           Eigen::Ref<VecX> a);

/// Screw form of a body motion sample: V = (ω; ṗ − ω × p), A = (ω̇; p̈ − ω̇ × p − ω × ṗ).
void platform_screws(const Vec3& position, const Vec3& velocity, const Vec3& acceleration, const Vec3& angular_velocity,
                     const Vec3& angular_acceleration, Vec6& twist, Vec6& twist_rate);

}  // namespace mechdyn
