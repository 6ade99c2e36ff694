// Models with flexible bodies in mechanism_equilibrium / mechanism_modes: the flexible
// path with the rigid path's meaning (flexible_dispatch.cpp). Internal.
#pragma once

#include "mechdyn/analysis/mechanism_equilibrium.hpp"

namespace mechdyn::detail {

bool has_flexible_bodies(const Model& model);
MechanismEquilibrium flexible_equilibrium(const Model& model, const Eigen::Ref<const VecX>& q_start,
                                          const EquilibriumOptions& options);
MechanismModes flexible_modes(const Model& model, const Eigen::Ref<const VecX>& q_start, const ModesOptions& options);

}  // namespace mechdyn::detail
