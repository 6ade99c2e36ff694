// Cut joints: the joints that close kinematic loops (model-format.md "loops"; EC §2.3).
//
// Every fact about one type of cut joint lives in its kind file,
// src/model/cut_joint_kinds/<type>.hpp: its name in a model file, which axis keys it
// takes, its closure rows (residual, unit wrenches → Jacobian, J̇ v: the row families of
// constraints/loop_rows.hpp), the relative motions it allows, how its reaction splits
// into the loads friction reads, its row labels and what MJCF calls it. The functions
// below and the algorithms (through visit_cut_joint_kind, src/model/cut_joint_dispatch.hpp)
// ask the kind; docs/joints.md, "Adding a cut-joint kind", lists the files a new type touches.
#pragma once

#include <optional>
#include <string>

#include "mechdyn/math/types.hpp"
#include "mechdyn/model/body_point.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn {

enum class LoopType { Revolute, Prismatic, Universal, Spherical, Fixed, PlanarRevolute };
inline constexpr int kLoopTypeCount = static_cast<int>(LoopType::PlanarRevolute) + 1;

/// A cut joint closing a kinematic loop (model-format.md "loops"). Closure equations:
/// constraints/loop_closure.hpp; constrained dynamics: constraints/ (docs/closed-chains.md).
/// A universal cut carries `axis` on body a and `second_axis` on body b (docs/model-file.md).
struct Loop {
  std::string name;
  LoopType type = LoopType::Spherical;
  BodyPoint a;
  BodyPoint b;
  Vec3 axis = Vec3::UnitZ();         // revolute, prismatic, planar-revolute; universal: on a (world at q = 0)
  Vec3 second_axis = Vec3::UnitY();  // universal: on b
};

/// Which axis keys a cut joint takes in a model file.
enum class CutAxisKeys {
  None,          // spherical, fixed: neither `axis` nor `axes`
  Axis,          // revolute, prismatic: `axis` required
  OptionalAxis,  // planar-revolute: `axis`, the plane normal, default z
  Axes           // universal: `axes: [n1 (on a), n2 (on b)]` required
};

/// How MuJoCo 2.2.2's equality constraints express a cut joint (io/mjcf_writer.hpp).
enum class MjcfCut {
  Connect,        // one connect: the cut points coincide
  AxisConnects,   // two connects: the cut point and a point on the axis
  PlanarConnect,  // one connect shifted along the plane normal (planar motion only)
  Weld,           // a weld
  None            // not expressible: the writer refuses with a one-line reason
};

/// What a type of cut joint is, read from its kind file.
struct CutJointFacts {
  LoopType type;
  const char* name;               // model-format.md's `type`
  int rows;                       // closure equations (loop_rows)
  int freedoms;                   // relative motions the closed cut allows: 6 − rows
  CutAxisKeys axis_keys;          // the model file's keys
  bool planar_only;               // closes a loop of a planar mechanism only (planar-revolute)
  const char* const* row_labels;  // `rows` short labels, in row order (docs/closed-chains.md)
  MjcfCut mjcf;
};

/// The facts of a type (one table built from the kinds).
const CutJointFacts& cut_joint_facts(LoopType type);
const char* loop_type_name(LoopType type);
/// Number of scalar closure equations of a cut joint: spherical 3, revolute 5,
/// prismatic 5, universal 4, fixed 6, planar-revolute 2.
int loop_rows(LoopType type);
std::optional<LoopType> loop_type_from_name(const std::string& name);
/// "revolute, prismatic, universal, spherical, fixed or planar-revolute" (for messages).
std::string loop_type_names();

/// Which body carries a freedom's direction when the cut is closed.
enum class CutCarrier { A, B, Both, World };

/// One relative motion a closed cut joint allows: a rotation about, or a translation
/// along, a world direction through the cut point.
struct CutFreedom {
  bool rotation = true;
  Vec3 direction = Vec3::UnitZ();
  CutCarrier carrier = CutCarrier::World;
};

/// The cut's freedoms (cut_joint_facts(type).freedoms of them, at most 4) at the bodies'
/// rotations Q_a, Q_b (world); `out` needs room for 4. Returns their number.
int cut_joint_freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b, CutFreedom* out);

/// The cut reaction (force f and torque τ on body a about the cut point, world) split as
/// a tree joint of the same name splits its reaction (joint.hpp, EC eqs. 36–46): the
/// torque and force the joint resists across its axis and the load along it.
ReactionSplit cut_joint_reaction_split(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b,
                                       const Vec3& force, const Vec3& torque);

}  // namespace mechdyn
