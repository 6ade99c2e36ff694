// Many states per call (evaluation/batch.hpp, evaluation/thread_pool.hpp; issue 29 item 3).
//
// Every batch function must equal K single calls bit for bit (each state is one single
// call on its thread's Data), for 1, 2 and 3 threads, K not divisible by the thread count,
// K = 0 and K = 1 (and K = 50: blocks of several states), on seeded random trees with every joint type (and a long chain, which
// takes aba_derivatives' articulated solve). A bug in the hand-out of states (a state
// skipped, evaluated twice, written to another column, or two threads sharing a Data)
// makes a column differ. Then the errors: wrong shapes, non-finite inputs and a workspace of
// another model raise InvalidArgument naming the argument and the state; an exception in a
// worker's chunk reaches the caller. tests/unit/test_batch_no_allocation.cpp checks that
// the batch path allocates nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <chrono>
#include <vector>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/batch.hpp"
#include "mechdyn/evaluation/thread_pool.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

using testing::random_configuration;
using testing::random_vector;

struct States {
  MatX q, v, a, tau;
};

States random_states(const Model& model, int count, unsigned seed) {
  std::mt19937 rng(seed);
  States s{MatX(model.nq, count), MatX(model.nv, count), MatX(model.nv, count), MatX(model.nv, count)};
  for (int k = 0; k < count; ++k) {
    s.q.col(k) = random_configuration(model, rng);
    s.v.col(k) = random_vector(model.nv, rng);
    s.a.col(k) = random_vector(model.nv, rng);
    s.tau.col(k) = random_vector(model.nv, rng, 5.0);
  }
  return s;
}

// The models: random trees with every joint type (world axes on and off: both forms of
// rnea_derivatives), and a long serial chain (aba_derivatives' articulated solve).
std::vector<Model> test_models() {
  std::vector<Model> models;
  models.push_back(testing::tree_with_every_joint_type(3u, 9, true));
  models.push_back(testing::tree_with_every_joint_type(5u, 7, false));
  testing::RandomTreeOptions chain;
  chain.bodies = 16;
  chain.branch_probability = 0.0;
  chain.all_joint_types = false;
  models.push_back(testing::random_tree(17u, chain));
  return models;
}

// Bit-for-bit equality (a tolerance would hide a state computed on another thread's stale data).
void expect_identical(const MatX& batch, const MatX& single, const std::string& what) {
  ASSERT_EQ(batch.rows(), single.rows()) << what;
  ASSERT_EQ(batch.cols(), single.cols()) << what;
  for (Eigen::Index c = 0; c < batch.cols(); ++c)
    for (Eigen::Index r = 0; r < batch.rows(); ++r)
      ASSERT_EQ(batch(r, c), single(r, c)) << what << " differs at (" << r << ", " << c << ")";
}

