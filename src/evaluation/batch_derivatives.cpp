// batch_rnea_derivatives, batch_aba_derivatives (evaluation/batch.hpp): K states, each one
// call of rnea_derivatives or aba_derivatives (Carpentier & Mansard, RSS 2018;
// docs/derivatives.md) on its thread's Data and DerivativeData, the nv × nv results copied
// into the state's blocks. Cost: K single calls / threads. Allocates nothing.
#include "batch_checks.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"

namespace mechdyn {

using batch_detail::check_input;
using batch_detail::check_output;
using batch_detail::check_workspace;
using batch_detail::store_block;

void batch_rnea_derivatives(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                            const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& a,
                            Eigen::Ref<MatX> dtau_dq, Eigen::Ref<MatX> dtau_dv) {
  const char* function = "batch_rnea_derivatives";
  check_workspace(model, workspace, function);
  const Eigen::Index states = q.cols(), nv = model.nv;
  check_input(q, model.nq, states, "q", function);
  check_input(v, nv, states, "v", function);
  check_input(a, nv, states, "a", function);
  check_output(dtau_dq, nv, nv * states, "dtau_dq", function);
  check_output(dtau_dv, nv, nv * states, "dtau_dv", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    BatchThreadWorkspace& own = workspace.thread(thread);
    for (std::ptrdiff_t k = begin; k < end; ++k) {
      rnea_derivatives(model, own.data, own.derivatives, q.col(k), v.col(k), a.col(k));
      store_block(dtau_dq, k, own.derivatives.dtau_dq);
      store_block(dtau_dv, k, own.derivatives.dtau_dv);
    }
  });
}

void batch_aba_derivatives(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                           const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau,
                           Eigen::Ref<MatX> da_dq, Eigen::Ref<MatX> da_dv, Eigen::Ref<MatX> da_dtau) {
  const char* function = "batch_aba_derivatives";
  check_workspace(model, workspace, function);
  const Eigen::Index states = q.cols(), nv = model.nv;
  check_input(q, model.nq, states, "q", function);
  check_input(v, nv, states, "v", function);
  check_input(tau, nv, states, "tau", function);
  check_output(da_dq, nv, nv * states, "da_dq", function);
  check_output(da_dv, nv, nv * states, "da_dv", function);
  check_output(da_dtau, nv, nv * states, "da_dtau", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    BatchThreadWorkspace& own = workspace.thread(thread);
    for (std::ptrdiff_t k = begin; k < end; ++k) {
      aba_derivatives(model, own.data, own.derivatives, q.col(k), v.col(k), tau.col(k));
      store_block(da_dq, k, own.derivatives.da_dq);
      store_block(da_dv, k, own.derivatives.da_dv);
      store_block(da_dtau, k, own.derivatives.da_dtau);
    }
  });
}

}  // namespace mechdyn
