// Cost of joint friction: inverse dynamics with load-dependent friction (EC Algorithm 1,
// eq. 54: reactions, load decomposition, normal loads, friction) against inverse
// dynamics without friction, on the five-axis tree (EC §5.1) and the 30-body tree of
// bench_models.hpp, each with Stribeck friction and `load` on every joint; and forward
// dynamics with friction (the implicit solve) against forward dynamics without.
//
// Target (the friction issue): inverse_dynamics_with_friction ≤ 1.5 × inverse dynamics
// without friction. Both baselines are timed: explicit_inverse_dynamics (the resultant
// iteration of the explicit method, O(n); before issue 15 it was M a + h, kept as
// explicit_inverse_dynamics_mass_matrix) and rnea (the fastest O(n) one). After the run a table prints the
// ratios measured in this run (ratios only, never absolute promises).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_models.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "random_model.hpp"

#ifndef MECHDYN_GIT_COMMIT
#define MECHDYN_GIT_COMMIT "unknown"
#endif

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;

struct State {
  VecX q, v, a, tau;
};

struct Fixture {
  Model model;
  std::vector<State> pool;
};

// Table 2's Stribeck friction with the joint geometry of five_axis_tree_stribeck.yaml.
Model with_friction(Model model) {
  for (Joint& joint : model.joints) {
    JointFriction f;
    f.model = FrictionModel::Stribeck;
    f.coulomb = 0.005;
    f.static_coefficient = 0.05;
    f.viscous = 0.01;
    f.stribeck_velocity = 0.03;
    f.load = FrictionLoad{0.01, 0.02, 0.015};
    joint.friction = f;
  }
  finalize_model(model, model.name);
  return model;
}

std::shared_ptr<const Fixture> make_fixture(Model model, unsigned seed) {
  auto fixture = std::make_shared<Fixture>();
  fixture->model = with_friction(std::move(model));
  std::mt19937 rng(seed);
  fixture->pool.resize(kPoolSize);
  for (State& s : fixture->pool) {
    s.q = testing::random_configuration(fixture->model, rng);
    s.v = testing::random_vector(fixture->model.nv, rng, 1.0);
    s.a = testing::random_vector(fixture->model.nv, rng, 1.0);
    s.tau = VecX::Zero(fixture->model.nv);
  }
  // Efforts that drive the pool's accelerations, so forward dynamics sees moving joints.
  Data data(fixture->model);
  for (State& s : fixture->pool) s.tau = inverse_dynamics_with_friction(fixture->model, data, s.q, s.v, s.a);
  return fixture;
}

template <typename Run>
void register_method(const char* method, const std::shared_ptr<const Fixture>& fixture, Run run) {
  const std::string name = std::string(method) + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    Data data(fixture->model);
    std::size_t next = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(run(fixture->model, data, fixture->pool[next]));
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = fixture->model.nv;
  })->Unit(benchmark::kNanosecond);
}

void register_all(const std::shared_ptr<const Fixture>& f) {
  register_method("explicit_inverse_dynamics", f, [](const Model& m, Data& d, const State& s) {
    return explicit_inverse_dynamics(m, d, s.q, s.v, s.a).data();
  });
  register_method("rnea", f, [](const Model& m, Data& d, const State& s) { return rnea(m, d, s.q, s.v, s.a).data(); });
  register_method("inverse_dynamics_with_friction", f, [](const Model& m, Data& d, const State& s) {
    return inverse_dynamics_with_friction(m, d, s.q, s.v, s.a).data();
  });
  register_method("explicit_forward_dynamics", f, [](const Model& m, Data& d, const State& s) {
    return explicit_forward_dynamics(m, d, s.q, s.v, s.tau).data();
  });
  register_method("forward_dynamics_with_friction", f, [](const Model& m, Data& d, const State& s) {
    return forward_dynamics_with_friction(m, d, s.q, s.v, s.tau).data();
  });
}

// Collects the CPU time per benchmark (steadier than wall time on a shared machine), then prints the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Iteration) time_[run.benchmark_name()] = run.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  void print_ratios() const {
    std::printf("\nratio (this run)                                   five_axis_tree   branched_tree_30\n");
    auto row = [&](const char* label, const char* numerator, const char* denominator) {
      std::printf("%-50s", label);
      for (const char* model : {"five_axis_tree", "branched_tree_30"}) {
        const auto n = time_.find(std::string(numerator) + "/" + model);
        const auto d = time_.find(std::string(denominator) + "/" + model);
        if (n == time_.end() || d == time_.end()) std::printf("  %15s", "-");
        else std::printf("  %15.2f", n->second / d->second);
      }
      std::printf("\n");
    };
    row("inverse with friction / explicit inverse", "inverse_dynamics_with_friction", "explicit_inverse_dynamics");
    row("inverse with friction / rnea", "inverse_dynamics_with_friction", "rnea");
    row("forward with friction / explicit forward", "forward_dynamics_with_friction", "explicit_forward_dynamics");
  }

 private:
  std::map<std::string, double> time_;
};

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  using mechdyn::Model;
  Model five = five_axis_tree();
  Model branched = branched_tree();
  five.name = "five_axis_tree";
  branched.name = "branched_tree_30";
  register_all(make_fixture(five, 1));
  register_all(make_fixture(branched, 2));
  benchmark::AddCustomContext("commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("friction", "Stribeck, Table 2 coefficients, load R_p 10 mm, R_b 20 mm, R_n 15 mm on every joint");
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
