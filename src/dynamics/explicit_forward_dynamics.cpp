// Forward dynamics by the explicit method: solve M(q) q̈ = tau − h(q, q̇).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eq. (16), with M from
// explicit-jsim-tree-chains eqs. (30)–(37) and h from EC eqs. (21)–(22); the solve is
// Featherstone's branch-sparse LTDL (RBDA §6.5, dynamics/sparse_cholesky.hpp).
// The kinematics runs once for both M and h. Cost O(nv·depth) for M, O(Σ depth²) for
// the factor.
//
// Reads: Model. Writes: data.ddq, data.mass_matrix, data.mass_matrix_factor,
// data.bias_force, data.gravity_force and the kinematics block. Throws SolverError when
// M is not positive definite. Allocates nothing.
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"

#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "explicit_steps.hpp"

namespace mechdyn {

const VecX& explicit_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_state(model, q, &v, &tau, "tau");
  forward_kinematics(model, data, q, v);  // once, for both M and h
  detail::explicit_mass_matrix_from_kinematics(model, data);
  detail::explicit_bias_force_from_kinematics(model, data);
  factor_mass_matrix(model, data);
  data.ddq = tau - data.bias_force;  // eq. (16): M q̈ = τ − h (same size: no allocation)
  solve_mass_matrix(model, data, data.ddq);
  return data.ddq;
}

}  // namespace mechdyn
