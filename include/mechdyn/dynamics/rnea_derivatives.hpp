// Analytical derivatives of inverse dynamics: ∂τ/∂q and ∂τ/∂v of τ = RNEA(q, v, a).
// Source: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
// algorithms", RSS 2018 (world-frame RNEA differentiated by rigid-motion variations);
// docs/derivatives.md has the equations and mechdyn's axis conventions.
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// ∂τ/∂q into work.dtau_dq and ∂τ/∂v into work.dtau_dv (nv × nv, row i the derivative of
/// τ_i; ∂τ/∂q in the tangent space: column j is d/dε τ(q ⊕ ε e_j, v, a)), and τ itself into
/// work.tau. Runs forward_kinematics(q, v, a) into data (the stage is left at (q, v, a)).
/// Throws InvalidArgument for wrong sizes, non-finite numbers, or a Data or DerivativeData
/// made for another model. Allocates nothing.
void rnea_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// The same on the kinematics stage in Data, which must hold the velocities of `v` and the
/// accelerations of `a` (forward_kinematics(q, v, a), or aba's stage with a = data.ddq).
void rnea_derivatives_from_kinematics(const Model& model, const Data& data, DerivativeData& work,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// Throws InvalidArgument naming `function` unless `work` was made for `model`'s shape.
void check_derivative_data(const Model& model, const DerivativeData& work, const char* function);

}  // namespace mechdyn
