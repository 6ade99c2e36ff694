// Cost of one simulation step against the number of bodies n (docs/benchmarks.md,
// "Scale"): the RK4 step of `mechdyn simulate` (four forward-dynamics evaluations and
// the state update, simulation/integrators.hpp) on serial chains and balanced binary
// trees of n = 10 … 10,000 revolute bodies, by the recursive method (ABA, O(n)) and the
// explicit one (explicit M, branch-sparse Lᵀ D L: O(n·depth²), i.e. O(n³) on a chain and
// O(n log² n) on a binary tree, with an n × n matrix and factor in memory).
//
// Also the quantities `mechdyn eval` prints, recursive method: "eval_linear/<shape>/<n>"
// — everything but M's rows, the one compute_all_terms call eval makes (recursive method,
// MassMatrixForm::Rows: body poses, CRBA's column forces, h and g by RNEA, reactions,
// joint loads and friction, tau by RNEA, a by ABA), all O(n) — and
// "mass_matrix_row/<shape>/<n>", one row of M formed from the column forces (rows taken
// in turn), O(nv) per row.
//
// Benchmark names are "rk4_step/<method>/<shape>/<n>"; each family ends with Google
// Benchmark's fitted complexity (BigO, RMS). The recursive step runs on a Data made with
// no dense workspace at all (Data(model, DenseWorkspace::None)), as the command line
// makes it, so an O(n²) member touched by the step would show here as a failed reserve.
// The explicit method is timed up to the sizes where one step still takes seconds (its
// memory is the reason the command line leaves it above nv = 32, docs/cli.md).
// Compare ratios within one run; the context block names the CPU and the commit.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "bench_context.hpp"
#include "bench_models.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/simulation/integrators.hpp"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

enum class Method { Recursive, Explicit };
enum class Shape { Chain, Tree };

struct Case {
  Model model;
  VecX q0, v0, tau;           // the simulated motion: from rest at q = 0
  VecX q_state, v_state;      // a random state for the evaluations of eval
};

std::shared_ptr<const Case> make_case(Shape shape, int n) {
  auto c = std::make_shared<Case>();
  c->model = shape == Shape::Chain ? serial_chain(n) : binary_tree(n);
  // From rest at q = 0 under gravity and small random efforts: a random configuration of
  // a 3000-link chain whips its free end fast enough to make a 1 ms RK4 step unstable
  // within a quarter second.
  std::mt19937 rng(static_cast<unsigned>(n));
  c->q0 = c->model.neutral_configuration();
  c->v0 = VecX::Zero(c->model.nv);
  c->tau = testing::random_vector(c->model.nv, rng, 0.1);
  c->q_state = testing::random_configuration(c->model, rng);
  c->v_state = testing::random_vector(c->model.nv, rng, 1.0);
  return c;
}

void rk4_step(benchmark::State& state, Method method, Shape shape) {
  const int n = static_cast<int>(state.range(0));
  const std::shared_ptr<const Case> c = make_case(shape, n);
  const Model& model = c->model;
  Data data(model, method == Method::Recursive ? DenseWorkspace::None
                                               : DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor);
  const VecX& tau = c->tau;
  Rk4Integrator rk4(model, [&](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                               Eigen::Ref<VecX> a) {
    a = method == Method::Recursive ? aba(model, data, q, v, tau) : explicit_forward_dynamics(model, data, q, v, tau);
  });
  VecX q = c->q0, v = c->v0;
  const double h = 1e-3;
  long steps = 0;
  for (auto _ : state) {
    if (steps % 100 == 0) {  // restart every 0.1 s: the timed motion is the same short one
      state.PauseTiming();
      q = c->q0;
      v = c->v0;
      state.ResumeTiming();
    }
    try {
      rk4.step(static_cast<double>(steps % 100) * h, h, q, v);
    } catch (const std::exception& error) {
      state.SkipWithError(error.what());
      break;
    }
    benchmark::DoNotOptimize(q.data());
    ++steps;
  }
  state.SetComplexityN(n);
  state.counters["nv"] = model.nv;
  state.counters["data_MB"] = static_cast<double>(data.allocated_bytes()) / 1e6;
}

void eval_linear(benchmark::State& state, Shape shape) {
  const int n = static_cast<int>(state.range(0));
  const std::shared_ptr<const Case> c = make_case(shape, n);
  const Model& model = c->model;
  Data data(model, DenseWorkspace::None);
  AllTermsOptions options;
  options.method = DynamicsMethod::Recursive;
  options.mass_matrix = MassMatrixForm::Rows;
  for (auto _ : state) {
    // --a and --tau: any nv numbers (the accelerations of --a, the efforts of --tau)
    compute_all_terms(model, data, c->q_state, c->v_state, &c->tau, &c->tau, options);
    benchmark::DoNotOptimize(data.ddq.data());
    benchmark::ClobberMemory();
  }
  state.SetComplexityN(n);
}

void mass_matrix_rows(benchmark::State& state, Shape shape) {
  const int n = static_cast<int>(state.range(0));
  const std::shared_ptr<const Case> c = make_case(shape, n);
  const Model& model = c->model;
  Data data(model, DenseWorkspace::None);
  composite_forces(model, data, c->q_state);
  VecX row = VecX::Zero(model.nv);
  int i = 0;
  for (auto _ : state) {
    mass_matrix_row(model, data, i, row);
    benchmark::DoNotOptimize(row.data());
    i = i + 1 == model.nv ? 0 : i + 1;
  }
  state.SetComplexityN(n);
}

void register_eval(const char* name, void (*run)(benchmark::State&, Shape), Shape shape) {
  auto* b = benchmark::RegisterBenchmark(name, [run, shape](benchmark::State& s) { run(s, shape); });
  for (int n : {10, 100, 1000, 3000, 10000}) b->Arg(n);
  b->Complexity()->Unit(benchmark::kMicrosecond);
}

void register_family(const char* name, Method method, Shape shape, std::initializer_list<int> sizes) {
  auto* b = benchmark::RegisterBenchmark(name, [method, shape](benchmark::State& s) { rk4_step(s, method, shape); });
  for (int n : sizes) b->Arg(n);
  b->Complexity()->Unit(benchmark::kMicrosecond);
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
  benchmark::AddCustomContext("models", "serial_chain(n), binary_tree(n) of bench/bench_models.hpp; revolute, seeded");
  register_family("rk4_step/recursive/chain", Method::Recursive, Shape::Chain, {10, 16, 20, 30, 100, 300, 1000, 3000, 10000});
  register_family("rk4_step/recursive/tree", Method::Recursive, Shape::Tree, {10, 16, 20, 30, 100, 300, 1000, 3000, 10000});
  register_family("rk4_step/explicit/chain", Method::Explicit, Shape::Chain, {10, 16, 20, 30, 100, 300, 1000});
  register_family("rk4_step/explicit/tree", Method::Explicit, Shape::Tree, {10, 16, 20, 30, 100, 300, 1000, 3000});
  register_eval("eval_linear/chain", eval_linear, Shape::Chain);
  register_eval("eval_linear/tree", eval_linear, Shape::Tree);
  register_eval("mass_matrix_row/chain", mass_matrix_rows, Shape::Chain);
  register_eval("mass_matrix_row/tree", mass_matrix_rows, Shape::Tree);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
