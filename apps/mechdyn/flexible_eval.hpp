// mechdyn eval on models with flexible bodies (flexible_eval.cpp).
#pragma once

#include <ostream>

#include "mechdyn/model/model.hpp"

namespace mechdyn::cli {

/// The eval contract's keys for a model with flexible beams (../shared/spec/eval-json.md;
/// docs/flexible-bodies.md "mechdyn eval"): nq, nv, coordinates (elastic ones typed
/// "elastic" or "modal"), mass_matrix, bias, gravity, body_poses, `a` with τ, loops. `a`
/// (inverse dynamics with joint reactions) is refused: UsageError (status 2).
void run_flexible_eval(const Model& model, const VecX& q, const VecX& v, const VecX* tau, bool with_a, bool json,
                       std::ostream& out);

}  // namespace mechdyn::cli
