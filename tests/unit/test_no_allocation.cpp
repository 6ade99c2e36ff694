// Evaluation allocates nothing, and one Model can serve several threads, each with its
// own Data (HOUSE-STYLE "Model and Data"; RigidBodyDynamics.jl's zero-allocation test).
//
// Two independent detectors, because Eigen's EIGEN_RUNTIME_NO_MALLOC alone cannot see
// into the library: the macro only changes Eigen's inline allocation functions in the
// translation units compiled with it (this file), while the library is compiled
// without it, and Eigen reports through eigen_assert, which Release builds compile out.
//  1. EIGEN_RUNTIME_NO_MALLOC with eigen_assert redefined to record a failure (works in
//     any build type) catches Eigen allocations in code instantiated here (inline
//     helpers of the public headers).
//  2. A counting interposer of the C allocation functions (glibc: the executable's
//     malloc/calloc/realloc/memalign family takes precedence and forwards to __libc_*)
//     catches every heap allocation of the calling thread while a probe is open: Eigen
//     temporaries (Eigen calls std::malloc), std::vector growth and std::string (operator
//     new calls malloc) — inside the library as well.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <thread>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"


namespace mechdyn {
namespace {

using testing::allocations_during;

struct State {
  VecX q, v, a;
};

// A tree that contains every joint type (checked below), so every joint-model branch
// (quaternion axes, universal second axis, free root, fixed joint with nv = 0) runs.
Model tree_with_every_joint_type() {
  for (unsigned seed = 1;; ++seed) {
    Model model = testing::random_tree(seed, {30});
    bool seen[6] = {false, false, false, false, false, false};
    for (const Joint& joint : model.joints) seen[static_cast<int>(joint.type)] = true;
    if (std::all_of(std::begin(seen), std::end(seen), [](bool b) { return b; })) return model;
  }
}

// Catches: the probe itself being blind (a test that can never fail). An allocation
// inside the probe must be counted.
TEST(NoAllocation, ProbeSeesAnAllocation) {
#if MECHDYN_COUNT_ALLOCATIONS
  std::vector<double>* volatile grown = nullptr;
  const long seen = testing::count_allocations([&] { grown = new std::vector<double>(100, 1.0); });
  delete grown;
  EXPECT_GE(seen, 2);  // the vector object and its buffer
#else
  GTEST_SKIP() << "allocation counting needs glibc and no sanitizer (allocation_probe.hpp)";
#endif
}

// Catches: a dynamic-size Eigen temporary (VecX/MatX expression evaluated into a
// temporary, a product that is not noalias()), a std::vector or std::string built on the
// success path (e.g. an error message assembled before the check) in forward_kinematics,
// rnea, crba, aba, kinetic_energy or potential_energy.
TEST(NoAllocation, EvaluationAllocatesNothingOnATreeWithEveryJointType) {
  const Model model = tree_with_every_joint_type();
  std::mt19937 rng(3);
  State s{testing::random_configuration(model, rng), testing::random_vector(model.nv, rng),
          testing::random_vector(model.nv, rng)};
  Data data(model);
  double energy = 0.0;
  const auto each = [&](const char* name, auto&& call) {
    call();  // warm-up outside the probe (nothing should need it, but keeps the probe honest)
    const long seen = allocations_during(call);
    if (seen >= 0) EXPECT_EQ(seen, 0) << name << " allocated " << seen << " times";
  };
  each("forward_kinematics(q)", [&] { forward_kinematics(model, data, s.q); });
  each("forward_kinematics(q, v, a)", [&] { forward_kinematics(model, data, s.q, s.v, s.a); });
  each("rnea", [&] { rnea(model, data, s.q, s.v, s.a); });
  each("crba", [&] { crba(model, data, s.q); });
  each("aba", [&] { aba(model, data, s.q, s.v, s.a); });
  each("kinetic_energy", [&] { energy += kinetic_energy(model, data, s.q, s.v); });
  each("potential_energy", [&] { energy += potential_energy(model, data, s.q); });
  EXPECT_TRUE(std::isfinite(energy));
}

// Catches: shared mutable state behind a const Model (a static scratch buffer, a cache
// written by an algorithm, a non-thread-safe lazy initialisation): two threads, each
// with its own Data, evaluating different states at the same time must reproduce the
// single-threaded results bit for bit.
TEST(NoAllocation, TwoDataOnOneModelFromTwoThreadsAgree) {
  const Model model = tree_with_every_joint_type();
  std::mt19937 rng(11);
  std::vector<State> states;
  for (int k = 0; k < 200; ++k)
    states.push_back({testing::random_configuration(model, rng), testing::random_vector(model.nv, rng),
                      testing::random_vector(model.nv, rng)});
  struct Result {
    VecX tau, ddq;
    MatX mass;
    double energy = 0.0;
  };
  const auto evaluate = [&model](Data& data, const State& s) {
    Result r;
    r.tau = rnea(model, data, s.q, s.v, s.a);
    r.mass = crba(model, data, s.q);
    r.ddq = aba(model, data, s.q, s.v, s.a);
    r.energy = kinetic_energy(model, data, s.q, s.v);
    return r;
  };
  std::vector<Result> serial(states.size()), forward(states.size()), backward(states.size());
  {
    Data data(model);
    for (std::size_t k = 0; k < states.size(); ++k) serial[k] = evaluate(data, states[k]);
  }
  // The threads walk the states in opposite orders, so they work on different states at
  // the same time.
  std::thread first([&] {
    Data data(model);
    for (int repeat = 0; repeat < 5; ++repeat)
      for (std::size_t k = 0; k < states.size(); ++k) forward[k] = evaluate(data, states[k]);
  });
  std::thread second([&] {
    Data data(model);
    for (int repeat = 0; repeat < 5; ++repeat)
      for (std::size_t k = states.size(); k-- > 0;) backward[k] = evaluate(data, states[k]);
  });
  first.join();
  second.join();
  for (std::size_t k = 0; k < states.size(); ++k) {
    for (const std::vector<Result>* threaded : {&forward, &backward}) {
      const Result& r = (*threaded)[k];
      EXPECT_EQ(r.tau, serial[k].tau) << "state " << k;
      EXPECT_EQ(r.mass, serial[k].mass) << "state " << k;
      EXPECT_EQ(r.ddq, serial[k].ddq) << "state " << k;
      EXPECT_EQ(r.energy, serial[k].energy) << "state " << k;
    }
  }
}

}  // namespace
}  // namespace mechdyn
