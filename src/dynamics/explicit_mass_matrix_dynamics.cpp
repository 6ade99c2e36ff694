// The explicit method's M-based forms of the equation of motion, M(q) q̈ + h(q, q̇) = τ
// (explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16)):
//   explicit_inverse_dynamics_mass_matrix   τ = M a + h
//   explicit_forward_dynamics_mass_matrix   M q̈ = τ − h, branch-sparse Lᵀ D L
// with M from explicit-jsim-tree-chains eqs. (30)–(37) (dynamics/explicit_jsim.hpp: the
// world-frame CRBA) and h from EC eqs. (21)–(22) (dynamics/explicit_bias.hpp); the solve
// is Featherstone's branch-sparse LTDL (RBDA §6.5, dynamics/sparse_cholesky.hpp). The
// kinematics runs once for both M and h. These are the papers' explicit model — M is the
// thing they make explicit — and the forms that leave M and h in Data. Cost O(nv·depth)
// for M and for M a (only the ancestor-pattern entries are multiplied), O(Σ depth²) for
// the factor: O(n²) and O(n³) on a chain. The O(n) forms: explicit_inverse_dynamics.cpp
// (the resultant iteration), explicit_forward_dynamics.cpp (which calls the forward form
// here on shallow trees).
//
// Reads: Model and the velocity stage. Writes: data.tau or data.ddq, data.mass_matrix,
// data.composite_inertia, data.bias_force, data.gravity_force, data.bias_acceleration,
// data.subtree_force, data.subtree_inertia, the forward form data.mass_matrix_factor (and
// the stage). Throws SolverError when M is not positive definite. Allocates nothing
// (except the dense M and factor on first use in a Data made without them, data.hpp).
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

const VecX& detail::explicit_forward_dynamics_with_mass_matrix(const Model& model, Data& data, const double* tau) {
  detail::composite_rigid_body(model, data);      // M (EJ eqs. 30–37)
  detail::explicit_bias_from_stage(model, data);  // h (EC eqs. 21–22)
  detail::factor_mass_matrix(model, data);
  data.ddq = Eigen::Map<const VecX>(tau, model.nv) - data.bias_force;  // eq. (16): M q̈ = τ − h (no allocation)
  detail::solve_mass_matrix(model, data, data.ddq.data());
  return data.ddq;
}

const VecX& explicit_inverse_dynamics_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "explicit_inverse_dynamics_mass_matrix");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once, for both M and h
  detail::composite_rigid_body(model, data);                           // M (EJ eqs. 30–37)
  detail::explicit_bias_from_stage(model, data);                       // h (EC eqs. 21–22)
  data.tau = data.bias_force;                                          // eq. (16): τ = M q̈ + h
  detail::add_mass_matrix_product(model, data, a.data(), data.tau.data());
  return data.tau;
}

const VecX& explicit_forward_dynamics_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                  const Eigen::Ref<const VecX>& v,
                                                  const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "explicit_forward_dynamics_mass_matrix");
  check_state(model, q, &v, &tau, "tau");
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once, for both M and h
  return detail::explicit_forward_dynamics_with_mass_matrix(model, data, tau.data());
}

}  // namespace mechdyn
