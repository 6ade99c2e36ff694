// Results and workspace of the analytical derivatives (dynamics/rnea_derivatives.hpp,
// dynamics/aba_derivatives.hpp; docs/derivatives.md).
//
// Made once from a Model, beside a Data (one of each per thread), and never resized: the
// derivative algorithms allocate nothing. It is a structure of its own rather than more
// fields of Data so that a Data that never differentiates carries none of its five
// nv × nv matrices (the spirit of Data's DenseWorkspace groups, model/data.hpp). The
// kinematics stage, M and its factor stay in Data.
// Frames: world coordinates, spatial vectors at the world origin (math/spatial.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "mechdyn/math/spatial.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

struct DerivativeData {
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using AxisRows = Eigen::Matrix<double, 21, 2, Eigen::RowMajor>;  // composite_axis_rows, below

  /// `with_reactions`: also the 6n × nv derivatives of the joint reactions
  /// (dynamics/joint_reaction_derivatives.hpp), which rnea_derivatives then fills as well.
  explicit DerivativeData(const Model& model, bool with_reactions = false);

  // ---- results: row i = the derivative of component i; ∂/∂q in the tangent space
  //      (column j: d/dε at q ⊕ ε e_j, the model's joint_integrate) -----------------------
  MatX dtau_dq;  // ∂τ/∂q of inverse dynamics τ = M a + h, nv × nv (rnea_derivatives; aba_derivatives at a = q̈)
  MatX dtau_dv;  // ∂τ/∂v, nv × nv
  VecX tau;      // τ = RNEA(q, v, a) of the last rnea_derivatives (world-frame, docs/derivatives.md eq. D2)
  MatX da_dq;    // ∂q̈/∂q of forward dynamics, nv × nv (aba_derivatives)
  MatX da_dv;    // ∂q̈/∂v, nv × nv
  MatX da_dtau;  // ∂q̈/∂τ = M⁻¹, nv × nv
  bool with_reactions = false;  // made with the reaction derivatives (below)
  MatX dreaction_dq;  // 6n × nv: rows 6u…6u+2 ∂f_u/∂q, 6u+3…6u+5 ∂τ_u/∂q (joint u's reaction, eval's `reactions`)
  MatX dreaction_dv;  // 6n × nv: the same with respect to v (0 × 0 without with_reactions)
  MatX dfriction_dq;  // nv × nv: ∂τ_f/∂q of the friction efforts (friction/friction_effort_derivatives.hpp; with_reactions)
  MatX dfriction_dv;  // nv × nv: ∂τ_f/∂v

  // ---- scratch (docs/derivatives.md, eqs. D1–D9) ----------------------------------------
  std::vector<AxisCarrier> dof_carrier;          // per velocity coordinate: how its axis s_k moves (model/joint.hpp)
  std::vector<SpatialInertia> body_inertia;      // I_i, body i's spatial inertia (world origin)
  AlignedVector<Vec6> body_momentum;             // I_i V_i
  AlignedVector<Vec6> transmitted_force;         // F_i = Σ_{l∈subtree i} (I_l A^g_l + V_l ×* I_l V_l), eq. (D2)
  AlignedVector<Vec6> velocity_variation;        // ΔV_i = ∂V_i/∂q_j − s_j × V_i, eq. (D3)
  AlignedVector<Vec6> acceleration_variation;    // ΔA_i = ∂A_i/∂q_j − s_j × A^g_i, eq. (D4)
  AlignedVector<Vec6> force_variation;           // ΔF_i = ∂F_i/∂q_j − s_j ×* F_i, eq. (D7) (subtree sums)
  AlignedVector<Vec6> acceleration_velocity_derivative;  // ∂A_i/∂v_j, eq. (D9)
  AlignedVector<Vec6> force_velocity_derivative;         // ∂F_i/∂v_j, eq. (D9) (subtree sums)
  AlignedVector<Vec6> axis_variation;            // per velocity coordinate k: Δs_k = ∂s_k/∂q_j − s_j × s_k, eq. (D5)
  // the fast form (eqs. D11–D12), subtree composites:
  std::vector<int> subtree_dof_end;             // per body b: when the velocity coordinates of b's subtree are the
                                                 // range [v_index(b), end) (bodies numbered depth first), end; else −1
  std::vector<char> rigid_below;                 // per body: 1 when no joint strictly below it has a world-direction or
                                                 // world axis (spherical, free), so the fast form applies
  bool every_rigid = true;                       // rigid_below for every body: the general form never runs
  bool every_single_axis = true;                 // every_rigid and every joint fixed or one-axis carried by its
                                                 // parent (revolute, prismatic): every column by eq. (D16)
  std::vector<SpatialInertia> composite_inertia; // I^c_i = Σ_{l∈subtree i} I_l
  AlignedVector<Vec6> composite_momentum;        // H^c_i = Σ I_l V_l
  std::vector<Mat3> composite_coriolis_block;    // Q^c_i = P^c_i + H̃^c_n (eq. D11''), P^c_i of B^c_i = [[P, H̃_f], [−H̃_f, 0]],
                                                 // B = (V ×*) I − I (V ×), eq. (D11)
  // per coordinate k, each number twice (row r = (x_r, x_r), one SSE2 register, so that a row
  // times a pair of columns (∂/∂q_j, ∂/∂v_j) is one packed product): rows 0–5 f_k = I^c s_k,
  // rows 6–8 the angular part of u_k = B^c s_k − s_k ×* H^c (eq. D12'; its linear part is 0),
  // rows 9–14 the axis s_k (eq. D8, rows above); rows 15–20 (e_r, 0): e = s_k ×* F_b of
  // k's body b, the ∂F_b/∂q_k term of eq. (D12) (only lane 0, lane 1 stays 0)
  AlignedVector<AxisRows> composite_axis_rows;
  bool single_path = false;                      // the coordinates are one path from the root (dof_parent[k] = k − 1,
                                                 // every chain): every entry of a column is written, no zeroing
  // aba_derivatives' solves, by the factors of M or by the articulated-body recursion (docs/derivatives.md,
  // eqs. D23–D25), whichever is the shorter for the Model (src/dynamics/articulated_solve.cpp):
  bool articulated_solve = false;                // the recursion (the coordinates' mean depth ≥ 7: long chains)
  RowMatrix solve_rows;                          // nv × 3 nv: the right-hand sides, solved row by row by the
                                                 // factors (0 × 0 with articulated_solve)
  AlignedVector<Mat6> articulated_inertia;       // per body: I^A_i, its articulated-body inertia (world origin);
                                                 // this and the next two empty without articulated_solve
  VecX articulated_axes;                         // per velocity coordinate k, 19 × 4 numbers: s_k, U_k = I^A_k s_k,
                                                 // U_k / D_k (6 each), 1 / D_k, each number 4 times (the 4 lanes of
                                                 // a block of right-hand sides); I^A_k the inertia k's axis sees
  VecX articulated_block;                        // per velocity coordinate, 13 × 4 numbers: one block of 4 right-hand
                                                 // sides in the solve (w_k, P_k, A_k of eqs. D24–D25)

  int num_bodies = 0;  // of the Model this was made from (checked by the algorithms)
  int nv = 0;
};

}  // namespace mechdyn
