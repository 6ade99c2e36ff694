// Inverse dynamics of a parallel manipulator by the theorem of the momentum screw: the
// driving forces from one linear system of the platform, and the wrench of every joint.
//
// Source: momentum-screw-schoenflies-2UPS-2UPU (MS). §2, eq. (14): for any set of rigid
// bodies d/dt Σ Γ_i = Σ $_j, with the momentum screw Γ = (p; L_o) = (m v_C; r_C × p + J_C ω)
// (eqs. 7–8). §3.3–3.4: applied to the parts of a limb and to the platform, it gives
// eqs. (30)–(40); the constraint wrenches of the limbs drop out by reciprocal products
// (the paper's cross products with e_p), leaving A x = b (eq. 40), then the driving forces
// (eq. 41). Written here for any limb of R, P, U, S joints (parallel/parallel_model.hpp):
//  - per body b: F_b = dΓ_b/dt − $_gravity − $_external, dΓ/dt = I_O A + V ×* (I_O V)
//    (I_O the spatial inertia about the world origin, V the twist, A its rate: the
//    momentum screw's time derivative, Featherstone 2008 eq. 2.55);
//  - limb i, W_i the wrench that the limb exerts on the platform: the part of the limb
//    beyond joint j balances as dΓ = T_j + $ − W_i, so the wrench T_j that joint j
//    transmits is D_j + W_i (D_j = Σ F_b over the bodies beyond j), and for every freedom
//    s of joint j: s ∘ T_j = τ_s (actuated) or 0 (passive). Over the limb's freedom
//    matrix S_i: S_iᵀ W_i = g_i + P_a τ_i with g_s = −s ∘ D_j — the generalisation of
//    eqs. (31)–(36);
//  - so W_i = D_i (g_i + P_a τ_i) + N_i y_i, with D_i = S_i (S_iᵀS_i)⁻¹ and N_i the limb's
//    constraint wrenches (parallel/limb_kinematics.hpp): y_i are the constraint-wrench
//    magnitudes (the paper's x₅, x₆ for the UPU limbs; UPS limbs have none);
//  - the platform (eqs. 37–39): Σ_i W_i = F_platform, i.e.
//        Σ_i (D_i P_a) τ_i + Σ_i N_i y_i = F_platform − Σ_i D_i g_i          (eq. 40: A x = b)
//    6 equations in x = [τ; y]: the driving forces directly (eq. 41 folded in: τ_s = s ∘ T_j).
// Exactly 6 unknowns: the Cholesky factor of AᵀA (parallel/screw_gram.hpp; singular when a
// column of A comes within 1e-7, relative, of the span of the others). Redundant actuation (more unknowns than 6): minimum-2-norm efforts, then minimum-norm y
// (constraints/minimum_effort.hpp); the internal-force dimension and basis are kept.
// Wrenches are spatial forces [m; f] about the world origin (math/spatial.hpp); the pairing
// s ∘ W with a twist s = (ω; v) is then the dot product (the reciprocal product ω·m + v·f).
// Closed-form straight legs (LimbState::closed_form) give their two bodies' loads, W⁰_i and
// the effort column by the formulas of parallel/straight_leg.hpp instead (tested equal).
// Reads Data's position kinematics (rotation, com_position) and the limb workspace (S_i with
// G_i's factor, N_i, body twists and accelerations, the legs' state). Cost O(bodies + Σ k_i²
// + 6 n_x²). Allocates nothing.
#pragma once

#include "mechdyn/constraints/minimum_effort.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/limb_kinematics.hpp"
#include "mechdyn/parallel/parallel_model.hpp"
#include "mechdyn/parallel/screw_gram.hpp"

namespace mechdyn {

struct MomentumScrewWorkspace {
  MomentumScrewWorkspace() = default;
  MomentumScrewWorkspace(const Model& model, const ParallelModel& parallel);

