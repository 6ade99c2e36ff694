// Minimum-effort solution of a statically indeterminate force balance.
//
// An inverse-dynamics problem with redundant actuation or over-constraint leads to a
// consistent linear system A x = b (m equations, n ≥ m unknowns, full row rank) whose
// unknowns split into actuator efforts and the rest: x = [τ (na); y (n − na)]. Its
// solutions are x = x_p + N z (x_p the minimum-norm solution, N an orthonormal basis of
// null(A), d = n − m patterns of internal forces). The solution returned is the one with
//   1. the smallest ‖τ‖₂ over all solutions (the minimum-2-norm actuator efforts: the
//      efforts alone, never mixed with constraint unknowns of other units), and
//   2. among those, the smallest ‖y‖₂ (y in the caller's units; only reached when some
//      internal-force pattern involves no actuator — passive over-constraint, whose
//      forces depend on joint compliance and are not determined by rigid-body mechanics).
// With B = N(0:na, :) (the effort part of each pattern) both steps together are
//   z = −B⁺ τ_p,   x = x_p + N z,
// since x_p ⟂ null(A) makes ‖x‖² = ‖x_p‖² + ‖z‖² (the minimum-norm z among the
// minimisers of ‖τ_p + B z‖). The internal actuator forces — efforts that the actuators
// can exert without changing the motion — are range(B): its dimension and an orthonormal
// basis are reported (docs/parallel-manipulators.md, "Redundancy").
// Method: a column-pivoted Householder QR of Aᵀ (Golub & Van Loan, "Matrix Computations",
// 4th ed., §5.4.1, §5.6): AᵀP = Q [R₁; 0], so x_p = Q [R₁⁻ᵀ Pᵀ b; 0] and N = Q [0; I];
// then the one-sided Jacobi SVD of B (math/jacobi_svd.hpp). Rank decisions: A has
// full row rank when |R₁(i,i)| > tolerance · |R₁(0,0)| for every i; B's singular values
// count when above tolerance (N is orthonormal, so B's entries are at most 1).
// Cost O(n m² + na d²). Every workspace is sized by resize(); solve allocates nothing.
#pragma once

#include <Eigen/QR>
#include <cstddef>

#include "mechdyn/math/jacobi_svd.hpp"
#include "mechdyn/math/types.hpp"

namespace mechdyn {

class MinimumEffortSolver {
 public:
  MinimumEffortSolver() = default;
  MinimumEffortSolver(Eigen::Index rows, Eigen::Index cols, Eigen::Index efforts) { resize(rows, cols, efforts); }
  /// Sizes the workspace for A of rows × cols whose first `efforts` unknowns are efforts
  /// (cols < rows is allowed: solve then reports the missing row rank).
  void resize(Eigen::Index rows, Eigen::Index cols, Eigen::Index efforts);

  /// Solves A x = b (sizes of resize) as described above into x (cols). Returns false,
  /// leaving x unspecified, when A does not have full row rank at `tolerance` (a force
  /// balance that the unknowns cannot satisfy in general: a singular configuration).
  bool solve(const Eigen::Ref<const MatX>& a, const Eigen::Ref<const VecX>& b, Eigen::Ref<VecX> x,
             double tolerance = 1e-10);

  Eigen::Index rows() const { return rows_; }
  Eigen::Index cols() const { return cols_; }
  Eigen::Index efforts() const { return efforts_; }
  /// d = cols − rows: the number of independent internal-force patterns (after solve).
  Eigen::Index null_space_dimension() const { return cols_ > rows_ ? cols_ - rows_ : 0; }
  /// Dimension of the internal actuator forces (rank of B) after solve.
  Eigen::Index internal_force_dimension() const { return internal_dimension_; }
  /// Orthonormal basis of the internal actuator forces: efforts × internal_force_dimension().
  Eigen::Block<const MatX> internal_force_basis() const {
    return internal_basis_.block(0, 0, efforts_, internal_dimension_);
  }
  /// Smallest |R₁(i,i)| / |R₁(0,0)| of the last solve (1 for an empty system): how far A is
  /// from losing row rank.
  double row_rank_margin() const { return row_margin_; }
  /// Heap bytes of the workspace (the QR's own vectors and permutation counted from its
  /// public sizes).
  std::size_t allocated_bytes() const;

 private:
  Eigen::Index rows_ = 0, cols_ = 0, efforts_ = 0;
  Eigen::Index internal_dimension_ = 0;
  double row_margin_ = 1.0;
  MatX transposed_;                      // Aᵀ (cols × rows)
  Eigen::ColPivHouseholderQR<MatX> qr_;  // of Aᵀ
  VecX column_;                          // cols: one column of Q at a time
  VecX triangular_;                      // rows: R₁⁻ᵀ Pᵀ b
  MatX null_basis_;                      // N: cols × d
  MatX effort_block_;                    // B: efforts × d
  JacobiSvd effort_svd_;                 // of B
  VecX shift_;                           // d: z
  MatX internal_basis_;                  // efforts × d (first internal_dimension_ columns valid)
};

}  // namespace mechdyn
