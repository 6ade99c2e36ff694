// Private to src: the closure rows on the kinematics stage WITHOUT input checks, for
// public functions that have checked their inputs already (model/checks.hpp). The public
// forms and what each reads and writes: constraints/loop_rows.hpp, loop_closure.hpp,
// loop_acceleration.hpp, cut_joint_forces.hpp. Not installed.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// The table of loop_rows.hpp: Φ and the unit wrenches; with_bias also J̇ v (reads
/// data.velocity and data.bias_acceleration).
void evaluate_loop_rows(const Model& model, Data& data, bool with_bias);

/// J from the unit wrenches (data.loop_row_wrench_a/_b) and the world motion axes.
void loop_jacobian_from_rows(const Model& model, Data& data);

/// Φ and J on the position stage.
void closure_from_stage(const Model& model, Data& data);

/// J̇ v on the velocity stage (computes data.bias_acceleration first).
const VecX& loop_bias_from_stage(const Model& model, Data& data);

/// The cut-joint wrenches from data.loop_multiplier and the unit wrenches.
void cut_wrenches_from_rows(const Model& model, Data& data);

/// closed_chain_joint_reactions on the acceleration stage.
void closed_chain_reactions_from_stage(const Model& model, Data& data);

}  // namespace mechdyn::detail
