// Closed-chain inverse dynamics (EC eqs. 23–27, 55–56, Algorithm 1). See the header.
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/friction/friction_models.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// Passive part of x from J_p x_p = rhs (data.constraint_rhs); checks compatibility.
void solve_passive(Data& data, Eigen::Ref<VecX> x, double singular_tolerance, double tolerance, const char* what) {
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  data.passive_svd.solve_min_norm(data.constraint_rhs, data.constraint_solution.head(np), singular_tolerance);
  for (Eigen::Index c = 0; c < np; ++c) x[data.passive_dofs[c]] = data.constraint_solution[c];
  const double scale = 1.0 + data.constraint_rhs.norm();
  // residual J_p x_p − rhs, into constraint_rhs (no longer needed)
  data.constraint_rhs.noalias() -= data.constraint_passive * data.constraint_solution.head(np);
  if (data.constraint_rhs.size() > 0 && data.constraint_rhs.norm() > tolerance * scale)
    throw SolverError(std::string("the prescribed actuated ") + what +
                      " violate the loop closure (residual " + number(data.constraint_rhs.norm()) +
                      "): redundant actuation with incompatible inputs, or a singular configuration");
}

// constraint_rhs_nv −= Σ_b J_bᵀ E_b: the generalized force of the external wrenches
// (data.external_wrench) on the tree, from the motion axes of Data's kinematics.
void subtract_external_generalized_force(const Model& model, Data& data) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Vec6& wrench = data.external_wrench[b];
    if (wrench.isZero(0.0)) continue;
    for (int k = b; k != kGround; k = model.bodies[k].parent)
      for (int i = model.joints[k].v_index; i < model.joints[k].v_index + model.joints[k].nv; ++i)
        data.constraint_rhs_nv[i] -= data.motion_axis[i].dot(wrench);
  }
  // The force elements' joint efforts (dynamics/force_elements.hpp; zero without elements).
  if (model.has_force_elements) data.constraint_rhs_nv -= data.element_effort;
}

}  // namespace

void actuated_joint_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& v,
                             const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "actuated_joint_friction");
  check_vector(v, model.nv, "v");
  check_vector(a, model.nv, "a");
  // Normal loads from the closed chain's reaction wrenches (EC eq. 47, model-format.md form).
  joint_load_decomposition(model, data);
  data.friction_effort.setZero();
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    if (!joint.actuated || !joint.friction) continue;
    const double normal = joint.friction->load ? data.normal_load[l] : 1.0;
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)  // eq. (42) or (52); lugre at steady state
      data.friction_effort[k] = friction_effort(*joint.friction, normal, v[k], sign_of(a[k]));
  }
}

const VecX& closed_chain_inverse_dynamics(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                          Eigen::Ref<VecX> a, const ClosedChainOptions& options) {
  {
    const Eigen::Ref<const VecX> qc(q), vc(v), ac(a);
    check_data(model, data, "closed_chain_inverse_dynamics");
    check_state(model, qc, &vc, &ac);
  }
  data.reserve(model, DenseWorkspace::ClosedChains);  // only in a Data made without it
  // 1. assembly; leaves J_p factorised at the solution and checks it is not singular.
  assemble(model, data, q, options.assembly);
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  if (np > 0) {
    // 2. J_p v_p = −J_a v_a (EC eq. 24)
    for (int k : data.passive_dofs) v[k] = 0.0;
    data.constraint_rhs.noalias() = -data.loop_jacobian * v;
    solve_passive(data, v, options.assembly.singular_tolerance, options.compatibility_tolerance, "velocities");
    // 3. J_p a_p = −J_a a_a − J̇ v (EC eq. 24 differentiated)
    loop_bias_acceleration(model, data, q, v);
    for (int k : data.passive_dofs) a[k] = 0.0;
    data.constraint_rhs.noalias() = -data.loop_jacobian * a;
    data.constraint_rhs -= data.loop_bias;
    solve_passive(data, a, options.assembly.singular_tolerance, options.compatibility_tolerance, "accelerations");
  }
  // 4. [S_a Jᵀ] [τ_a; λ] = M a + h (EC eqs. 23, 25–26), minimum-norm.
  rnea(model, data, q, v, a);
  data.constraint_rhs_nv = data.tau;
  // External wrenches on bodies (data.external_wrench): M a + h − Σ_b J_bᵀ E_b. The motion
  // axes are those of q (the kinematics of assembly / J̇v above ran at q; rnea leaves them).
  subtract_external_generalized_force(model, data);
  const Eigen::Index na = static_cast<Eigen::Index>(data.actuated_dofs.size());
  const Eigen::Index rows = model.num_loop_rows;
  data.constraint_system.setZero();
  for (Eigen::Index c = 0; c < na; ++c) data.constraint_system(data.actuated_dofs[c], c) = 1.0;
  data.constraint_system.rightCols(rows) = data.loop_jacobian.transpose();
  // Minimum-norm τ_a first, then minimum-norm λ (math/minimum_effort.hpp).
  if (!data.effort_solver.solve(data.constraint_system, data.constraint_rhs_nv,
                                data.constraint_solution.head(na + rows), options.rank_tolerance))
    throw SolverError("closed-chain inverse dynamics: the actuated efforts and cut-joint forces cannot balance every "
                      "motion ([S_a Jᵀ] loses row rank); a singular configuration");
  data.constraint_rhs_nv = data.tau;
  subtract_external_generalized_force(model, data);
  data.loop_multiplier = data.constraint_solution.segment(na, rows);
  // The equations must be satisfied (they are when J_p has full column rank).
  data.constraint_rhs_nv.noalias() -= data.constraint_system * data.constraint_solution.head(na + rows);
  if (data.constraint_rhs_nv.norm() > 1e-8 * (1.0 + data.tau.norm()))
    throw SolverError("closed-chain inverse dynamics: the actuated efforts and cut-joint forces cannot balance the motion (residual " +
                      number(data.constraint_rhs_nv.norm()) + " N·m); a singular configuration");
  // 5. cut-joint wrenches and the closed chain's joint reactions (data.tau = Sᵀ wrench).
  forward_kinematics(model, data, q, v, a);  // once, for the cut wrenches and the reactions
  cut_joint_wrenches(model, data);
  closed_chain_joint_reactions_from_kinematics(model, data);
  data.tau.setZero();
  for (Eigen::Index c = 0; c < na; ++c) data.tau[data.actuated_dofs[c]] = data.constraint_solution[c];  // τ_a
  // 6. friction of the actuated joints (eqs. 42/52 with eq. 47), τ_d = τ_a + τ_f (eq. 56).
  actuated_joint_friction(model, data, v, a);
  return data.tau;
}

}  // namespace mechdyn
