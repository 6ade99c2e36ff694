// Nanoseconds per call of the explicit dynamics (explicit-jsim-tree-chains,
// explicit-canonical-dynamics-joint-friction) beside the recursive baselines
// (Featherstone's CRBA, RNEA, ABA), on the same models and the same states.
//
// Every call takes the next state of a pool of 256 seeded random states (q, v, a, tau)
// and is timed from its inputs to its result, kinematics included (every algorithm
// runs its own kinematics). Benchmark names are "<method>/<model>"; scripts/bench.sh
// pairs each explicit method with its recursive counterpart:
//   explicit_mass_matrix, explicit_mass_matrix_direct  vs  crba (and crba_world: forward_kinematics +
//     crba_from_kinematics, the world form crba(q) takes for models it cannot run in body frames)
//   explicit_bias_force                                vs  rnea_bias (RNEA with a = 0)
//   explicit_inverse_dynamics, joint_reactions         vs  rnea
//   explicit_forward_dynamics                          vs  aba
// Results compare methods within one run on one machine (ratios), never as absolute
// promises. The context block names the models, the CPU and the commit.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_models.hpp"
#include "bench_context.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;  // a power of two: the index wraps with a mask

struct State {
  VecX q, v, a, tau, zero;
};

/// A model and its pool of random states, shared by all benchmarks of the model.
struct Fixture {
  Model model;
  std::vector<State> pool;
};

std::shared_ptr<const Fixture> make_fixture(Model model, unsigned seed) {
  auto fixture = std::make_shared<Fixture>();
  fixture->model = std::move(model);
  std::mt19937 rng(seed);
  const Model& m = fixture->model;
  fixture->pool.resize(kPoolSize);
  for (State& s : fixture->pool) {
    s.q = testing::random_configuration(m, rng);
    s.v = testing::random_vector(m.nv, rng, 1.0);
    s.a = testing::random_vector(m.nv, rng, 1.0);
    s.tau = testing::random_vector(m.nv, rng, 5.0);
    s.zero = VecX::Zero(m.nv);
  }
  return fixture;
}

/// Registers "<method>/<model>": `run(model, data, state)` evaluates into `data` and
/// returns a pointer to its result. A template, so the timed call is direct (no
/// std::function indirection in the loop).
template <typename Run>
void register_method(const char* method, const std::shared_ptr<const Fixture>& fixture, Run run) {
  const std::string name = std::string(method) + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    const Model& model = fixture->model;
    Data data(model);
    std::size_t next = 0;
    for (auto _ : state) {
      try {
        benchmark::DoNotOptimize(run(model, data, fixture->pool[next]));
      } catch (const std::exception& error) {
        state.SkipWithError(error.what());
        break;
      }
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = model.nv;
    state.counters["bodies"] = model.num_bodies();
  })->Unit(benchmark::kNanosecond);
}

