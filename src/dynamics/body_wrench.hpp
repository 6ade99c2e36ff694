// The Newton–Euler wrench of one rigid body, written once for every algorithm that needs it
// (rnea.cpp, joint_reactions.cpp, parallel/momentum_screw_dynamics.cpp; issue 30).
//
// The rigid-body equation of motion (Featherstone, Rigid Body Dynamics Algorithms, 2008): f = I a + v ×* I v,
// written at the centre of mass c (a vector from the frame origin O, in the frame of the
// velocities): with ω, α the angular velocity and acceleration and v_O, a_O the linear
// velocity and (spatial) acceleration of the point at O,
//   a_c = a_O + α × c + ω × (v_O + ω × c)        acceleration of the centre of mass
//   F   = m (a_c − g)                            Newton, gravity g moved to the left side
//   N_c = J α + ω × J ω                          Euler, J the inertia about c (spin rate)
//   f   = [c × F + N_c; F]                       the wrench about O.
// RNEA folds g into a_0 = −a_g and calls the form without g. Cost: ~2 mat-vec + 4 cross products.
// Always inlined (GCC kept body_wrench out of line in RNEA, 4 % slower on five_axis_tree):
// called once per body in the hot loops; allocates nothing.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn::detail {

/// m a_c = m (a_O + α × c + ω × (v_O + ω × c)), gravity not included.
EIGEN_ALWAYS_INLINE Vec3 body_momentum_rate(double mass, const Vec3& com, const Vec6& velocity, const Vec6& acceleration) {
  const Vec3 omega = velocity.head<3>(), alpha = acceleration.head<3>();
  const Vec3 com_velocity = velocity.tail<3>() + omega.cross(com);  // v_c
  return mass * (acceleration.tail<3>() + alpha.cross(com) + omega.cross(com_velocity));
}

/// f = I a + v ×* I v = [c × F + J α + ω × J ω; F], F = m a_c, into `wrench`: the body's
/// inertia J about its centre of mass `com`; gravity, if any, is in `acceleration` (RNEA's
/// a_0 = −a_g).
EIGEN_ALWAYS_INLINE void body_wrench(double mass, const Vec3& com, const Mat3& inertia, const Vec6& velocity, const Vec6& acceleration,
                        Vec6& wrench) {
  const Vec3 omega = velocity.head<3>();
  const Vec3 force = body_momentum_rate(mass, com, velocity, acceleration);  // F = m a_c
  const Vec3 spin = inertia * omega;                                        // J ω
  wrench.head<3>().noalias() = inertia * acceleration.head<3>();            // J α
  wrench.head<3>() += omega.cross(spin) + com.cross(force);                 // + ω × J ω + c × F
  wrench.tail<3>() = force;
}

/// As above with gravity g on the right-hand side: F = m (a_c − g).
inline Vec6 body_wrench(double mass, const Vec3& com, const Mat3& inertia, const Vec6& velocity, const Vec6& acceleration,
                        const Vec3& gravity) {
  Vec6 with_gravity = acceleration;  // a − [0; g]: RNEA's trick, gravity as an acceleration of the frame
  with_gravity.tail<3>() -= gravity;
  Vec6 wrench;
  body_wrench(mass, com, inertia, velocity, with_gravity, wrench);
  return wrench;
}

/// [c × F + spin_rate; F], F = m (a_c − g): for callers whose N_c = J α + ω × J ω has a
/// cheaper form (an axisymmetric body, an inertia held in another frame).
inline Vec6 body_wrench_from_spin_rate(double mass, const Vec3& com, const Vec6& velocity, const Vec6& acceleration,
                                       const Vec3& gravity, const Vec3& spin_rate) {
  Vec6 with_gravity = acceleration;
  with_gravity.tail<3>() -= gravity;
  const Vec3 force = body_momentum_rate(mass, com, velocity, with_gravity);  // m (a_c − g)
  Vec6 wrench;
  wrench.head<3>() = com.cross(force) + spin_rate;  // c × F + N_c
  wrench.tail<3>() = force;
  return wrench;
}

}  // namespace mechdyn::detail
