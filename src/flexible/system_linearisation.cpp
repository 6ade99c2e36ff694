// The static residual G(q, λ) = Q(q) + J(q)ᵀ λ and its tangent −∂G/∂q by central finite
// differences in the velocity coordinates (system_linearisation.hpp). The forces are
// smooth in q (polynomial in e, trigonometric in the joint angles), so the central
// difference with h = 1e-6 has a truncation error ~h² (1e-12 relative) and a round-off
// error ~ε |G| / h (1e-10 relative of the largest force). Cost: 2 · columns evaluations
// of the kinematics, forces and loop closure. Allocates (an analysis, not an evaluation).
#include "system_linearisation.hpp"

namespace mechdyn::detail {

void static_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                     const VecX& multipliers, VecX& out) {
  const VecX none;
  flexible_kinematics(model, system, data, q);
  flexible_applied_forces(model, system, data, q, none, none);
  out = data.applied_force;
  if (model.num_loop_rows > 0) {
    flexible_loop_closure(model, system, data, q, none);
    out.noalias() += data.loop_jacobian.transpose() * multipliers;
  }
}

void static_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                    const VecX& multipliers, const std::vector<int>& columns, double step, MatX& out) {
  out.resize(model.nv, static_cast<Eigen::Index>(columns.size()));
  VecX dv = VecX::Zero(model.nv), plus(model.nq), minus(model.nq), g_plus, g_minus;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const int j = columns[c];
    flexible_kinematics(model, system, data, q);  // the mount rotations q ⊕ dv needs
    dv[j] = step;
    flexible_integrate(model, data, q, dv, plus);
    dv[j] = -step;
    flexible_integrate(model, data, q, dv, minus);
    dv[j] = 0.0;
    static_residual(model, system, data, plus, multipliers, g_plus);
    static_residual(model, system, data, minus, multipliers, g_minus);
    out.col(static_cast<Eigen::Index>(c)) = (g_minus - g_plus) / (2.0 * step);
  }
}

}  // namespace mechdyn::detail
