// Twists and wrenches as Plücker 6-vectors, their explicit conversions to mechdyn's
// spatial vectors, and the reciprocal product.
//
// Conventions (../shared/spec/parallel-manipulators.md, "Screw conventions"):
//   twist  $ = (ω; v)  ω angular velocity, v the velocity of the body point that passes
//                       through the reference point (the world origin unless a function
//                       says otherwise);
//   wrench $ = (f; m)  f resultant force, m the moment about the reference point;
// both in world coordinates. The line-vector part (ω, f) comes first, the moment part
// (v, m) second — the order of screw-kinematics-3UPS-UPU-S §2.1 eqs. (1)–(2), where
// $ = [e; r × e] for a unit screw through r, and of momentum-screw-schoenflies §2 eq. (9).
//
// mechdyn's older spatial vectors (math/spatial.hpp, Data) keep their own order:
// motion [ω; v_O] (the same as a twist) and force [m_O; f] (the REVERSE of a wrench).
// Convert only through the named functions below (from_motion_vector / motion_vector,
// from_spatial_force / spatial_force); never copy a Vec6 across.
//
// Reciprocal product (paper eq. 8, S^T ℵ $_r with ℵ = [0 1; 1 0]):
//   ⟨$₁, $₂⟩ = top₁ · bottom₂ + bottom₁ · top₂;  for a twist and a wrench ω·m + v·f,
// the power of the wrench on the twist; it does not depend on the reference point.
// Every function here is inline, works on fixed-size vectors and allocates nothing.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// A twist (ω; v) in Plücker coordinates (see the file comment for the convention).
struct Twist {
  Vec6 plucker = Vec6::Zero();  // (ω; v_O): rad/s, m/s

  Twist() = default;
  explicit Twist(const Vec6& coordinates) : plucker(coordinates) {}
  Twist(const Vec3& angular_velocity, const Vec3& linear_velocity) {
    plucker << angular_velocity, linear_velocity;
  }

  Vec3 angular() const { return plucker.head<3>(); }  // ω
  Vec3 linear() const { return plucker.tail<3>(); }   // v at the reference point

  /// Rotation with angular velocity ω about the line through `point_on_axis`: (ω; r × ω)
  /// (paper eq. 1). With a unit ω this is the unit screw of a revolute joint.
  static Twist rotation(const Vec3& angular_velocity, const Vec3& point_on_axis) {
    return Twist(angular_velocity, point_on_axis.cross(angular_velocity));
  }
  /// Pure translation with velocity v: (0; v), the screw of pitch ∞ of a prismatic joint.
  static Twist translation(const Vec3& velocity) { return Twist(Vec3::Zero(), velocity); }
  /// Screw motion: rotation ω about the line through r plus translation h ω along it,
  /// (ω; r × ω + h ω); `pitch` h in m/rad.
  static Twist screw_motion(const Vec3& angular_velocity, const Vec3& point_on_axis, double pitch) {
    return Twist(angular_velocity, point_on_axis.cross(angular_velocity) + pitch * angular_velocity);
  }

  /// From a mechdyn spatial motion vector [ω; v_O] (math/spatial.hpp, Data::velocity,
  /// Data::motion_axis): the same order, copied as is.
  static Twist from_motion_vector(const Vec6& motion) { return Twist(motion); }
  /// To a mechdyn spatial motion vector [ω; v_O]: the same order.
  Vec6 motion_vector() const { return plucker; }

  /// Velocity of the body point at `point` (same frame and reference): v + ω × p.
  Vec3 velocity_at(const Vec3& point) const { return linear() + angular().cross(point); }

  Twist operator+(const Twist& other) const { return Twist(Vec6(plucker + other.plucker)); }
  Twist operator-(const Twist& other) const { return Twist(Vec6(plucker - other.plucker)); }
  Twist operator-() const { return Twist(Vec6(-plucker)); }
  Twist operator*(double scale) const { return Twist(Vec6(scale * plucker)); }
};

/// A wrench (f; m) in Plücker coordinates (see the file comment for the convention).
struct Wrench {
  Vec6 plucker = Vec6::Zero();  // (f; m_O): N, N·m

  Wrench() = default;
  explicit Wrench(const Vec6& coordinates) : plucker(coordinates) {}
  Wrench(const Vec3& force, const Vec3& moment) { plucker << force, moment; }

  Vec3 force() const { return plucker.head<3>(); }   // f
  Vec3 moment() const { return plucker.tail<3>(); }  // m about the reference point

  /// Force f acting along the line through `point`: (f; r × f) (momentum-screw eq. 9).
  static Wrench force_through(const Vec3& force, const Vec3& point) { return Wrench(force, point.cross(force)); }
  /// Pure couple m: (0; m), a wrench of pitch ∞.
  static Wrench couple(const Vec3& moment) { return Wrench(Vec3::Zero(), moment); }
  /// Force f along the line through r plus the couple h f along it: (f; r × f + h f).
  static Wrench screw_load(const Vec3& force, const Vec3& point_on_axis, double pitch) {
    return Wrench(force, point_on_axis.cross(force) + pitch * force);
  }

  /// From a mechdyn spatial force vector [m_O; f] (math/spatial.hpp, Data::cut_wrench_a,
  /// Data::loop_row_wrench_a, Data::subtree_force): the halves are SWAPPED.
  static Wrench from_spatial_force(const Vec6& moment_force) {
    return Wrench(Vec3(moment_force.tail<3>()), Vec3(moment_force.head<3>()));
  }
  /// To a mechdyn spatial force vector [m_O; f]: the halves are SWAPPED.
  Vec6 spatial_force() const {
    Vec6 out;
    out << moment(), force();
    return out;
  }

  /// Moment about `point` (same frame and reference): m − p × f.
  Vec3 moment_about(const Vec3& point) const { return moment() - point.cross(force()); }

  Wrench operator+(const Wrench& other) const { return Wrench(Vec6(plucker + other.plucker)); }
  Wrench operator-(const Wrench& other) const { return Wrench(Vec6(plucker - other.plucker)); }
  Wrench operator-() const { return Wrench(Vec6(-plucker)); }
  Wrench operator*(double scale) const { return Wrench(Vec6(scale * plucker)); }
};

/// The reciprocal product of two screws in Plücker coordinates (line part first):
/// a_top · b_bottom + a_bottom · b_top = aᵀ ℵ b (screw-kinematics eq. 8). Symmetric.
inline double reciprocal_product(const Vec6& a, const Vec6& b) {
  return a.head<3>().dot(b.tail<3>()) + a.tail<3>().dot(b.head<3>());
}

/// Power of a wrench on a twist, ω·m + v·f (W): zero when they are reciprocal.
inline double reciprocal_product(const Twist& twist, const Wrench& wrench) {
  return reciprocal_product(twist.plucker, wrench.plucker);
}
inline double reciprocal_product(const Wrench& wrench, const Twist& twist) {
  return reciprocal_product(twist.plucker, wrench.plucker);
}

}  // namespace mechdyn
