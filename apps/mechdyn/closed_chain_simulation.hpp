// mechdyn simulate for models with loops (docs/cli.md, docs/closed-chains.md):
//  - forward: constrained forward dynamics under efforts of the actuated joints
//    (constraints/constrained_forward_dynamics.hpp), RK4 or Dormand–Prince, with the
//    state projected onto the closure after every output interval (drift_control.hpp);
//  - inverse: closed-chain inverse dynamics along a prescribed motion of the actuated
//    joints (velocities or accelerations as functions of t; closed_chain_inverse_dynamics.hpp).
// Writes CSV: t, q, v, a, actuated efforts (and with friction), cut-joint forces,
// joint reactions, closure residual, energies.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"
#include "mechdyn/simulation/integration_budget.hpp"

namespace mechdyn::cli {

struct ClosedChainSettings {
  std::string mode = "forward";                           // forward | inverse
  std::optional<std::vector<std::string>> tau;            // forward: one per actuated coordinate
  std::optional<std::vector<std::string>> velocities;     // inverse: actuated velocities v_a(t)
  std::optional<std::vector<std::string>> accelerations;  // inverse: actuated accelerations a_a(t)
  std::optional<std::string> q0, v0;
  double duration = 1.0, step = 1e-3, rtol = 1e-8, atol = 1e-10;
  bool ali3p_adaptive = false;  // ali3p with error control (rtol/atol stated)
  std::string integrator = "rk4";
  std::string output;
  std::string poses;  // --poses FILE (body_poses.hpp); empty: none
  long every = 1;
  IntegrationBudget* budget = nullptr;  // the run's step budget (not owned)
};

/// Runs the closed-chain simulation; the CSV (without an output file) or the summary goes
/// to `standard_output`.
void run_closed_chain_simulation(const Model& model, const ClosedChainSettings& settings,
                                 std::ostream& standard_output);

}  // namespace mechdyn::cli
