// Generated code (`mechdyn codegen`, docs/codegen.md) against mechdyn's own runtime
// algorithms, on the five-axis tree (EC §5.1) and the Panda arm (examples/models/):
//   generated_mass_matrix        vs  crba, explicit_mass_matrix
//   generated_bias               vs  rnea_bias (RNEA with a = 0), explicit_bias_force
//   generated_inverse_dynamics   vs  rnea, explicit_inverse_dynamics
//   generated_forward_dynamics   vs  aba, explicit_forward_dynamics
//   generated_joint_reactions    vs  joint_reactions
// and on the five-axis tree with Stribeck friction (five_axis_tree_stribeck.yaml):
//   generated_inverse_dynamics_with_friction  vs  inverse_dynamics_with_friction (and
//   generated_inverse_dynamics, rnea: what the friction adds)
// The C files are written at build time by the built `mechdyn codegen` from the example
// files (bench/CMakeLists.txt) and compiled with the benchmark's flags; the library reads
// the same files. Every call takes the next of 256 seeded random states and runs from its
// inputs to its result, kinematics (sin, cos) included, as in bench_dynamics.cpp.
// Before timing, every generated result is compared with the library on all 256 states:
// a difference above 1e-9 (relative to max(1, |value|)) prints the model and quantity and
// exits with status 1. scripts/codegen_table.py prints the ratios generated/best runtime.
// `mechdyn_bench_codegen --profile MODEL METHOD N` runs N calls of one method for callgrind
// (scripts/profile_codegen.sh: instructions per call, repeatable on a loaded machine).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "five_axis_tree.h"
#include "five_axis_tree_stribeck.h"
#include "generated_code.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/io/model_file.hpp"
#include "panda_7dof.h"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;

struct State {
  VecX q, v, a, tau, zero;
};

using Generated = GeneratedFunctions;

struct Fixture {
  Model model;
  Generated generated;
  std::vector<State> pool;
};

std::shared_ptr<const Fixture> make_fixture(const std::string& file, const Generated& generated, unsigned seed) {
  auto fixture = std::make_shared<Fixture>();
  fixture->model = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/" + file);
  fixture->generated = generated;
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

/// Largest difference generated − library over the pool (generated_code.hpp).
double disagreement(const Fixture& f, const char*& worst_quantity) {
  GeneratedCheck check(f.model, f.generated);
  for (const State& s : f.pool) check.add(s.q, s.v, s.a, s.tau);
  worst_quantity = check.worst_quantity();
  return check.worst();
}

template <typename Run>
void register_method(const char* method, const std::shared_ptr<const Fixture>& fixture, Run run) {
  const std::string name = std::string(method) + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    const Model& model = fixture->model;
    Data data(model);
    VecX out(model.nv * model.nv), force(3 * model.num_bodies()), torque(3 * model.num_bodies());
    std::size_t next = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(run(model, data, fixture->generated, fixture->pool[next], out, force, torque));
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = model.nv;
  })->Unit(benchmark::kNanosecond);
}

/// Calls visit(name, run) for every method; each `run` is its own lambda type, so the
/// timed call is direct (no std::function in the loop).
template <typename Visit>
void for_each_method(Visit visit) {
  using G = Generated;
  visit("generated_mass_matrix", [](const Model&, Data&, const G& g, const State& s, VecX& out, VecX&, VecX&) {
    g.mass_matrix(s.q.data(), out.data());
    return out.data();
  });
  visit("crba", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return crba(m, d, s.q).data();
  });
  visit("explicit_mass_matrix", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return explicit_mass_matrix(m, d, s.q).data();
  });
  visit("generated_bias", [](const Model&, Data&, const G& g, const State& s, VecX& out, VecX&, VecX&) {
    g.bias(s.q.data(), s.v.data(), out.data());
    return out.data();
  });
  visit("rnea_bias", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return rnea(m, d, s.q, s.v, s.zero).data();
  });
  visit("explicit_bias_force", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return explicit_bias_force(m, d, s.q, s.v).data();
  });
  visit("generated_inverse_dynamics", [](const Model&, Data&, const G& g, const State& s, VecX& out, VecX&, VecX&) {
    g.inverse_dynamics(s.q.data(), s.v.data(), s.a.data(), out.data());
    return out.data();
  });
  visit("rnea", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return rnea(m, d, s.q, s.v, s.a).data();
  });
  visit("explicit_inverse_dynamics", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return explicit_inverse_dynamics(m, d, s.q, s.v, s.a).data();
  });
  visit("generated_forward_dynamics", [](const Model&, Data&, const G& g, const State& s, VecX& out, VecX&, VecX&) {
    benchmark::DoNotOptimize(g.forward_dynamics(s.q.data(), s.v.data(), s.tau.data(), out.data()));
    return out.data();
  });
  visit("aba", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return aba(m, d, s.q, s.v, s.tau).data();
  });
  visit("explicit_forward_dynamics", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    return explicit_forward_dynamics(m, d, s.q, s.v, s.tau).data();
  });
  visit("generated_joint_reactions",
        [](const Model&, Data&, const G& g, const State& s, VecX&, VecX& force, VecX& torque) {
          g.joint_reactions(s.q.data(), s.v.data(), s.a.data(), force.data(), torque.data());
          return force.data();
        });
  visit("joint_reactions", [](const Model& m, Data& d, const G&, const State& s, VecX&, VecX&, VecX&) {
    joint_reactions(m, d, s.q, s.v, s.a);
    return d.reaction_force.front().data();
  });
}

