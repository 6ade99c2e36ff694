// MJCF (MuJoCo's XML model format) written from a mechdyn Model, so that MuJoCo is
// timed on exactly the numbers mechdyn is timed on (bench/bench_peers.cpp).
//
// Natural frames map one to one onto MuJoCo bodies: every mechdyn body frame is
// parallel to its parent's at q = 0, so a MuJoCo <body> gets pos = joint origin
// r^{l̄}_{l0} and no orientation, its <joint> the axis-invariant n^{l̄}_l (the same
// vector in both frames at q = 0) through the body origin. The inertia is written as
// principal moments (diaginertia) and the quaternion of the principal axes, from the
// eigen-decomposition of J_{lI}: MuJoCo 2.2.2 converts fullinertia through a float-
// precision path accurate to only about 1e-8, the principal form to round-off.
// Contacts are disabled; no geoms, no armature, damping or friction loss.
// Supports revolute, prismatic and fixed joints: their coordinates are MuJoCo's one
// for one (the benchmark models use only these). Spherical and free joints would need
// quaternion and position conventions mapped; universal joints a massless
// intermediate body. Neither is written.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

/// The MJCF document of `model`. Throws std::invalid_argument for another joint type
/// or a model with loops.
std::string mjcf_from_model(const Model& model);

/// True when mjcf_from_model can write the model.
bool mjcf_supports(const Model& model);

}  // namespace mechdyn::bench
