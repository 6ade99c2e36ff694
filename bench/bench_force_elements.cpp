// The cost of force elements in forward dynamics (issue 26, "Speed"): a chain of N revolute
// links (N = 6, 30) with and without elements — a joint spring-damper on every joint, a
// spring-damper between consecutive links, a joint stop on the first — evaluated the way
// a run does (evaluation/simulate.cpp): one kinematics pass, the elements' Q_f on it, then
// the forward dynamics at τ + Q_f. Three timings per N and method:
//   Without   the same chain with no elements: kinematics + forward dynamics
//   With      kinematics + force_elements_from_kinematics + forward dynamics at τ + Q_f
//   Elements  force_elements_from_kinematics alone on a ready stage (the elements' own work)
// The target: With ≤ 1.10 × Without + Elements (printed by scripts/bench.sh as a ratio).
#include <benchmark/benchmark.h>

#include <random>
#include <sstream>
#include <string>

#include "../src/kinematics/kinematics_stage.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

std::string chain_text(int links, bool elements) {
  std::ostringstream s;
  s << "mechdyn: 3\nname: chain\ngravity: [0, 0, -9.81]\nbodies:\n";
  for (int i = 0; i < links; ++i) {
    s << "  - name: L" << i << "\n    parent: " << (i == 0 ? std::string("ground") : "L" + std::to_string(i - 1)) << "\n"
      << "    joint: {name: J" << i << ", type: revolute, axis: [0, " << (i % 2 ? "1" : "0.6") << ", "
      << (i % 2 ? "0" : "0.8") << "], origin: [" << (i == 0 ? 0.0 : 0.3) << ", 0, 0]}\n"
      << "    mass: 1.0\n    com: [0.15, 0.01, 0]\n    inertia: {ixx: 0.01, iyy: 0.02, izz: 0.02}\n";
  }
  if (elements) {
    s << "forces:\n";
    for (int i = 0; i < links; ++i)
      s << "  - {name: K" << i << ", type: joint-spring-damper, joint: J" << i << ", stiffness: 5, damping: 0.1}\n";
    for (int i = 1; i < links; ++i)
      s << "  - {name: S" << i << ", type: spring-damper, a: {body: L" << i - 1 << ", point: [0.1, 0.05, 0]}, b: {body: L" << i
        << ", point: [0.1, -0.05, 0]}, stiffness: 100, free_length: 0.25, damping: 1}\n";
    s << "  - {name: stop, type: joint-stop, joint: J0, lower: -0.5, upper: 0.5, stiffness: 1e4, damping: 10}\n";
  }
  return s.str();
}

struct Case {
  Model model;
  Data data;
  VecX q, v, tau;
  explicit Case(int links, bool elements)
      : model(parse_model_string(chain_text(links, elements), "chain")), data(model) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.4, 0.4);
    q = VecX::NullaryExpr(model.nq, [&] { return u(rng); });
    v = VecX::NullaryExpr(model.nv, [&] { return u(rng); });
    tau = VecX::NullaryExpr(model.nv, [&] { return u(rng); });
  }
};

// state.range(0): links; range(1): 0 explicit, 1 ABA.
void forward(benchmark::State& state, bool elements) {
  Case c(static_cast<int>(state.range(0)), elements);
  const bool aba_method = state.range(1) == 1;
  VecX& total = c.data.total_effort;
  for (auto _ : state) {
    detail::kinematics_stage(c.model, c.data, c.q.data(), c.v.data(), nullptr);
    total = c.tau;
    if (elements) {
      force_elements_from_kinematics(c.model, c.data, c.q, c.v, 0.1);
      total += c.data.applied_force;
    }
    const VecX& a = aba_method ? aba_from_kinematics(c.model, c.data, total)
                               : explicit_forward_dynamics_from_kinematics(c.model, c.data, total);
    benchmark::DoNotOptimize(a.data());
  }
}

void BM_ForwardWithout(benchmark::State& state) { forward(state, false); }
void BM_ForwardWith(benchmark::State& state) { forward(state, true); }

void BM_ElementsOnly(benchmark::State& state) {
  Case c(static_cast<int>(state.range(0)), true);
  detail::kinematics_stage(c.model, c.data, c.q.data(), c.v.data(), nullptr);
  for (auto _ : state) {
    force_elements_from_kinematics(c.model, c.data, c.q, c.v, 0.1);
    benchmark::DoNotOptimize(c.data.applied_force.data());
  }
}

BENCHMARK(BM_ForwardWithout)->ArgsProduct({{6, 30}, {0, 1}});
BENCHMARK(BM_ForwardWith)->ArgsProduct({{6, 30}, {0, 1}});
BENCHMARK(BM_ElementsOnly)->ArgsProduct({{6, 30}, {0}});

}  // namespace
}  // namespace mechdyn

BENCHMARK_MAIN();
