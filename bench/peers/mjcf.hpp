// MJCF (MuJoCo's XML model format) written from a mechdyn Model, so that MuJoCo is
// timed on exactly the numbers mechdyn is timed on (bench/bench_peers.cpp,
// bench/bench_closed_chains.cpp).
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
//
// Loops (cut joints, model.hpp `Loop`) become <equality><connect> constraints, made as
// hard as MuJoCo 2.2.2 allows (solimp 0.9999, the largest impedance it accepts;
// solref time constant 2 × timestep, the smallest `refsafe` keeps; Newton solver,
// tolerance 1e-12; see mjcf.cpp). A connect makes the two anchor points coincide
// (3 rows, MuJoCo "computation" chapter, equality constraints):
//   spherical        one connect at the cut point (3 rows = mechdyn's 3);
//   revolute         two connects, at the cut point and one axis length ℓ along the
//                    axis (6 rows of rank 5 = mechdyn's 5: the two axial rows coincide);
//   planar-revolute  one connect, when both sides of the loop move in planes normal to
//                    the loop axis (every joint from ground revolute about a parallel
//                    axis, prismatic perpendicular to it, or fixed): then the axial
//                    row is constant and is satisfied by shifting the second anchor by
//                    the constant axial offset of the cut points; the in-plane rows are
//                    mechdyn's 2. A spatial planar-revolute cut would need a constraint
//                    MuJoCo 2.2.2 lacks, and is refused.
// Prismatic, universal and fixed cuts are refused (a weld could express a fixed cut;
// no benchmark model has one, so it is not written untested).
//
// MuJoCo 2.2.2's compiler computes the second anchor of a connect (eq_data[3..5]) from
// the model's reference configuration qpos0 = 0, where mechdyn's cut points need not
// coincide (four_bar.yaml is assembled only away from q = 0). The XML carries the
// first anchor; the caller must copy both anchors of mjcf_connects() into
// mjModel::eq_data (rows [0..2] and [3..5] of the equality named `name`) after loading.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

/// One <equality><connect> written for a loop.
struct MjcfConnect {
  std::string name;   // the equality's name in the MJCF: the loop's name, "/2" added for a revolute cut's second
  int loop = 0;       // index into model.loops
  int body1 = 0;      // mechdyn body of MuJoCo's body1 (never ground)
  int body2 = 0;      // mechdyn body of MuJoCo's body2; kGround: the world
  Vec3 anchor1;       // the point in body1's frame (eq_data[0..2])
  Vec3 anchor2;       // the point in body2's frame (eq_data[3..5]); world frame when body2 is ground
};

/// The MJCF document of `model`. Throws std::invalid_argument for another joint type
/// or a loop type MuJoCo's connect cannot express (see above).
std::string mjcf_from_model(const Model& model);

/// The connects that mjcf_from_model writes for model.loops, in writing order.
/// Throws std::invalid_argument like mjcf_from_model.
std::vector<MjcfConnect> mjcf_connects(const Model& model);

/// True when mjcf_from_model can write the model (joints and loops).
bool mjcf_supports(const Model& model);

}  // namespace mechdyn::bench
