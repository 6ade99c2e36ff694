// Explicit canonical bias forces h(q, q̇) and gravity forces g(q) of a tree.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2: the per-joint canonical
// equation (17), n_uᵀ (M_R[u] q̈ + h_R[u]) = n_uᵀ τ_{uL} (revolute) and
// n_uᵀ (M_P[u] q̈ + h_P[u]) = n_uᵀ f_{uL} (prismatic), with the bias vectors (EC eqs.
// 21–22 as counted in §2.2; explicit-jsim-tree-chains eqs. (13)–(14))
//   h_P[u] = Σ_{k∈uL} [ m_k a⁰_{kI} − m_k g ]                                     eq. (22)
//   h_R[u] = Σ_{k∈uL} [ m_k r̃^{u}_{kI} (a⁰_{kI} − g) + J_k α⁰_k + ω̃_k J_k ω_k ]     eq. (21)
// where a⁰_{kI} and α⁰_k are body k's centre-of-mass and angular accelerations at q̈ = 0
// (the centripetal and Coriolis sums of EC eqs. (8), (10); J ϕ̃̇ ϕ̇ terms in α⁰).
// In world form this is the reaction iteration at q̈ = 0 (EC eq. 17; subtree_wrenches):
// each body contributes the wrench (about the world origin)
//   f_k = m_k (a⁰_{kI} − g),   n_k = c_k × f_k + J_k α⁰_k + ω_k × J_k ω_k,
// the wrenches are summed over each subtree uL once, backward (W_u), and projected on
// every coordinate's world motion axis s_i = [n; o × n] or [0; n]:
//   h_i = s_iᵀ W_u = n·(n_{uL} − o × f_{uL}) (rotational), n·f_{uL} (translational),
// which is n_uᵀ h_R[u] resp. n_uᵀ h_P[u], for every joint type without branches.
// a⁰ is the spatial acceleration at q̈ = 0 (data.bias_acceleration, Σ Ṡ q̇ along the path):
//   a⁰_{kI} = a_O + α⁰ × c_k + ω × v_{kI},  v_{kI} = v_O + ω × c_k.
// The gravity part g(q) = projection of the subtree sums of (−m_k c_k × g, −m_k g).
// Cost O(n + nv).
//
// Reads: Model and the velocity stage (see the header). Writes: data.bias_force,
// data.gravity_force, data.bias_acceleration (the q̈ = 0 accelerations),
// data.subtree_force (W_u), data.subtree_inertia (subtree mass and first moment only;
// the rotational block is left as it was). Allocates nothing.
#include "mechdyn/dynamics/explicit_bias.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// Subtree mass Σ m_l and first moment Σ m_l c_l into data.subtree_inertia, and the
// gravity forces g_i = s_iᵀ [−(Σ m_l c_l) × g; −(Σ m_l) g] into data.gravity_force.
void gravity_from_kinematics(const Model& model, Data& data) {
  const int n = model.num_bodies();
  for (int l = 0; l < n; ++l) {
    data.subtree_inertia[l].mass = model.bodies[l].mass;
    data.subtree_inertia[l].first_moment = model.bodies[l].mass * data.com_position[l];
  }
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[l].parent;
    if (parent == kGround) continue;
    data.subtree_inertia[parent].mass += data.subtree_inertia[l].mass;
    data.subtree_inertia[parent].first_moment += data.subtree_inertia[l].first_moment;
  }
  const Vec3& g = model.gravity;
  for (int i = 0; i < model.nv; ++i) {
    const SpatialInertia& subtree = data.subtree_inertia[model.dof_body[i]];
    const Vec6 gravity_wrench = make_vec6(-subtree.first_moment.cross(g), -subtree.mass * g);  // −Σ m_k (r̃_{kI} g; g)
    data.gravity_force[i] = data.motion_axis[i].dot(gravity_wrench);  // eqs. (21)–(22), g-terms
  }
}

}  // namespace

const VecX& detail::explicit_bias_from_stage(const Model& model, Data& data) {
  detail::bias_accelerations(model, data);                // a⁰ = a⁰_λ + Ṡ q̇ (EC eqs. 8, 10 at q̈ = 0)
  detail::subtree_wrenches(model, data, data.bias_acceleration);  // W_u at q̈ = 0 (the eq. 17 iteration)
  for (int i = 0; i < model.nv; ++i)
    data.bias_force[i] = data.motion_axis[i].dot(data.subtree_force[model.dof_body[i]]);  // n_uᵀ h[u], eq. (17)
  gravity_from_kinematics(model, data);
  return data.bias_force;
}

const VecX& explicit_bias_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v) {
  check_data(model, data, "explicit_bias_force");
  check_state(model, q, &v);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
  return detail::explicit_bias_from_stage(model, data);
}

const VecX& explicit_bias_force_from_kinematics(const Model& model, Data& data) {
  check_data(model, data, "explicit_bias_force_from_kinematics");
  check_kinematics(data, 1, "explicit_bias_force_from_kinematics");
  return detail::explicit_bias_from_stage(model, data);
}

const VecX& explicit_gravity_force(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "explicit_gravity_force");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
  gravity_from_kinematics(model, data);
  return data.gravity_force;
}

}  // namespace mechdyn
