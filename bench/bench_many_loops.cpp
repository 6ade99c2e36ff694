// Closed chains of many loops (issue 25): the IFToMM N-four-bar (A02; tests/support/
// n_four_bar.hpp) from N = 1 to 1000 loops.
//   al_dynamics/N          one evaluation of the sparse augmented-Lagrangian dynamics
//                          (constraints/augmented_lagrangian_dynamics.hpp): a, λ, cut wrenches
//   range_space_dynamics/N one evaluation of the dense range-space dynamics
//                          (constraints/constrained_forward_dynamics.hpp), N ≤ 100
//   ali3p_step/N           one step (h = 10 ms) of the index-3 augmented-Lagrangian
//                          trapezoidal integrator with its projections and singularity screen
//   mujoco_step/N          MuJoCo 2.2.2's mj_step (Euler, 1 ms) with the loops as equality
//                          <connect> constraints (mechdyn/io/mjcf.hpp), N ≤ 100 (beyond, its
//                          default constraint buffer, njmax 500, overflows)
//   a02_run/h_ms           the benchmark itself: N = 40, 10 s of free motion from the
//                          benchmark's start by ali3p; counter error_m = max over the run of
//                          |tip of crank 0 − the exact one-DOF motion| (benchmark precision 1e-3 m)
// States: cranks at 1 rad (away from the singular configurations), tips at 1 m/s.
// scripts/many_loops_table.py prints the table with the fitted slope (time ∝ N^slope).
// Results compare within one run on one machine; the context names the CPU and commit.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <map>
#include <memory>

#include "bench_context.hpp"
#include "mechdyn/constraints/augmented_lagrangian_dynamics.hpp"
#include "mechdyn/constraints/augmented_lagrangian_trapezoidal.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "n_four_bar.hpp"
#include "peers/mujoco_peer.hpp"

namespace mechdyn::bench {
namespace {

struct Chain {
  Model model;
  VecX q, v;
};

// The N-four-bar at crank angle θ = 1 rad (couplers horizontal), tips at 1 m/s.
const Chain& chain(int n) {
  static std::map<int, std::unique_ptr<Chain>> cache;
  auto& slot = cache[n];
  if (!slot) {
    slot = std::make_unique<Chain>();
    slot->model = testing::n_four_bar(n);
    testing::n_four_bar_start(slot->model, slot->q, slot->v);
    for (int b = 0; b < slot->model.num_bodies(); ++b)
      slot->q[slot->model.joints[b].q_index] = (b % 2 == 0) ? 1.0 : -1.0;
  }
  return *slot;
}

void al_dynamics(benchmark::State& state) {
  const Chain& c = chain(static_cast<int>(state.range(0)));
  Data data(c.model);
  AugmentedLagrangianDynamics dynamics(c.model);
  const VecX tau = VecX::Zero(c.model.nv);
  for (auto _ : state) benchmark::DoNotOptimize(dynamics.evaluate(c.model, data, c.q, c.v, tau).data());
  state.counters["nv"] = static_cast<double>(c.model.nv);
  state.counters["iterations"] = dynamics.iterations();
}

void range_space_dynamics(benchmark::State& state) {
  const Chain& c = chain(static_cast<int>(state.range(0)));
  Data data(c.model);
  const VecX tau = VecX::Zero(c.model.nv);
  for (auto _ : state) benchmark::DoNotOptimize(constrained_forward_dynamics(c.model, data, c.q, c.v, tau).data());
  state.counters["nv"] = static_cast<double>(c.model.nv);
}

void ali3p_step(benchmark::State& state) {
  const Chain& c = chain(static_cast<int>(state.range(0)));
  AugmentedLagrangianTrapezoidal integrator(c.model, nullptr);
  VecX q = c.q, v = c.v;
  integrator.initialize(0.0, q, v);
  double t = 0.0;
  for (auto _ : state) {
    integrator.step(t, 0.01, q, v);
    t += 0.01;
    if (t > 0.3) {  // stay away from the singular crossing (θ = 0 near t ≈ 0.4 s from θ = 1)
      state.PauseTiming();
      q = c.q, v = c.v, t = 0.0;
      integrator.initialize(0.0, q, v);
      state.ResumeTiming();
    }
  }
  state.counters["nv"] = static_cast<double>(c.model.nv);
  state.counters["newton_per_step"] =
      integrator.steps() > 0 ? static_cast<double>(integrator.newton_iterations()) / integrator.steps() : 0.0;
}

void mujoco_step(benchmark::State& state) {
  const Chain& c = chain(static_cast<int>(state.range(0)));
  const std::unique_ptr<MujocoPeer> peer = load_mujoco(c.model);
  peer->model->opt.timestep = 1e-3;
  const VecX mq = to_mujoco(c.q, peer->dof), mv = to_mujoco(c.v, peer->dof);
  auto reset = [&] {
    for (int i = 0; i < peer->model->nq; ++i) peer->data->qpos[i] = mq[i];
    for (int i = 0; i < peer->model->nv; ++i) peer->data->qvel[i] = mv[i];
  };
  reset();
  long steps = 0;
  for (auto _ : state) {
    mj_step(peer->model, peer->data);
    if (++steps % 300 == 0) {
      state.PauseTiming();
      reset();
      state.ResumeTiming();
    }
  }
  state.counters["nv"] = static_cast<double>(c.model.nv);
}

void a02_run(benchmark::State& state) {
  const double h = static_cast<double>(state.range(0)) * 1e-3;
  const Model model = testing::n_four_bar(40);
  double error = 0.0;
  for (auto _ : state) {
    VecX q, v;
    testing::n_four_bar_start(model, q, v);
    AugmentedLagrangianTrapezoidal integrator(model, nullptr);
    integrator.initialize(0.0, q, v);
    state.PauseTiming();
    testing::NFourBarReference reference(40);
    state.ResumeTiming();
    error = 0.0;
    const long steps = std::lround(10.0 / h);
    for (long k = 0; k < steps; ++k) {
      integrator.step(static_cast<double>(k) * h, h, q, v);
      state.PauseTiming();
      reference.advance(h, 1e-4);
      error = std::max(error, std::hypot(std::cos(q[0]) - std::cos(reference.angle()),
                                         std::sin(q[0]) - std::sin(reference.angle())));
      state.ResumeTiming();
    }
  }
  state.counters["error_m"] = error;
}

}  // namespace
}  // namespace mechdyn::bench

BENCHMARK(mechdyn::bench::al_dynamics)->Arg(1)->Arg(2)->Arg(5)->Arg(10)->Arg(20)->Arg(40)->Arg(100)->Arg(200)->Arg(500)->Arg(1000);
BENCHMARK(mechdyn::bench::range_space_dynamics)->Arg(1)->Arg(2)->Arg(5)->Arg(10)->Arg(20)->Arg(40)->Arg(100);
BENCHMARK(mechdyn::bench::ali3p_step)->Arg(1)->Arg(2)->Arg(5)->Arg(10)->Arg(20)->Arg(40)->Arg(100)->Arg(200)->Arg(500)->Arg(1000);
BENCHMARK(mechdyn::bench::mujoco_step)->Arg(1)->Arg(2)->Arg(5)->Arg(10)->Arg(20)->Arg(40)->Arg(100);
BENCHMARK(mechdyn::bench::a02_run)->Arg(10)->Arg(5)->Unit(benchmark::kMillisecond)->Iterations(3);

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mujoco.version", std::to_string(mj_version()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
