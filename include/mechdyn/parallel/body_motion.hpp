// A prescribed motion of one body and external wrenches on bodies: the inputs of inverse
// kinematics and inverse dynamics along a body motion (docs/parallel-manipulators.md).
//
// Two kinds of prescription (../shared/spec/parallel-manipulators.md, "Prescribed motion"):
//  - the whole motion (BodyMotionSample, the contract's CSV row): the pose of the body frame
//    (origin position, orientation body → world), the origin's velocity and acceleration,
//    the body's angular velocity and angular acceleration; world coordinates, SI units;
//  - some components of the body's motion (TwistPrescription): any subset of
//    (ω_x, ω_y, ω_z, v_x, v_y, v_z) — angular velocity and velocity of the body frame
//    origin, world coordinates — as functions of time with their time derivatives; the
//    other components follow from the loop closure, and the pose from integration
//    (screw-kinematics-3UPS-UPU-S §6.1 prescribes ω_x and ω_y only).
// Conventions of the contract: a twist is (ω; v) about the world origin, a wrench (f; m)
// about the world origin; mechdyn's spatial forces inside Data are [m; f] (math/spatial.hpp).
#pragma once

#include <array>
#include <functional>
#include <string>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// One row of the prescribed-motion CSV: the motion of a body frame at one time.
struct BodyMotionSample {
  double time = 0.0;                         // t (s)
  Vec3 position = Vec3::Zero();              // p: body frame origin (m)
  Quat orientation = Quat::Identity();       // body → world, unit
  Vec3 velocity = Vec3::Zero();              // ṗ: velocity of the body frame origin (m/s)
  Vec3 angular_velocity = Vec3::Zero();      // ω (rad/s)
  Vec3 acceleration = Vec3::Zero();          // p̈ (m/s²)
  Vec3 angular_acceleration = Vec3::Zero();  // ω̇ (rad/s²)
};

/// Throws InvalidArgument naming `where` and the time unless every number is finite and the
/// quaternion has norm 1 within 1e-6 (then renormalises it).
void check_body_motion_sample(BodyMotionSample& sample, const std::string& where);

/// Components of a body twist, in the order of TwistPrescription::components.
enum TwistComponent { kOmegaX = 0, kOmegaY, kOmegaZ, kVelocityX, kVelocityY, kVelocityZ };
const char* twist_component_name(int component);  // "wx", "wy", "wz", "vx", "vy", "vz"

/// Some components of a body's twist (ω; ṗ) as functions of time.
struct TwistPrescription {
  std::array<bool, 6> components{};  // which of (ω_x, ω_y, ω_z, v_x, v_y, v_z) are prescribed
  /// values (ω; ṗ) and rates (ω̇; p̈) at time t; only the prescribed entries are read.
  /// Must not allocate (it is called on the evaluation path).
  std::function<void(double t, Vec6& values, Vec6& rates)> evaluate;
  int count() const {
    int n = 0;
    for (bool c : components) n += c ? 1 : 0;
    return n;
  }
};

/// An external wrench acting ON a body: force `force` through the body point `point`
/// (from the body frame origin, body frame; default the origin) and a couple `moment`;
/// force and moment in world coordinates (fixed directions), N and N·m.
struct ExternalWrench {
  int body = -1;
  Vec3 force = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
  Vec3 point = Vec3::Zero();
};

}  // namespace mechdyn