TEST(Batch, EveryFunctionEqualsSingleCallsBitForBit) {
  for (const Model& model : test_models()) {
    const Eigen::Index nq = model.nq, nv = model.nv;
    for (int count : {0, 1, 7, 10, 50}) {  // 50: blocks of several states
      const States s = random_states(model, count, 100u + static_cast<unsigned>(count));
      // The single calls, on one Data.
      Data data(model);
      DerivativeData work(model);
      MatX tau(nv, count), ddq(nv, count), mass(nv, nv * count), dtau_dq(nv, nv * count), dtau_dv(nv, nv * count),
          da_dq(nv, nv * count), da_dv(nv, nv * count), da_dtau(nv, nv * count), q_next(nq, count), v_next(nv, count);
      const VecX* step_tau = nullptr;
      Rk4Integrator integrator(model, [&](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                          Eigen::Ref<VecX> a) { a = aba(model, data, q, v, *step_tau); });
      const double t = 0.25, h = 1e-3;
      for (int k = 0; k < count; ++k) {
        tau.col(k) = rnea(model, data, s.q.col(k), s.v.col(k), s.a.col(k));
        ddq.col(k) = aba(model, data, s.q.col(k), s.v.col(k), s.tau.col(k));
        mass.middleCols(k * nv, nv) = crba(model, data, s.q.col(k));
        rnea_derivatives(model, data, work, s.q.col(k), s.v.col(k), s.a.col(k));
        dtau_dq.middleCols(k * nv, nv) = work.dtau_dq;
        dtau_dv.middleCols(k * nv, nv) = work.dtau_dv;
        aba_derivatives(model, data, work, s.q.col(k), s.v.col(k), s.tau.col(k));
        da_dq.middleCols(k * nv, nv) = work.da_dq;
        da_dv.middleCols(k * nv, nv) = work.da_dv;
        da_dtau.middleCols(k * nv, nv) = work.da_dtau;
        VecX q = s.q.col(k), v = s.v.col(k);
        const VecX tau_k = s.tau.col(k);
        step_tau = &tau_k;
        integrator.step(t, h, q, v);
        q_next.col(k) = q;
        v_next.col(k) = v;
      }
      for (int threads : {1, 2, 3}) {
        const std::string what = model.name + ", K = " + std::to_string(count) + ", " + std::to_string(threads) +
                                 " threads: ";
        BatchWorkspace workspace(model, threads);
        ASSERT_EQ(workspace.threads(), threads);
        // Outputs start as NaN: a state the batch skips shows up.
        auto nan = [](Eigen::Index r, Eigen::Index c) { return MatX::Constant(r, c, std::nan("")); };
        MatX out = nan(nv, count);
        batch_rnea(model, workspace, s.q, s.v, s.a, out);
        expect_identical(out, tau, what + "batch_rnea");
        out = nan(nv, count);
        batch_aba(model, workspace, s.q, s.v, s.tau, out);
        expect_identical(out, ddq, what + "batch_aba");
        out = nan(nv, nv * count);
        batch_crba(model, workspace, s.q, out);
        expect_identical(out, mass, what + "batch_crba");
        MatX d1 = nan(nv, nv * count), d2 = nan(nv, nv * count), d3 = nan(nv, nv * count);
        batch_rnea_derivatives(model, workspace, s.q, s.v, s.a, d1, d2);
        expect_identical(d1, dtau_dq, what + "batch_rnea_derivatives ∂τ/∂q");
        expect_identical(d2, dtau_dv, what + "batch_rnea_derivatives ∂τ/∂v");
        d1 = nan(nv, nv * count), d2 = nan(nv, nv * count);
        batch_aba_derivatives(model, workspace, s.q, s.v, s.tau, d1, d2, d3);
        expect_identical(d1, da_dq, what + "batch_aba_derivatives ∂q̈/∂q");
        expect_identical(d2, da_dv, what + "batch_aba_derivatives ∂q̈/∂v");
        expect_identical(d3, da_dtau, what + "batch_aba_derivatives ∂q̈/∂τ");
        MatX qn = nan(nq, count), vn = nan(nv, count);
        batch_step(model, workspace, t, h, s.q, s.v, s.tau, qn, vn);
        expect_identical(qn, q_next, what + "batch_step q");
        expect_identical(vn, v_next, what + "batch_step v");
        // In place: q_next, v_next the inputs themselves.
        MatX q_in_place = s.q, v_in_place = s.v;
        batch_step(model, workspace, t, h, q_in_place, v_in_place, s.tau, q_in_place, v_in_place);
        expect_identical(q_in_place, q_next, what + "batch_step in place, q");
        expect_identical(v_in_place, v_next, what + "batch_step in place, v");
      }
    }
  }
}

