// The workspace of the FFR functions of one flexible body (flexible/ffr_dynamics.hpp):
// every result and scratch matrix sized once, so evaluation allocates nothing.
#include "mechdyn/flexible/ffr_dynamics.hpp"

namespace mechdyn {

FlexibleBodyData::FlexibleBodyData(const FlexibleBody& body) {
  const Eigen::Index ne = body.num_elastic;
  mass_matrix = MatX::Zero(6 + ne, 6 + ne);
  quadratic_velocity = VecX::Zero(6 + ne);
  gravity_force = VecX::Zero(6 + ne);
  elastic_force = VecX::Zero(ne);
  damping_force = VecX::Zero(ne);
  geometric_stiffness = MatX::Zero(ne, ne);
  products = MatX::Zero(ne, 9);
  rate_products = MatX::Zero(ne, 9);
}

}  // namespace mechdyn
