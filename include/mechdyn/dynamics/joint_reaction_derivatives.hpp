// Derivatives of the joint reaction wrenches with respect to q (tangent space) and v:
// ∂f_u/∂q, ∂τ_u/∂q, ∂f_u/∂v, ∂τ_u/∂v for every joint u (f_u, τ_u as eval's `reactions`,
// dynamics/joint_reactions.hpp). docs/derivatives.md eq. (D13).
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Everything rnea_derivatives computes and, into work.dreaction_dq and work.dreaction_dv
/// (6n × nv; rows 6u … 6u + 2 the force of joint u, 6u + 3 … 6u + 5 its torque about body
/// u's origin, world frame), the derivatives of the reactions. `work` must be made with
/// reactions (DerivativeData(model, true)); InvalidArgument otherwise. Allocates nothing.
/// A model with force elements (format 3): the reactions are those of compute_all_terms /
/// eval, with the elements' body wrenches on the subtree subtracted (dynamics/force_elements.hpp,
/// apply_external_wrenches_to_reactions) at time t, and their derivatives include the
/// wrenches' (eq. D30); force_elements runs on `data` at (q, v, t) first (its results stay in
/// data), and work.transmitted_force becomes the joint's wrench W_u − Σ_{l ∈ subtree u} E_l.
/// work.dtau_dq, dtau_dv stay rnea_derivatives' (the tree's, without −∂Q_f).
void joint_reaction_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a, double t);

/// The same at t = 0 (the time only matters for servos and applied loads).
void joint_reaction_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
