// The limbs of a parallel manipulator: the constant description that the momentum-screw
// method and the screw-form limb kinematics read (Model/Data split: built once, never
// written by an algorithm).
//
// Source: momentum-screw-schoenflies-2UPS-2UPU §3 (a limb: the serial chain of joints from
// the base to the moving platform, its twist ξ_i, its constraint wrench) and
// screw-kinematics-3UPS-UPU-S §2–3 (the unit screw matrix S_K of each chain, eqs. 16–20).
// Recognised in any model written as a tree with cut joints (model-format.md):
//  - the platform group: the prescribed body and every body welded to it by fixed joints
//    (one rigid body; a model needs a weld when the platform's frame origin is not on the
//    joint that carries it, as in examples/models/schoenflies_2ups_2upu.yaml);
//  - the tree limb: the chain from the ground to the group's tree joint (empty when the
//    group hangs on the ground directly, e.g. the central spherical joint of 3UPS-UPU-S);
//  - every other limb: a serial chain of bodies from the ground, closed on the platform
//    group by one cut joint from its last body.
// Each limb's freedoms are the motion axes of its tree joints and of its platform joint
// (tree or cut), at most 6 of them; joint types R, P, U, S, fixed (cut joints: R, P, U, S,
// fixed). Anything else (a branch, a loop between limbs, a body hanging on the platform
// by a moving joint, more than 6 freedoms in a limb) throws ModelError naming the element.
// Cost O(n + loops). Allocates (it is built once).
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// How a freedom's unit screw moves (for its time derivative, the Lie-bracket term of
/// screw-kinematics-3UPS-UPU-S eqs. 37–44).
enum class ScrewCarrier {
  Proximal,       // fixed in the body before the joint: ṡ = [V_proximal, s]
  Distal,         // fixed in the body after the joint (a universal joint's second axis): ṡ = [V_distal, s]
  WorldDirection  // a fixed world direction through a point of the proximal body (spherical
                  // joints, whose velocities are world angular-velocity components): ṡ = (0; ṗ × e)
};

/// One joint of a limb, proximal (ground side) to distal (platform side).
struct LimbJointScrews {
  bool cut = false;            // false: the tree joint of body `index`; true: the cut joint (loop) `index`
  int index = -1;
  int freedoms = 0;            // number of unit screws (velocity coordinates for a tree joint)
  int first_freedom = 0;       // column of the first in the limb's freedom matrix
  int v_index = -1;            // tree joints: the model's first velocity index of the joint
  bool actuated = false;       // tree joints: actuated (every coordinate of it)
  bool platform_is_a = false;  // cut joints: the platform group holds the loop's body a
  int limb_end_body = -1;      // cut joints: the limb body on the other side
};

/// How a straight leg meets the platform (parallel/straight_leg.hpp).
enum class LegEnd {
  Other,      // a revolute, prismatic or fixed cut joint: the general screw-form path
  Spherical,  // a spherical joint, cut or the platform group's tree joint
  Universal   // a universal joint: one axis fixed in the leg's upper body, the other in the platform
};