void register_methods(const std::shared_ptr<const Fixture>& f) {
  for_each_method([&](const char* name, auto run) { register_method(name, f, run); });
}

/// The model with joint friction: its generated inverse_dynamics_with_friction and
/// inverse_dynamics, against the library's inverse_dynamics_with_friction and rnea.
struct FrictionFunctions {
  void (*inverse_dynamics_with_friction)(const double* q, const double* v, const double* a, double* tau_d,
                                         double* friction);
  void (*inverse_dynamics)(const double* q, const double* v, const double* a, double* tau);
};

struct FrictionFixture {
  Model model;
  FrictionFunctions generated;
  std::vector<State> pool;
};

std::shared_ptr<const FrictionFixture> make_friction_fixture(const std::string& file, const FrictionFunctions& generated,
                                                             unsigned seed) {
  auto fixture = std::make_shared<FrictionFixture>();
  const std::shared_ptr<const Fixture> plain = make_fixture(file, Generated{}, seed);
  fixture->model = plain->model;
  fixture->generated = generated;
  fixture->pool = plain->pool;
  return fixture;
}

/// Largest difference of tau_with_friction and friction_effort, generated − library,
/// relative to max(1, |library|∞), over the pool.
double friction_disagreement(const FrictionFixture& f) {
  Data data(f.model);
  VecX tau(f.model.nv), friction(f.model.nv);
  double worst = 0.0;
  for (const State& s : f.pool) {
    inverse_dynamics_with_friction(f.model, data, s.q, s.v, s.a, LuGreEvaluation::SteadyState);
    f.generated.inverse_dynamics_with_friction(s.q.data(), s.v.data(), s.a.data(), tau.data(), friction.data());
    worst = std::max(worst, (tau - data.tau_with_friction).cwiseAbs().maxCoeff() /
                                std::max(1.0, data.tau_with_friction.cwiseAbs().maxCoeff()));
    worst = std::max(worst, (friction - data.friction_effort).cwiseAbs().maxCoeff() /
                                std::max(1.0, data.friction_effort.cwiseAbs().maxCoeff()));
  }
  return worst;
}

template <typename Visit>
void for_each_friction_method(Visit visit) {
  using F = FrictionFunctions;
  visit("generated_inverse_dynamics_with_friction", [](const Model&, Data&, const F& g, const State& s, VecX& out) {
    g.inverse_dynamics_with_friction(s.q.data(), s.v.data(), s.a.data(), out.data(), out.data() + s.q.size());
    return out.data();
  });
  visit("inverse_dynamics_with_friction", [](const Model& m, Data& d, const F&, const State& s, VecX&) {
    return inverse_dynamics_with_friction(m, d, s.q, s.v, s.a, LuGreEvaluation::SteadyState).data();
  });
  visit("generated_inverse_dynamics", [](const Model&, Data&, const F& g, const State& s, VecX& out) {
    g.inverse_dynamics(s.q.data(), s.v.data(), s.a.data(), out.data());
    return out.data();
  });
  visit("rnea", [](const Model& m, Data& d, const F&, const State& s, VecX&) { return rnea(m, d, s.q, s.v, s.a).data(); });
}

