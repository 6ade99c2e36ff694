// The driver behind the instruction counts of docs/benchmarks.md ("Profile"): runs one
// algorithm `iterations` times on one seeded random state of a benchmark model, so that
// `valgrind --tool=callgrind` counts its instructions. The per-call count is
//   (Ir(iterations = N) − Ir(iterations = 0)) / N
// which removes start-up, model building and the state (scripts/profile.sh does this).
// Only public API, so that the same file measures any commit.
//
// Usage: mechdyn_profile <model> <algorithm> <iterations>
//   model:     five_axis_tree | panda_like_arm | serial_chain_50
//   algorithm: rnea | crba | aba | explicit_forward_dynamics
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "bench_models.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "random_model.hpp"

int main(int argc, char** argv) {
  using namespace mechdyn;
  if (argc != 4) {
    std::fprintf(stderr, "usage: mechdyn_profile <model> <algorithm> <iterations>\n");
    return 2;
  }
  const std::string model_name = argv[1], algorithm = argv[2];
  const long iterations = std::strtol(argv[3], nullptr, 10);
  Model model;
  if (model_name == "five_axis_tree") model = bench::five_axis_tree();
  else if (model_name == "panda_like_arm") model = bench::panda_like_arm();
  else if (model_name == "serial_chain_50") model = bench::serial_chain(50);
  else {
    std::fprintf(stderr, "unknown model '%s'\n", model_name.c_str());
    return 2;
  }
  Data data(model);
  std::mt19937 rng(12);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng, 1.0);
  const VecX a = testing::random_vector(model.nv, rng, 1.0);
  double sink = 0.0;  // keeps the calls from being optimised away
  if (algorithm == "rnea") {
    for (long k = 0; k < iterations; ++k) sink += rnea(model, data, q, v, a)[0];
  } else if (algorithm == "crba") {
    for (long k = 0; k < iterations; ++k) sink += crba(model, data, q)(0, 0);
  } else if (algorithm == "aba") {
    for (long k = 0; k < iterations; ++k) sink += aba(model, data, q, v, a)[0];
  } else if (algorithm == "explicit_forward_dynamics") {
    for (long k = 0; k < iterations; ++k) sink += explicit_forward_dynamics(model, data, q, v, a)[0];
  } else {
    std::fprintf(stderr, "unknown algorithm '%s'\n", algorithm.c_str());
    return 2;
  }
  std::printf("%.17g\n", sink);
  return 0;
}
