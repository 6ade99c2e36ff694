// The limbs of a parallel mechanism and the constraint screws each limb puts on the platform.
//
// Source: screw-kinematics-3UPS-UPU-S §2.2, eqs. (6)–(12): the joint twists of a limb
// (base to platform) form a screw system S; its reciprocal system (Sᵀ ℵ $_r = 0, eq. 8) is
// the set of wrenches the limb can exert on the platform (the limb's constraint screws);
// the platform's free twists are reciprocal to all of them together (eq. 13).
// Limbs are found in the model's graph (bodies and ground as vertices, tree joints and cut
// joints as edges): removing ground and the platform leaves connected groups of bodies; a
// group joined to both is a limb, and so is a joint between ground and the platform itself.
// A limb is serial when it is a path. The twists of a tree joint are its motion axes
// (Data::motion_axis); those of a cut joint are the reciprocal system of its closure rows'
// unit wrenches (constraints/cut_joint_forces.hpp), so each cut-joint type is read from the
// closure equations, not restated here. Non-serial limbs are listed without constraint
// screws (the span of their joint twists is not the limb's twist space).
// Rank decisions: screw/screw_system.hpp with the mechanism's scale. A diagnostic: allocates.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/data.hpp"
#include "mechdyn/screw/screw_system.hpp"

namespace mechdyn {

/// A joint of a limb: a tree joint (index = its body) or a cut joint (index = model.loops).
struct LimbJoint {
  bool cut = false;
  int index = 0;
};

struct LimbConstraints {
  std::vector<LimbJoint> joints;   // ground → platform for a serial limb; otherwise in model order
  std::vector<std::string> joint_names;
  bool serial = true;
  int freedoms = 0;                // Σ joint freedoms (tree nv; cut joint 6 − rank of its rows)
  int twist_rank = 0;              // rank of the limb's joint twists (serial limbs)
  ScrewBasis constraint_wrenches;  // reciprocal system of the joint twists (canonical; serial limbs)
};

/// Limbs between ground and `platform` at data's kinematics (run loop_closure(q) first;
/// writes data.loop_row_wrench_a/_b). Throws InvalidArgument for a body index out of range.
std::vector<LimbConstraints> limb_constraints(const Model& model, Data& data, int platform, const ScrewScale& scale,
                                              double tolerance = kScrewTolerance);

}  // namespace mechdyn
