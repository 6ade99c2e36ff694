// Analytical derivatives of forward dynamics: ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ of q̈ = ABA(q, v, τ).
// Source: Carpentier & Mansard, RSS 2018, §IV-C (the identity of Pinocchio's
// computeABADerivatives): differentiating M(q) q̈ + h(q, v) = τ at q̈ = FD(q, v, τ),
//   ∂q̈/∂q = −M⁻¹ ∂τ/∂q |_{a = q̈},  ∂q̈/∂v = −M⁻¹ ∂τ/∂v |_{a = q̈},  ∂q̈/∂τ = M⁻¹.
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// q̈ into data.ddq and its derivatives into work.da_dq, work.da_dv, work.da_dtau (nv × nv,
/// row i the derivative of q̈_i; ∂/∂q in the tangent space). Also leaves work.dtau_dq,
/// work.dtau_dv at a = q̈, data.mass_matrix and its factor, and the kinematics stage at
/// (q, v, q̈) (q̈ = M⁻¹ (τ − h), no ABA run: src/dynamics/aba_derivatives.cpp). Throws
/// InvalidArgument for bad input, SolverError naming the coordinate when M is singular. Allocates nothing
/// (after the first call on a Data made without DenseWorkspace::MassMatrix and
/// MassMatrixFactor, which it reserves).
void aba_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau);

}  // namespace mechdyn
