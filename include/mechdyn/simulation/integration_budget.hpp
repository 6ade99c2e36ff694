// A budget for a whole simulation: a total number of integration steps and, optionally,
// wall-clock seconds, shared by every integrator of one run.
//
// Why: an adaptive integrator (Dormand–Prince) on extreme but valid input — a joint
// velocity of 1e6 rad/s, a stiff LuGre bristle, an effort of tan(π/2) — takes steps so
// small that the run would go on for hours; a per-call step cap does not bound the run,
// because it applies to every output interval anew. A budget does. Each step attempt
// (accepted or rejected, RK4 or DOPRI5, event searches included) charges one step;
// exhausting it throws BudgetExceeded (a SolverError) naming the time reached.
// The step limit is deterministic (the same input fails the same way on every machine);
// the wall-time limit is not, so callers leave it off unless asked (docs/cli.md).
// Cost: one counter increment and, with a time limit, one clock read per step.
#pragma once

#include <chrono>
#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

/// The budget of a run is used up (a SolverError: exit status 3 in the CLI).
class BudgetExceeded : public SolverError {
 public:
  BudgetExceeded(const std::string& message, bool wall_time) : SolverError(message), wall_time_(wall_time) {}
  bool wall_time() const { return wall_time_; }  // false: the step limit

 private:
  bool wall_time_;
};

class IntegrationBudget {
 public:
  /// max_steps ≤ 0: no step limit; max_seconds ≤ 0: no time limit. The clock starts here.
  IntegrationBudget(long max_steps, double max_seconds);

  /// One step attempt that starts at time t (s). Throws BudgetExceeded when the budget is
  /// used up.
  void charge(double t);

  long steps() const { return steps_; }
  long max_steps() const { return max_steps_; }
  double max_seconds() const { return max_seconds_; }
  double elapsed_seconds() const;

 private:
  long max_steps_;
  double max_seconds_;
  long steps_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace mechdyn
