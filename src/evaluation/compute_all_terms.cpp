// Every term of one state on one kinematics stage (Pinocchio's computeAllTerms). See the
// header for what it computes, reads and writes.
#include "mechdyn/evaluation/compute_all_terms.hpp"

#include "../constraints/loop_stages.hpp"
#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void compute_all_terms(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const Eigen::Ref<const VecX>& v, const VecX* a, const VecX* tau,
                       const AllTermsOptions& options) {
  check_data(model, data, "compute_all_terms");
  check_state(model, q, &v);
  if (a != nullptr) check_vector(*a, model.nv, "a");
  if (tau != nullptr) check_vector(*tau, model.nv, "tau");
  const bool recursive = options.method == DynamicsMethod::Recursive;
  const bool dense_mass_matrix = options.mass_matrix == MassMatrixForm::Dense;
  if (!dense_mass_matrix && !recursive)
    throw InvalidArgument(
        "compute_all_terms: the explicit method reads the dense M (M a = tau - h); "
        "MassMatrixForm::Rows needs the recursive method");

  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // the one pass (EC eqs. 1–10)
  if (dense_mass_matrix)
    detail::composite_rigid_body(model, data);  // M (EJ eqs. 30–37)
  else
    detail::composite_forces_from_stage(model, data);  // M as F_k = I^c_i S_k: rows on demand, O(n)
  if (recursive) {
    data.bias_force = rnea(model, data, q, v, data.zeros);                // h = RNEA(q, v, 0)
    data.gravity_force = rnea(model, data, q, data.zeros, data.zeros);  // g = RNEA(q, 0, 0)
  } else {
    detail::explicit_bias_from_stage(model, data);  // h and g (EC eqs. 19–22)
  }
  if (model.num_loop_rows > 0) detail::closure_from_stage(model, data);  // Φ, J (EC eq. 24)
  // Force elements (format 3): Q_f at (q, v, t) and their body wrenches (dynamics/force_elements.hpp).
  if (model.has_force_elements) force_elements_from_kinematics(model, data, q, v, options.time);

  if (a != nullptr) {
    detail::stage_accelerations(model, data, a->data());  // EC eqs. (8), (10) at a
    detail::reactions_from_stage(model, data);           // EC eq. (17); data.tau = Sᵀ W
    if (model.has_force_elements) {  // the elements' wrenches in the reactions; τ = M a + h − Q_f
      apply_external_wrenches_to_reactions(model, data);  // data.tau = Sᵀ W = M a + h − Jᵀ E
      data.tau -= data.element_effort;
    }
    if (model.has_armature) data.tau += model.armature.cwiseProduct(*a);  // the drives' armature a (not a reaction)
    friction_from_reactions(model, data, v, *a, options.lugre);  // EC Algorithm 1 lines 6–9
    // Explicit: τ is already the projection of the resultant iteration (EC eq. 17), O(n)
    // — no M a + h product (explicit_inverse_dynamics). Recursive: RNEA, independent.
    if (recursive) {
      rnea(model, data, q, v, *a);
      if (model.has_force_elements) data.tau -= data.applied_force;
    }
  }
  if (tau != nullptr) {
    data.total_effort = *tau + data.applied_force;  // τ + Q_f (Q_f = 0 without force elements)
    if (recursive) {
      detail::articulated_body(model, data, data.total_effort.data());  // ABA passes 2–3 on the velocity stage
    } else {
      detail::factor_mass_matrix(model, data);
      data.ddq = data.total_effort - data.bias_force;  // EC eq. (16): M q̈ = τ + Q_f − h (no allocation)
      detail::solve_mass_matrix(model, data, data.ddq.data());
    }
  }
}

}  // namespace mechdyn
