// Inverse dynamics by the Newton–Euler equations of every body with every joint's force
// and torque as unknowns (one linear system), for any model with loops.
//
// Sources: momentum-screw-schoenflies-2UPS-2UPU Appendix A ("a 54 × 54 linear equation":
// 9 bodies, a universal joint gives 3 forces and 1 torque, a spherical joint 3 forces, the
// prismatic joint 3 forces and 3 torques — its driving force among them) and
// screw-kinematics-3UPS-UPU-S §5, eqs. (51)–(58) ("c Q = m A + W + F_E", 56 unknowns in 54
// equations, solved by least squares). Here:
//  - bodies welded by fixed joints form one rigid body (the weld needs no unknown; its
//    wrench follows afterwards from the balance of the welded part);
//  - per joint (tree or cut) with freedoms S_c at its centre c (rotation axes (n; 0),
//    translations (0; d)), the transmitted wrench is T = Σ_actuated τ_s d_s + Σ_k y_k b_k:
//    the b_k an orthonormal basis, in the joint's centre coordinates (force N, moment
//    N·m about c), of the wrenches reciprocal to all its freedoms (S_cᵀ b = 0: U → 3 forces
//    and the torque along n₁ × n₂, S → 3 forces, P → 2 forces and 3 torques, R → 3 forces
//    and 2 torques), and d_s the dual of actuated freedom s (S_cᵀ d_s = e_s: the force along
//    a prismatic axis, the torque about a revolute one). So the unknowns are the paper's —
//    joint forces and torques — with the actuator efforts themselves among them;
//  - per rigid body B: Σ T_in − Σ T_out = Σ_{b∈B} (dΓ_b/dt − $_g − $_e)  (eqs. 51, 53–55),
//    tree joint T: parent on child; cut joint T: body b on body a;
//  - c x = r (6 per rigid body; unknowns x = [τ; y]); a consistent system of full row rank
//    for a motion the actuators control. When the unknowns outnumber the equations
//    (redundant actuation: 56 − 54 = 2 for 3UPS-UPU-S) the indeterminate part is fixed by
//    minimum 2-norm of the efforts τ (N, N·m), then minimum 2-norm of y — joint forces in N
//    and torques in N·m at the joint centres (constraints/minimum_effort.hpp). (The paper's
//    eq. 58, Q = (c cᵀ)⁻¹(mA + W + F_E), is dimensionally inconsistent as printed — c cᵀ is
//    54 × 54 and Q has 56 entries; the minimum-norm reading is Q = cᵀ(c cᵀ)⁻¹(…), which
//    mixes N and N·m in one norm and drives the actuators against each other through the
//    torques; we minimise the efforts first.)
// Body motion: Data's kinematics (run forward_kinematics(q, v, a) first): data.velocity,
// data.acceleration (spatial, at the world origin), com_position, inertia_world.
// Cost O((6 B)² n_x) per sample (a dense QR). Allocates nothing.
#pragma once

#include <vector>

#include "mechdyn/constraints/minimum_effort.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// One joint of the Newton–Euler system (tree joints in body order, then cut joints).
struct NewtonEulerJoint {
  bool cut = false;
  int index = -1;             // body (tree joint) or loop
  int child_group = -1;       // rigid body the wrench acts on (+): tree child, cut body a; −1 ground
  int parent_group = -1;      // rigid body that receives its reaction (−): tree parent, cut body b; −1 ground
  bool internal = false;      // a weld inside a rigid body (no unknowns)
  int freedoms = 0;
  int first_unknown = 0;      // its first constraint unknown (column of x)
  int unknowns = 0;           // 6 − freedoms constraint unknowns
  std::vector<int> effort_unknowns;  // per freedom: its effort column in x, or −1 (passive)
};

struct NewtonEulerWorkspace {
  NewtonEulerWorkspace() = default;
  explicit NewtonEulerWorkspace(const Model& model);

  std::vector<int> body_group;         // per body: its rigid body (−1: welded to the ground)
  int groups = 0;                      // rigid bodies (6 equations each)
  std::vector<NewtonEulerJoint> joints;
  std::vector<int> actuated_dofs;      // coordinate order: effort column c ↔ actuated_dofs[c]
  MatX basis;                          // 6 × n_x: the wrench of each unknown per unit ([m; f] about the world origin)
  MatX system;                         // c: 6 groups × n_x
  VecX right_hand_side;                // Σ (dΓ/dt − $_g − $_e) per rigid body
  VecX unknowns;                       // x = [τ; y]
  MinimumEffortSolver solver;
  AlignedVector<Vec6> body_load;       // per body
  VecX effort;                         // nv
  AlignedVector<Vec6> joint_wrench;    // tree joints (parent on child), then cut joints (b on a)
};

/// Efforts and every joint's wrench from Data's kinematics at (q, v, a) (run
/// forward_kinematics(q, v, a) first) under gravity and `external` (per body, on the
/// body, [m; f] about the world origin). SolverError when c loses row rank.
void newton_euler_inverse_dynamics(const Model& model, const Data& data, const AlignedVector<Vec6>& external,
                                   NewtonEulerWorkspace& work, double rank_tolerance = 1e-10);

}  // namespace mechdyn
