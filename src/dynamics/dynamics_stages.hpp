// Private to src: the dynamics algorithms on the kinematics stage WITHOUT their input
// checks, for public functions that have checked their inputs already (each public
// function checks once, under its own name: model/checks.hpp). The public forms and what
// each reads and writes: dynamics/crba.hpp, explicit_bias.hpp, joint_reactions.hpp,
// aba.hpp. Not installed.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// The backward iteration of EC eq. (17) for the body accelerations `acceleration` (world
/// origin, per body; data.acceleration or data.bias_acceleration): each body's inertial
/// wrench minus gravity, W_l = [c × f + J α + ω × J ω; f], f = m (a_c − g), summed over
/// each subtree into data.subtree_force (about the world origin). Reads data.velocity,
/// data.com_position, data.inertia_world. Shared by the reactions (at a) and the explicit
/// bias (at a⁰).
void subtree_wrenches(const Model& model, Data& data, const AlignedVector<Vec6>& acceleration);

const MatX& composite_rigid_body(const Model& model, Data& data);             // crba_from_kinematics
/// CRBA in body coordinates from q alone (crba_body_frames.cpp), for model.crba_in_body_frames.
const MatX& composite_rigid_body_in_body_frames(const Model& model, Data& data, const double* q);
void composite_forces_from_stage(const Model& model, Data& data);             // composite_forces_from_kinematics
const VecX& explicit_bias_from_stage(const Model& model, Data& data);         // explicit_bias_force_from_kinematics
void reactions_from_stage(const Model& model, Data& data);                    // joint_reactions_from_kinematics
/// After reactions_from_stage: data.cut_subtree_wrench holds wrenches applied ON each body
/// (external, cut-joint; world origin). Sums them over every subtree (in place), subtracts
/// the sums from data.subtree_force and rewrites data.reaction_force, reaction_torque and
/// data.tau = Sᵀ W. Shared by the force elements' and the closed chains' reactions.
void subtract_applied_wrenches(const Model& model, Data& data);
const VecX& articulated_body(const Model& model, Data& data, const double* tau);  // aba_from_kinematics
/// M (CRBA), h, Lᵀ D L and q̈ on the velocity stage (explicit_forward_dynamics_mass_matrix).
const VecX& explicit_forward_dynamics_with_mass_matrix(const Model& model, Data& data, const double* tau);
void add_mass_matrix_product(const Model& model, const Data& data, const double* a, double* out);
void factor_mass_matrix(const Model& model, Data& data);
void solve_mass_matrix(const Model& model, const Data& data, double* x);

}  // namespace mechdyn::detail
