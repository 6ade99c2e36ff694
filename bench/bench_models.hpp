// Models timed by the benchmarks, all built in code so that the benchmark does not
// depend on file paths or on the model-file reader.
#pragma once

#include <string>

#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

/// The five-axis tree of explicit-canonical-dynamics-joint-friction §5.1, Table 2:
/// L2 and L4 children of L1, L3 child of L2, L5 child of L4; all revolute about z;
/// g = [0 0 −9.8]. The same data as examples/models/five_axis_tree.yaml.
Model five_axis_tree();

/// A 7-DoF arm shaped like the Franka Emika Panda: the joint axes and origins of the
/// Panda at q = 0 (its modified-DH parameters) rewritten as natural-frame axes; masses
/// close to the published identified values, centres of mass and inertias made up in
/// plausible proportions. "Panda-like": a realistic load, not a calibrated robot.
Model panda_like_arm();

/// A 30-body tree: 5 branches of 6 revolute joints each, every branch starting at the
/// base; axes cycle x, y, z along each branch; seeded random masses, centres of mass
/// and full (non-diagonal) inertias.
Model branched_tree(unsigned seed = 30);

/// A serial chain of `n` revolute joints, axes cycling x, y, z; seeded random masses,
/// centres of mass and full inertias.
Model serial_chain(int n, unsigned seed = 7);

/// A balanced binary tree of `n` revolute bodies (body k hangs from body (k − 1)/2, heap
/// order; depth ⌊log₂ n⌋ + 1), axes cycling x, y, z; seeded random masses, centres of mass
/// and full inertias. The branched tree of the scale benchmark (bench/bench_scale.cpp).
Model binary_tree(int n, unsigned seed = 11);

/// The model of that name, with default seeds: "five_axis_tree", "panda_like_arm",
/// "branched_tree_30", "serial_chain_N", "binary_tree_N". Throws std::invalid_argument
/// for any other name.
Model model_by_name(const std::string& name);

}  // namespace mechdyn::bench
