// The per-evaluation workspace (the Data of the Model/Data split).
//
// A Data is allocated once from a Model and holds every result and all scratch of
// every algorithm, so evaluation allocates nothing. Use one Data per thread.
// Frames: unless stated, quantities are in world ("i|") coordinates; spatial vectors
// are referred to the world origin (math/spatial.hpp). Paper symbols follow
// explicit-canonical-dynamics-joint-friction (EC) and explicit-jsim-tree-chains (EJ);
// docs/notation.md maps each symbol to its field.
#pragma once

#include "mechdyn/math/spatial.hpp"
#include "mechdyn/math/types.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Dense matrix up to 6x6 stored without heap allocation (a joint's D = Sᵀ I^A S).
using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;
using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;

struct Data {
  explicit Data(const Model& model);

  // ---- kinematics (kinematics/forward_kinematics.hpp) --------------------
  std::vector<Mat3> rotation;            // Q^i_l: body frame → world rotation, per body
  std::vector<Vec3> position;            // r^i_l: body frame origin in the world (on joint axis l)
  std::vector<Vec3> com_position;        // r^i_{lI}: centre of mass in the world
  std::vector<Mat3> inertia_world;       // i|J_{lI}: inertia about the com, world frame
  AlignedVector<Vec6> motion_axis;       // per velocity coordinate: world axis [n; o × n] (revolute), [0; n] (prismatic)
  AlignedVector<Vec6> velocity;          // spatial velocity of body l [ϕ̇^i_l; v_O] (EC eq. 7, 9)
  AlignedVector<Vec6> joint_velocity;    // S_l q̇_l: velocity of body l relative to its parent
  AlignedVector<Vec6> joint_bias;        // Ṡ_l q̇_l: velocity-product acceleration of joint l
  AlignedVector<Vec6> acceleration;      // spatial acceleration of body l (EC eq. 8, 10), with a

  // ---- dynamics results -----------------------------------------------------
  MatX mass_matrix;     // M(q), nv x nv, symmetric (EJ eqs. 30–37; CRBA)
  VecX bias_force;      // h(q, q̇): Coriolis, centrifugal and gravity (EC eqs. 19–22)
  VecX gravity_force;   // gravity part of h
  VecX tau;             // joint efforts from inverse dynamics (M a + h)
  VecX ddq;             // joint accelerations from forward dynamics

  // ---- joint reactions (dynamics/joint_reactions.hpp) -------------------------
  std::vector<Vec3> reaction_force;   // f_{uL}: force the parent exerts on body u through joint u (world)
  std::vector<Vec3> reaction_torque;  // τ_{uL}: torque about body u's frame origin (world)

  // ---- scratch of the explicit method ----------------------------------------
  std::vector<SpatialInertia> subtree_inertia;  // Σ_{l∈uL} of m_l, m_l r_{lI}, J_l − m_l r̃_{lI}² (about world origin)
  AlignedVector<Vec6> subtree_force;            // Σ_{l∈uL} of body wrenches, about the world origin

  // ---- scratch of the recursive algorithms ----------------------------------
  std::vector<SpatialInertia> composite_inertia;  // CRBA I^c_i
  AlignedVector<Vec6> body_force;                 // RNEA f_i
  AlignedVector<Mat6> articulated_inertia;        // ABA I^A_i
  AlignedVector<Vec6> articulated_bias;           // ABA p^A_i
  AlignedVector<Vec6> aba_u_force;                // ABA U = I^A S, per velocity coordinate
  std::vector<SmallMat> aba_d_inverse;            // ABA D⁻¹ = (Sᵀ U)⁻¹, per joint
  VecX aba_u;                                     // ABA u = τ − Sᵀ p^A, per velocity coordinate

  // ---- loop closure (constraints/loop_closure.hpp) ------------------------------
  VecX loop_residual;   // Φ(q): position closure residual, model.num_loop_rows (EC eq. 24 integrated)
  MatX loop_jacobian;   // ∂Φ/∂q · (velocity map): rows × nv, so that Φ̇ = J q̇ (EC eq. 24)

  // ---- sparse factorisation M = Lᵀ D L (dynamics/sparse_cholesky.hpp) ---------
  MatX mass_matrix_factor;  // L (strict lower, unit diagonal implied) and D on the diagonal
  VecX work;                // nv scratch
};

}  // namespace mechdyn
