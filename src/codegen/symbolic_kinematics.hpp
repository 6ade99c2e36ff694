// Symbolic joint kinematics of `mechdyn codegen`, in body coordinates (every vector of
// body i in its natural frame at its frame origin, as dynamics/rnea.cpp): per joint the
// relative pose (E, r) with x_parent = E x_body + r (EC eqs. 2–3), the motion subspace S
// (one spatial column per velocity coordinate), the velocity-product term c = Ṡ q̇ + v × S q̇
// and each body's world rotation Q_l = Q_λ E (EC eq. 4). The per-type formulas are those
// of src/model/joint_kinds/*.hpp (their headers derive them), built over expressions from
// each kind's `motions` (turn, slide, quaternion, shift) so that structural zeros fold
// away; no joint type is tested here. Not installed.
#pragma once

#include <vector>

#include "mechdyn/model/model.hpp"
#include "symbolic_spatial.hpp"

namespace mechdyn::codegen {

/// One joint at the symbolic configuration.
struct SymbolicJoint {
  SMat3 rotation;       // E: parent ← body rotation
  SVec3 translation;    // r: parent frame origin → body frame origin, parent coordinates
  SSpatial axes[6];     // S_k, body coordinates (nv columns)
  int nv = 0;
};

/// The symbolic configuration of the whole tree.
struct SymbolicTree {
  std::vector<SymbolicJoint> joints;  // per body
  std::vector<SMat3> world_rotation;  // Q_l per body (unused entries are never emitted)
};

/// The generalized coordinates as function inputs: q[k] loaded into the local q_<name>,
/// and likewise for an nv-vector named `array` ("v", "a", "tau").
std::vector<Expr> configuration_inputs(const Model& model);
std::vector<Expr> velocity_inputs(const Model& model, const std::string& array);

/// Relative poses, motion subspaces and world rotations at q (nq expressions), built from
/// each joint kind's elementary motions (joint_kinds/common.hpp JointMotion).
SymbolicTree symbolic_positions(const Model& model, const std::vector<Expr>& q);

/// X v: a motion vector of the parent (parent coordinates) in body coordinates,
/// [Eᵀ ω; Eᵀ (u − r × ω)].
SSpatial motion_to_body(const SymbolicJoint& joint, const SSpatial& m);
/// Xᵀ f: a force of the body (body coordinates) in parent coordinates, [E n + r × E f; E f].
SSpatial force_to_parent(const SymbolicJoint& joint, const SSpatial& f);

/// The joint's velocity-product acceleration c (body coordinates) for the parent's
/// velocity `parent_velocity` (body coordinates) and the joint velocities `qd`.
SSpatial velocity_product(const Joint& joint, const SymbolicJoint& state, const SSpatial& parent_velocity,
                          const Expr* qd);

}  // namespace mechdyn::codegen
