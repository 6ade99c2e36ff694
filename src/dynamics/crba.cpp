// Composite-rigid-body algorithm for the joint-space inertia matrix M(q) (= H in the book).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §6.2, Table 6.2, in
// absolute (world) coordinates, where every X (and X*) of the table is the identity, and
// with the expanded parent array λ over velocity coordinates (§6.5; model.dof_parent) so
// that multi-DoF joints need no special case:
//   I^c_i = I_i                                 for every body
//   for i = N … 1:
//     I^c_λ(i) += I^c_i                          (composite inertia of the subtree of i)
//     for each velocity coordinate k of joint i:
//       F = I^c_i S_k
//       M_kk = S_kᵀ F
//       j = k; while λ(j) ≠ −1: j = λ(j); M_kj = M_jk = S_jᵀ F
// Coordinates of the same joint are reached through λ as well (λ(k) = k − 1 inside a
// joint), which fills the joint's own block. Entries of coordinates on different
// branches are zero.
// Cost: O(Σ_k depth(k)) spatial products after O(n) kinematics.
// crba(q) runs this form only for models with a spherical, free, universal or cylindrical
// joint or a flexible body; the others take the body-coordinate form of
// crba_body_frames.cpp (no kinematics pass; Model::crba_in_body_frames, crba.hpp).
// Reads: model, q (crba) or the position kinematics stage (crba_from_kinematics).
// Writes: the position kinematics (crba), data.composite_inertia (I^c_i, world origin),
// data.mass_matrix (both triangles). Allocates nothing, except data.mass_matrix itself on
// the first call with a Data made without DenseWorkspace::MassMatrix (model/data.hpp).
#include "mechdyn/dynamics/crba.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

const MatX& detail::composite_rigid_body(const Model& model, Data& data) {
  data.reserve(model, DenseWorkspace::MassMatrix);  // allocates only in a Data made without it
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    data.composite_inertia[i] = SpatialInertia::from_com(body.mass, data.com_position[i], data.inertia_world[i]);
  }
  MatX& mass_matrix = data.mass_matrix;
  mass_matrix.setZero();
  for (int i = n - 1; i >= 0; --i) {
    const int parent = model.bodies[i].parent;
    if (parent != kGround) data.composite_inertia[parent] += data.composite_inertia[i];  // I^c_λ(i) += I^c_i
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6 force = data.composite_inertia[i].apply(data.motion_axis[k]);  // F = I^c_i S_k
      mass_matrix(k, k) = data.motion_axis[k].dot(force);                      // M_kk = S_kᵀ F
      for (int j = model.dof_parent[k]; j != -1; j = model.dof_parent[j]) {
        mass_matrix(k, j) = data.motion_axis[j].dot(force);  // M_kj = S_jᵀ F
        mass_matrix(j, k) = mass_matrix(k, j);               // M_jk = M_kjᵀ
      }
    }
  }
  if (model.has_armature) mass_matrix.diagonal() += model.armature;  // drives' reflected inertia (force-elements.md)
  return mass_matrix;
}

const MatX& crba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "crba");
  check_state(model, q);
  if (model.crba_in_body_frames) {  // body coordinates: no kinematics pass (crba_body_frames.cpp)
    data.kinematics_level = -1;     // the stage is not written: what it held was for another q
    return detail::composite_rigid_body_in_body_frames(model, data, q.data());
  }
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);  // world S_k, com positions, world inertias
  return detail::composite_rigid_body(model, data);
}

const MatX& crba_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "crba_from_kinematics");
  check_kinematics(data, 0, "crba_from_kinematics");
  return detail::composite_rigid_body(model, data);
}

}  // namespace mechdyn
