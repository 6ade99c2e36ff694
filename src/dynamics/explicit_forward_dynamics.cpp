// Forward dynamics by the explicit method: solve M(q) q̈ = tau − h(q, q̇).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16), with M from
// explicit-jsim-tree-chains eqs. (30)–(37) (the world-frame CRBA) and h from EC eqs.
// (21)–(22); the solve is Featherstone's branch-sparse LTDL (RBDA §6.5,
// dynamics/sparse_cholesky.hpp). The kinematics runs once for both M and h. Cost
// O(nv·depth) for M, O(Σ depth²) for the factor.
//
// Reads: Model and the velocity stage. Writes: data.ddq, data.mass_matrix,
// data.composite_inertia, data.mass_matrix_factor, data.bias_force, data.gravity_force,
// data.bias_acceleration, data.subtree_force, data.subtree_inertia (and the stage,
// explicit_forward_dynamics). Throws SolverError when M is not positive definite.
// Allocates nothing.
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

const VecX& forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& tau) {
  detail::composite_rigid_body(model, data);    // M (EJ eqs. 30–37)
  detail::explicit_bias_from_stage(model, data);  // h (EC eqs. 21–22)
  detail::factor_mass_matrix(model, data);
  data.ddq = tau - data.bias_force;  // eq. (16): M q̈ = τ − h (same size: no allocation)
  detail::solve_mass_matrix(model, data, data.ddq.data());
  return data.ddq;
}

}  // namespace

const VecX& explicit_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "explicit_forward_dynamics");
  check_state(model, q, &v, &tau, "tau");
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once, for both M and h
  return forward_dynamics(model, data, tau);
}

const VecX& explicit_forward_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "explicit_forward_dynamics_from_kinematics");
  check_kinematics(data, 1, "explicit_forward_dynamics_from_kinematics");
  check_vector(tau, model.nv, "tau");
  return forward_dynamics(model, data, tau);
}

}  // namespace mechdyn
