#include "mechdyn/model/data.hpp"

#include <algorithm>

namespace mechdyn {

Data::Data(const Model& model) : Data(model, DenseWorkspace::All) {}

Data::Data(const Model& model, DenseWorkspace dense) {
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

  natural_rotation.assign(n, Mat3::Identity());
  natural_offset.assign(n, Vec3::Zero());
  natural_motion_axis.assign(static_cast<std::size_t>(nv), Vec6::Zero());
  natural_velocity.assign(n, Vec6::Zero());
  natural_acceleration.assign(n, Vec6::Zero());
  natural_body_rates.assign(n, Vec6::Zero());

  bias_force = VecX::Zero(nv);
  gravity_force = VecX::Zero(nv);
  tau = VecX::Zero(nv);
  ddq = VecX::Zero(nv);

  reaction_force.assign(n, Vec3::Zero());
  reaction_torque.assign(n, Vec3::Zero());

  subtree_inertia.assign(n, SpatialInertia{});
  subtree_force.assign(n, Vec6::Zero());

  body_inertia.assign(n, SpatialInertia{});
  body_inertia_source.assign(n, BodyInertiaSource{});
  composite_inertia.assign(n, SpatialInertia{});
  joint_cosine = VecX::Ones(static_cast<Eigen::Index>(n));
  joint_sine = VecX::Zero(static_cast<Eigen::Index>(n));
  composite_force.assign(static_cast<std::size_t>(nv), Vec6::Zero());
  composite_force_rows.setZero(6, nv);
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
    constraint_rhs = VecX::Zero(rows);
    constraint_rhs_nv = VecX::Zero(nv);
    constraint_solution = VecX::Zero(std::max(na + rows, np));
    cut_subtree_wrench.assign(n, Vec6::Zero());
    external_wrench.assign(n, Vec6::Zero());
    assembly_q = VecX::Zero(model.nq);
    assembly_step = VecX::Zero(nv);
  }

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
  // ==== joint friction — end ====

  // ==== force elements (dynamics/force_elements.hpp) ====
  {
    const auto ne = static_cast<Eigen::Index>(model.forces.size());
    applied_force = VecX::Zero(nv);
    coupling_coordinates = VecX::Zero(2 * static_cast<Eigen::Index>(model.couplings.size()));
    element_effort = VecX::Zero(nv);
    total_effort = VecX::Zero(nv);
    element_value = VecX::Zero(ne);
    element_energy = VecX::Zero(ne);
    element_length = VecX::Zero(ne);
    element_wrench_a.assign(static_cast<std::size_t>(ne), Vec6::Zero());
    element_wrench_b.assign(static_cast<std::size_t>(ne), Vec6::Zero());
    element_point_a.assign(static_cast<std::size_t>(ne), Vec3::Zero());
    element_point_b.assign(static_cast<std::size_t>(ne), Vec3::Zero());
    std::vector<std::string> expressions, targets;  // the order force_elements.cpp reads them in
    for (const ForceElement& e : model.forces) {
      if (e.type == ForceElementType::JointServo) {
        expressions.push_back(e.target);
        if (!e.target_rate.empty()) expressions.push_back(e.target_rate);
        else targets.push_back(e.target);
      } else if (e.type == ForceElementType::Applied) {
        for (const std::string& x : e.force) expressions.push_back(x);
        for (const std::string& x : e.torque) expressions.push_back(x);
      }
    }
    if (!expressions.empty()) {
      element_expressions.emplace(expressions, "forces");
      element_expression_values = VecX::Zero(static_cast<Eigen::Index>(expressions.size()));
    }
    if (!targets.empty()) {
      element_targets.emplace(targets, "forces_target");
      element_target_values = VecX::Zero(static_cast<Eigen::Index>(targets.size()));
      element_target_ahead = VecX::Zero(static_cast<Eigen::Index>(targets.size()));
    }
  }

  // The factorisations of groups not held: factorise a 0 × 0 matrix, so that their
  // `info` is defined (a default LLT leaves it uninitialised; copying a Data would read
  // it, UBSan) at no allocation.
  mass_llt.compute(MatX(0, 0));
  friction_factor.compute(MatX(0, 0));
  allocate_dense(model, dense);
}

void Data::allocate_dense(const Model& model, DenseWorkspace groups) {
  const Eigen::Index nv = model.nv;
  const DenseWorkspace missing = groups & static_cast<DenseWorkspace>(~static_cast<unsigned>(dense_));
  const auto wanted = [&](DenseWorkspace group) { return (missing & group) == group; };
  if (wanted(DenseWorkspace::MassMatrix)) mass_matrix = MatX::Zero(nv, nv);
  if (wanted(DenseWorkspace::MassMatrixFactor)) mass_matrix_factor = MatX::Zero(nv, nv);
  if (wanted(DenseWorkspace::ClosedChains)) {
    const Eigen::Index rows = model.num_loop_rows;
    const Eigen::Index np = static_cast<Eigen::Index>(passive_dofs.size());
    const Eigen::Index na = static_cast<Eigen::Index>(actuated_dofs.size());
    constraint_passive = MatX::Zero(rows, np);
    constraint_system = MatX::Zero(nv, na + rows);
    constraint_factor = MatX::Zero(nv, rows);
    // Factorise the identity rather than move-assign Eigen::LLT<MatX>(nv): that
    // constructor leaves LLT's `info` uninitialised and the move reads it (UBSan: load of
    // an invalid ComputationInfo). compute() sizes the factor and sets info = Success.
    mass_llt.compute(MatX::Identity(nv, nv));
    factor_svd.resize(nv, rows);
    passive_svd.resize(rows, np);
    full_svd.resize(rows, nv);
    effort_solver.resize(nv, na + rows, na);
  }
  if (wanted(DenseWorkspace::Friction)) {
    friction_matrix = MatX::Identity(nv, nv);
    friction_factor.compute(friction_matrix);  // sized once; info defined (see mass_llt above)
  }
  dense_ = dense_ | groups;
}

