// Forward kinematics in natural frames with axis-invariants.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.1, eqs. (1)–(10);
// explicit-jsim-tree-chains §2, eqs. (1)–(7).
// Computes, for every body l in tree order (parents first):
//   Q^i_l = Q^i_{l̄} Q^{l̄}_l                      eq. (4)
//   r^i_l = r^i_{l̄} + Q^i_{l̄} r^{l̄}_l             eq. (6)
//   world motion axes S_l (the paper's i|n_l, and i|ñ_l r for the point velocities)
//   ϕ̇^i_l = ϕ̇^i_{l̄} + S_l q̇_l                      eqs. (7), (9) as spatial vectors
//   acceleration = parent + S_l q̈_l + Ṡ_l q̇_l        eqs. (8), (10)
// Cost: O(n); per body with a revolute joint about a frame axis at the acceleration level
// ~330 instructions with its centre of mass and world inertia, plus libm's cos/sin
// (~115; callgrind on the 7-DoF arm; docs/benchmarks.md, "Kinematics stage").
// Reads the Model; writes Data's kinematics block. Allocates nothing.
#pragma once

#include "mechdyn/model/checks.hpp"  // check_state (declared here before)
#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Poses, centres of mass, world inertias and motion axes at configuration q (size nq).
void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// ... and spatial velocities, joint velocities and velocity-product accelerations Ṡ q̇.
void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v);

/// ... and spatial accelerations for joint accelerations a (no gravity included).
void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// The acceleration level alone, after forward_kinematics(q, v): data.acceleration for
/// joint accelerations a from data.motion_axis and data.joint_bias (eqs. 8, 10).
void forward_kinematics_accelerations(const Model& model, Data& data, const Eigen::Ref<const VecX>& a);

/// After forward_kinematics(q, v): the accelerations at q̈ = 0, a⁰_l = a⁰_λ + Ṡ_l q̇_l, into
/// data.bias_acceleration (the velocity-product terms that the explicit bias and the
/// closure's J̇ v read). Reads data.joint_bias.
void forward_kinematics_bias_accelerations(const Model& model, Data& data);

}  // namespace mechdyn