  AlignedVector<Vec6> body_load;                  // per body: F_b = dΓ_b/dt − gravity − external ([m; f], origin)
  std::vector<char> massless;                     // per body: no mass, no inertia (F_b = −external)
  /// Per body with an inertia symmetric about a body axis u (J = a 1 + (b − a) u uᵀ, decided
  /// once): J ω̇ + ω × J ω = a ω̇ + (b − a)((u·ω̇) u + (u·ω) ω × u) without rotating ω, ω̇.
  struct AxialInertia {
    bool applies = false;
    Vec3 axis = Vec3::UnitZ();  // u, body frame
    double across = 0.0, along = 0.0;  // a, b
  };
  std::vector<AxialInertia> axial_inertia;
  std::vector<AlignedVector<Vec6>> distal_load;   // per limb, per joint: D_j
  AlignedVector<Vec6> limb_wrench;                // W_i: limb i on the platform
  MatX system;                                    // A: 6 × (na + Σ(6 − k_i)), eq. (40), when not 6 columns
  Vec6 right_hand_side = Vec6::Zero();            // b
  VecX unknowns;                                  // x = [τ; y]
  std::vector<int> constraint_column;             // per limb: its first y column
  std::vector<std::vector<int>> effort_column;    // per limb, per actuated column: its column in x
  std::vector<AlignedVector<Vec6>> effort_wrench; // per limb, per actuated column: D_i e_a, the wrench per unit effort
  Vec6 scratch_wrench = Vec6::Zero();             // a passive straight leg's (unused) effort column
  MinimumEffortSolver solver;                     // redundant actuation (more than 6 unknowns)
  bool square = false;                            // exactly 6 unknowns: A in `square_system`
  Mat6 square_system = Mat6::Zero();
  ScrewGram square_gram;                          // its Gram factor
  std::vector<int> leg_limbs;                     // the limbs that are straight legs with closed-form motion
  std::vector<int> other_bodies;                  // the bodies of no such leg
  Eigen::Index internal_force_dimension = 0;      // the solver's basis holds them when > 0
  VecX effort;                                    // nv: τ at the actuated coordinates, 0 elsewhere
  AlignedVector<Vec6> joint_wrench;               // tree joints (parent on child), then cut joints (b on a)
};

/// Driving forces and joint wrenches for the motion in `limbs` (run limb_screw_kinematics
/// first) under gravity and `external` (per body, on the body, [m; f] about the world
/// origin). Throws SolverError when the platform system loses rank (the limbs cannot hold
/// the platform: a singular configuration).
void momentum_screw_inverse_dynamics(const Model& model, const ParallelModel& parallel, const Data& data,
                                     const LimbWorkspace& limbs, const AlignedVector<Vec6>& external,
                                     MomentumScrewWorkspace& work, double rank_tolerance = 1e-10);

/// body_load from the body's rotation (body → world) and its inertia about the com in the
/// body frame (the per-sample path: no world inertia R J Rᵀ needed).
Vec6 body_load_local(double mass, const Vec3& com, const Mat3& rotation, const Mat3& inertia, const Vec3& gravity,
                     const Vec6& velocity, const Vec6& acceleration, const Vec6& external);

/// body_load for an inertia symmetric about the world axis u: J = a 1 + (b − a) u uᵀ.
Vec6 body_load_axial(double mass, const Vec3& com, const Vec3& axis, double across, double along, const Vec3& gravity,
                     const Vec6& velocity, const Vec6& acceleration, const Vec6& external);

/// F = dΓ/dt − gravity − external of one body ([m; f] about the world origin), from its
/// world centre of mass and inertia, twist V and twist rate A: I_O A + V ×* I_O V − $_g − E.
Vec6 body_load(double mass, const Vec3& com, const Mat3& inertia, const Vec3& gravity, const Vec6& velocity,
               const Vec6& acceleration, const Vec6& external);

}  // namespace mechdyn
