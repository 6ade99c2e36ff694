// The closed chain's constrained system in sparse form: the closure Jacobian J by rows,
// the mass matrix M on the tree's ancestor pattern, and the augmented matrix
//   T = M + c JᵀJ                                   (c > 0)
// factorised as P T Pᵀ = L D Lᵀ with a pattern fixed once per model.
//
// Why: the dense constrained dynamics (constrained_forward_dynamics.hpp) costs O(nv³ +
// rows³) per evaluation with an SVD; on the N-four-bar (IFToMM A02, 40 loops, nv = 81)
// that is 5 ms per step. Here every row of J touches only the coordinates on the chains
// ground → a and ground → b of its cut joint (EC §2.3, eq. 24), M_ij ≠ 0 only when one of
// i, j is an ancestor of the other (Featherstone, "Rigid Body Dynamics Algorithms", 2008,
// §6.5), so T's pattern is their union. It is ordered once by approximate minimum degree
// (Amestoy, Davis & Duff, SIAM J. Matrix Anal. Appl. 17 (1996) 886–905; Eigen's
// AMDOrdering) and then factorised numerically with that pattern at every evaluation
// (Eigen's simplicial LDLᵀ, up-looking; Davis, "Direct Methods for Sparse Linear
// Systems", 2006, §4.7). For a mechanism of many local loops (chains of four-bars,
// parallel manipulators) the cost is O(nv) per factorisation; T stays positive definite
// when J loses rank (redundant rows, singular configurations), which is what the
// augmented-Lagrangian formulations need (augmented_lagrangian_dynamics.hpp,
// simulation/augmented_lagrangian_trapezoidal.hpp).
//
// Also: J Jᵀ (+ ε I) factorised the same way, whose LDLᵀ pivots screen for a rank drop of
// the closure Jacobian (near-singular configurations), and the products J x, Jᵀ y, M x.
//
// Reads the position stage in Data (data.motion_axis, data.loop_row_wrench_a/_b,
// data.com_position, data.inertia_world); writes data.composite_inertia (sparse CRBA) and
// its own value arrays. The constructor allocates (patterns, ordering); every other member
// allocates nothing (the factorisation uses Eigen's stack scratch for nv ≤ 16000).
#pragma once

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "mechdyn/model/data.hpp"

namespace mechdyn {

namespace detail {
using SparseMatrixUpper = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
// Simplicial LDLᵀ whose numeric factorisation reuses the analysed pattern without the
// copy (and allocation) Eigen's factorize() makes of its input, and whose factors are read
// in place (Eigen's vectorD() returns a copy).
class PatternLdlt : public Eigen::SimplicialLDLT<SparseMatrixUpper, Eigen::Upper, Eigen::NaturalOrdering<int>> {
 public:
  void analyze(const SparseMatrixUpper& upper) { analyzePattern(upper); }
  void refactor(const SparseMatrixUpper& upper) { this->template factorize_preordered<true>(upper); }
  const VecX& diagonal() const { return m_diag; }                    // D
  const SparseMatrixUpper& strictly_lower() const { return m_matrix; }  // L without its unit diagonal (CSC)
  /// x ← (L D Lᵀ)⁻¹ x in place, by the factors' arrays. No allocation.
  void solve_in_place(Eigen::Ref<VecX> x) const;
};
}  // namespace detail

class SparseClosureSystem {
 public:
  explicit SparseClosureSystem(const Model& model);

  Eigen::Index rows() const { return rows_; }
  Eigen::Index nv() const { return nv_; }

  /// J's nonzero values from the rows' unit wrenches on the position stage in data
  /// (detail::evaluate_loop_rows): J(r, k) = s_kᵀ W_a,r (k on ground → a) + s_kᵀ W_b,r
  /// (k on ground → b), as loop_closure.cpp, without the dense rows × nv matrix.
  void jacobian_from_rows(const Data& data);

  /// M on the ancestor pattern from the position stage (CRBA, Featherstone Table 6.2, in
  /// world coordinates); writes data.composite_inertia. O(Σ depth), no nv² clearing.
  void mass_matrix_from_stage(const Model& model, Data& data);

  void jacobian_product(const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> y) const;  // y = J x (rows)
  void add_jacobian_transpose_product(const Eigen::Ref<const VecX>& y, double scale,
                                      Eigen::Ref<VecX> x) const;                       // x += scale Jᵀ y
  void mass_product(const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> y) const;      // y = M x

  double max_mass_diagonal() const;         // max_i M_ii
  double max_jacobian_column_norm2() const; // max_k (JᵀJ)_kk

  /// T = M + c JᵀJ, factorised. Throws SolverError when T is not positive definite.
  void factor_augmented(double c);
  /// x ← T⁻¹ x with the last factor_augmented.
  void solve_augmented(Eigen::Ref<VecX> x) const;

  /// Factorises J Jᵀ + ε I (ε = 1e-14 · max diagonal) and returns the smallest LDLᵀ pivot
  /// over the largest: ≈ 0 (≤ 1e-13) for a redundant row, small when J nearly loses rank.
  /// A screen (pivots without pivoting bound the smallest eigenvalue from above), not an SVD.
  double gram_pivot_ratio();
  /// The number of pivots of the last gram_pivot_ratio below `relative` × the largest.
  int gram_small_pivots(double relative) const;
  /// The (skip+1)-th smallest pivot of the last gram_pivot_ratio over the largest (skip:
  /// the redundant rows, set aside). No allocation (a scratch copy of the pivots).
  double gram_pivot_ratio_skipping(int skip) const;

 private:
  void scatter_permuted(const Eigen::Ref<const VecX>& x) const;

  Eigen::Index nv_ = 0, rows_ = 0;
  // J by rows: entries [row_start_[r], row_start_[r+1]) with coordinate entry_dof_ and the
  // chains it lies on (bit 1: ground → a, bit 2: ground → b).
  std::vector<int> row_start_, entry_dof_, entry_chain_, row_loop_;
  VecX jacobian_values_;
  // M on the ancestor pattern: for coordinate k the entries (k, k), (k, λ(k)), (k, λ(λ(k))), …
  std::vector<int> mass_start_, mass_column_;
  VecX mass_values_;
  // Value indices into the permuted upper triangle of T: of each M entry, and of each pair
  // (e1 ≤ e2) of entries of a row of J, row after row.
  std::vector<int> augmented_mass_index_, augmented_pair_start_, augmented_pair_index_;
  std::vector<int> permutation_;  // new index of coordinate k
  detail::SparseMatrixUpper augmented_;
  detail::PatternLdlt augmented_factor_;
  mutable VecX permuted_;
  // J Jᵀ: for each product term J(r1, k) J(r2, k), r1 ≤ r2, the two entries and the value index.
  std::vector<int> gram_entry_a_, gram_entry_b_, gram_index_, gram_diagonal_index_;
  detail::SparseMatrixUpper gram_;
  detail::PatternLdlt gram_factor_;
  mutable VecX pivots_;
};

}  // namespace mechdyn
