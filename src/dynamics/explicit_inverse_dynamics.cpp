// Inverse dynamics by the explicit method: tau = M(q) a + h(q, q̇).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16) (and eq. (17)
// per joint), with M from explicit-jsim-tree-chains eqs. (30)–(37)
// (dynamics/explicit_jsim.hpp) and h from EC eqs. (21)–(22) (dynamics/explicit_bias.hpp).
// Cost O(nv·depth) for M and the product (M is dense only along ancestor chains, but the
// product here is the plain dense one: O(nv²)).
//
// Reads: Model. Writes: data.tau, data.mass_matrix, data.bias_force, data.gravity_force
// and the kinematics block. Allocates nothing.
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"

#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn {

const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_state(model, q, &v, &a);
  explicit_mass_matrix(model, data, q);
  explicit_bias_force(model, data, q, v);
  data.tau.noalias() = data.mass_matrix * a;  // eq. (16): M q̈
  data.tau += data.bias_force;                //          + h
  return data.tau;
}

}  // namespace mechdyn