// Bug caught: a hand-out that drops or repeats an item, a block outside [0, count), or one
// thread index used by two threads at once (two blocks would then share a workspace).
TEST(ThreadPool, EveryItemOnceAndOneThreadPerIndex) {
  for (int threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (std::ptrdiff_t count : {0, 1, 2, 3, 4, 7, 100, 1001}) {
      std::vector<std::atomic<int>> visits(static_cast<std::size_t>(count));
      std::vector<std::atomic<int>> inside(static_cast<std::size_t>(threads));  // blocks running per index
      std::atomic<int> overlaps{0}, bad_blocks{0};
      pool.parallel_for(count, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
        if (!(0 <= begin && begin < end && end <= count && 0 <= thread && thread < threads)) {
          ++bad_blocks;
          return;
        }
        if (inside[static_cast<std::size_t>(thread)]++ != 0) ++overlaps;
        for (std::ptrdiff_t i = begin; i < end; ++i) ++visits[static_cast<std::size_t>(i)];
        --inside[static_cast<std::size_t>(thread)];
      });
      EXPECT_EQ(bad_blocks.load(), 0);
      EXPECT_EQ(overlaps.load(), 0) << "one thread index ran two blocks at once";
      for (std::ptrdiff_t i = 0; i < count; ++i)
        EXPECT_EQ(visits[static_cast<std::size_t>(i)].load(), 1) << "item " << i << ", " << threads << " threads";
    }
  }
}

// Bug caught: an exception in a worker lost (or std::terminate), or not the first failing
// range's (blocks are handed out in order, so the lowest failing block always runs).
TEST(ThreadPool, AWorkersExceptionReachesTheCaller) {
  ThreadPool pool(3);
  for (int repeat = 0; repeat < 20; ++repeat) {
    try {
      pool.parallel_for(9, [&](std::ptrdiff_t begin, std::ptrdiff_t, int) {
        if (begin >= 3) throw SolverError("item " + std::to_string(begin));
      });
      FAIL() << "no exception";
    } catch (const SolverError& e) {
      EXPECT_EQ(std::string(e.what()), "item 3");
    }
  }
  // Only in a worker: the caller's blocks succeed (thread 0), every worker's block throws.
  bool caught_from_worker = false;
  for (int repeat = 0; repeat < 200 && !caught_from_worker; ++repeat) {
    try {
      pool.parallel_for(300, [](std::ptrdiff_t, std::ptrdiff_t, int thread) {
        if (thread != 0) throw std::out_of_range("from worker " + std::to_string(thread));
        std::this_thread::sleep_for(std::chrono::microseconds(50));  // leaves blocks to the workers
      });
    } catch (const std::out_of_range& e) {  // a standard exception keeps its type
      caught_from_worker = std::string(e.what()).rfind("from worker ", 0) == 0;
    }
  }
  EXPECT_TRUE(caught_from_worker) << "no worker ever ran a block, or its exception was lost";
  // The pool still works after an error.
  std::atomic<int> sum{0};
  pool.parallel_for(9, [&](std::ptrdiff_t begin, std::ptrdiff_t end, int) { sum += static_cast<int>(end - begin); });
  EXPECT_EQ(sum.load(), 9);
}

TEST(ThreadPool, NestingAndBadCountsAreRefused) {
  ThreadPool pool(2);
  EXPECT_EQ(ThreadPool(0).size() >= 1, true);
  EXPECT_THROW(ThreadPool(-1), InvalidArgument);
  EXPECT_THROW(pool.parallel_for(-1, [](std::ptrdiff_t, std::ptrdiff_t, int) {}), InvalidArgument);
  // A nested call would deadlock (the outer call holds the pool): refused in every block.
  EXPECT_THROW(pool.parallel_for(2, [&](std::ptrdiff_t, std::ptrdiff_t, int) {
    pool.parallel_for(2, [](std::ptrdiff_t, std::ptrdiff_t, int) {});
  }), InvalidArgument);
  // Bug caught: a call of another pool from inside a block forgot the outer pool, so a
  // nested call of the outer pool after it deadlocked instead of being refused.
  ThreadPool other(1);
  EXPECT_THROW(pool.parallel_for(1, [&](std::ptrdiff_t, std::ptrdiff_t, int) {
    other.parallel_for(1, [](std::ptrdiff_t, std::ptrdiff_t, int) {});
    pool.parallel_for(2, [](std::ptrdiff_t, std::ptrdiff_t, int) {});
  }), InvalidArgument);
}

