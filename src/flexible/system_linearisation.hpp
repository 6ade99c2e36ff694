// Private to src/flexible: the static residual G(q, λ) = Q(q, t) + τ + J(q)ᵀ λ of a mechanism
// with flexible bodies and its finite-difference tangent, shared by static_equilibrium and
// natural_frequencies (flexible/equilibrium.hpp), and the dynamic residual
// R(q, v) = M(q) a* + h(q, v, t) − τ − J(q)ᵀ λ* with its q- and v-derivatives (the modes
// about a state, the damping matrix). Not installed.
#pragma once

#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn::detail {

/// The constant inputs of a residual: the time of the force elements and the efforts τ
/// (nv, or empty: none).
struct ResidualInputs {
  double time = 0.0;
  const VecX* efforts = nullptr;
};

/// G = Q(q, t) + τ + J(q)ᵀ λ (nv) at v = 0: gravity, elastic forces (with the geometric
/// stiffness of gravity), the force elements and the cut-joint and coupling reactions; runs
/// flexible_kinematics(q) and the closure (data.loop_residual, loop_jacobian hold Φ(q), J(q)).
void static_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                     const VecX& multipliers, const ResidualInputs& inputs, VecX& out);

/// Columns `columns` (velocity indices) of −∂G/∂q by central differences q ⊕ (±h e_j):
/// out is nv x columns.size().
void static_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                    const VecX& multipliers, const ResidualInputs& inputs, const std::vector<int>& columns, double step,
                    MatX& out);

/// R = M(q) a + h(q, v, t) − τ − J(q)ᵀ λ (nv), with a also the frame accelerations of the
/// geometric stiffness.
void dynamic_residual(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                      const VecX& v, const VecX& acceleration, const VecX& multipliers, const ResidualInputs& inputs,
                      VecX& out);

/// ∂R/∂q (q ⊕ (±h e_j)) and ∂R/∂v (v ± h e_j), nv x nv each, by central differences.
void dynamic_tangents(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                      const VecX& v, const VecX& acceleration, const VecX& multipliers, const ResidualInputs& inputs,
                      double step, MatX& stiffness, MatX& damping);

}  // namespace mechdyn::detail
