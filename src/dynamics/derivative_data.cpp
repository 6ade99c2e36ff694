// The workspace of the analytical derivatives (dynamics/derivative_data.hpp): sized once
// from the Model.
#include "mechdyn/dynamics/derivative_data.hpp"

#include "articulated_solve.hpp"

namespace mechdyn {

DerivativeData::DerivativeData(const Model& model, bool with_reactions)
    : with_reactions(with_reactions), num_bodies(model.num_bodies()), nv(model.nv) {
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  const Eigen::Index size = model.nv;
  dtau_dq = MatX::Zero(size, size);
  dtau_dv = MatX::Zero(size, size);
  tau = VecX::Zero(size);
  da_dq = MatX::Zero(size, size);
  da_dv = MatX::Zero(size, size);
  da_dtau = MatX::Zero(size, size);
  if (with_reactions) {
    dreaction_dq = MatX::Zero(6 * static_cast<Eigen::Index>(n), size);
    dreaction_dv = MatX::Zero(6 * static_cast<Eigen::Index>(n), size);
    dfriction_dq = MatX::Zero(size, size);
    dfriction_dv = MatX::Zero(size, size);
  }
  dof_carrier.assign(static_cast<std::size_t>(size), AxisCarrier::Parent);
  for (const Joint& joint : model.joints)
    for (int c = 0; c < joint.nv; ++c)
      dof_carrier[static_cast<std::size_t>(joint.v_index + c)] = joint_axis_carrier(joint, c);
  body_inertia.assign(n, SpatialInertia{});
  body_momentum.assign(n, Vec6::Zero());
  transmitted_force.assign(n, Vec6::Zero());
  velocity_variation.assign(n, Vec6::Zero());
  acceleration_variation.assign(n, Vec6::Zero());
  force_variation.assign(n, Vec6::Zero());
  acceleration_velocity_derivative.assign(n, Vec6::Zero());
  force_velocity_derivative.assign(n, Vec6::Zero());
  axis_variation.assign(static_cast<std::size_t>(size), Vec6::Zero());
  subtree_dof_end.assign(n, -1);
  for (std::size_t b = 0; b < n; ++b) {  // contiguous when every coordinate of the subtree lies in the range
    const int first = model.joints[b].v_index;
    int count = 0;
    bool inside = true;
    for (const int i : model.subtree[static_cast<int>(b)]) {
      const Joint& joint = model.joints[static_cast<std::size_t>(i)];
      count += joint.nv;
      inside &= joint.nv == 0 || joint.v_index >= first;
    }
    bool contiguous = inside;
    for (const int i : model.subtree[static_cast<int>(b)]) {
      const Joint& joint = model.joints[static_cast<std::size_t>(i)];
      contiguous &= joint.nv == 0 || joint.v_index + joint.nv <= first + count;
    }
    if (contiguous) subtree_dof_end[b] = first + count;
  }
  rigid_below.assign(n, 1);
  for (std::size_t i = 0; i < n; ++i) {  // a world-direction or world axis makes every strict ancestor non-rigid
    const Joint& joint = model.joints[i];
    bool moves_with_the_world = false;
    for (int c = 0; c < joint.nv; ++c) {
      const AxisCarrier carrier = joint_axis_carrier(joint, c);
      moves_with_the_world |= carrier == AxisCarrier::WorldDirection || carrier == AxisCarrier::World;
    }
    if (moves_with_the_world)
      for (int u = model.bodies[i].parent; u != kGround; u = model.bodies[static_cast<std::size_t>(u)].parent)
        rigid_below[static_cast<std::size_t>(u)] = 0;
  }
  every_rigid = true;
  for (const char rigid : rigid_below) every_rigid &= rigid != 0;
  every_single_axis = every_rigid;
  for (const Joint& joint : model.joints)
    every_single_axis &= joint.nv == 0 || (joint.nv == 1 && dof_carrier[static_cast<std::size_t>(joint.v_index)] ==
                                                                 AxisCarrier::Parent);
  composite_inertia.assign(n, SpatialInertia{});
  composite_momentum.assign(n, Vec6::Zero());
  composite_coriolis_block.assign(n, Mat3::Zero());
  composite_axis_rows.assign(static_cast<std::size_t>(size), AxisRows::Zero());
  single_path = true;
  for (int k = 0; k < model.nv; ++k) single_path &= model.dof_parent[static_cast<std::size_t>(k)] == k - 1;
  articulated_solve = detail::articulated_solve_pays(model);
  if (articulated_solve) {
    articulated_inertia.assign(n, Mat6::Zero());
    articulated_axes = VecX::Zero(19 * 4 * size);
    articulated_block = VecX::Zero(13 * 4 * size + 6 * 4);  // a tree's 13 × 4 a coordinate; a path's 6 × 4 a block of 4
  } else {
    solve_rows = RowMatrix::Zero(size, 3 * size);
  }
}

}  // namespace mechdyn
