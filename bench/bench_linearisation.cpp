// The cost of the linear model and the modes (issue 27, "Speed"):
//   linearize/panda_like_arm     the state-space A, B, C, D of the 7-DoF arm about a moving state
//   aba_derivatives/panda_like_arm   the forward-dynamics derivatives alone (target: linearize ≤ 3× this)
//   modes/chain100               the vibration modes of a 100-link hanging chain about its equilibrium,
//                                joints free (target ≤ 50 ms)
//   static/chain100              its equilibrium alone (from the hanging configuration)
// Printed by scripts/bench.sh as ratios; times, not tests.
#include <benchmark/benchmark.h>

#include <random>
#include <sstream>
#include <string>

#include "bench_models.hpp"
#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/io/model_file.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct ArmCase {
  Model model = bench::panda_like_arm();
  VecX q, v, tau;
  ArmCase() {
    std::mt19937 rng(5);
    q = testing::random_configuration(model, rng);
    v = testing::random_vector(model.nv, rng);
    tau = testing::random_vector(model.nv, rng);
  }
};

void linearize_arm(benchmark::State& state) {
  const ArmCase c;
  LinearizeOptions options;
  options.tau = c.tau;
  LinearizeWorkspace workspace(c.model);
  LinearModel out;
  for (auto _ : state) {
    linearize(c.model, workspace, c.q, c.v, options, out);
    benchmark::DoNotOptimize(out.A.data());
  }
}
BENCHMARK(linearize_arm)->Name("linearize/panda_like_arm");

void aba_derivatives_arm(benchmark::State& state) {
  const ArmCase c;
  Data data(c.model);
  DerivativeData work(c.model);
  for (auto _ : state) {
    aba_derivatives(c.model, data, work, c.q, c.v, c.tau);
    benchmark::DoNotOptimize(work.da_dq.data());
  }
}
BENCHMARK(aba_derivatives_arm)->Name("aba_derivatives/panda_like_arm");

// n links of 0.1 m hanging along −z, hinges alternately about x and y, passive: the
// equilibrium is q = 0 and every mode is a pendulum mode (no zero mode).
Model hanging_chain(int n) {
  std::ostringstream s;
  s << "mechdyn: 1\nname: chain\ngravity: [0, 0, -9.81]\nbodies:\n";
  for (int i = 0; i < n; ++i)
    s << "  - name: L" << i << "\n    parent: " << (i == 0 ? std::string("ground") : "L" + std::to_string(i - 1))
      << "\n    joint: {name: J" << i << ", type: revolute, axis: [" << (i % 2 ? "0, 1" : "1, 0")
      << ", 0], origin: [0, 0, " << (i == 0 ? 0.0 : -0.1) << "], actuated: false}\n"
      << "    mass: 0.2\n    com: [0, 0, -0.05]\n    inertia: {ixx: 2e-4, iyy: 2e-4, izz: 1e-5}\n";
  return parse_model_string(s.str(), "chain");
}

void modes_chain(benchmark::State& state) {
  const Model model = hanging_chain(static_cast<int>(state.range(0)));
  ModesOptions options;
  options.equilibrium.lock_actuated = false;
  // start at the equilibrium (found once): the timing is one equilibrium check and the modes
  const VecX q = mechanism_equilibrium(model, model.neutral_configuration(), options.equilibrium).q;
  for (auto _ : state) benchmark::DoNotOptimize(mechanism_modes(model, q, options).frequencies.data());
}
BENCHMARK(modes_chain)->Name("modes/chain")->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mechdyn
BENCHMARK_MAIN();
