// Explicit inverse dynamics against RNEA in time (docs/benchmarks.md, "Explicit inverse
// dynamics in time"): `explicit_inverse_dynamics` (the resultant iteration of EC §3.1) and
// `rnea` on the same models and states, registered as
//   explicit_time/<algorithm>/<model>/<states>
// algorithm: rnea | explicit; states: cycled (the next of 256 seeded random states per
// call, as bench_peers.cpp) | fixed (one state, as the callgrind driver).
// Besides the benchmark models it times two axis variants that separate the tree shape from
// the axis pattern: five_axis_tree_xyz (the five-axis tree with its axes cycling x, y, z)
// and serial_chain_5_z (the 5-chain with every axis z). RNEA's time depends on the axis
// pattern (its body-coordinate vectors are stored by one joint kind's step and loaded by
// another's); the explicit iteration's hardly does.
// Read the ratios from one run with random interleaving (scripts/explicit_time.sh).
// The object bench_explicit_time_pad.cpp, linked first, shifts all code by
// MECHDYN_BENCH_CODE_PAD bytes: both functions' times move by a few per cent with the code
// layout, so the script averages over several.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "bench_models.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "random_model.hpp"

namespace {

using namespace mechdyn;

constexpr std::size_t kPoolSize = 256;  // a power of two: the index wraps with a mask

struct State {
  VecX q, v, a;
};

/// The model rebuilt with every joint axis replaced: e_z (all_z) or e_{l mod 3} (cycled).
Model with_axes(const Model& source, bool all_z, const std::string& name) {
  Model model;
  model.name = name;
  model.gravity = source.gravity;
  for (int l = 0; l < source.num_bodies(); ++l) {
    Body body;
    body.name = source.bodies[l].name;
    body.parent = source.bodies[l].parent;
    body.mass = source.bodies[l].mass;
    body.com = source.bodies[l].com;
    body.inertia = source.bodies[l].inertia;
    Joint joint;
    joint.name = source.joints[l].name;
    joint.type = source.joints[l].type;
    joint.axis = all_z ? Vec3::UnitZ() : Vec3::Unit(l % 3);
    joint.origin = source.joints[l].origin;
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, model.name);
  return model;
}

std::vector<State> make_pool(const Model& model, bool fixed) {
  std::mt19937 rng(7);
  std::vector<State> pool(kPoolSize);
  for (State& s : pool) {
    s.q = testing::random_configuration(model, rng);
    s.v = testing::random_vector(model.nv, rng, 1.0);
    s.a = testing::random_vector(model.nv, rng, 1.0);
  }
  if (fixed)
    for (State& s : pool) s = pool.front();  // separate copies: the same memory traffic as cycled
  return pool;
}

template <bool Explicit>
void register_case(const Model& model, bool fixed) {
  const std::string name = std::string("explicit_time/") + (Explicit ? "explicit/" : "rnea/") + model.name + "/" +
                           (fixed ? "fixed" : "cycled");
  benchmark::RegisterBenchmark(name.c_str(), [model, fixed](benchmark::State& state) {
    const std::vector<State> pool = make_pool(model, fixed);
    Data data(model);
    std::size_t next = 0;
    for (auto _ : state) {
      const State& s = pool[next];
      if constexpr (Explicit)
        benchmark::DoNotOptimize(explicit_inverse_dynamics(model, data, s.q, s.v, s.a).data());
      else
        benchmark::DoNotOptimize(rnea(model, data, s.q, s.v, s.a).data());
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = model.nv;
  })->Unit(benchmark::kNanosecond);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Model> models = {bench::five_axis_tree(),
                                     with_axes(bench::five_axis_tree(), false, "five_axis_tree_xyz"),
                                     bench::panda_like_arm(),
                                     bench::serial_chain(5),
                                     with_axes(bench::serial_chain(5), true, "serial_chain_5_z"),
                                     bench::branched_tree(),
                                     bench::serial_chain(50)};
  for (const Model& model : models)
    for (bool fixed : {false, true}) {
      register_case<false>(model, fixed);
      register_case<true>(model, fixed);
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