/// A limb whose positions have a closed form: a universal joint at the ground, a prismatic
/// joint, and the platform joint at a point on the prismatic axis (U–P–S, U–P–U legs with
/// a straight leg: the paper's inverse displacement, momentum-screw eqs. 15–19). All
/// constants of the closed forms (limb_positions.hpp, straight_leg.hpp), computed once.
struct StraightLeg {
  bool applies = false;
  int lower = -1, upper = -1;          // bodies of the universal and the prismatic joint
  double offset = 0.0;                 // s₀ = d·(o + c): end point along d at prismatic q = 0 (m)
  Vec3 end_point = Vec3::Zero();       // c: platform-joint point on `upper` (upper frame)
  double end_along = 0.0;              // d·c: s_i = e·(upper origin − A_i) + d·c
  Vec3 platform_point = Vec3::Zero();  // the same point C_i in the prescribed body's frame (eq. 15: r_{O_M C_i})
  Vec3 base_point = Vec3::Zero();      // A_i: the universal joint's centre (world)
  Vec3 first_axis = Vec3::UnitZ();     // n₁: the universal joint's first axis (world, fixed)
  Vec3 second_axis = Vec3::UnitY();    // n₂: its second axis (lower-body frame)
  Vec3 slide_axis = Vec3::UnitX();     // d: the prismatic axis (lower-body frame)
  double first_second = 0.0;           // n₁·n₂ = n₁·n₂' at every pose
  double second_slide = 0.0;           // n₂·d = n₂'·e at every pose (a rotation about n₂ keeps it)
  Vec3 first_cross_second = Vec3::UnitX();  // n₁ × n₂
  Vec3 second_cross_slide = Vec3::UnitX();  // n₂ × d
  Mat3 frame_inverse = Mat3::Identity();  // [n₂, d, n₂ × d]⁻¹: R_leg = [n₂', e, n₂' × e] · this
  Vec3 base_moment = Vec3::Zero();     // A_i × n₁: the moment part of the universal joint's first screw
  // Slender leg parts (the paper's limbs, MS §3.3 and Table 1): both centres of mass on the leg
  // axis and both inertias symmetric about it, J = a 1 + (b − a) e eᵀ. The positions and loads
  // then need no rotation of a body vector (straight_leg.hpp).
  bool slender = false;
  double lower_com_along = 0.0;        // σ_l: the lower part's centre of mass at A_i + σ_l e
  double upper_com_along = 0.0;        // σ_u − q_P: the upper part's at A_i + (σ_u + q_P) e
  double lower_inertia_across = 0.0, lower_inertia_along = 0.0;  // a, b of the lower part (kg m²)
  double upper_inertia_across = 0.0, upper_inertia_along = 0.0;  // a, b of the upper part
  // Closed-form rates, accelerations and forces (straight_leg.hpp): the leg ends in a
  // spherical or universal joint and no joint of it but the prismatic one is actuated.
  bool closed_form_motion = false;
  LegEnd end = LegEnd::Other;
  int end_member = -1;                 // the platform-group body that holds the platform joint
  Vec3 end_leg_axis = Vec3::Zero();    // universal end: its axis fixed in `upper` (upper frame)
  bool end_axis_is_second = false;     // … which is the base joint's second axis n₂ (n₂' in the world)
  Vec3 end_platform_axis = Vec3::Zero();  // universal end: its axis fixed in the platform (platform frame)
};

struct Limb {
  std::string name;                 // the name of its first joint
  std::vector<int> bodies;          // tree bodies from the ground down, platform group excluded
  std::vector<LimbJointScrews> joints;    // joints of those bodies, then the joint to the platform group
  int freedoms = 0;                 // k_i: columns of the limb's freedom matrix S_i (≤ 6)
  std::vector<int> actuated_columns;  // columns of S_i that are actuated
  std::vector<int> actuated_dofs;     // their model velocity indices
  StraightLeg leg;                  // closed-form positions, when the limb has that shape
};

struct ParallelModel {
  int body = -1;                       // the prescribed body (the platform)
  int group_root = -1;                 // the group member whose joint is not fixed
  std::vector<int> platform_bodies;    // the platform group (body order)
  std::vector<Vec3> group_offset;      // per group member: its frame origin from `body`'s, `body`'s frame
  std::vector<Limb> limbs;             // the tree limb first
  std::vector<int> actuated_dofs;      // every actuated velocity index, coordinate order
  std::vector<int> loop_limb;          // per loop: its limb
  Vec3 root_perpendicular = Vec3::Zero();  // a universal group joint: (n₁ − n₂ (n₁·n₂))/‖·‖, ⟂ its second axis
  /// True when every limb has closed-form positions (a StraightLeg, or the platform group
  /// on the ground by a spherical or universal joint).
  bool closed_form_positions = false;
};

/// Recognises the limbs of `model` with `body` as the platform (see the file comment).
ParallelModel make_parallel_model(const Model& model, int body);

/// The limb freedom count of a cut joint type (ModelError for types a limb cannot end with).
int cut_joint_freedoms(const Model& model, const Loop& loop);

}  // namespace mechdyn