void register_methods(const std::shared_ptr<const Fixture>& fixture) {
  register_method("explicit_mass_matrix", fixture,
                  [](const Model& m, Data& d, const State& s) { return explicit_mass_matrix(m, d, s.q).data(); });
  register_method("explicit_mass_matrix_direct", fixture, [](const Model& m, Data& d, const State& s) {
    return explicit_mass_matrix_direct(m, d, s.q).data();
  });
  register_method("crba", fixture, [](const Model& m, Data& d, const State& s) { return crba(m, d, s.q).data(); });
  register_method("crba_world", fixture, [](const Model& m, Data& d, const State& s) {  // the world form (crba.hpp)
    forward_kinematics(m, d, s.q);
    return crba_from_kinematics(m, d).data();
  });
  register_method("explicit_bias_force", fixture,
                  [](const Model& m, Data& d, const State& s) { return explicit_bias_force(m, d, s.q, s.v).data(); });
  register_method("rnea_bias", fixture,
                  [](const Model& m, Data& d, const State& s) { return rnea(m, d, s.q, s.v, s.zero).data(); });
  register_method("explicit_inverse_dynamics", fixture, [](const Model& m, Data& d, const State& s) {
    return explicit_inverse_dynamics(m, d, s.q, s.v, s.a).data();
  });
  register_method("explicit_inverse_dynamics_mass_matrix", fixture, [](const Model& m, Data& d, const State& s) {
    return explicit_inverse_dynamics_mass_matrix(m, d, s.q, s.v, s.a).data();
  });
  register_method("rnea", fixture,
                  [](const Model& m, Data& d, const State& s) { return rnea(m, d, s.q, s.v, s.a).data(); });
  register_method("explicit_forward_dynamics", fixture, [](const Model& m, Data& d, const State& s) {
    return explicit_forward_dynamics(m, d, s.q, s.v, s.tau).data();
  });
  register_method("explicit_forward_dynamics_mass_matrix", fixture, [](const Model& m, Data& d, const State& s) {
    return explicit_forward_dynamics_mass_matrix(m, d, s.q, s.v, s.tau).data();
  });
  register_method("aba", fixture,
                  [](const Model& m, Data& d, const State& s) { return aba(m, d, s.q, s.v, s.tau).data(); });
  register_method("joint_reactions", fixture, [](const Model& m, Data& d, const State& s) {
    joint_reactions(m, d, s.q, s.v, s.a);
    return d.reaction_force.data();
  });
}

std::string describe(const Model& model) {
  int depth = 0;
  for (int d : model.body_depth) depth = std::max(depth, d);
  std::ostringstream out;
  out << "bodies=" << model.num_bodies() << " nq=" << model.nq << " nv=" << model.nv << " depth=" << depth;
  return out.str();
}

/// Largest disagreement between the explicit and the recursive results on the first
/// pooled state, so a table of timings never hides a wrong answer. "n/a: <reason>"
/// when an algorithm throws.
std::string agreement(const Fixture& fixture) {
  const Model& model = fixture.model;
  const State& s = fixture.pool.front();
  Data explicit_data(model), recursive_data(model);
  try {
    double diff = (explicit_mass_matrix(model, explicit_data, s.q) - crba(model, recursive_data, s.q)).cwiseAbs().maxCoeff();
    diff = std::max(diff, (explicit_mass_matrix_direct(model, explicit_data, s.q) - recursive_data.mass_matrix)
                              .cwiseAbs()
                              .maxCoeff());
    diff = std::max(diff, (explicit_inverse_dynamics(model, explicit_data, s.q, s.v, s.a) -
                           rnea(model, recursive_data, s.q, s.v, s.a))
                              .cwiseAbs()
                              .maxCoeff());
    diff = std::max(diff, (explicit_forward_dynamics(model, explicit_data, s.q, s.v, s.tau) -
                           aba(model, recursive_data, s.q, s.v, s.tau))
                              .cwiseAbs()
                              .maxCoeff());
    std::ostringstream out;
    out << "max |explicit - recursive| over M, tau, ddq = " << diff;
    return out.str();
  } catch (const std::exception& error) {
    return std::string("n/a: ") + error.what();
  }
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::vector<std::shared_ptr<const Fixture>> fixtures;
  unsigned seed = 1;
  fixtures.push_back(make_fixture(five_axis_tree(), seed++));
  fixtures.push_back(make_fixture(panda_like_arm(), seed++));
  fixtures.push_back(make_fixture(branched_tree(), seed++));
  for (int n : {5, 10, 20, 50}) fixtures.push_back(make_fixture(serial_chain(n), seed++));

  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  // The console's "Library was built as DEBUG" warning is about libbenchmark itself
  // (Debian's package); this is the build of mechdyn and of this benchmark.
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mechdyn.state_pool", std::to_string(kPoolSize) + " seeded random states (q, v, a, tau)");
  for (const auto& fixture : fixtures) {
    benchmark::AddCustomContext("model." + fixture->model.name, describe(fixture->model));
    benchmark::AddCustomContext("check." + fixture->model.name, agreement(*fixture));
    register_methods(fixture);
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
