// The joint model: everything that differs between joint types lives here.
//
// A joint connects a body to its parent. In the natural reference system
// (explicit-canonical-dynamics-joint-friction §2.1) the body frame is parallel to
// its parent's at q = 0; the joint's axis-invariant n (eq. 1–2) is the same vector
// in both frames and in the world at q = 0. The body frame origin lies on the axis,
// at `origin` (r^{l̄}_{l0}) from the parent's frame origin.
//
// Generalisation of the papers' R/P joints (docs/joints.md): a joint with k
// velocity coordinates has k spatial motion axes (a 6 x k block S, world frame, at
// the world origin); a revolute axis is [n; o × n], a prismatic one [0; n].
//
// Layout (docs/joints.md §5): `JointType` is what a model file names; `JointKind` is the
// specialisation finalize_model chooses once from the type and the axis (a revolute or
// prismatic joint about ±e_x, ±e_y, ±e_z gets its own kind). Each kind is one file,
// src/model/joint_kinds/<kind>.hpp, holding all of its code: relative pose, motion
// subspace S in body and world coordinates, S q̇ and Ṡ q̇, q ⊕ dv, q1 ⊖ q0, neutral
// configuration, configuration rate, normalisation, coordinate names and the split of a
// reaction for friction. The algorithms dispatch on the kind once per body
// (src/model/joint_dispatch.hpp) and never branch on the joint type. The functions below
// are the kinds' code behind one switch, for callers outside the hot loops.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

enum class JointType { Revolute, Prismatic, Universal, Spherical, Free, Fixed, Cylindrical };

/// The specialised joint model of a Joint, chosen by finalize_model (joint_kind_of).
/// RevoluteX/Y/Z and PrismaticX/Y/Z: the axis is ±e_x, ±e_y, ±e_z exactly (the sign is
/// joint.axis[k]); Revolute, Prismatic: any other unit axis.
enum class JointKind {
  RevoluteX, RevoluteY, RevoluteZ, Revolute,
  PrismaticX, PrismaticY, PrismaticZ, Prismatic,
  Universal, Spherical, Free, Cylindrical, Fixed  // Fixed stays last (kJointKindCount)
};
inline constexpr int kJointKindCount = static_cast<int>(JointKind::Fixed) + 1;

/// "revolute", "prismatic", ...; the names of model-format.md.
const char* joint_type_name(JointType type);
/// Parses a model-format.md joint type name; std::nullopt when unknown.
std::optional<JointType> joint_type_from_name(const std::string& name);

/// Every type name, "revolute, prismatic, ... or fixed", for messages.
std::string joint_type_names();

/// Number of configuration coordinates (nq) and velocity coordinates (nv) of a type.
int joint_nq(JointType type);
int joint_nv(JointType type);
/// Number of axes a type takes in a model file: 1 (`axis`), 2 (`axes`) or 0.
int joint_axis_count(JointType type);

/// One joint element of a robot file (URDF <joint>, MJCF <joint>) that a mechdyn joint
/// becomes; a JointFormat lists them in order.
struct JointFormatElement {
  const char* type = nullptr;  // the element's type in the format: URDF "revolute", MJCF "hinge", ...
  const char* suffix = "";     // appended to the joint's name when the joint becomes several elements ("/1")
  int axis = -1;               // the axis it carries: 0 joint.axis, 1 joint.second_axis, −1 none
};

