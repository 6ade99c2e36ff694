// Inverse kinematics of a closed chain along a prescribed motion of one body: the
// coordinates, velocities and accelerations of every joint (the general method, for any
// model with loops; parallel/limb_kinematics.hpp is the screw-form method of parallel
// manipulators, tested against this one).
//
// Equations. With Φ(q) the loop closure (constraints/loop_closure.hpp, EC eq. 24) and the
// body's pose (p, R) from the tree's forward kinematics:
//   positions      Φ(q) = 0,  p(q) − p* = 0,  e(R(q), R*) = ½ Σᵢ (R eᵢ) × (R* eᵢ) = 0
//   velocities     K v = [0; ω*; ṗ*]            K = [J; J_body]  (J_body: rows ω and ṗ of
//                                                the body Jacobian, kinematics/jacobians.hpp)
//   accelerations  K a = [−J̇v; ω̇* − α₀; p̈* − p̈₀]   (J̇v, α₀, p̈₀: the closure and body
//                                                accelerations at a = 0, exact, loop_acceleration.hpp)
// Positions: Newton's method on all coordinates with minimum-norm steps K Δ = −r (K of the
// position rows, ė = A ω with A = ½ Σ b̃ᵢ ãᵢ), backtracking on ‖r‖², from the caller's q
// (the previous sample: warm start). Every solve uses the one-sided Jacobi SVD of K
// (constraints/jacobi_svd.hpp), so redundant closure rows — over-constrained mechanisms —
// are handled; K must have full column rank nv (every joint determined by the body's
// motion).
// Partial prescription (TwistPrescription): the rows of J_body for the prescribed twist
// components only; positions are integrated (advance_twist_motion: classical RK4 on the
// coordinates, quaternion rates by joint_configuration_rate, then projection onto Φ = 0 by
// constraints/drift_control.hpp), velocities and accelerations solved as above.
// Failures (one message, without the time; the caller adds it): InvalidArgument when the
// motion is infeasible — Newton stalls at a residual > 0 (the motion violates the loop
// closure), the velocity or acceleration equations are incompatible, or K loses column
// rank (a singular configuration: the body's motion does not determine the joints');
// SolverError when Newton does not converge in max_iterations.
// Cost per sample O((rows + 6) nv² · sweeps) for the SVD. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/body_motion.hpp"

namespace mechdyn {

struct PrescribedMotionOptions {
  double tolerance = 1e-12;               // ‖r‖∞ of the positions (m, rad)
  int max_iterations = 50;                // Newton iterations per sample
  double rank_tolerance = 1e-9;           // singular values of K relative to the largest
  double compatibility_tolerance = 1e-8;  // relative residual allowed in the velocity and acceleration equations
};

/// Scratch of the general prescribed-motion kinematics, sized for one model and body.
struct PrescribedMotionWorkspace {
  PrescribedMotionWorkspace() = default;
  PrescribedMotionWorkspace(const Model& model, int body);

  int body = -1;
  MatX system;            // K: (rows + 6) × nv
  VecX residual;          // r
  VecX right_hand_side;   // rows + 6
  VecX step;              // nv
  VecX trial;             // nq
  MatX body_jacobian;     // 6 × nv
  JacobiSvd svd;          // of K
  // RK4 of advance_twist_motion
  VecX stage_q, stage_v, rate_sum, q_rate;  // nq, nv, nq, nq
  Vec6 values = Vec6::Zero(), rates = Vec6::Zero();
  int iterations = 0;     // Newton iterations of the last solve_pose
  double closure_residual = 0.0;  // ‖Φ‖∞ at the last solution
};

/// Newton: q ← the configuration with Φ = 0 and the body frame at (position, rotation).
void solve_body_pose(const Model& model, Data& data, PrescribedMotionWorkspace& work, const Vec3& position,
                     const Mat3& rotation, Eigen::Ref<VecX> q, const PrescribedMotionOptions& options = {});

/// Positions (warm start from q), velocities and accelerations of every joint for one
/// sample of the whole motion.
void solve_body_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work, const BodyMotionSample& sample,
                       Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a,
                       const PrescribedMotionOptions& options = {});

/// Velocities and accelerations at the configuration q (already closed) for the prescribed
/// twist components at time t.
void solve_twist_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work,
                        const TwistPrescription& prescription, double t, const Eigen::Ref<const VecX>& q,
                        Eigen::Ref<VecX> v, Eigen::Ref<VecX> a, const PrescribedMotionOptions& options = {});

/// q(t) → q(t + h) under the prescribed twist components (RK4, then projection onto Φ = 0).
void advance_twist_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work,
                          const TwistPrescription& prescription, double t, double h, Eigen::Ref<VecX> q,
                          const PrescribedMotionOptions& options = {});

}  // namespace mechdyn
