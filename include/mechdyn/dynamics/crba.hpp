// Composite-rigid-body algorithm for M(q) in world coordinates.
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.2, Table 6.2.
// The explicit inertia matrix of EJ eqs. (30)–(37) evaluated by subtree aggregates is this
// same recursion (dynamics/explicit_jsim.hpp, docs/dynamics.md).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// M(q) into data.mass_matrix (both triangles). Allocates nothing. Two forms, equal to
/// round-off (tests/properties/test_crba_body_frames.cpp):
/// - model.crba_in_body_frames (every joint revolute, prismatic or fixed, every body rigid):
///   Featherstone's Table 6.2 in body coordinates (src/dynamics/crba_body_frames.cpp), from
///   the joints' relative poses alone. It does not run the kinematics stage and marks it
///   empty (data.kinematics_level = −1), so that a *_from_kinematics call after it asks for
///   forward_kinematics instead of reading poses of another q. data.composite_inertia is
///   scratch there (the children's sums, lower triangle; the world form below leaves I^c_i).
/// - otherwise: forward_kinematics(q), then crba_from_kinematics (world coordinates).
const MatX& crba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The recursion alone, on the kinematics stage in Data (forward_kinematics(q) or any
/// overload). Reads data.com_position, data.inertia_world, data.motion_axis. Writes
/// data.composite_inertia (I^c_i, world origin) and data.mass_matrix.
const MatX& crba_from_kinematics(const Model& model, Data& data);

}  // namespace mechdyn
