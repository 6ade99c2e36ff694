// A consistent start for mechanisms with rigid and flexible bodies, and their rigid
// counterpart.
//
// assemble_flexible_state: the cut joints closed at position level, Φ(q) = 0, by moving only
// the free joint coordinates (Gauss–Newton with least-norm steps: the pseudo-inverse of the
// constraint Jacobian's free columns, complete orthogonal decomposition), then the free
// joint velocities from J v = 0 (least norm). The held joint coordinates (e.g. the actuated
// or prescribed ones) and all elastic coordinates keep their values. Papers/rigid-flexible-
// 3RRRU-ffr.txt §3.3 starts "from the initial position of the rigid-body dynamics"; this is
// that step for any model. An analysis, not a per-step evaluation: it allocates.
//
// rigid_equivalent: the rigid mechanism that the flexible one is at e = 0, ė = 0 — every beam
// replaced by the rigid body of its undeformed shape (mass ∫ρA ds, centre of mass, inertia
// including the sections' rotary inertia, plus the welded part). Points on the beams stay
// where they were (they lie on the undeformed beam), so joints, loops and markers carry over
// unchanged. The reference for the "deviation from the rigid mechanism" of a run
// (docs/flexible-bodies.md "Position-driven runs").
#pragma once

#include <vector>

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn {

/// Closes the loops by moving the joint coordinates not in `held` (velocity indices of joint
/// coordinates) and makes v consistent (J v = 0) on the same coordinates. q (nq) and v (nv)
/// in and out. SolverError when the loops cannot be closed (|Φ| > `tolerance` after 50
/// iterations: no assembly near q, or the held coordinates forbid one).
void assemble_flexible_state(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, VecX& q,
                             VecX& v, const std::vector<int>& held, double tolerance = 1e-11);

/// The rigid counterpart (a model without flexible blocks, finalised): each beam becomes a
/// rigid body with the undeformed beam's mass, centre of mass and inertia added to its welded
/// part. A model without flexible bodies comes back unchanged.
Model rigid_equivalent(const Model& model);

}  // namespace mechdyn
