// Seeded random trees with every joint type, for property tests and benchmarks.
#pragma once

#include <random>
#include <string>

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::testing {

struct RandomTreeOptions {
  int bodies = 10;
  bool all_joint_types = true;     // false: revolute and prismatic only
  bool allow_free = true;          // free joints only at the roots
  double branch_probability = 0.3; // chance that a body attaches somewhere other than the previous body
};

/// A random tree: random axes, origins, masses, full inertias (symmetric PD, triangle inequality).
Model random_tree(unsigned seed, const RandomTreeOptions& options = {});

/// A random configuration (unit quaternions) and a random vector of size nv.
VecX random_configuration(const Model& model, std::mt19937& rng);
VecX random_vector(Eigen::Index size, std::mt19937& rng, double scale = 1.0);

/// q advanced by dt along velocity v (first order, quaternions renormalised);
/// with the joint model's configuration rate. Used by finite-difference tests.
VecX integrate_configuration(const Model& model, const VecX& q, const VecX& v, double dt);

}  // namespace mechdyn::testing