/// What the file formats call a joint type and which keys it takes: each kind's `format`
/// (src/model/joint_kinds/*.hpp), read through joint_format by the model-file reader and
/// writer and the URDF and MJCF writers and readers, which never test the type themselves
/// (docs/joints.md, "Adding a joint kind"). An element count of 0 with a refusal: the
/// format cannot express the joint; the writer refuses it in one line with that reason.
struct JointFormat {
  const char* type_name = "unknown";  // model-format.md: "revolute", "prismatic", ...
  int axis_count = 0;                 // model file: 1 `axis`, 2 `axes`, 0 neither
  bool limits = false;                // model file: takes `limits` (one coordinate with a position)
  bool friction = false;              // model file: takes `friction` (a law of one coordinate, EC §3)
  int urdf_count = 0;                 // URDF: the <joint> elements, in order from the parent link;
  JointFormatElement urdf[2] = {};    //   two go through a massless link "<body>/<type_name>".
  const char* urdf_refusal = "";      //   "revolute" is written "continuous" without position limits
  int mjcf_count = 0;                 // MJCF (MuJoCo 2.2.2): the joints of the one <body>, in order;
  JointFormatElement mjcf[2] = {};    //   MuJoCo carries each joint's axis with the ones before it.
  const char* mjcf_refusal = "";      //   "free" is written <freejoint>; none: a welded body
};

/// The format facts of a joint type (the first kind serving it).
const JointFormat& joint_format(JointType type);

/// Name and unit of one coordinate (e.g. {"J1_qw", ""}, {"slider", "m"}); `unit` is the
/// unit of q (configuration names) or of v's base quantity, "rad" or "m" (velocity names).
struct CoordinateName {
  std::string name;
  std::string unit;
};

/// A joint's reaction split into its constraint parts (friction/joint_load_decomposition.hpp).
struct ReactionSplit {
  double constraint_torque = 0.0;  // τ_r (revolute), τ_p (prismatic): torque the joint resists
  double constraint_force = 0.0;   // f_r (revolute), f_p (prismatic): force across the axis
  double axial_load = 0.0;         // f_m (revolute, N), τ_m (prismatic, N·m): load along the axis
};

/// How a world motion axis s of a joint moves with the mechanism, which fixes its rate ṡ
/// (docs/joints.md §3; the velocity-product term Ṡ q̇ is Σ ṡ_k q̇_k):
enum class AxisCarrier {
  Parent,          // fixed in the parent: ṡ = V_λ × s (revolute, prismatic, cylindrical, universal's first)
  Child,           // fixed in the child: ṡ = V × s (universal's second axis)
  WorldDirection,  // [e; o × e], e fixed in the world, o the body origin: ṡ = [0; ȯ × e]
                   // (spherical, where o is fixed in the parent; free's rotations)
  World            // constant (free's translations [0; e])
};

/// Friction parameters of a joint (model-format.md "joint friction"); validated by
/// check_joint_friction (below), used by friction/ (docs/friction.md).
struct FrictionLoad {
  double pin_radius = 0.0;    // R_p (m)
  double bending_arm = 0.0;   // R_b (m)
  double friction_arm = 0.0;  // R_n (m)
};

enum class FrictionModel { CoulombViscous, Stribeck, LuGre, BrownMcPhee };

struct JointFriction {
  FrictionModel model = FrictionModel::CoulombViscous;
  double coulomb = 0.0;            // k_c
  double static_coefficient = 0.0; // k_s
  double viscous = 0.0;            // k_v
  double stribeck_velocity = 0.0;  // v_s (φ̇_s or ṙ_s)
  // LuGre bristle parameters (docs/friction.md); zero when unused.
  double bristle_stiffness = 0.0;  // σ0
  double bristle_damping = 0.0;    // σ1
  std::optional<FrictionLoad> load;
};

/// A model rule, checked by finalize_model (src/model/joint_friction_rules.cpp). Throws ModelError naming `element` (e.g. "model: joint 'J1'") unless the friction
/// parameters are valid for the joint type: finite; k_c, k_v ≥ 0; k_s ≥ k_c and v_s > 0
/// for stribeck, lugre and brown_mcphee; σ0 > 0 and σ1 ≥ 0 for lugre; `load` arms > 0
/// (pin_radius for revolute only); friction on revolute and prismatic joints only.
void check_joint_friction(const JointFriction& friction, JointType type, const std::string& element);

struct JointLimits {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double effort = std::numeric_limits<double>::infinity();
  double velocity = std::numeric_limits<double>::infinity();
};

