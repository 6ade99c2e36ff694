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
#pragma once

#include <limits>
#include <optional>
#include <string>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

enum class JointType { Revolute, Prismatic, Universal, Spherical, Free, Fixed };

/// "revolute", "prismatic", ...; the names of model-format.md.
const char* joint_type_name(JointType type);
/// Parses a model-format.md joint type name; std::nullopt when unknown.
std::optional<JointType> joint_type_from_name(const std::string& name);

/// Number of configuration coordinates (nq) and velocity coordinates (nv) of a type.
int joint_nq(JointType type);
int joint_nv(JointType type);

/// Friction parameters of a joint (model-format.md "joint friction"); validated by
/// check_joint_friction, used by friction/ (docs/friction.md).
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
  Vec3 axis = Vec3::UnitZ();         // n^{l̄}_l (revolute, prismatic; unit) — eq. (1)
  Vec3 second_axis = Vec3::UnitY();  // universal: axes[1], carried by the first rotation
  Vec3 origin = Vec3::Zero();        // r^{l̄}_{l0}: parent frame origin → body frame origin
  bool actuated = true;
  std::optional<JointFriction> friction;
  std::optional<JointLimits> limits;
  int q_index = 0;  // first configuration coordinate
  int v_index = 0;  // first velocity coordinate
  int nq = 0;
  int nv = 0;
};

// ---------------------------------------------------------------------------
// Joint-type-specific kinematics. `q` points at the joint's nq coordinates,
// `v` at its nv velocities.

/// Rotation and translation of the body frame relative to its parent frame
/// (parent coordinates): x_parent = rotation * x_body + translation.
/// Revolute: Q = 1 + ñ sin φ + ñ²(1 − cos φ) (eq. 3); prismatic: r = n r + r_0 (eq. 2).
void joint_relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation);

/// World motion axes S (6 x nv, at the world origin) of the joint, given the parent's
/// world rotation, the body's world rotation and the body frame origin in the world.
void joint_motion_axes(const Joint& joint, const double* q, const Mat3& parent_rotation,
                       const Mat3& body_rotation, const Vec3& body_origin, MotionAxes& axes);

/// The velocity-product acceleration Ṡ q̇ of the joint (world, at the world origin),
/// given the parent's spatial velocity, the joint's relative velocity S q̇, and the axes.
Vec6 joint_bias_acceleration(const Joint& joint, const MotionAxes& axes, const double* v,
                             const Vec6& parent_velocity, const Vec6& relative_velocity,
                             const Vec3& body_origin);

/// Motion axes S of the joint in body coordinates at the body frame origin (6 x nv), for
/// the body-frame algorithms (dynamics/rnea.hpp): revolute [n; 0] and prismatic [0; n]
/// (n is invariant under its own rotation), universal [Q₂ᵀ n₁, n₂; 0], spherical
/// [Qᵀ; 0] and free [0, Qᵀ; Qᵀ, 0], Q = `body_rotation` (the body's world rotation; read
/// only by spherical and free joints, whose velocities are world components).
void joint_local_motion_axes(const Joint& joint, const double* q, const Mat3& body_rotation, MotionAxes& axes);

/// Ṡ q̇ of the joint in body coordinates at the body frame origin (the spatial transform
/// of joint_bias_acceleration's world vector), given the parent's velocity in body
/// coordinates (X v_λ), the joint's relative velocity S q̇ and the local axes.
Vec6 joint_local_bias_acceleration(const Joint& joint, const MotionAxes& axes, const double* v,
                                   const Vec6& parent_velocity, const Vec6& relative_velocity);

/// q̇ = dq/dt for the joint's coordinates from its velocities (quaternion rates for
/// spherical and free joints; parent_rotation maps world to the parent's coordinates).
void joint_configuration_rate(const Joint& joint, const double* q, const double* v,
                              const Mat3& parent_rotation, double* q_rate);

/// Writes the neutral configuration (zeros, identity quaternions).
void joint_neutral_configuration(const Joint& joint, double* q);

/// Renormalises quaternion coordinates in place; returns the norm before (1 when none).
double joint_normalize(const Joint& joint, double* q);

}  // namespace mechdyn