// Bug caught: an error of one state during the evaluation (here a state that blows up)
// swallowed, or the caller left waiting.
TEST(Batch, AStateFailingInAWorkerRaisesInTheCaller) {
  const Model model = testing::tree_with_every_joint_type(3u, 9, true);
  States s = random_states(model, 4, 9u);
  s.tau.col(3).setConstant(1e300);  // finite, but q̈ and then v overflow within the step
  BatchWorkspace workspace(model, 2);
  MatX qn(model.nq, 4), vn(model.nv, 4);
  EXPECT_THROW(batch_step(model, workspace, 0.0, 0.1, s.q, s.v, s.tau, qn, vn), SolverError);
  // The workspace still works afterwards.
  s.tau.col(3).setZero();
  EXPECT_NO_THROW(batch_step(model, workspace, 0.0, 0.1, s.q, s.v, s.tau, qn, vn));
}

template <typename Call>
std::string message_of(Call&& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no InvalidArgument)";
}

// Bug caught: a batch that reads past a short matrix, writes past a small output, or
// passes a NaN on into the algorithms (or names the wrong state).
TEST(Batch, BrokenInputRaisesInvalidArgumentNamingIt) {
  const Model model = testing::tree_with_every_joint_type(3u, 9, true);
  const Eigen::Index nq = model.nq, nv = model.nv;
  const States s = random_states(model, 5, 1u);
  BatchWorkspace workspace(model, 2);
  MatX out(nv, 5), big(nv, nv * 5);

  EXPECT_NE(message_of([&] { batch_rnea(model, workspace, s.q.topRows(nq - 1), s.v, s.a, out); })
                .find("batch_rnea: q is " + std::to_string(nq - 1) + " × 5, expected " + std::to_string(nq) + " × 5"),
            std::string::npos);
  EXPECT_NE(message_of([&] { batch_aba(model, workspace, s.q, s.v.leftCols(4), s.tau, out); }).find("batch_aba: v is"),
            std::string::npos);
  EXPECT_NE(message_of([&] { batch_rnea(model, workspace, s.q, s.v, s.a, big); }).find("output tau"),
            std::string::npos);
  MatX small(nv, nv * 4);
  EXPECT_NE(message_of([&] { batch_crba(model, workspace, s.q, small); }).find("output mass_matrices"),
            std::string::npos);
  EXPECT_NE(message_of([&] { batch_aba_derivatives(model, workspace, s.q, s.v, s.tau, big, big, small); })
                .find("output da_dtau"),
            std::string::npos);

  MatX v_nan = s.v;
  v_nan(1, 2) = std::nan("");
  EXPECT_EQ(message_of([&] { batch_rnea_derivatives(model, workspace, s.q, v_nan, s.a, big, big); }),
            "batch_rnea_derivatives: v of state 2 is not finite (coordinate 1)");
  MatX q_inf = s.q;
  q_inf(0, 4) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { batch_crba(model, workspace, q_inf, big); }),
            "batch_crba: q of state 4 is not finite (coordinate 0)");
  MatX qn(nq, 5), vn(nv, 5);
  EXPECT_NE(message_of([&] { batch_step(model, workspace, 0.0, 0.0, s.q, s.v, s.tau, qn, vn); }).find("step size"),
            std::string::npos);
  EXPECT_NE(message_of([&] { batch_step(model, workspace, std::nan(""), 0.1, s.q, s.v, s.tau, qn, vn); })
                .find("time t"),
            std::string::npos);

  // A workspace made for another model.
  const Model other = testing::tree_with_every_joint_type(4u, 4, true);
  BatchWorkspace other_workspace(other, 1);
  EXPECT_NE(message_of([&] { batch_rnea(model, other_workspace, s.q, s.v, s.a, out); }).find("batch_rnea: data"),
            std::string::npos);
}

}  // namespace
}  // namespace mechdyn
