// Derivatives of the joint friction efforts τ_f (eval's tau_with_friction − tau) with
// respect to q (tangent space) and v. docs/derivatives.md, "Friction efforts".
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Everything joint_reaction_derivatives computes and, into work.dfriction_dq and
/// work.dfriction_dv (nv × nv, row k the friction effort of coordinate k, zero rows for
/// joints without friction), the derivatives of the friction efforts that
/// inverse_dynamics_with_friction(q, v, a, LuGreEvaluation::SteadyState) returns in
/// data.friction_effort — with the normal load N from the joint's reaction at (q, v, a).
/// At v_k = 0 the Coulomb and Stribeck efforts jump (their sign follows a_k there): the
/// result is the derivative of the branch the model evaluates, without the jump. Where a
/// constraint load |P x| vanishes its (non-existent) derivative is taken as 0. ∂/∂a is not
/// computed. `work` must be made with reactions (DerivativeData(model, true)).
/// With force elements the reactions (and so N) include their body wrenches at time t, as
/// compute_all_terms' friction efforts (joint_reaction_derivatives with t, eq. D30).
void friction_effort_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                 const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a, double t);

/// The same at t = 0.
void friction_effort_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                 const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

/// ∂τ_f/∂v of one joint's friction law at fixed normal load (the steady state for LuGre);
/// at v = 0 the slope of the branch friction_effort evaluates (Coulomb, Stribeck: k_v).
double friction_effort_slope(const JointFriction& friction, double normal_load, double velocity);

}  // namespace mechdyn
