// batch_step (evaluation/batch.hpp): one classic RK4 step (Hairer, Nørsett, Wanner,
// "Solving ODEs I", §II.1, Table 1.2; simulation/rk4.cpp) of K states under ABA with each
// state's efforts held over the step, each on its thread's Rk4Integrator. Cost: 4 ABA per
// state, K / threads per thread. Allocates nothing.
#include <cmath>

#include "batch_checks.hpp"
#include "mechdyn/errors.hpp"

namespace mechdyn {

using batch_detail::check_input;
using batch_detail::check_output;
using batch_detail::check_workspace;

void batch_step(const Model& model, BatchWorkspace& workspace, double t, double h, const Eigen::Ref<const MatX>& q,
                const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau, Eigen::Ref<MatX> q_next,
                Eigen::Ref<MatX> v_next) {
  const char* function = "batch_step";
  check_workspace(model, workspace, function);
  if (!std::isfinite(t)) throw InvalidArgument("batch_step: the time t is not finite");
  if (!(h > 0.0) || !std::isfinite(h)) throw InvalidArgument("batch_step: the step size h must be positive and finite");
  const Eigen::Index states = q.cols();
  check_input(q, model.nq, states, "q", function);
  check_input(v, model.nv, states, "v", function);
  check_input(tau, model.nv, states, "tau", function);
  check_output(q_next, model.nq, states, "q_next", function);
  check_output(v_next, model.nv, states, "v_next", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    BatchThreadWorkspace& own = workspace.thread(thread);
    for (std::ptrdiff_t k = begin; k < end; ++k) {
      q_next.col(k) = q.col(k);  // a no-op when stepping in place
      v_next.col(k) = v.col(k);
      own.step_tau = tau.col(k).data();
      own.integrator.step(t, h, q_next.col(k), v_next.col(k));
    }
    own.step_tau = nullptr;
  });
}

}  // namespace mechdyn
