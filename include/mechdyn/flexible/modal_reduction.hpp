// Modal reduction of a clamped beam: the k lowest natural modes of (K, M).
//
// K φ = ω² M φ (papers/rigid-flexible-3RRRU-ffr.txt eqs. 65–67 for one body; the paper's
// S = M⁻¹K is solved here as the symmetric-definite pencil, which keeps the modes
// M-orthonormal). Used by make_flexible_body for `modes: k` (e = Φ η, the invariants
// projected: docs/flexible-bodies.md "Modal reduction"). Cost O((6n)³); built once.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// The `count` lowest modes of the pencil (stiffness, mass): columns of `modes`,
/// mass-normalised (Φᵀ M Φ = 1), each signed so that its largest-magnitude entry is
/// positive; `frequencies` ω (rad/s), ascending. Throws SolverError when the mass is not
/// positive definite or the stiffness is not positive semi-definite.
void lowest_modes(const MatX& stiffness, const MatX& mass, int count, MatX& modes, VecX& frequencies);

}  // namespace mechdyn
