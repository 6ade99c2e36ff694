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
// solve_gram_direct answers (AᵀA)⁺ r by a Cholesky factor of AᵀA when that is
// certified well conditioned (the common full-rank case), falling back to the SVD.
// Every workspace is sized in the constructor (or resize); compute and the solves
// allocate nothing — Eigen's decompositions allocate in solve(), hence this class.
#pragma once

#include <cstddef>

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
  /// V of A = U Σ Vᵀ (cols × cols; column i pairs with singular_values()[i]) after compute.
  const MatX& right_singular_vectors() const { return v_; }

  /// x = A⁺ b (size cols), b of size rows.
  void solve_min_norm(const Eigen::Ref<const VecX>& b, Eigen::Ref<VecX> x, double tolerance);
  /// y = (AᵀA)⁺ r (size cols), r of size cols.
  void solve_gram(const Eigen::Ref<const VecX>& r, Eigen::Ref<VecX> y, double tolerance);

  /// y = (AᵀA)⁺ r straight from A (the constructor's size), by the SVD only where it is
  /// needed. First G = AᵀA = L Lᵀ (Cholesky, in the workspace of V) and X = L⁻¹; when
  /// that certifies λ_min(G) ≥ 1/‖X‖²_F > max(kDirectConditionLimit, tolerance²)·trace G
  /// (so G is non-singular, no σ of A would be dropped at `tolerance`, and cond(G) is
  /// small enough for the normal equations to lose nothing beyond round-off),
  /// y = Xᵀ X r (O(m n² + n³/3), returns true). Otherwise compute(a) and
  /// solve_gram(r, y, tolerance) (returns false). After a true return the
  /// decomposition is not available: rank() is 0 and the solves return 0 until the
  /// next compute.
  bool solve_gram_direct(const Eigen::Ref<const MatX>& a, const Eigen::Ref<const VecX>& r, Eigen::Ref<VecX> y,
                         double tolerance);
  /// Largest accepted 1/cond(G) bound of solve_gram_direct's Cholesky path.
  static constexpr double kDirectConditionLimit = 1e-6;

  /// Heap bytes of the workspace (W, V, σ, scratch).
  std::size_t allocated_bytes() const {
    return static_cast<std::size_t>(w_.size() + v_.size() + sigma_.size() + work_.size()) * sizeof(double);
  }

 private:
  MatX w_;       // A V (orthogonal columns)
  MatX v_;       // accumulated rotations
  VecX sigma_;   // column norms of W
  VecX work_;    // cols scratch
  double largest_ = 0.0;
};

}  // namespace mechdyn
