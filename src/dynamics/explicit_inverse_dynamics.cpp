// Inverse dynamics by the explicit method: tau = M(q) a + h(q, q̇).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16) (and eq. (17)
// per joint), with M from explicit-jsim-tree-chains eqs. (30)–(37)
// (dynamics/explicit_jsim.hpp) and h from EC eqs. (21)–(22) (dynamics/explicit_bias.hpp).
// The kinematics runs once for both. Cost O(nv·depth) for M and for the product (M is
// non-zero only along ancestor chains, and only those entries are multiplied).
//
// Reads: Model. Writes: data.tau, data.mass_matrix, data.bias_force, data.gravity_force
// and the kinematics block. Allocates nothing.
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"

#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "explicit_steps.hpp"

namespace mechdyn {

const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_state(model, q, &v, &a);
  forward_kinematics(model, data, q, v);  // once, for both M and h
  detail::explicit_mass_matrix_from_kinematics(model, data);
  detail::explicit_bias_force_from_kinematics(model, data);
  // eq. (16): τ = M q̈ + h, with M's non-zeros only where one coordinate is an
  // ancestor of the other (the λ chains): O(Σ depth) products instead of nv².
  // M(j, i), j above i, is read from the upper triangle: column i, contiguous.
  const MatX& mass_matrix = data.mass_matrix;
  VecX& tau = data.tau;
  tau = data.bias_force;
  for (int i = 0; i < model.nv; ++i) {
    tau[i] += mass_matrix(i, i) * a[i];
    for (int j = model.dof_parent[i]; j != -1; j = model.dof_parent[j]) {
      tau[i] += mass_matrix(j, i) * a[j];
      tau[j] += mass_matrix(j, i) * a[i];
    }
  }
  return tau;
}

}  // namespace mechdyn
