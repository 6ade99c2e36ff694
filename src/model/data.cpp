#include "mechdyn/model/data.hpp"

#include <algorithm>

namespace mechdyn {

Data::Data(const Model& model) {
  require_rigid_bodies(model, "model '" + model.name + "'", "mechdyn::Data (the rigid-body algorithms)");
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  const Eigen::Index nv = model.nv;
  rotation.assign(n, Mat3::Identity());
  position.assign(n, Vec3::Zero());
  com_position.assign(n, Vec3::Zero());
  inertia_world.assign(n, Mat3::Zero());
  motion_axis.assign(static_cast<std::size_t>(nv), Vec6::Zero());
  velocity.assign(n, Vec6::Zero());
  joint_velocity.assign(n, Vec6::Zero());
  joint_bias.assign(n, Vec6::Zero());
  acceleration.assign(n, Vec6::Zero());
  bias_acceleration.assign(n, Vec6::Zero());

  joint_rotation.assign(n, Mat3::Identity());
  joint_translation.assign(n, Vec3::Zero());
  local_motion_axis.assign(static_cast<std::size_t>(nv), Vec6::Zero());
  local_velocity.assign(n, Vec6::Zero());
  local_acceleration.assign(n, Vec6::Zero());
  rnea_world_rotation.assign(n, Mat3::Identity());

  mass_matrix = MatX::Zero(nv, nv);
  bias_force = VecX::Zero(nv);
  gravity_force = VecX::Zero(nv);
  tau = VecX::Zero(nv);
  ddq = VecX::Zero(nv);

  reaction_force.assign(n, Vec3::Zero());
  reaction_torque.assign(n, Vec3::Zero());

  subtree_inertia.assign(n, SpatialInertia{});
  subtree_force.assign(n, Vec6::Zero());

  composite_inertia.assign(n, SpatialInertia{});
  body_force.assign(n, Vec6::Zero());
  articulated_inertia.assign(n, Mat6::Zero());
  articulated_bias.assign(n, Vec6::Zero());
  aba_u_force.assign(static_cast<std::size_t>(nv), Vec6::Zero());
  aba_d_inverse.assign(n, SmallMat());
  for (std::size_t i = 0; i < n; ++i) {
    const int k = model.joints[i].nv;
    aba_d_inverse[i].setZero(k, k);
  }
  aba_u = VecX::Zero(nv);

  loop_residual = VecX::Zero(model.num_loop_rows);
  loop_jacobian = MatX::Zero(model.num_loop_rows, nv);

  // ---- closed chains ----
  {
    const Eigen::Index rows = model.num_loop_rows;
    const std::size_t loops = model.loops.size();
    for (const Joint& joint : model.joints)
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
        (joint.actuated ? actuated_dofs : passive_dofs).push_back(k);
    const Eigen::Index np = static_cast<Eigen::Index>(passive_dofs.size());
    const Eigen::Index na = static_cast<Eigen::Index>(actuated_dofs.size());
    loop_bias = VecX::Zero(rows);
    loop_multiplier = VecX::Zero(rows);
    loop_row_wrench_a.assign(static_cast<std::size_t>(rows), Vec6::Zero());
    loop_row_wrench_b.assign(static_cast<std::size_t>(rows), Vec6::Zero());
    cut_wrench_a.assign(loops, Vec6::Zero());
    cut_wrench_b.assign(loops, Vec6::Zero());
    cut_point.assign(loops, Vec3::Zero());
    cut_force.assign(loops, Vec3::Zero());
    cut_torque.assign(loops, Vec3::Zero());
    friction_effort = VecX::Zero(nv);
    constraint_passive = MatX::Zero(rows, np);
    constraint_system = MatX::Zero(nv, na + rows);
    constraint_factor = MatX::Zero(nv, rows);
    constraint_rhs = VecX::Zero(rows);
    constraint_rhs_nv = VecX::Zero(nv);
    constraint_solution = VecX::Zero(std::max(na + rows, np));
    // Factorise the identity rather than move-assign Eigen::LLT<MatX>(nv): that
    // constructor leaves LLT's `info` uninitialised and the move reads it (UBSan: load of
    // an invalid ComputationInfo). compute() sizes the factor and sets info = Success.
    mass_llt.compute(MatX::Identity(nv, nv));
    factor_svd.resize(nv, rows);
    passive_svd.resize(rows, np);
    full_svd.resize(rows, nv);
    cut_subtree_wrench.assign(n, Vec6::Zero());
    external_wrench.assign(n, Vec6::Zero());
    effort_solver.resize(nv, na + rows, na);
    assembly_q = VecX::Zero(model.nq);
    assembly_step = VecX::Zero(nv);
  }

  mass_matrix_factor = MatX::Zero(nv, nv);
  work = VecX::Zero(nv);
  zeros = VecX::Zero(nv);

  // ==== joint friction — begin ====
  constraint_torque = VecX::Zero(static_cast<Eigen::Index>(n));
  constraint_force = VecX::Zero(static_cast<Eigen::Index>(n));
  axial_load = VecX::Zero(static_cast<Eigen::Index>(n));
  normal_load = VecX::Zero(static_cast<Eigen::Index>(n));
  tau_with_friction = VecX::Zero(nv);
  friction_state = VecX::Zero(nv);
  friction_state_rate = VecX::Zero(nv);
  joint_stuck.assign(n, 0);
  friction_previous = VecX::Zero(nv);
  friction_rhs = VecX::Zero(nv);
  friction_direction = VecX::Zero(nv);
  friction_matrix = MatX::Identity(nv, nv);
  friction_factor.compute(friction_matrix);  // sized once; info defined (see mass_llt above)
  // ==== joint friction — end ====
}

}  // namespace mechdyn