/// Constant description of one joint. Joint i connects body i to its parent.
struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  JointKind kind = JointKind::Fixed;  // derived by finalize_model from type and axis
  Vec3 axis = Vec3::UnitZ();         // n^{l̄}_l (revolute, prismatic; unit) — eq. (1)
  Vec3 second_axis = Vec3::UnitY();  // universal: axes[1], carried by the first rotation
  Vec3 origin = Vec3::Zero();        // r^{l̄}_{l0}: parent frame origin → body frame origin
  bool actuated = true;
  double armature = 0.0;  // reflected drive inertia (kg m² or kg) on M's diagonal (format 3; one coordinate)
  std::optional<JointFriction> friction;
  std::optional<JointLimits> limits;
  int q_index = 0;  // first configuration coordinate
  int v_index = 0;  // first velocity coordinate
  int nq = 0;
  int nv = 0;
};

// ---------------------------------------------------------------------------
// The joint model for callers outside the hot loops. `q` points at the joint's nq
// coordinates, `v` and `dv` at its nv velocities. `parent_rotation` is the parent's world
// rotation Q^i_λ (identity for ground): spherical and free velocities are world
// components, so their maps between q and v need it.

/// The kind finalize_model stores in joint.kind: from the type, and for revolute and
/// prismatic joints from the (unit) axis.
JointKind joint_kind_of(const Joint& joint);

/// Rotation and translation of the body frame relative to its parent frame
/// (parent coordinates): x_parent = rotation * x_body + translation.
/// Revolute: Q = 1 + ñ sin φ + ñ²(1 − cos φ) (eq. 3); prismatic: r = n r + r_0 (eq. 2).
void joint_relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation);

/// The joint's nv world motion axes s (eq. 1; docs/joints.md §1) at a pose: `rotation` and
/// `origin` are the body's world rotation and frame origin. What forward_kinematics(q)
/// writes into data.motion_axis + v_index.
void joint_world_motion_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3& rotation,
                             const Vec3& origin, Vec6* axes);

/// How the joint's motion axis `column` (0 … nv − 1) moves (AxisCarrier).
AxisCarrier joint_axis_carrier(const Joint& joint, int column);

/// q̇ = dq/dt for the joint's coordinates from its velocities (quaternion rates for
/// spherical and free joints; parent_rotation maps world to the parent's coordinates).
void joint_configuration_rate(const Joint& joint, const double* q, const double* v,
                              const Mat3& parent_rotation, double* q_rate);

/// q ⊕ dv into `out` (may alias q): exact for the Euclidean coordinates, the rotation
/// exp(Q_λᵀ dv_ω) applied to quaternions (spherical, free), Q_λᵀ dv added to a free
/// joint's position.
void joint_integrate(const Joint& joint, const Mat3& parent_rotation, const double* q, const double* dv,
                     double* out);

/// q1 ⊖ q0: the dv (world components where v is) with q0 ⊕ dv = q1; rotations the short
/// way round (|angle| ≤ π).
void joint_difference(const Joint& joint, const Mat3& parent_rotation, const double* q0, const double* q1,
                      double* dv);

/// Writes the neutral configuration (zeros, identity quaternions).
void joint_neutral_configuration(const Joint& joint, double* q);

/// Index of the unit quaternion (w, x, y, z) among the joint's coordinates, −1 when none.
int joint_quaternion_offset(const Joint& joint);

/// Renormalises quaternion coordinates in place; returns the norm before (1 when none).
double joint_normalize(const Joint& joint, double* q);

/// Appends the names of the joint's nq configuration and nv velocity coordinates.
void joint_coordinate_names(const Joint& joint, std::vector<CoordinateName>& configuration,
                            std::vector<CoordinateName>& velocity);

/// Splits the reaction wrench (force f, torque τ about the body origin, world) of the
/// joint into the parts its motion axes cannot take (EC §3.1–3.3); `world_axes` points at
/// the joint's nv world motion axes (data.motion_axis + v_index).
ReactionSplit joint_reaction_split(const Joint& joint, const Vec6* world_axes, const Vec3& force,
                                   const Vec3& torque);

}  // namespace mechdyn
