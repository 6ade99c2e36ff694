// The joint-space inertia matrix M(q) row by row, for trees too large to hold M.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §6.2, Table 6.2 (the
// composite-rigid-body algorithm), in absolute (world) coordinates as in crba.cpp:
//   I^c_i = I_i + Σ_{children c} I^c_c              (composite inertia, backward pass)
//   F_k   = I^c_i S_k                                (k a velocity coordinate of joint i)
//   M_kj  = S_jᵀ F_k     for j = k and every j above k (j = λ(k), λ(λ(k)), …)
// and M_jk = M_kj; entries of coordinates on different branches are zero. CRBA fills M
// column by column; here the column forces F_k are kept instead (one 6-vector per
// coordinate, O(n)) and any row is formed on demand from them:
//   row i:  M_ij = S_jᵀ F_i   for j = i and every j above i            (CRBA's column i)
//           M_ij = S_iᵀ F_j   for every j below i (i lies above j)      (CRBA's M_jk, k = j)
//           0                 elsewhere.
// "Below i": the later coordinates of i's own joint (λ(k) = k − 1 inside a joint) and
// every coordinate of the bodies of the subtree of i's body (model.subtree). Every
// element is the same dot product, of the same operands, as crba's, so the rows are
// crba's M bit for bit.
// Cost: composite_forces O(n) after the O(n) position kinematics; one row O(nv) (its
// zeros) + O(depth + subtree size) products; all nv rows O(nv²) — the size of M itself,
// which is what printing M costs anyway.
// Reads: model, q (composite_forces) or the position kinematics stage
// (composite_forces_from_kinematics). Writes: the position kinematics (composite_forces),
// data.composite_inertia (I^c_i about the world origin), data.composite_force (F_k).
// mass_matrix_row writes only `row`. Neither allocates, nor needs a dense workspace.
#include "mechdyn/dynamics/mass_matrix_rows.hpp"

#include <string>

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void detail::composite_forces_from_stage(const Model& model, Data& data) {
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    data.composite_inertia[i] = SpatialInertia::from_com(body.mass, data.com_position[i], data.inertia_world[i]);
  }
  for (int i = n - 1; i >= 0; --i) {  // children before parents: I^c_i is complete here
    const int parent = model.bodies[i].parent;
    if (parent != kGround) data.composite_inertia[parent] += data.composite_inertia[i];  // I^c_λ(i) += I^c_i
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      data.composite_force[k] = data.composite_inertia[i].apply(data.motion_axis[k]);  // F_k = I^c_i S_k
  }
}

void composite_forces(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "composite_forces");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);  // world S_k, com positions, world inertias
  detail::composite_forces_from_stage(model, data);
}

void composite_forces_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "composite_forces_from_kinematics");
  check_kinematics(data, 0, "composite_forces_from_kinematics");
  detail::composite_forces_from_stage(model, data);
}

void mass_matrix_row(const Model& model, const Data& data, int i, Eigen::Ref<VecX> row) {
  check_data(model, data, "mass_matrix_row");
  if (i < 0 || i >= model.nv)
    throw InvalidArgument("mass_matrix_row: row " + std::to_string(i) + " is outside 0.." +
                          std::to_string(model.nv - 1));
  if (row.size() != model.nv)
    throw InvalidArgument("mass_matrix_row: the row has " + std::to_string(row.size()) +
                          " numbers, the model needs " + std::to_string(model.nv));
  row.setZero();
  const Vec6& axis_i = data.motion_axis[i];
  const Vec6& force_i = data.composite_force[i];
  for (int j = i; j != -1; j = model.dof_parent[j]) row[j] = data.motion_axis[j].dot(force_i);  // M_ij = S_jᵀ F_i
  if (model.has_armature) row[i] += model.armature[i];  // drives' reflected inertia (force-elements.md)
  const int body = model.dof_body[i];
  const Joint& own = model.joints[body];
  for (int j = i + 1; j < own.v_index + own.nv; ++j) row[j] = axis_i.dot(data.composite_force[j]);  // M_ij = S_iᵀ F_j
  for (const int below : model.subtree[body]) {
    if (below == body) continue;
    const Joint& joint = model.joints[below];
    for (int j = joint.v_index; j < joint.v_index + joint.nv; ++j) row[j] = axis_i.dot(data.composite_force[j]);
  }
}

}  // namespace mechdyn
