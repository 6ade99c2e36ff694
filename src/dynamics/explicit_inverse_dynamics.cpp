// Inverse dynamics by the explicit method: tau = M(q) a + h(q, q̇).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16) (and eq. (17)
// per joint), with M from explicit-jsim-tree-chains eqs. (30)–(37)
// (dynamics/explicit_jsim.hpp: the world-frame CRBA) and h from EC eqs. (21)–(22)
// (dynamics/explicit_bias.hpp). The kinematics runs once for both. Cost O(nv·depth) for
// M and for the product (M is non-zero only along ancestor chains, and only those entries
// are multiplied, add_mass_matrix_product).
//
// Reads: Model and the velocity stage. Writes: data.tau, data.mass_matrix,
// data.composite_inertia, data.bias_force, data.gravity_force, data.bias_acceleration,
// data.subtree_force, data.subtree_inertia (and the stage, explicit_inverse_dynamics).
// Allocates nothing.
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

const VecX& inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& a) {
  detail::composite_rigid_body(model, data);    // M (EJ eqs. 30–37)
  detail::explicit_bias_from_stage(model, data);  // h (EC eqs. 21–22)
  data.tau = data.bias_force;                     // eq. (16): τ = M q̈ + h
  detail::add_mass_matrix_product(model, data, a.data(), data.tau.data());
  return data.tau;
}

}  // namespace

const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "explicit_inverse_dynamics");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once, for both M and h
  return inverse_dynamics(model, data, a);
}

const VecX& explicit_inverse_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "explicit_inverse_dynamics_from_kinematics");
  check_kinematics(data, 1, "explicit_inverse_dynamics_from_kinematics");
  check_vector(a, model.nv, "a");
  return inverse_dynamics(model, data, a);
}

}  // namespace mechdyn
