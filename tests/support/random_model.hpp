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

/// A random tree with every joint type: random_tree's revolute, prismatic, universal,
/// spherical, fixed and root free joints, plus cylindrical joints, revolute and prismatic
/// joints about coordinate axes (the specialised kinds RevoluteX/Y/Z, PrismaticX/Y/Z) and a
/// free joint inside the tree. `world_axes` false: spherical and free joints become universal
/// ones, so that every coordinate takes rnea_derivatives' fast form (rigidly carried axes
/// only); true: the bodies above a spherical or free joint take the general form.
Model tree_with_every_joint_type(unsigned seed, int bodies, bool world_axes = true);

/// dq/dt of the configuration moving with velocity v, the joint model's configuration rate
/// (quaternions: ½ q ⊗ (0, ω in the joint's parent frame)); the tangent direction of q ⊕ ε v
/// at ε = 0. No renormalisation.
VecX configuration_rate(const Model& model, const VecX& q, const VecX& v);

/// q advanced by dt along velocity v (first order, quaternions renormalised);
/// with the joint model's configuration rate. Used by finite-difference tests.
VecX integrate_configuration(const Model& model, const VecX& q, const VecX& v, double dt);

}  // namespace mechdyn::testing
