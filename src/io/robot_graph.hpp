// The common ground of the robot-description readers (URDF, SDFormat, MJCF): a graph of
// links, tree joints and loop joints with every quantity in WORLD coordinates at the
// file's reference configuration (q = 0), and the one function that turns it into a
// mechdyn Model in natural frames (../shared/spec/model-format.md).
//
// Each reader resolves its own format's frame rules (URDF joint chains, SDFormat
// relative_to poses, MJCF nested bodies) into world poses at q = 0; from there the
// mapping is the same for all three and lives in build_model (robot_graph.cpp):
//   body frame origin  = the joint's anchor (a point on its axis, world)
//   joint.origin       = anchor − the parent body's anchor           (r^{l̄}_{l0})
//   body.com           = world centre of mass − anchor               (r^{l}_{lI})
//   body.inertia       = R J Rᵀ: the tensor about the centre of mass in world axes
//   joint.axis         = the joint axis in world directions at q = 0 (n^{l̄}_l)
// because every natural body frame is parallel to the world at q = 0. The real-world
// quirks that are the same in every format (triangle inequality, massless leaves, zero
// mass with inertia, fixed-joint merging, names) are handled there too; see
// docs/robot-files.md for every rule and its warning.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::io {

/// Warnings collected while reading: one line each, "<source>: <element>: <what was done>".
class Warnings {
 public:
  Warnings(std::string source, std::vector<std::string>* sink) : source_(std::move(source)), sink_(sink) {}
  void add(const std::string& element, const std::string& text, int line = 0) const;
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::vector<std::string>* sink_;
};

/// "<source>: <element>: <problem> (line N)" as a ModelError.
[[noreturn]] void fail_at(const std::string& source, const std::string& element, const std::string& problem,
                          int line = 0);

/// A rigid link at the reference configuration, world coordinates.
struct GraphLink {
  std::string name;
  std::string element;           // how messages name it: "link 'x'", "body 'x'"
  int line = 0;                  // line in the file, 0 when unknown
  Vec3 frame_origin = Vec3::Zero();  // the link frame's origin (markers keep it when a link is merged or dropped)
  double mass = 0.0;
  Vec3 com = Vec3::Zero();       // world position of the centre of mass
  Mat3 inertia = Mat3::Zero();   // about the centre of mass, world axes
};

/// A joint of the spanning tree: `child` hangs from `parent` (a link, or kGround).
struct GraphJoint {
  std::string name;
  std::string element;
  int line = 0;
  JointType type = JointType::Fixed;
  int parent = kGround;
  int child = 0;
  Vec3 anchor = Vec3::Zero();        // world point on the axis: the child's body frame origin
  Vec3 axis = Vec3::UnitZ();         // world direction (revolute, prismatic, universal's first)
  Vec3 second_axis = Vec3::UnitY();  // universal: the second axis, world direction at q = 0
  bool actuated = true;
  std::optional<JointFriction> friction;
  std::optional<JointLimits> limits;
  double armature = 0.0;  // Joint::armature (MJCF armature)
};

/// A joint that closes a loop (a cut joint, model.hpp Loop): body `a` to body `b`.
struct GraphLoop {
  std::string name;
  std::string element;
  int line = 0;
  LoopType type = LoopType::Spherical;
  int a = 0;             // a link (never ground)
  int b = kGround;       // a link or kGround
  Vec3 point = Vec3::Zero();          // world point where the cut joint sits at q = 0 (on a)
  std::optional<Vec3> point_b;        // the point on b, world at q = 0, when it is not `point`
                                      //   (a file whose loops close at another configuration)
  Vec3 axis = Vec3::UnitZ();          // world direction (revolute, prismatic, universal's first: on a)
  Vec3 second_axis = Vec3::UnitY();   // universal: on b
};

/// A named frame kept as a marker: `link` (or kGround) and a world point.
struct GraphMarker {
  std::string name;
  int link = kGround;
  Vec3 point = Vec3::Zero();
};

/// A force element of the file (model/force_elements.hpp): a joint element's `joint` is a
/// graph joint index; a point element's a.body, b.body are graph links (or kGround) and its
/// points WORLD points at q = 0 (build_model makes them body-fixed).
struct GraphForce {
  ForceElement force;
  std::string element;  // how messages name its source: "joint 'j' <dynamics>", "tendon 't'"
  int line = 0;
};

/// A gear coupling of the file: `coupling.a`, `coupling.b` are graph joint indices.
struct GraphCoupling {
  Coupling coupling;
  std::string element;
  int line = 0;
};

struct RobotGraph {
  std::string name;
  Vec3 gravity{0.0, 0.0, -9.81};
  std::vector<GraphLink> links;
  std::vector<GraphJoint> joints;  // every link is the child of exactly one joint
  std::vector<GraphLoop> loops;
  std::vector<GraphMarker> markers;
  std::vector<GraphForce> forces;
  std::vector<GraphCoupling> couplings;
};

struct BuildOptions {
  bool merge_fixed_joints = false;  // weld fixed-joint children into their parents
  /// Add a joint-stop "<joint>_stop" at the position limits of every joint of one
  /// coordinate that has them (ImportOptions::limit_stops), unless the file gave one.
  std::optional<LimitStops> limit_stops;
};

/// The first name from `base`, `base_`, `base__`, ... that is not in `taken` (which then holds it).
std::string unique_name(const std::string& base, std::set<std::string>& taken);

/// Turns the graph into a finalised Model in natural frames. Bodies come in depth-first
/// order from ground, children in the order of their joints in `graph.joints` (the order
/// MuJoCo's URDF import and Pinocchio use). Throws ModelError naming the element.
Model build_model(RobotGraph graph, const BuildOptions& options, const Warnings& warnings);

/// Restores the triangle inequality of a symmetric positive semi-definite inertia by the
/// smallest change in the Frobenius norm (the Euclidean projection of its principal
/// moments onto {I1 + I2 ≥ I3}): with δ = I3 − I1 − I2 > 0 the moments become
/// I1 + δ/3, I2 + δ/3, I3 − δ/3 (trace kept, principal axes kept). Returns δ (0: nothing
/// was changed; δ ≤ 1e-13 of the trace is round-off and left alone). `inertia` is replaced by the repaired tensor.
double repair_triangle_inequality(Mat3& inertia);

/// Rotation matrix of a unit quaternion (w, x, y, z) and of roll-pitch-yaw angles
/// (URDF and SDFormat: R = Rz(yaw) Ry(pitch) Rx(roll)).
Mat3 rotation_from_rpy(const Vec3& rpy);

/// `value` with components below 1e-15 of its norm set to zero (round-off from rotating
/// a coordinate axis by π/2: cos(π/2) = 6e-17), renormalised. For axes only.
Vec3 clean_direction(const Vec3& value);

}  // namespace mechdyn::io
