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
// gravity load, cut-joint reactions) by central finite differences in the velocity
// coordinates (q ⊕ dv), symmetrised. This is the exact second variation of the potential
// restricted to the constraint manifold (the λ term is its curvature part), to the
// finite-difference accuracy (~1e-9 relative, docs).
// These are analyses, not per-step evaluations: they allocate.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn {

struct StaticOptions {
  double tolerance = 1e-10;   // converged when |Q + Jᵀλ| ≤ tolerance · (1 + |Q_gravity|) and |Φ| ≤ tolerance · (1 + size)
  int max_iterations = 100;
  double step = 1e-6;         // finite-difference step (rad, m) of the tangent stiffness
};

struct StaticResult {
  VecX q;                      // the equilibrium (nq): joints, then elastic coordinates
  VecX multipliers;            // λ of the cut joints (num_loop_rows)
  VecX held_efforts;           // efforts holding each velocity coordinate that is held (nv; 0 where free)
  std::vector<Vec3> markers;   // every marker's world position at q
  int iterations = 0;
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
  std::vector<double> frequencies;  // nonzero natural frequencies (Hz), ascending
  int zero_modes = 0;               // modes with |f| < threshold: rigid-body and mechanism motions
  int unstable_modes = 0;           // negative stiffness beyond the threshold (an unstable equilibrium)
  double threshold = 1e-6;          // Hz
  std::vector<std::string> locked;  // names of the locked joints
  StaticResult equilibrium;         // where the system was linearised
  MatX shapes;                      // mode shapes in v coordinates (nv x modes), M-normalised, same order
                                    // as frequencies
};

/// Natural frequencies about the static equilibrium with the actuated joints held at their
/// values in q_start (static_equilibrium); lock_actuated: the actuated joints stay locked in
/// the vibration, else they are free (their holding efforts held constant).
ModesResult natural_frequencies(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, bool lock_actuated, const StaticOptions& options = {});

}  // namespace mechdyn
