// Closed-chain models shared by the closed-chain tests: the example files, and a random
// tree with one cut joint of every type.
#pragma once

#include <random>
#include <string>

#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/model.hpp"
#include "random_model.hpp"

namespace mechdyn::testing {

inline Model example_model(const std::string& file) {
  return load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/" + file);
}

/// A seeded random tree (every joint type) with one cut joint of each type.
inline Model tree_with_every_loop_type(unsigned seed) {
  Model model = random_tree(seed, {10});
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(-1, model.num_bodies() - 1);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  int index = 0;
  for (LoopType type : {LoopType::Spherical, LoopType::Revolute, LoopType::Prismatic, LoopType::Universal,
                        LoopType::Fixed, LoopType::PlanarRevolute}) {
    Loop loop;
    loop.name = "C" + std::to_string(index++);
    loop.type = type;
    do {
      loop.a.body = pick(rng);
      loop.b.body = pick(rng);
    } while (loop.a.body == loop.b.body || loop.a.body == kGround);
    loop.a.point = Vec3(u(rng), u(rng), u(rng));
    loop.b.point = Vec3(u(rng), u(rng), u(rng));
    loop.axis = Vec3(u(rng), u(rng), 1.0).normalized();
    loop.second_axis = Vec3(1.0, u(rng), u(rng)).normalized();
    model.loops.push_back(loop);
  }
  finalize_model(model, "loops");
  return model;
}

}  // namespace mechdyn::testing
