// The step and wall-time budget of a simulation. See simulation/integration_budget.hpp.
#include "mechdyn/simulation/integration_budget.hpp"

#include <sstream>

namespace mechdyn {

IntegrationBudget::IntegrationBudget(long max_steps, double max_seconds)
    : max_steps_(max_steps), max_seconds_(max_seconds), start_(std::chrono::steady_clock::now()) {}

double IntegrationBudget::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void IntegrationBudget::charge(double t) {
  ++steps_;
  const bool out_of_steps = max_steps_ > 0 && steps_ > max_steps_;
  const bool out_of_time = max_seconds_ > 0.0 && elapsed_seconds() > max_seconds_;
  if (!out_of_steps && !out_of_time) return;
  std::ostringstream message;
  message.precision(6);
  if (out_of_steps)
    message << "integration step budget exhausted: " << max_steps_ << " steps used by t = " << t
            << " s (the motion needs very small steps: extreme velocities, stiff friction or efforts?)";
  else
    message << "integration time budget exhausted: " << max_seconds_ << " s of wall time used by t = " << t << " s ("
            << steps_ << " steps)";
  throw BudgetExceeded(message.str(), !out_of_steps);
}

}  // namespace mechdyn
