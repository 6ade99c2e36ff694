// The joint-space inertia matrix M(q) one row at a time: M of a large tree printed (or
// otherwise consumed) row by row in O(n) memory instead of O(nv²).
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.2, Table 6.2 (CRBA),
// world coordinates (src/dynamics/mass_matrix_rows.cpp). compute_all_terms leaves M in
// this form when asked (evaluation/compute_all_terms.hpp, MassMatrixForm::Rows).
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// CRBA's first half at q: the position kinematics stage, the composite inertias I^c_i
/// into data.composite_inertia and the column forces F_k = I^c_i S_k of every velocity
/// coordinate k of joint i into data.composite_force. O(n); allocates nothing; needs no
/// dense workspace.
void composite_forces(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// The same on the kinematics stage in Data (forward_kinematics(q) or any overload).
/// Reads data.com_position, data.inertia_world, data.motion_axis.
void composite_forces_from_kinematics(const Model& model, Data& data);

/// Row i of M(q) into `row` (nv numbers), after composite_forces(q): the same numbers,
/// bit for bit, as row i of crba(q). O(nv) (the zeros of the row included); reads
/// data.motion_axis and data.composite_force only; allocates nothing.
void mass_matrix_row(const Model& model, const Data& data, int i, Eigen::Ref<VecX> row);

}  // namespace mechdyn
