// Forward dynamics by the explicit method, q̈ for M(q) q̈ + h(q, q̇) = τ (EC eq. 16), by
// whichever of two routes costs less for the tree's shape.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2 eq. (16). Both routes run
// the natural-frame kinematics stage once (EC eqs. 1–10, world components):
//   shallow trees — the M-based explicit model: M (explicit-jsim-tree-chains eqs. 30–37),
//     h (EC eqs. 21–22) and the branch-sparse Lᵀ D L (Featherstone RBDA §6.5); cost
//     O(nv·d̄) for M, O(Σ_k d_k²) for the factor (d_k: the number of velocity coordinates
//     on the path from the root to coordinate k, itself included); explicit_mass_matrix_dynamics.cpp.
//   deep trees — the articulated-body recursion (Featherstone RBDA §7.3, Table 7.1) on the
//     same stage: the subtree's articulated inertia is carried to the root in the world
//     frame and q̈ comes out joint by joint, O(n), without forming M (dynamics/aba.hpp).
// The rule (callgrind instructions per call, docs/benchmarks.md "Explicit methods"): the
// M route while nv ≤ kMassMatrixRouteMaxCoordinates = 8, ABA above. Measured, M route
// against ABA: five-axis tree 7 308 / 8 839, 7-DoF arm 11 546 / 12 317, chain of 5
// 7 778 / 8 839, chain of 10 18 228 / 17 532, the 30-body tree of 6-long branches
// 53 855 / 51 052 (its nv² copies of M and the factor outweigh the shallow depth),
// chain of 20 54 145 / 34 911, chain of 50 300 471 / 87 082; a fit of these counts puts
// the chain crossover at nv = 9. The M route stays available for every tree as
// explicit_forward_dynamics_mass_matrix.
//
// Reads: Model and the velocity stage. Writes: data.ddq and either what
// explicit_forward_dynamics_mass_matrix writes or what aba_from_kinematics
// writes (and the stage, explicit_forward_dynamics). Throws SolverError when M (or an
// articulated D_i) is not positive definite. Allocates nothing on the ABA route; the M
// route allocates the dense M and factor on first use in a Data made without them.
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

constexpr int kMassMatrixRouteMaxCoordinates = 8;

bool mass_matrix_route(const Model& model) { return model.nv <= kMassMatrixRouteMaxCoordinates; }

const VecX& forward_dynamics(const Model& model, Data& data, const double* tau) {
  if (mass_matrix_route(model)) return detail::explicit_forward_dynamics_with_mass_matrix(model, data, tau);
  return detail::articulated_body(model, data, tau);  // RBDA Table 7.1 passes 2–3
}

}  // namespace

bool explicit_forward_dynamics_uses_mass_matrix(const Model& model, Data& data) {
  check_data(model, data, "explicit_forward_dynamics_uses_mass_matrix");
  return mass_matrix_route(model);
}

const VecX& explicit_forward_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "explicit_forward_dynamics");
  check_state(model, q, &v, &tau, "tau");
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once, for either route
  return forward_dynamics(model, data, tau.data());
}

const VecX& explicit_forward_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "explicit_forward_dynamics_from_kinematics");
  check_kinematics(data, 1, "explicit_forward_dynamics_from_kinematics");
  check_vector(tau, model.nv, "tau");
  return forward_dynamics(model, data, tau.data());
}

}  // namespace mechdyn
