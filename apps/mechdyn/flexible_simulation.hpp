// mechdyn simulate on models with flexible bodies (flexible_simulation.cpp).
#pragma once

#include <ostream>

#include "mechdyn/model/model.hpp"
#include "scenario_file.hpp"

namespace mechdyn::cli {

/// Forward dynamics of a model with flexible bodies by Newmark (integrator newmark) or
/// HHT-α = −0.1 (hht), CSV to s.output or standard output. UsageError on settings that do
/// not apply (inverse mode, velocities, rk4/dopri5), SolverError when a step fails.
void run_flexible_simulation(const Model& model, const Settings& s, std::ostream& standard_output);

}  // namespace mechdyn::cli
