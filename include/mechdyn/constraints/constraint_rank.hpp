// Numerical rank of the loop-closure Jacobian: redundant constraints and mobility.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eq. (24) (J v = 0);
// mobility = nv − rank J (the Chebychev–Grübler–Kutzbach count made exact at q).
// The rank is the number of singular values of J above tolerance · σ_max (JacobiSVD,
// Golub & Van Loan §8.6). Redundant rows are found in row order by Gram–Schmidt: row r
// is redundant when its part orthogonal to the independent rows before it has norm
// ≤ tolerance · σ_max. Real parallel mechanisms are often over-constrained (e.g. a
// planar loop closed by a spatial revolute cut joint: 3 of its 5 rows are redundant).
// A diagnostic (mechdyn info, eval): it allocates its result. Cost O(rows² nv).
// Reads: Model, q. Writes: the position stage at q, data.loop_residual,
// data.loop_jacobian, data.loop_row_wrench_a/_b.
#pragma once

#include <vector>

#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct ConstraintRank {
  int rows = 0;                     // closure equations (model.num_loop_rows)
  int rank = 0;                     // numerical rank of J at q
  int mobility = 0;                 // nv − rank: degrees of freedom of the closed mechanism at q
  std::vector<int> redundant_rows;  // rows dependent on earlier rows (rows − rank of them)
  VecX singular_values;             // of J, descending
};

/// Runs loop_closure(q) and analyses data.loop_jacobian. `tolerance` is relative to σ_max.
ConstraintRank constraint_rank(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                               double tolerance = 1e-9);

}  // namespace mechdyn
