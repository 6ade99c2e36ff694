// Recursive Newton–Euler inverse dynamics in body coordinates (natural frames).
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §5.3, Table 5.1.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// tau = M a + h into data.tau (data.body_force holds the joint forces f_i in body
/// coordinates; the world kinematics block of Data is not filled). No allocation.
const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a);

}  // namespace mechdyn
