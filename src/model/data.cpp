#include "mechdyn/model/data.hpp"

namespace mechdyn {

Data::Data(const Model& model) {
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

  mass_matrix_factor = MatX::Zero(nv, nv);
  work = VecX::Zero(nv);
}

}  // namespace mechdyn
