// A preallocated singular value decomposition for the closed-chain solves: one-sided
// Jacobi (Hestenes) SVD, rank-revealing and tolerant of redundant rows and columns.
//
// Source: Hestenes, J. SIAM 6 (1958) 51–90; Golub & Van Loan, "Matrix Computations",
// 4th ed., §8.6.4 (one-sided Jacobi); Demmel & Veselić, SIAM J. Matrix Anal. Appl. 13
// (1992) 1204–1245 (its high relative accuracy). Plane rotations V make the columns of
// W = A V mutually orthogonal: A = U Σ Vᵀ with σ_i = ‖W_i‖ and U_i = W_i / σ_i. Then
//   minimum-norm least squares   x = A⁺ b = V Σ⁻² Wᵀ b        (solve_min_norm)
//   Gram pseudo-inverse          y = (AᵀA)⁺ r = V Σ⁻² Vᵀ r     (solve_gram)
// with σ_i ≤ tolerance · σ_max treated as zero. Cost O(sweeps · m n²), sweeps ≈ 5–10.
// Every workspace is sized in the constructor (or resize); compute and the solves
// allocate nothing — Eigen's decompositions allocate in solve(), hence this class.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

class JacobiSvd {
 public:
  JacobiSvd() = default;
  JacobiSvd(Eigen::Index rows, Eigen::Index cols) { resize(rows, cols); }
  void resize(Eigen::Index rows, Eigen::Index cols);

  /// Decomposes A (the constructor's size). Returns the number of sweeps used.
  int compute(const Eigen::Ref<const MatX>& a);

  /// Number of singular values above tolerance · σ_max (σ_max = 0: rank 0).
  Eigen::Index rank(double tolerance) const;
  double largest_singular_value() const { return largest_; }
  const VecX& singular_values() const { return sigma_; }  // unsorted, one per column

  /// x = A⁺ b (size cols), b of size rows.
  void solve_min_norm(const Eigen::Ref<const VecX>& b, Eigen::Ref<VecX> x, double tolerance);
  /// y = (AᵀA)⁺ r (size cols), r of size cols.
  void solve_gram(const Eigen::Ref<const VecX>& r, Eigen::Ref<VecX> y, double tolerance);

 private:
  MatX w_;       // A V (orthogonal columns)
  MatX v_;       // accumulated rotations
  VecX sigma_;   // column norms of W
  VecX work_;    // cols scratch
  double largest_ = 0.0;
};

}  // namespace mechdyn
