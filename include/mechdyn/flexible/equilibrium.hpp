// Static equilibrium and natural frequencies of mechanisms with rigid and flexible bodies
// (`mechdyn static`, `mechdyn modes`; contract ../shared/spec/flexible-bodies.md).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §3.2, eqs. (65)–(67): the linearised
// equations M δq̈ + K δq = 0 about an equilibrium, det(K − ω² M) = 0 — here as a symmetric
// pencil with the constraints eliminated (a null-space basis N of the constraint Jacobian,
// loops and locked actuators): (Nᵀ K N) x = ω² (Nᵀ M N) x. docs/flexible-bodies.md "Statics
// and modes" gives the method, its tolerances and the measured accuracy.
//
// Stiffness: K = −∂(Q + Jᵀ λ)/∂q at the equilibrium (λ held at its equilibrium value), the
// Jacobian of the generalized forces (gravity, elastic with the geometric stiffness of the
// gravity load, the force elements at StaticOptions::time, cut-joint and coupling
// reactions) by central finite differences in the velocity
// coordinates (q ⊕ dv), symmetrised. This is the exact second variation of the potential
// restricted to the constraint manifold (the λ term is its curvature part), to the
// finite-difference accuracy (~1e-9 relative, docs).
// Damping: C = ∂(h − Q − Jᵀλ)/∂v likewise (the dampers, servos' kd, stops in contact, the
// beams' Rayleigh damping; about a moving state also the gyroscopic terms of h), and the
// eigenvalues of the reduced first-order system (ModesResult). Stability of an equilibrium:
// the eigenvalues of the reduced stiffness (StaticResult::stable).
// These are analyses, not per-step evaluations: they allocate.
#pragma once

#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn {

struct StaticOptions {
  double tolerance = 1e-10;   // converged when |Q + Jᵀλ| ≤ tolerance · (1 + |Q_gravity|) and |Φ| ≤ tolerance · (1 + size)
  int max_iterations = 100;
  double step = 1e-6;         // finite-difference step (rad, m) of the tangent stiffness
  double time = 0.0;          // t of the time-dependent force elements (servo targets, applied loads)
  VecX efforts;               // τ: constant generalized efforts added to the forces (nv; empty: none)
};

struct StaticResult {
  VecX q;                      // the equilibrium (nq): joints, then elastic coordinates
  VecX multipliers;            // λ of the cut joints (num_loop_rows)
  VecX held_efforts;           // efforts holding each velocity coordinate that is held (nv; 0 where free)
  std::vector<Vec3> markers;   // every marker's world position at q
  int iterations = 0;
  // Stability: the reduced stiffness K_r = Nᵀ K N on the free, constraint-admissible motions
  // (N an orthonormal null-space basis of [J (loops, couplings); S_held]), K = −∂(Q + Jᵀλ)/∂q
  // symmetrised. stable: K_r positive definite (every eigenvalue above 1e-9 of the largest
  // |eigenvalue|, the finite differences' noise; true when no motion is free).
  bool stable = false;
  VecX stiffness_eigenvalues;  // of K_r, ascending (N m/rad, N/m mixed: the coordinates' units)
};

/// Static equilibrium under gravity with the velocity coordinates `held` (indices into v,
/// e.g. the actuated joints') held at their values in q_start; the loops closed (Newton on
/// Q + Jᵀλ = 0, Φ = 0 with the finite-difference tangent). Throws SolverError naming the
/// problem when it does not converge (no equilibrium, e.g. a free body under gravity).
StaticResult static_equilibrium(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, const std::vector<int>& held,
                                const StaticOptions& options = {});

/// Velocity indices of the actuated joints' coordinates.
std::vector<int> actuated_velocities(const Model& model);

struct ModesResult {
  std::vector<double> frequencies;  // nonzero undamped natural frequencies (Hz), ascending (K_r, M_r)
  int zero_modes = 0;               // modes with |f| < threshold: rigid-body and mechanism motions
  int unstable_modes = 0;           // negative stiffness beyond the threshold (an unstable equilibrium)
  double threshold = 1e-6;          // Hz
  std::vector<std::string> locked;  // names of the locked joints
  StaticResult equilibrium;         // where the system was linearised
  MatX shapes;                      // mode shapes in v coordinates (nv x modes), M-normalised, same order
                                    // as frequencies
  // Damping (any damper, stop or servo damping, Rayleigh damping of a beam) or, about a
  // moving state, gyroscopic terms: the reduced first-order system
  //   ẋ = [[0, 1], [−M_r⁻¹ K_r, −M_r⁻¹ C_r]] x,   C = ∂(h − Q − Jᵀλ)/∂v,  C_r = Nᵀ C N
  // (K_r unsymmetrised here). Empty eigenvalues and damped without it.
  bool damped_model = false;
  std::vector<std::complex<double>> eigenvalues;  // all 2 n_r (1/s), by |Im λ| then Re λ ascending
  std::vector<std::pair<double, double>> damped;  // per oscillatory pair (Im λ > 2π threshold): (|Im λ|/2π Hz,
                                                  // damping ratio −Re λ/|λ|), ascending by frequency
};

/// Natural frequencies about the static equilibrium with the actuated joints held at their
/// values in q_start (static_equilibrium, at options.time under options.efforts);
/// lock_actuated: the actuated joints stay locked in the vibration, else they are free
/// (their holding efforts held constant). With damping also the damped eigenvalues.
ModesResult natural_frequencies(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, bool lock_actuated, const StaticOptions& options = {});

/// The same about a given state (q, v) without solving for an equilibrium: the linearisation of
///   M(q) v̇ + h(q, v, t) = τ + Jᵀλ  (τ = options.efforts, the locked actuated coordinates held by
/// their multipliers) about (q, v) with v̇ = a*, λ* of the constrained dynamics there:
///   K = ∂(M a* + h − τ − Jᵀλ*)/∂q, C = ∂(h)/∂v (central differences), reduced on the
/// admissible motions N (loops, couplings and the locked coordinates at q). The undamped
/// frequencies use the symmetric part of K_r; damped_model is set with damping or v ≠ 0.
/// ModesResult::equilibrium holds q (and λ*, the locked efforts in held_efforts). The rows J
/// at q are used as they are: q should satisfy the loops (assemble it first).
ModesResult natural_frequencies_at(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                   const VecX& q, const VecX& v, bool lock_actuated, const StaticOptions& options = {});

/// The linearised equations of motion about (q, v) of a model with flexible bodies and no
/// closure rows (loops or couplings: InvalidArgument): M, K = ∂R/∂q, C = ∂R/∂v of
/// R = M a* + h(q, v, t) − τ at a* = M⁻¹ (τ − h) (central differences, step options.step;
/// τ = options.efforts, t = options.time). flexible_linearisation.cpp.
struct FlexibleLinearisation {
  VecX acceleration;  // a*
  MatX mass, stiffness, damping;
};
FlexibleLinearisation flexible_linearisation(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                             const VecX& q, const VecX& v, const StaticOptions& options = {});

/// Names of the elastic coordinates: "<body>_n<node>_<ux|uy|uz|thx|thy|thz>" (nodes 2 … n+1)
/// or "<body>_m<k>" for modal bodies, in the order of q's elastic part.
std::vector<std::string> elastic_coordinate_names(const Model& model);

}  // namespace mechdyn
