// Solves with a small set of screws through its Gram matrix: the limb solves of the
// momentum-screw method and of the Newton–Euler joint bases.
//
// For a 6 × k matrix S of screws (k ≤ 6, columns of comparable size: unit joint screws)
// with G = SᵀS = L Lᵀ (Cholesky):
//   least squares    S x ≈ r   →  x = G⁻¹ Sᵀ r       (the limb's joint rates, SK eq. 26)
//   dual basis       D = S G⁻¹, Sᵀ D = 1               (a wrench with given reciprocal
//                                                      products e with the columns: D e)
//   reciprocal set   N, 6 − k orthonormal columns with Sᵀ N = 0 (the screws orthogonal to
//                    all columns: for twists S, the wrenches [m; f] reciprocal to them,
//                    SK eq. 8 in Featherstone's order, where the pairing is the dot product)
// N comes from the columns of the orthogonal projector 1 − S G⁻¹ Sᵀ with the largest
// diagonal entries (Σ diag = 6 − k), by Gram–Schmidt: for 6 − k = 1 one column, normalised.
// Written out for each size k = 1 … 6 as a compile-time constant (so the loops unroll),
// with S kept zero-padded in a fixed 6 × 6 matrix: at k ≤ 6 Eigen's dynamic-size kernels
// (GEMM packing, blocked triangular solves — also behind LLT::solve of a fixed 6 × 6) cost
// more than the arithmetic.
// Rank: column j is dependent when L_jj² ≤ tolerance² · G_jj (its part orthogonal to the
// columns before it is below `tolerance` of its length); G's rounding limits tolerance to
// ≳ 1e-7 (the squared condition of S). Allocates nothing.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

using LimbScrews = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;  // 6 × k, k ≤ 6
using LimbVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;

class ScrewGram {
 public:
  /// Factors G = SᵀS. Returns k when the columns are independent, else the index of the
  /// first dependent column (the solves are then not valid).
  int factor(const LimbScrews& screws, double tolerance);
  /// The same for six screws (k = 6) held in a fixed 6 × 6 matrix.
  int factor(const Mat6& screws, double tolerance);
  int size() const { return k_; }
  /// x ← G⁻¹ x (x of size k).
  void solve(double* x) const;
  /// x = G⁻¹ Sᵀ r: the least-squares coefficients of r on the columns.
  void least_squares(const LimbScrews& screws, const Vec6& r, LimbVector& x) const;
  /// The same with the factored screws, into x[0..k).
  void least_squares(const Vec6& r, double* x) const;
  /// S G⁻¹ e: the screw whose products with the columns are e (k numbers).
  Vec6 dual(const LimbScrews& screws, const double* e) const;
  /// D = S G⁻¹, all k columns.
  void dual_basis(const LimbScrews& screws, LimbScrews& dual) const;
  /// N: 6 − k orthonormal columns orthogonal to every column of S.
  void reciprocal_basis(const LimbScrews& screws, LimbScrews& reciprocal) const;

 private:
  int k_ = 0;
  Mat6 screws_ = Mat6::Zero();  // S, zero columns beyond k
  double lower_[6][6] = {};     // L (G = L Lᵀ)
  double inverse_diagonal_[6] = {};  // 1 / L_jj
};

}  // namespace mechdyn
