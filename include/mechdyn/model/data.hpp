// The per-evaluation workspace (the Data of the Model/Data split).
//
// A Data is allocated once from a Model and holds every result and all scratch of
// every algorithm, so evaluation allocates nothing. Use one Data per thread. Fields
// marked [dense: G] belong to the dense workspace group G (DenseWorkspace below): empty
// (0 × 0) in a Data made without G, until an algorithm that needs them reserves them.
// Frames: unless stated, quantities are in world ("i|") coordinates; spatial vectors
// are referred to the world origin (math/spatial.hpp). Paper symbols follow
// explicit-canonical-dynamics-joint-friction (EC) and explicit-jsim-tree-chains (EJ);
// docs/notation.md maps each symbol to its field.
#pragma once

#include <Eigen/Cholesky>
#include <cstddef>
#include <optional>

#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/math/jacobi_svd.hpp"
#include "mechdyn/math/minimum_effort.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/math/types.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Dense matrix up to 6x6 stored without heap allocation (a joint's D = Sᵀ I^A S).
using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;
using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;

/// Data's dense workspaces: the matrices whose size grows as nv² (or nv times the closure
/// rows), in four groups, each held only by a Data that needs it (docs/dynamics.md,
/// "Memory and the choice of method"). Combine with |. Everything else in Data is O(n).
enum class DenseWorkspace : unsigned {
  None = 0,
  MassMatrix = 1u << 0,        // mass_matrix (nv × nv): explicit M, CRBA, explicit inverse and forward dynamics
  MassMatrixFactor = 1u << 1,  // mass_matrix_factor (nv × nv): Lᵀ D L of explicit forward dynamics
  ClosedChains = 1u << 2,      // mass_llt, constraint_passive/system/factor, factor_svd, passive_svd,
                               // full_svd, effort_solver (constraints/, parallel/)
  Friction = 1u << 3,          // friction_matrix, friction_factor (forward dynamics with friction)
  All = (1u << 4) - 1,
};
inline constexpr DenseWorkspace operator|(DenseWorkspace a, DenseWorkspace b) {
  return static_cast<DenseWorkspace>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
inline constexpr DenseWorkspace operator&(DenseWorkspace a, DenseWorkspace b) {
  return static_cast<DenseWorkspace>(static_cast<unsigned>(a) & static_cast<unsigned>(b));
}

/// The numbers a body's memoised inertia about its origin was made from (Data::body_inertia):
/// com (3), a zero, inertia (9, column-major), mass, bit for bit, in this order (16-byte
/// aligned pairs for the comparison, src/dynamics/body_inertia_at_origin.hpp).
struct alignas(16) BodyInertiaSource {
  double bits[14] = {};
};

struct Data {
  /// Every workspace, the dense ones included: any algorithm runs on it without allocating.
  explicit Data(const Model& model);
  /// The O(n) workspace and only the dense groups in `dense`. An algorithm that needs a
  /// group this Data lacks allocates it on its first call (reserve below) — the one
  /// allocation an evaluation may make; later calls allocate nothing. The command line
  /// builds its Data this way, asking for what its chosen method uses (docs/cli.md).
  Data(const Model& model, DenseWorkspace dense);

  /// Allocates the groups of `needed` that this Data does not hold yet; a no-op (one test
  /// of a flag) when it holds them all. Every algorithm that writes a dense workspace
  /// calls it first. `model` must be the Model this Data was made from.
  void reserve(const Model& model, DenseWorkspace needed) {
    if ((dense_ & needed) != needed) allocate_dense(model, needed);
  }
  /// True when every group of `groups` is allocated.
  bool holds(DenseWorkspace groups) const { return (dense_ & groups) == groups; }
  DenseWorkspace dense_workspaces() const { return dense_; }
  /// Heap bytes held by this Data's members (vector capacities, matrix sizes, the
  /// factorisations' and solvers' storage): O(n) without dense groups; each group adds
  /// its nv² (or nv × rows) doubles. tests/unit/test_data_memory.cpp checks it against
  /// what the allocator hands out.
  std::size_t allocated_bytes() const;

  // ---- kinematics stage (kinematics/forward_kinematics.hpp) --------------
  // Filled once per state by forward_kinematics; the *_from_kinematics forms only read it.
  int kinematics_level = -1;             // what the stage holds: −1 nothing, 0 poses, 1 and velocities, 2 and accelerations
  std::vector<Mat3> rotation;            // Q^i_l: body frame → world rotation, per body
  std::vector<Vec3> position;            // r^i_l: body frame origin in the world (on joint axis l)
  std::vector<Vec3> com_position;        // r^i_{lI}: centre of mass in the world
  std::vector<Mat3> inertia_world;       // i|J_{lI}: inertia about the com, world frame
  AlignedVector<Vec6> motion_axis;       // per velocity coordinate: world axis [n; o × n] (revolute), [0; n] (prismatic)
  AlignedVector<Vec6> velocity;          // spatial velocity of body l [ϕ̇^i_l; v_O] (EC eq. 7, 9)
  AlignedVector<Vec6> joint_velocity;    // S_l q̇_l: velocity of body l relative to its parent
  AlignedVector<Vec6> joint_bias;        // Ṡ_l q̇_l: velocity-product acceleration of joint l
  AlignedVector<Vec6> acceleration;      // spatial acceleration of body l (EC eq. 8, 10), with a
  AlignedVector<Vec6> bias_acceleration; // a⁰_l: spatial acceleration of body l at q̈ = 0 (Ṡ q̇ terms only)

  // ---- dynamics results -----------------------------------------------------
  MatX mass_matrix;     // M(q), nv x nv, symmetric (EJ eqs. 30–37; CRBA) [dense: MassMatrix]
  VecX bias_force;      // h(q, q̇): Coriolis, centrifugal and gravity (EC eqs. 19–22)
  VecX gravity_force;   // gravity part of h
  VecX tau;             // joint efforts from inverse dynamics (M a + h)
  VecX ddq;             // joint accelerations from forward dynamics

  // ---- joint reactions (dynamics/joint_reactions.hpp) -------------------------
  std::vector<Vec3> reaction_force;   // f_{uL}: force the parent exerts on body u through joint u (world)
  std::vector<Vec3> reaction_torque;  // τ_{uL}: torque about body u's frame origin (world)

  // ---- scratch of the explicit method ----------------------------------------
  std::vector<SpatialInertia> subtree_inertia;  // Σ_{l∈uL} m_l and Σ m_l r_{lI} (explicit gravity; rotational block unused)
  AlignedVector<Vec6> subtree_force;            // W_u = Σ_{l∈uL} of body wrenches minus gravity, about the world origin
                                                // (the reaction iteration: joint_reactions, explicit_bias_force)

  // ---- body-frame kinematics (dynamics/rnea.hpp) --------------------------------
  // Body coordinates: body l's natural-frame axes, spatial vectors at its frame origin.
  std::vector<Mat3> joint_rotation;         // Q^{l̄}_l: body l → parent coordinates (EC eq. 3)
  std::vector<Vec3> joint_translation;      // r^{l̄}_{l0} (+ n q for prismatic): body origin in parent coordinates
  AlignedVector<Vec6> local_motion_axis;    // per velocity coordinate: S in body coordinates
  AlignedVector<Vec6> local_velocity;       // v_l in body coordinates
  AlignedVector<Vec6> local_acceleration;   // a_l − a_g in body coordinates (gravity as a base acceleration)
  std::vector<Mat3> rnea_world_rotation;    // Q^i_l, only for bodies with model.needs_world_rotation (RNEA's own,
                                            // so that RNEA leaves the kinematics stage untouched)

  // ---- natural-frame resultant iteration (dynamics/explicit_inverse_dynamics.hpp) ----
  // World components (the natural frames are parallel to the world, EC §2.1), each body's
  // quantities at its own frame origin o_l (on its joint axis). Not the kinematics stage.
  std::vector<Mat3> natural_rotation;         // Q^i_l: body frame → world (EC eq. 4)
  std::vector<Vec3> natural_offset;           // i|r^{l̄}_l = o_l − o_{l̄}, world components (EC eq. 6)
  AlignedVector<Vec6> natural_motion_axis;    // per velocity coordinate: [n; 0] or [0; n] at o_l (not RevoluteX/Y/Z)
  AlignedVector<Vec6> natural_velocity;       // pair (ϕ̇^i_l, ϕ̈^i_l) by rows (x_k, y_k), src/math/vector_pairs.hpp; EC eqs. 7, 8
  AlignedVector<Vec6> natural_acceleration;   // pair (ṙ^i_l, r̈^i_l − g) of o_l by rows: velocity, acceleration minus
                                              // gravity (EC eqs. 9, 10; classical, not spatial)
  AlignedVector<Vec6> natural_body_rates;     // pair (Qᵀ ϕ̇, Qᵀ ϕ̈) by rows: angular velocity, acceleration, body axes

  // ---- scratch of the recursive algorithms ----------------------------------
  std::vector<SpatialInertia> body_inertia;               // I_i about o_i, body coordinates (from_com of bodies[i]),
  std::vector<BodyInertiaSource> body_inertia_source;     // kept while the body's numbers equal these
                                                          // (src/dynamics/body_inertia_at_origin.hpp)
  std::vector<SpatialInertia> composite_inertia;  // CRBA I^c_i
  VecX joint_cosine, joint_sine;                  // per body: cos φ, sin φ of a revolute joint's angle (1, 0 for
                                                  // other kinds), taken two at a time (crba in body coordinates)
  AlignedVector<Vec6> composite_force;            // per velocity coordinate k of joint i: F_k = I^c_i S_k
  Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::RowMajor> composite_force_rows;  // the same F_k as six rows over k
                                                  // (crba in body coordinates: runs of k in one packed load)
                                                  // (world origin; dynamics/mass_matrix_rows.hpp)
  AlignedVector<Vec6> body_force;                 // RNEA f_i: force transmitted by joint i (body coordinates)
  AlignedVector<Mat6> articulated_inertia;        // ABA I^A_i
  AlignedVector<Vec6> articulated_bias;           // ABA p^A_i
  AlignedVector<Vec6> aba_u_force;                // ABA U = I^A S, per velocity coordinate
  std::vector<SmallMat> aba_d_inverse;            // ABA D⁻¹ = (Sᵀ U)⁻¹, per joint
  VecX aba_u;                                     // ABA u = τ − Sᵀ p^A, per velocity coordinate

  // ---- loop closure (constraints/loop_closure.hpp) ------------------------------
  VecX loop_residual;   // Φ(q): position closure residual, model.num_loop_rows (EC eq. 24 integrated)
  VecX coupling_coordinates;  // per coupling c: (q_a, q_b) at the kinematics stage's q (entries 2c, 2c + 1);
                              // its closure row q_b − ratio q_a − offset reads them
  MatX loop_jacobian;   // ∂Φ/∂q · (velocity map): rows × nv, so that Φ̇ = J q̇ (EC eq. 24)

  // ---- closed chains (constraints/*.hpp: loop_acceleration, cut_joint_forces,
  //      assembly, closed_chain_inverse_dynamics, constrained_forward_dynamics) ------
  // rows = model.num_loop_rows, loops = model.loops.size(), np = passive velocities.
  VecX loop_bias;                      // J̇ v: closure acceleration at a = 0, rows (EC eq. 24 differentiated)
  VecX loop_multiplier;                // λ: cut-joint multipliers, rows; M a + h = τ + Jᵀ λ (EC eqs. 25–26)
  AlignedVector<Vec6> loop_row_wrench_a;  // per row: spatial force on body a per unit λ (about world origin)
  AlignedVector<Vec6> loop_row_wrench_b;  // per row: spatial force on body b per unit λ (about world origin)
  AlignedVector<Vec6> cut_wrench_a;    // per loop: constraint wrench on body a [moment about world origin; force]
  AlignedVector<Vec6> cut_wrench_b;    // per loop: constraint wrench on body b (world origin), balances cut_wrench_a
  std::vector<Vec3> cut_point;         // per loop: cut point p_a in the world
  std::vector<Vec3> cut_force;         // per loop: l_cS, constraint force on body a at p_a (world); −it acts on b
  std::vector<Vec3> cut_torque;        // per loop: constraint torque on body a about p_a (world)
  VecX friction_effort;                // nv: τ_f, friction effort per velocity coordinate (opposes v); shared with friction/
  std::vector<int> passive_dofs;       // velocity indices of joints with actuated: false
  std::vector<int> actuated_dofs;      // velocity indices of actuated joints
  MatX constraint_passive;             // J_p: rows × np (assembly, passive velocities) [dense: ClosedChains]
  MatX constraint_system;              // [S_a  Jᵀ]: nv × (na + rows) (inverse dynamics) [dense: ClosedChains]
  MatX constraint_factor;              // L⁻¹ Jᵀ: nv × rows, M = L Lᵀ (forward dynamics) [dense: ClosedChains]
  VecX constraint_rhs;                 // rows scratch
  VecX constraint_rhs_nv;              // nv scratch
  VecX constraint_solution;            // max(na + rows, np) scratch
  Eigen::LLT<MatX> mass_llt;           // M = L Lᵀ [dense: ClosedChains]
  JacobiSvd factor_svd;                // of K = L⁻¹ Jᵀ: (J M⁻¹ Jᵀ)⁺ (forward dynamics, velocity projection) [dense: ClosedChains]
  JacobiSvd passive_svd;               // of J_p (assembly, passive motion) [dense: ClosedChains]
  JacobiSvd full_svd;                  // of J (position projection; its V is nv × nv) [dense: ClosedChains]
  VecX assembly_q;                     // nq: trial configuration of the line search
  VecX assembly_step;                  // nv: Newton step in velocity coordinates
  AlignedVector<Vec6> cut_subtree_wrench;  // per body: Σ of cut-joint wrenches on its subtree (world origin)
  AlignedVector<Vec6> external_wrench;     // per body: external spatial force ON the body [moment about the
                                           // world origin; force], world; zero unless a caller sets it (read by
                                           // closed_chain_inverse_dynamics and closed_chain_joint_reactions)
  MinimumEffortSolver effort_solver;       // [S_a Jᵀ] [τ_a; λ] = τ: minimum-norm τ_a, then λ (inverse dynamics)
                                           // [dense: ClosedChains]
  // ---- closed chains — end ------------------------------------------------------
  // ---- sparse factorisation M = Lᵀ D L (dynamics/sparse_cholesky.hpp) ---------
  MatX mass_matrix_factor;  // L (strict lower, unit diagonal implied) and D on the diagonal [dense: MassMatrixFactor]
  VecX work;                // nv scratch
  VecX zeros;               // nv zeros, never written: the v = 0, a = 0 arguments of internal calls

  // ==== joint friction (friction/*.hpp; docs/friction.md) — begin =================
  // Joint load decomposition (friction/joint_load_decomposition.hpp), per body u, from
  // the reaction wrench (f, τ about o_u) and the joint's reference axis n (EC §3.1–3.3):
  VecX constraint_torque;    // τ_r (revolute, eqs. 36–39: |τ − n nᵀτ|), τ_p (prismatic, eq. 44); per body
  VecX constraint_force;     // f_r (revolute, eq. 44: |f − n nᵀf|), f_p (prismatic, eq. 39); per body
  VecX axial_load;           // f_m (revolute, eq. 46: |nᵀf|, N), τ_m (prismatic, eq. 46: |nᵀτ|, N·m); per body
  VecX normal_load;          // τ_n (revolute, N·m) / f_n (prismatic, N), model-format.md; 0 without friction.load; per body
  // Friction efforts and the dynamics with friction (EC §4.1, eqs. 53–54):
  // τ_f per velocity coordinate is data.friction_effort (declared in the closed-chain block, shared)
  VecX tau_with_friction;    // τ_d = M a + h + τ_f (eq. 54), nv
  VecX friction_state;       // LuGre bristle deflection z per velocity coordinate (0 elsewhere), nv; an input
  VecX friction_state_rate;  // ż of the LuGre bristles at the last evaluation, nv
  std::vector<char> joint_stuck;  // per body: 1 when the joint sticks (a = 0, |τ_f| ≤ static limit) in forward dynamics
  VecX friction_previous;    // forward-dynamics scratch: friction efforts of the previous iterate, nv
  VecX friction_rhs;         // forward-dynamics scratch: right-hand side, nv
  VecX friction_direction;   // forward-dynamics scratch: slip direction (±1) of joints released from rest, nv
  MatX friction_matrix;      // forward-dynamics scratch: M with stuck rows/columns replaced, nv x nv [dense: Friction]
  Eigen::LLT<MatX> friction_factor;  // its Cholesky factor (allocated once) [dense: Friction]
  // ==== joint friction — end ======================================================

  // ==== force elements (dynamics/force_elements.hpp; format 3, force-elements.md) ====
  VecX applied_force;      // Q_f: generalized force of all force elements at (q, v, t), nv
  VecX element_effort;     // the joint elements' efforts per velocity coordinate (part of Q_f), nv
  VecX total_effort;       // scratch: τ + Q_f, nv
  VecX element_value;      // per element: tension (spring-damper, N), effort (joint elements), |F| (bushing, applied)
  VecX element_energy;     // per element: potential energy (J)
  VecX element_length;     // per element: L = |p_b − p_a| (spring-damper, bushing), else 0
  AlignedVector<Vec6> element_wrench_a;  // per element: wrench on body a (applied: on its body) [moment about the
                                         // world origin; force], world; joint elements: zero
  AlignedVector<Vec6> element_wrench_b;  // per element: wrench on body b, world origin
  std::vector<Vec3> element_point_a, element_point_b;  // per element: the points in the world
  // The time functions (muParser; only for a model with servos or applied loads; their
  // parsers' heap is not in allocated_bytes):
  std::optional<TimeExpressions> element_expressions;  // per servo target(t) [, target_rate(t)]; per applied load 6
  std::optional<TimeExpressions> element_targets;      // the targets of servos without target_rate (at t ± h)
  VecX element_expression_values;                      // their values at t
  VecX element_target_values;                          // scratch: targets at t − h, then the rates
  VecX element_target_ahead;                           // scratch: targets at t + h
  // ==== force elements — end ==========================================================

 private:
  void allocate_dense(const Model& model, DenseWorkspace groups);
  DenseWorkspace dense_ = DenseWorkspace::None;  // the dense groups allocated so far
};

}  // namespace mechdyn
