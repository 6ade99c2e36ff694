// Joint friction efforts at one state, for `mechdyn eval` (../shared/spec/eval-json.md
// keys tau_with_friction and normal_load).
//
// Source: ../shared/spec/model-format.md "joint friction" (explicit-canonical-dynamics-
// joint-friction §3.2, eqs. 42, 47, 52) and docs/model-file.md for LuGre and Brown–McPhee.
// Normal load N from the joint's reaction wrench (force f, torque τ about the child's
// frame origin, on the axis n), or N = 1 without `load`:
//   revolute:  N = R_p (|f − n(n·f)| + |τ − n(n·τ)| / R_b) + R_n |n·f|
//   prismatic: N = |f − n(n·f)| + |τ − n(n·τ)| / R_b + |n·τ| / R_n
// Friction effort F, opposing v (with v = 0 opposing a; both 0: zero):
//   coulomb_viscous: k_c N sgn(v) + k_v v                                     eq. (42)
//   stribeck:        [k_c N + (k_s − k_c) N exp(−(v/v_s)²)] sgn(v) + k_v v    eq. (52)
//   lugre:           its steady state (ż = 0: σ0 z = g(v) sgn(v)), i.e. the Stribeck curve;
//                    a single state has no bristle history
//   brown_mcphee:    k_c N tanh(4 v/v_s) + (k_s − k_c) N (v/v_s)/(¼(v/v_s)² + ¾)² + k_v v
// This belongs in a library friction module once one exists; it is kept beside the
// tool meanwhile.
#pragma once

#include <vector>

#include "mechdyn/model/data.hpp"

namespace mechdyn::cli {

struct JointFrictionResult {
  VecX effort;                 // nv: friction efforts (zero where a joint has none)
  std::vector<int> loaded;     // joints with friction.load, in order
  std::vector<double> normal;  // their normal loads N
};

/// Needs data.motion_axis, data.reaction_force and data.reaction_torque at the state
/// (run joint_reactions first). v, a: the state's velocities and accelerations.
JointFrictionResult joint_friction(const Model& model, const Data& data, const VecX& v, const VecX& a);

bool has_friction(const Model& model);

}  // namespace mechdyn::cli
