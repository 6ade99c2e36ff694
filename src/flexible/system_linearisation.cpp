// The static residual G(q, λ) = Q(q, t) + τ + J(q)ᵀ λ, the dynamic residual
// R(q, v) = M(q) a + h(q, v, t) − τ − J(q)ᵀ λ and their tangents by central finite
// differences in the velocity coordinates (system_linearisation.hpp). The forces are smooth
// in q and v (polynomial in e, trigonometric in the joint angles; a joint stop or a clamped
// servo only where it switches), so the central difference with h = 1e-6 has a truncation
// error ~h² (1e-12 relative) and a round-off error ~ε |G| / h (1e-10 relative of the largest
// force). Cost: 2 · columns evaluations of the kinematics, forces and closure (and M a, h for
// R). Allocates (an analysis, not an evaluation).
#include "system_linearisation.hpp"

namespace mechdyn::detail {

void static_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                     const VecX& multipliers, const ResidualInputs& inputs, VecX& out) {
  const VecX none;
  flexible_kinematics(model, system, data, q);
  flexible_applied_forces(model, system, data, q, none, none, inputs.time);
  out = data.applied_force;
  if (inputs.efforts != nullptr && inputs.efforts->size() > 0) out += *inputs.efforts;
  if (model.num_loop_rows > 0) {
    flexible_loop_closure(model, system, data, q, none);
    out.noalias() += data.loop_jacobian.transpose() * multipliers;
  }
}

void static_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                    const VecX& multipliers, const ResidualInputs& inputs, const std::vector<int>& columns, double step,
                    MatX& out) {
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
    static_residual(model, system, data, plus, multipliers, inputs, g_plus);
    static_residual(model, system, data, minus, multipliers, inputs, g_minus);
    out.col(static_cast<Eigen::Index>(c)) = (g_minus - g_plus) / (2.0 * step);
  }
}

void dynamic_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                      const VecX& v, const VecX& acceleration, const VecX& multipliers, const ResidualInputs& inputs,
                      VecX& out) {
  flexible_kinematics(model, system, data, q, v);
  flexible_mass_product(model, system, data, q, acceleration);
  flexible_bias_force(model, system, data, q, v, acceleration, inputs.time);
  out = data.mass_product + data.bias_force;
  if (inputs.efforts != nullptr && inputs.efforts->size() > 0) out -= *inputs.efforts;
  if (model.num_loop_rows > 0) {
    flexible_loop_closure(model, system, data, q, VecX());
    out.noalias() -= data.loop_jacobian.transpose() * multipliers;
  }
}

void dynamic_tangents(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                      const VecX& v, const VecX& acceleration, const VecX& multipliers, const ResidualInputs& inputs,
                      double step, MatX& stiffness, MatX& damping) {
  const Eigen::Index nv = model.nv;
  stiffness.resize(nv, nv);
  damping.resize(nv, nv);
  VecX dv = VecX::Zero(nv), plus(model.nq), minus(model.nq), r_plus, r_minus, rate = v;
  for (Eigen::Index j = 0; j < nv; ++j) {
    flexible_kinematics(model, system, data, q);  // the mount rotations q ⊕ dv needs
    dv[j] = step;
    flexible_integrate(model, data, q, dv, plus);
    dv[j] = -step;
    flexible_integrate(model, data, q, dv, minus);
    dv[j] = 0.0;
    dynamic_residual(model, system, data, plus, v, acceleration, multipliers, inputs, r_plus);
    dynamic_residual(model, system, data, minus, v, acceleration, multipliers, inputs, r_minus);
    stiffness.col(j) = (r_plus - r_minus) / (2.0 * step);
    rate[j] = v[j] + step;
    dynamic_residual(model, system, data, q, rate, acceleration, multipliers, inputs, r_plus);
    rate[j] = v[j] - step;
    dynamic_residual(model, system, data, q, rate, acceleration, multipliers, inputs, r_minus);
    rate[j] = v[j];
    damping.col(j) = (r_plus - r_minus) / (2.0 * step);
  }
}

}  // namespace mechdyn::detail
