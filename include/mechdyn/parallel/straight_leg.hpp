// Closed-form rates, accelerations and platform wrenches of a straight U–P–S or U–P–U leg
// (ParallelModel::StraightLeg with closed_form_motion): the vector formulas of the
// Schoenflies paper instead of the general 6 × k screw system of the limb.
//
// Source: momentum-screw-schoenflies-2UPS-2UPU §3.2 eqs. (20)–(24) (the leg's length rate
// and angular velocity from the velocity of its platform point) and §3.3 eqs. (30)–(36)
// (the constraint force at the platform joint from the leg's moment balance about A_i,
// with the constraint torque of the universal joint eliminated by a product with the leg
// axis), differentiated once more for the accelerations. World coordinates, per leg:
// A the universal joint's centre, n₁ its fixed axis, n₂' its carried axis, w = n₁ × n₂',
// e the prismatic axis, C = A + s e the platform joint's centre; platform twist
// V_P = (ω_P; v_O) and its rate A_P = (ω̇_P; a_O) (screw form about the world origin).
//   velocities     ċ = v_O + ω_P × C,  ṡ = e·ċ,  ω_⊥ = e × ċ / s               (eqs. 21–23)
//                  ω = θ̇₁ n₁ + θ̇₂ n₂' with ω − ω_⊥ ∥ e:
//                  θ̇₁ = ω_⊥·(n₂' × e)/(w·e),  θ̇₂ = ω_⊥·(e × n₁)/(w·e)
//   accelerations  c̈ = a_O + ω̇_P × C + ω_P × ċ,  s̈ = e·c̈ + s|ω_⊥|²,
//                  ω̇_⊥ = (e × c̈ − 2ṡ ω_⊥)/s − (ω·e) e × ω,   ω̇ = θ̈₁ n₁ + θ̈₂ n₂' + θ̇₁θ̇₂ w
//                  (ṅ₂' = θ̇₁ w): θ̈ from r = ω̇_⊥ − θ̇₁θ̇₂ w as θ̇ from ω_⊥
//   leg twists     lower (ω; A × ω), upper (ω; A × ω + ṡ e); rates (ω̇; A × ω̇) and
//                  (ω̇; A × ω̇ + s̈ e + ṡ ω × e)
//   platform joint relative rates Δω = ω_P − ω (spherical: its world components; universal
//                  with axes u₁' on the leg and u₂' on the platform, w_c = u₁' × u₂':
//                  φ̇₁ = (Δω × u₂')·w_c/|w_c|², φ̇₂ = (u₁' × Δω)·w_c/|w_c|²; φ̈ likewise from
//                  Δω̇ − φ̇₁ ω × u₁' − φ̇₂ ω_P × u₂'). A universal end must leave Δω·w_c = 0
//                  and the same for the accelerations: otherwise the motion violates the
//                  closure (InvalidArgument, the compatibility tolerance of LimbWorkspace).
//   loads          per body, ρ = c − A (c its centre of mass): a_c = ω̇ × ρ + ω × (ω × ρ), plus
//                  2ṡ ω × e + s̈ e for the upper body; F = [c × f + R (J ω̇_b + ω_b × J ω_b); f],
//                  f = m (a_c − g), ω_b = Rᵀω, ω̇_b = Rᵀω̇ shared by the two bodies (MS eqs. 25–29)
//   wrenches       with the leg's loads D_U = F_lower + F_upper, D_P = F_upper ([m; f] about
//                  the origin), M = m_A(D_U) = D_U.m − A × D_U.f, the leg on the platform
//                  W = [C × F + ρ w_c; F]: the prismatic joint gives e·F = τ − e·D_P.f, the
//                  universal joint at A: s e × F + M = T w (its constraint torque T w), so
//                  T = M·e/(w·e) and F_⊥ = ((T w − M) × e)/s  (eqs. 31–34);
//                  W⁰ = [C × F⁰; F⁰], F⁰ = F_⊥ − (e·D_P.f) e, the effort column [C × e; e].
//                  A universal end adds the constraint wrench N (the limb's reciprocal
//                  screw, eq. 32's x₅ e_p): ρ = w·e, T = w_c·e, F_N = (h × e)/s with
//                  h = (w_c·e) w − (w·e) w_c, N = [C × F_N + (w·e) w_c; F_N]/‖·‖; W⁰ and the
//                  effort column are then made orthogonal to N, which makes them exactly the
//                  general path's D_i g_i and D_i e_a (parallel/momentum_screw_dynamics.hpp).
// The closed form divides by s and by w·e: when |w·e| < 10⁻³ |w| (LimbWorkspace::closed_form_margin;
// the leg close to the plane
// of its universal joint's axes; singular for a U–P–S leg, a spin of the leg about its axis
// that only the far joint fixes for a U–P–U leg) straight_leg_motion returns false and the
// caller takes the general path for that limb and sample. Both are tested equal.
// Cost per leg about 250 flops for the motion, 60 for the wrenches. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/limb_kinematics.hpp"
#include "mechdyn/parallel/parallel_model.hpp"

namespace mechdyn {

/// Rates and accelerations of the straight leg `limb` (closed_form_motion) at Data's poses
/// for the platform twist and its rate: v, a of its tree joints, the twists and rates of its
/// two bodies, and `state` (leg geometry and motion, θ̇_i, θ̈_i, N_i for a universal end).
/// False (nothing written) when the leg is too close to the plane of its universal joint's
/// axes for the closed form: |w·e| < margin |w|. Throws InvalidArgument when the motion violates a universal end.
bool straight_leg_motion(const Model& model, const Limb& limb, const Data& data, const Vec6& platform_velocity,
                         const Vec6& platform_acceleration, double compatibility_tolerance, double margin, LimbState& state,
                         AlignedVector<Vec6>& body_velocity, AlignedVector<Vec6>& body_acceleration,
                         Eigen::Ref<VecX> v, Eigen::Ref<VecX> a);

/// The loads F = dΓ/dt − $_g − $_e of the leg's two bodies ([m; f] about the world origin)
/// from its state (ω, ω̇, ṡ, s̈, e) and Data's poses; `external` per body.
void straight_leg_loads(const Model& model, const Limb& limb, const LimbState& state, const Data& data,
                        const AlignedVector<Vec6>& external, Vec6& lower_load, Vec6& upper_load);

/// The leg's part of eq. (40) from its two bodies' loads F = dΓ/dt − $_g − $_e:
/// distal[0..2] = D_j of its joints (universal, prismatic, platform joint), `known` = W⁰_i
/// (the wrench on the platform at zero effort), `effort` = the wrench per unit prismatic effort.
void straight_leg_wrenches(const Limb& limb, const LimbState& state, const Vec6& lower_load, const Vec6& upper_load,
                           Vec6* distal, Vec6& known, Vec6& effort);

}  // namespace mechdyn
