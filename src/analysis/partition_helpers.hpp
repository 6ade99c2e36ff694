// Small helpers shared by the equilibrium and the modes (analysis/): index bookkeeping of
// the held, free and independent coordinates, and the assembled start. Internal.
#pragma once

#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// Positions of `subset`'s coordinates within `all` (both ascending velocity indices).
std::vector<Eigen::Index> positions_of(const std::vector<int>& all, const std::vector<int>& subset);

/// m(rows, cols).
MatX restrict(const MatX& m, const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& cols);

/// The held joints: the actuated ones with coordinates when locking, else none.
std::vector<int> held_joints(const Model& model, bool lock_actuated);

/// q_start with the loops closed (the model's actuated joints kept; no singularity check).
VecX assembled_start(const Model& model, const Eigen::Ref<const VecX>& q_start, const AssemblyOptions& assembly);

/// The efforts the actuated joints need to hold q at rest under gravity, the force elements
/// at `time` and the applied efforts τ (closed chains: minimum-norm with redundant
/// actuation); zero at passive coordinates.
VecX holding_efforts(const Model& model, const Eigen::Ref<const VecX>& q, const VecX& tau, double time);

}  // namespace mechdyn::detail