namespace {
template <typename T, typename Allocator>
std::size_t bytes_of(const std::vector<T, Allocator>& values) {
  return values.capacity() * sizeof(T);
}
template <typename Derived>
std::size_t bytes_of(const Eigen::PlainObjectBase<Derived>& values) {
  return static_cast<std::size_t>(values.size()) * sizeof(typename Derived::Scalar);
}
}  // namespace

std::size_t Data::allocated_bytes() const {
  std::size_t total = 0;
  // std::vector members (their buffers; the elements are fixed-size)
  total += bytes_of(rotation) + bytes_of(position) + bytes_of(com_position) + bytes_of(inertia_world);
  total += bytes_of(motion_axis) + bytes_of(velocity) + bytes_of(joint_velocity) + bytes_of(joint_bias);
  total += bytes_of(acceleration) + bytes_of(bias_acceleration) + bytes_of(reaction_force) + bytes_of(reaction_torque);
  total += bytes_of(subtree_inertia) + bytes_of(subtree_force);
  total += bytes_of(joint_rotation) + bytes_of(joint_translation) + bytes_of(local_motion_axis);
  total += bytes_of(local_velocity) + bytes_of(local_acceleration) + bytes_of(rnea_world_rotation);
  total += bytes_of(natural_rotation) + bytes_of(natural_offset) + bytes_of(natural_motion_axis);
  total += bytes_of(natural_velocity) + bytes_of(natural_acceleration) + bytes_of(natural_body_rates);
  total += bytes_of(body_inertia) + bytes_of(body_inertia_source);
  total += bytes_of(composite_inertia) + bytes_of(composite_force) + bytes_of(body_force);
  total += bytes_of(composite_force_rows);
  total += bytes_of(articulated_inertia) + bytes_of(articulated_bias) + bytes_of(aba_u_force);
  total += bytes_of(aba_d_inverse);
  total += bytes_of(loop_row_wrench_a) + bytes_of(loop_row_wrench_b) + bytes_of(cut_wrench_a);
  total += bytes_of(cut_wrench_b) + bytes_of(cut_point) + bytes_of(cut_force) + bytes_of(cut_torque);
  total += bytes_of(passive_dofs) + bytes_of(actuated_dofs);
  total += bytes_of(cut_subtree_wrench) + bytes_of(external_wrench) + bytes_of(joint_stuck);
  // Eigen vectors and matrices
  total += bytes_of(joint_cosine) + bytes_of(joint_sine);
  total += bytes_of(mass_matrix) + bytes_of(bias_force) + bytes_of(gravity_force) + bytes_of(tau) + bytes_of(ddq);
  total += bytes_of(aba_u) + bytes_of(loop_residual) + bytes_of(loop_jacobian);
  total += bytes_of(loop_bias) + bytes_of(loop_multiplier) + bytes_of(friction_effort);
  total += bytes_of(constraint_passive) + bytes_of(constraint_system) + bytes_of(constraint_factor);
  total += bytes_of(constraint_rhs) + bytes_of(constraint_rhs_nv) + bytes_of(constraint_solution);
  total += bytes_of(assembly_q) + bytes_of(assembly_step);
  total += bytes_of(mass_matrix_factor) + bytes_of(work) + bytes_of(zeros);
  total += bytes_of(constraint_torque) + bytes_of(constraint_force) + bytes_of(axial_load) + bytes_of(normal_load);
  total += bytes_of(tau_with_friction) + bytes_of(friction_state) + bytes_of(friction_state_rate);
  total += bytes_of(friction_previous) + bytes_of(friction_rhs) + bytes_of(friction_direction);
  total += bytes_of(friction_matrix);
  total += bytes_of(coupling_coordinates) + bytes_of(total_effort) + bytes_of(applied_force) + bytes_of(element_effort) + bytes_of(element_value) + bytes_of(element_energy);
  total += bytes_of(element_length) + bytes_of(element_wrench_a) + bytes_of(element_wrench_b);
  total += bytes_of(element_point_a) + bytes_of(element_point_b) + bytes_of(element_expression_values);
  total += bytes_of(element_target_values) + bytes_of(element_target_ahead);
  // factorisations and solvers
  total += bytes_of(mass_llt.matrixLLT()) + bytes_of(friction_factor.matrixLLT());
  total += factor_svd.allocated_bytes() + passive_svd.allocated_bytes() + full_svd.allocated_bytes();
  total += effort_solver.allocated_bytes();
  return total;
}

}  // namespace mechdyn
