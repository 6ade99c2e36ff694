// batch_rnea, batch_aba, batch_crba (evaluation/batch.hpp): K states, each one call of
// rnea (Featherstone 2008 §5.3), aba (§7.3) or crba (§6.2) on its thread's Data, the result
// copied into the state's column (block). Cost: K single calls / threads, plus the checks
// (one pass over the inputs). Allocates nothing.
#include "batch_checks.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"

namespace mechdyn {

using batch_detail::check_input;
using batch_detail::check_output;
using batch_detail::check_workspace;
using batch_detail::store_block;

void batch_rnea(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& a, Eigen::Ref<MatX> tau) {
  const char* function = "batch_rnea";
  check_workspace(model, workspace, function);
  const Eigen::Index states = q.cols();
  check_input(q, model.nq, states, "q", function);
  check_input(v, model.nv, states, "v", function);
  check_input(a, model.nv, states, "a", function);
  check_output(tau, model.nv, states, "tau", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    Data& data = workspace.thread(thread).data;
    for (std::ptrdiff_t k = begin; k < end; ++k) tau.col(k) = rnea(model, data, q.col(k), v.col(k), a.col(k));
  });
}

void batch_aba(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
               const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau, Eigen::Ref<MatX> ddq) {
  const char* function = "batch_aba";
  check_workspace(model, workspace, function);
  const Eigen::Index states = q.cols();
  check_input(q, model.nq, states, "q", function);
  check_input(v, model.nv, states, "v", function);
  check_input(tau, model.nv, states, "tau", function);
  check_output(ddq, model.nv, states, "ddq", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    Data& data = workspace.thread(thread).data;
    for (std::ptrdiff_t k = begin; k < end; ++k) ddq.col(k) = aba(model, data, q.col(k), v.col(k), tau.col(k));
  });
}

void batch_crba(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                Eigen::Ref<MatX> mass_matrices) {
  const char* function = "batch_crba";
  check_workspace(model, workspace, function);
  const Eigen::Index states = q.cols(), nv = model.nv;
  check_input(q, model.nq, states, "q", function);
  check_output(mass_matrices, nv, nv * states, "mass_matrices", function);
  workspace.pool().parallel_for(states, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    Data& data = workspace.thread(thread).data;
    for (std::ptrdiff_t k = begin; k < end; ++k) store_block(mass_matrices, k, crba(model, data, q.col(k)));
  });
}

}  // namespace mechdyn
