// Fixed joint (weld): no coordinates; the body rides on its parent at r_{l0}.
//   relative pose    Q = 1,  r = r_{l0};  S empty, S q̇ = 0, Ṡ q̇ = 0
//   reaction split   all of it is constraint: τ_c = |τ|, f_c = |f|
// Not installed.
#pragma once

#include "common.hpp"

namespace mechdyn::joint_kinds {

struct Fixed : EuclideanCoordinates<0>, IdentityRotation {
  static constexpr JointType type = JointType::Fixed;
  /// What YAML, URDF and MJCF call this joint and need of it (JointFormat, model/joint.hpp).
  static constexpr JointFormat format = {"fixed", 0, false, false,  // MJCF: a body without joints
                                         1, {{"fixed", "", -1}}, "",
                                         0, {}, ""};
  static constexpr bool caller_cosine_sine = false;  // no angle the caller takes ahead
  /// The relative pose as elementary motions from the parent (JointMotion, read by codegen).
  static constexpr JointMotions motions = {0, {}};
  static bool accepts(const Joint&) { return true; }
  static constexpr bool uses_world_rotation = false;
  static constexpr AxisCarrier carrier(int) { return AxisCarrier::World; }  // no columns

  static void coordinate_names(const Joint&, std::vector<CoordinateName>&, std::vector<CoordinateName>&) {}

  static void relative_pose(const Joint& joint, const double*, Mat3& rotation, Vec3& translation) {
    rotation.setIdentity();
    translation = joint.origin;
  }

  static void world_axes(const Joint&, const Mat3&, const Mat3&, const Vec3&, Vec6*) {}

  static void world_motion(const Joint&, const Vec6*, const double*, const Vec6&, const Vec3&, Vec6& joint_velocity,
                           Vec6& joint_bias) {
    joint_velocity.setZero();
    joint_bias.setZero();
  }

  static void body_motion(const Joint&, const double*, const double*, const double*, const Mat3&,
                          const Vec6& parent_velocity, Vec6*, Vec6& velocity, Vec6&) {
    velocity = parent_velocity;
  }

  static void project(const Joint&, const Vec6*, const Vec6&, double*) {}

  static ReactionSplit split_reaction(const Joint&, const Vec6*, const Vec3& force, const Vec3& torque) {
    return {magnitude(torque), magnitude(force), 0.0};
  }
};

}  // namespace mechdyn::joint_kinds
