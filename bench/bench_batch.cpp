// Many states per call (issue 29 item 3; evaluation/batch.hpp, docs/benchmarks.md "Batch"):
// K states of the 7-DoF arm and the 30-body tree, K = 64 and 1024, by
//   <algorithm>/<model>/<K>/single   K single calls on one Data, each result copied out
//                                    (what a caller without the batch writes)
//   <algorithm>/<model>/<K>/batch1   the batch function on a workspace of 1 thread
//   <algorithm>/<model>/<K>/batch2   the same on 2 threads
// for rnea, aba, crba, rnea_derivatives, aba_derivatives and step (one RK4 step under ABA).
// Wall-clock time (UseRealTime: the threads' work is not the main thread's CPU time);
// items_per_second is states per second; the CPU column is the whole process's CPU time
// (MeasureProcessCPUTime: every thread, spinning included), whose ratio batch-2 / single
// shows the cost of the threads where a loaded machine hides the wall-clock gain. Targets: batch2 ≥ 1.8 × single in states per
// second, batch1 no slower than single. scripts/bench.sh prints the table.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <thread>

#include "bench_context.hpp"
#include "bench_models.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/evaluation/batch.hpp"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

struct Case {
  Model model;
  int states = 0;
  MatX q, v, a, tau;          // inputs, one column per state
  MatX out_q, out_vector;     // nq × K, nv × K
  MatX out1, out2, out3;      // nv × nv K
  Case(Model m, int count, unsigned seed) : model(std::move(m)), states(count) {
    std::mt19937 rng(seed);
    const Eigen::Index nq = model.nq, nv = model.nv;
    q.resize(nq, count);
    v.resize(nv, count);
    a.resize(nv, count);
    tau.resize(nv, count);
    for (int k = 0; k < count; ++k) {
      q.col(k) = testing::random_configuration(model, rng);
      v.col(k) = testing::random_vector(nv, rng);
      a.col(k) = testing::random_vector(nv, rng);
      tau.col(k) = testing::random_vector(nv, rng);
    }
    out_q.resize(nq, count);
    out_vector.resize(nv, count);
    out1.resize(nv, nv * count);
    out2.resize(nv, nv * count);
    out3.resize(nv, nv * count);
  }
};

constexpr double kStep = 1e-3;

enum class Algorithm { rnea, aba, crba, rnea_derivatives, aba_derivatives, step };
constexpr const char* kAlgorithmNames[] = {"rnea", "aba", "crba", "rnea_derivatives", "aba_derivatives", "step"};

// K single calls, results copied out as a caller would (the choice made once, outside the loop).
void single_calls(Case& c, Algorithm algorithm, Data& data, DerivativeData& work, Rk4Integrator& integrator,
                  const double*& step_tau, VecX& q, VecX& v) {
  const Model& model = c.model;
  const Eigen::Index nv = model.nv;
  const int states = c.states;
  switch (algorithm) {
    case Algorithm::rnea:
      for (int k = 0; k < states; ++k) c.out_vector.col(k) = rnea(model, data, c.q.col(k), c.v.col(k), c.a.col(k));
      break;
    case Algorithm::aba:
      for (int k = 0; k < states; ++k) c.out_vector.col(k) = aba(model, data, c.q.col(k), c.v.col(k), c.tau.col(k));
      break;
    case Algorithm::crba:
      for (int k = 0; k < states; ++k) c.out1.middleCols(k * nv, nv) = crba(model, data, c.q.col(k));
      break;
    case Algorithm::rnea_derivatives:
      for (int k = 0; k < states; ++k) {
        rnea_derivatives(model, data, work, c.q.col(k), c.v.col(k), c.a.col(k));
        c.out1.middleCols(k * nv, nv) = work.dtau_dq;
        c.out2.middleCols(k * nv, nv) = work.dtau_dv;
      }
      break;
    case Algorithm::aba_derivatives:
      for (int k = 0; k < states; ++k) {
        aba_derivatives(model, data, work, c.q.col(k), c.v.col(k), c.tau.col(k));
        c.out1.middleCols(k * nv, nv) = work.da_dq;
        c.out2.middleCols(k * nv, nv) = work.da_dv;
        c.out3.middleCols(k * nv, nv) = work.da_dtau;
      }
      break;
    case Algorithm::step:
      for (int k = 0; k < states; ++k) {
        q = c.q.col(k);
        v = c.v.col(k);
        step_tau = c.tau.col(k).data();
        integrator.step(0.0, kStep, q, v);
        c.out_q.col(k) = q;
        c.out_vector.col(k) = v;
      }
      break;
  }
}

void batch_call(Case& c, Algorithm algorithm, BatchWorkspace& workspace) {
  const Model& model = c.model;
  switch (algorithm) {
    case Algorithm::rnea: batch_rnea(model, workspace, c.q, c.v, c.a, c.out_vector); break;
    case Algorithm::aba: batch_aba(model, workspace, c.q, c.v, c.tau, c.out_vector); break;
    case Algorithm::crba: batch_crba(model, workspace, c.q, c.out1); break;
    case Algorithm::rnea_derivatives: batch_rnea_derivatives(model, workspace, c.q, c.v, c.a, c.out1, c.out2); break;
    case Algorithm::aba_derivatives:
      batch_aba_derivatives(model, workspace, c.q, c.v, c.tau, c.out1, c.out2, c.out3);
      break;
    case Algorithm::step: batch_step(model, workspace, 0.0, kStep, c.q, c.v, c.tau, c.out_q, c.out_vector); break;
  }
}

void register_case(const std::shared_ptr<Case>& c, Algorithm algorithm) {
  const std::string prefix = std::string(kAlgorithmNames[static_cast<int>(algorithm)]) + "/" + c->model.name + "/" + std::to_string(c->states) + "/";
  benchmark::RegisterBenchmark((prefix + "single").c_str(), [c, algorithm](benchmark::State& state) {
    Data data(c->model);
    DerivativeData work(c->model);
    const double* step_tau = nullptr;
    Rk4Integrator integrator(c->model, [&](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                           Eigen::Ref<VecX> a) {
      a = aba(c->model, data, q, v, Eigen::Map<const VecX>(step_tau, c->model.nv));
    });
    VecX q(c->model.nq), v(c->model.nv);
    for (auto _ : state) {
      single_calls(*c, algorithm, data, work, integrator, step_tau, q, v);
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * c->states);
  })->UseRealTime()->MeasureProcessCPUTime();
  for (int threads : {1, 2}) {
    benchmark::RegisterBenchmark((prefix + "batch" + std::to_string(threads)).c_str(),
                                 [c, algorithm, threads](benchmark::State& state) {
      BatchWorkspace workspace(c->model, threads);
      for (auto _ : state) {
        batch_call(*c, algorithm, workspace);
        benchmark::ClobberMemory();
      }
      state.SetItemsProcessed(state.iterations() * c->states);
    })->UseRealTime()->MeasureProcessCPUTime();
  }
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mechdyn.hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("models", "panda_like_arm (7 revolute), branched_tree_30 (5 branches of 6 revolute)");
  unsigned seed = 1;
  for (Algorithm algorithm : {Algorithm::rnea, Algorithm::aba, Algorithm::crba, Algorithm::rnea_derivatives,
                              Algorithm::aba_derivatives, Algorithm::step})
    for (const char* name : {"panda_like_arm", "branched_tree_30"})
      for (int states : {64, 1024})
        register_case(std::make_shared<Case>(model_by_name(name), states, seed++), algorithm);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
