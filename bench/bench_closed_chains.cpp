// Time per call of the closed-chain algorithms (docs/closed-chains.md) on the four-bar
// and the three-loop mechanism of explicit-canonical-dynamics-joint-friction §5.2:
//   constrained_forward_dynamics/<model>   one evaluation of a(q, v, τ) with λ (range space)
//   constrained_rk4_step/<model>           one RK4 step (4 evaluations) + projection of q and v
//   closed_chain_inverse_dynamics/<model>  assembly (warm start) + passive motion + τ_a, λ, friction
// States: the models assembled at 64 crank angles with random crank velocities.
// Results compare within one run on one machine; the context names the CPU and commit.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn::bench {
namespace {

struct Case {
  Model model;
  std::vector<VecX> q, v;
};

Case make_case(const std::string& file) {
  Case c{load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/" + file), {}, {}};
  Data data(c.model);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX q = VecX::Zero(c.model.nq);
  if (c.model.name == "four_bar") q << 0.0, 1.0, 1.5;
  for (int k = 0; k < 64; ++k) {
    q[0] = file == "four_bar.yaml" ? 0.1 * k : -2.0 + 3.4 * k / 64.0;  // the three-loop crank reaches [-2.5, 1.58] rad
    VecX v = VecX::Zero(c.model.nv), a = VecX::Zero(c.model.nv);
    v[0] = u(rng);
    closed_chain_inverse_dynamics(c.model, data, q, v, a);  // assembles q, fills passive v
    c.q.push_back(q);
    c.v.push_back(v);
  }
  return c;
}

const Case& four_bar() {
  static const Case c = make_case("four_bar.yaml");
  return c;
}
const Case& three_loop() {
  static const Case c = make_case("three_loop_mechanism.yaml");
  return c;
}

void constrained_forward(benchmark::State& state, const Case& (*get)()) {
  const Case& c = get();
  Data data(c.model);
  VecX tau = VecX::Zero(c.model.nv);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(constrained_forward_dynamics(c.model, data, c.q[i], c.v[i], tau).data());
    i = (i + 1) % c.q.size();
  }
}

void constrained_step(benchmark::State& state, const Case& (*get)()) {
  const Case& c = get();
  Data dynamics(c.model), projection(c.model);
  const VecX tau = VecX::Zero(c.model.nv);
  Rk4Integrator rk4(c.model, [&](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                 Eigen::Ref<VecX> a) { a = constrained_forward_dynamics(c.model, dynamics, q, v, tau); });
  VecX q = c.q[0], v = c.v[0];
  double t = 0.0;
  for (auto _ : state) {
    rk4.step(t, 1e-3, q, v);
    project_positions(c.model, projection, q);
    project_velocities(c.model, projection, q, v);
    t += 1e-3;
    if (t > 1.0) {  // stay in the assembled range
      state.PauseTiming();
      q = c.q[0], v = c.v[0], t = 0.0;
      state.ResumeTiming();
    }
  }
}

void inverse(benchmark::State& state, const Case& (*get)()) {
  const Case& c = get();
  Data data(c.model);
  VecX q, v, a = VecX::Zero(c.model.nv);
  std::size_t i = 0;
  for (auto _ : state) {
    q = c.q[i], v = c.v[i];
    benchmark::DoNotOptimize(closed_chain_inverse_dynamics(c.model, data, q, v, a).data());
    i = (i + 1) % c.q.size();
  }
}

BENCHMARK_CAPTURE(constrained_forward, four_bar, &four_bar)->Name("constrained_forward_dynamics/four_bar");
BENCHMARK_CAPTURE(constrained_forward, three_loop, &three_loop)->Name("constrained_forward_dynamics/three_loop");
BENCHMARK_CAPTURE(constrained_step, four_bar, &four_bar)->Name("constrained_rk4_step/four_bar");
BENCHMARK_CAPTURE(constrained_step, three_loop, &three_loop)->Name("constrained_rk4_step/three_loop");
BENCHMARK_CAPTURE(inverse, four_bar, &four_bar)->Name("closed_chain_inverse_dynamics/four_bar");
BENCHMARK_CAPTURE(inverse, three_loop, &three_loop)->Name("closed_chain_inverse_dynamics/three_loop");

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("models", "four_bar.yaml (nv 3, 2 rows), three_loop_mechanism.yaml (nv 7, 6 rows)");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
