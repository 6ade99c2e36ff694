// The batch functions (evaluation/batch.hpp) allocate nothing once the workspace is built
// (issue 29 item 3: "evaluation paths keep allocating nothing"), and neither does the
// thread pool's dispatch (evaluation/thread_pool.hpp).
//
// The allocation counter (support/allocation_probe.hpp) counts the calling thread only.
// With one thread every state runs on the caller, so the batch path is counted whole; with
// two threads the caller's share (its blocks, the dispatch and the wait) is counted, and a
// pool test turns the counter on inside the workers too.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>

#include "mechdyn/evaluation/batch.hpp"
#include "mechdyn/evaluation/thread_pool.hpp"
#include "random_model.hpp"

namespace mechdyn::testing {
namespace {

TEST(BatchNoAllocation, EveryBatchFunctionOnABuiltWorkspace) {
  const Model model = tree_with_every_joint_type(3u, 9, true);
  const int count = 7;
  std::mt19937 rng(5);
  MatX q(model.nq, count), v(model.nv, count), a(model.nv, count), tau(model.nv, count);
  for (int k = 0; k < count; ++k) {
    q.col(k) = random_configuration(model, rng);
    v.col(k) = random_vector(model.nv, rng);
    a.col(k) = random_vector(model.nv, rng);
    tau.col(k) = random_vector(model.nv, rng);
  }
  const Eigen::Index nv = model.nv;
  MatX out(nv, count), q_next(model.nq, count), v_next(nv, count);
  MatX d1(nv, nv * count), d2(nv, nv * count), d3(nv, nv * count);
  for (int threads : {1, 2}) {
    BatchWorkspace workspace(model, threads);
    auto all = [&] {
      batch_rnea(model, workspace, q, v, a, out);
      batch_aba(model, workspace, q, v, tau, out);
      batch_crba(model, workspace, q, d1);
      batch_rnea_derivatives(model, workspace, q, v, a, d1, d2);
      batch_aba_derivatives(model, workspace, q, v, tau, d1, d2, d3);
      batch_step(model, workspace, 0.0, 1e-3, q, v, tau, q_next, v_next);
    };
    const long seen = allocations_during(all);  // no warm-up call: the workspace is complete when built
    EXPECT_LE(seen, 0) << "heap allocations in the batch functions, " << threads << " threads";
  }
}

TEST(BatchNoAllocation, ThreadPoolDispatchInEveryThread) {
  ThreadPool pool(2);
  std::atomic<long> worker_allocations{0};
  std::atomic<int> sum{0};
  auto body = [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
    sum += static_cast<int>(end - begin);
    if (thread == 0) return;
    // In a worker: count what the pool does around its blocks, from here on.
#if MECHDYN_COUNT_ALLOCATIONS
    worker_allocations += allocation_probe::allocations;
    allocation_probe::allocations = 0;
    allocation_probe::counting = true;  // stays on in the worker: the next call's dispatch is counted
#endif
  };
  pool.parallel_for(1000, body);  // turns counting on in the worker (when it takes a block)
  const long seen = allocations_during([&] {
    for (int i = 0; i < 50; ++i) pool.parallel_for(1000, body);
  });
  EXPECT_LE(seen, 0) << "heap allocations in parallel_for on the caller";
  EXPECT_EQ(worker_allocations.load(), 0) << "heap allocations in the worker between blocks";
  EXPECT_EQ(sum.load(), 51000);
}

}  // namespace
}  // namespace mechdyn::testing
