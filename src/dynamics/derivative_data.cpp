// The workspace of the analytical derivatives (dynamics/derivative_data.hpp): sized once
// from the Model.
#include "mechdyn/dynamics/derivative_data.hpp"

namespace mechdyn {

DerivativeData::DerivativeData(const Model& model) : num_bodies(model.num_bodies()), nv(model.nv) {
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  const Eigen::Index size = model.nv;
  dtau_dq = MatX::Zero(size, size);
  dtau_dv = MatX::Zero(size, size);
  tau = VecX::Zero(size);
  da_dq = MatX::Zero(size, size);
  da_dv = MatX::Zero(size, size);
  da_dtau = MatX::Zero(size, size);
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
}

}  // namespace mechdyn