void register_friction_methods(const std::shared_ptr<const FrictionFixture>& fixture) {
  for_each_friction_method([&](const char* method, auto run) {
    const std::string name = std::string(method) + "/" + fixture->model.name;
    benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
      const Model& model = fixture->model;
      Data data(model);
      VecX out(2 * model.nv);
      std::size_t next = 0;
      for (auto _ : state) {
        benchmark::DoNotOptimize(run(model, data, fixture->generated, fixture->pool[next], out));
        benchmark::ClobberMemory();
        next = (next + 1) & (kPoolSize - 1);
      }
      state.counters["nv"] = model.nv;
    })->Unit(benchmark::kNanosecond);
  });
}

int profile_friction(const FrictionFixture& f, const std::string& method, long calls) {
  Data data(f.model);
  VecX out(2 * f.model.nv);
  bool found = false;
  double sink = 0.0;
  for_each_friction_method([&](const char* name, auto run) {
    if (method != name) return;
    found = true;
    for (long c = 0; c < calls; ++c)
      sink += *run(f.model, data, f.generated, f.pool[static_cast<std::size_t>(c) & (kPoolSize - 1)], out);
  });
  if (!found) {
    std::fprintf(stderr, "mechdyn_bench_codegen: --profile: unknown method '%s'\n", method.c_str());
    return 2;
  }
  std::printf("%.17g\n", sink);
  return 0;
}

/// `--profile METHOD N`: N calls of one method on the pool's states, outside Google
/// Benchmark, for callgrind (instructions per call = (Ir(N) − Ir(0)) / N).
int profile(const Fixture& f, const std::string& method, long calls) {
  Data data(f.model);
  VecX out(f.model.nv * f.model.nv), force(3 * f.model.num_bodies()), torque(3 * f.model.num_bodies());
  bool found = false;
  double sink = 0.0;
  for_each_method([&](const char* name, auto run) {
    if (method != name) return;
    found = true;
    for (long c = 0; c < calls; ++c)
      sink += *run(f.model, data, f.generated, f.pool[static_cast<std::size_t>(c) & (kPoolSize - 1)], out, force, torque);
  });
  if (!found) {
    std::fprintf(stderr, "mechdyn_bench_codegen: --profile: unknown method '%s'\n", method.c_str());
    return 2;
  }
  std::printf("%.17g\n", sink);
  return 0;
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  const Generated five_axis = MECHDYN_GENERATED_FUNCTIONS(five_axis_tree);
  const Generated panda = MECHDYN_GENERATED_FUNCTIONS(panda_7dof);
  std::vector<std::shared_ptr<const Fixture>> fixtures = {make_fixture("five_axis_tree.yaml", five_axis, 1),
                                                          make_fixture("panda_7dof.yaml", panda, 2)};
  const auto stribeck = make_friction_fixture(
      "five_axis_tree_stribeck.yaml",
      FrictionFunctions{five_axis_tree_stribeck_inverse_dynamics_with_friction, five_axis_tree_stribeck_inverse_dynamics},
      3);
  if (argc == 5 && std::string(argv[1]) == "--profile") {  // --profile MODEL METHOD N
    for (const auto& fixture : fixtures)
      if (fixture->model.name == argv[2]) return profile(*fixture, argv[3], std::atol(argv[4]));
    if (stribeck->model.name == argv[2]) return profile_friction(*stribeck, argv[3], std::atol(argv[4]));
    std::fprintf(stderr, "mechdyn_bench_codegen: --profile: unknown model '%s'\n", argv[2]);
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  for (const auto& fixture : fixtures) {
    const char* quantity = "";
    const double worst = disagreement(*fixture, quantity);
    char line[160];
    std::snprintf(line, sizeof line, "max |generated - library| / max(1, |library|) over 256 states = %.2g (%s)", worst,
                  quantity);
    if (!(worst <= 1e-9)) {
      std::fprintf(stderr, "mechdyn_bench_codegen: %s: the generated code disagrees with the library: %s\n",
                   fixture->model.name.c_str(), line);
      return 1;
    }
    benchmark::AddCustomContext("check." + fixture->model.name, line);
    register_methods(fixture);
  }
  {
    const double worst = friction_disagreement(*stribeck);
    char line[160];
    std::snprintf(line, sizeof line,
                  "max |generated - library| / max(1, |library|) over 256 states = %.2g (tau_with_friction, friction)",
                  worst);
    if (!(worst <= 1e-9)) {
      std::fprintf(stderr, "mechdyn_bench_codegen: %s: the generated code disagrees with the library: %s\n",
                   stribeck->model.name.c_str(), line);
      return 1;
    }
    benchmark::AddCustomContext("check." + stribeck->model.name, line);
    register_friction_methods(stribeck);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
