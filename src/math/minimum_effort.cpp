// Minimum-effort solution of a statically indeterminate force balance. See the header.
#include "mechdyn/math/minimum_effort.hpp"

#include <algorithm>
#include <cmath>

namespace mechdyn {

namespace {

// x ← Q x for the Householder factor of a QR (Q = H₀ H₁ … H_{m−1}, H_k = 1 − τ_k v_k v_kᵀ,
// v_k = (0, …, 0, 1, essential part below the diagonal of column k)): written out, since
// Eigen's HouseholderSequence::applyThisOnTheLeft allocates a temporary per reflector.
void apply_householder(const MatX& packed, const VecX& coefficients, Eigen::Index reflectors, VecX& x) {
  const Eigen::Index n = packed.rows();
  for (Eigen::Index k = reflectors; k-- > 0;) {
    const Eigen::Index tail = n - k - 1;
    double w = x[k];
    for (Eigen::Index i = 0; i < tail; ++i) w += packed(k + 1 + i, k) * x[k + 1 + i];
    w *= coefficients[k];
    x[k] -= w;
    for (Eigen::Index i = 0; i < tail; ++i) x[k + 1 + i] -= w * packed(k + 1 + i, k);
  }
}

}  // namespace

void MinimumEffortSolver::resize(Eigen::Index rows, Eigen::Index cols, Eigen::Index efforts) {
  rows_ = rows;
  cols_ = cols;
  efforts_ = std::min(efforts, cols_);
  const Eigen::Index d = std::max<Eigen::Index>(cols_ - rows_, 0);
  transposed_ = MatX::Zero(cols_, rows_);
  qr_ = Eigen::ColPivHouseholderQR<MatX>(cols_, rows_);  // sized once: compute() reuses it
  column_ = VecX::Zero(cols_);
  triangular_ = VecX::Zero(rows_);
  null_basis_ = MatX::Zero(cols_, d);
  effort_block_ = MatX::Zero(efforts_, d);
  effort_svd_.resize(efforts_, d);
  shift_ = VecX::Zero(d);
  internal_basis_ = MatX::Zero(efforts_, d);
  internal_dimension_ = 0;
  row_margin_ = 1.0;
}

std::size_t MinimumEffortSolver::allocated_bytes() const {
  const auto doubles = [](Eigen::Index count) { return static_cast<std::size_t>(count) * sizeof(double); };
  // The QR of Aᵀ (cols × rows), as sized by resize(): its matrix, min(cols, rows)
  // Householder coefficients, a temporary row and two column-norm vectors (rows doubles
  // each), the column permutation and transpositions (rows ints each). Counted from the
  // sizes because ColPivHouseholderQR's accessors assert a computed factorisation.
  const std::size_t qr = doubles(cols_ * rows_ + std::min(cols_, rows_) + 3 * rows_) +
                         static_cast<std::size_t>(2 * rows_) * sizeof(int);
  return qr + doubles(transposed_.size() + column_.size() + triangular_.size() + null_basis_.size() +
                      effort_block_.size() + shift_.size() + internal_basis_.size()) +
         effort_svd_.allocated_bytes();
}

bool MinimumEffortSolver::solve(const Eigen::Ref<const MatX>& a, const Eigen::Ref<const VecX>& b, Eigen::Ref<VecX> x,
                                double tolerance) {
  const Eigen::Index m = rows_, n = cols_, d = n - m;
  internal_dimension_ = 0;
  if (n < m) {  // more equations than unknowns: never of full row rank
    row_margin_ = 0.0;
    return false;
  }
  if (m == 0) {  // no equation: every unknown free, the minimum is zero
    x.setZero();
    row_margin_ = 1.0;
    if (efforts_ > 0 && d > 0) {
      internal_basis_.setIdentity();
      internal_dimension_ = std::min(efforts_, d);
    }
    return true;
  }
  transposed_ = a.transpose();
  qr_.compute(transposed_);  // Aᵀ P = Q [R₁; 0]
  const auto& packed = qr_.matrixQR();
  const double first = std::abs(packed(0, 0));
  row_margin_ = 1.0;
  for (Eigen::Index i = 0; i < m; ++i) row_margin_ = std::min(row_margin_, first > 0.0 ? std::abs(packed(i, i)) / first : 0.0);
  if (!(first > 0.0) || !(row_margin_ > tolerance)) return false;
  // x_p = Q [R₁⁻ᵀ Pᵀ b; 0]
  const auto& permutation = qr_.colsPermutation().indices();
  for (Eigen::Index i = 0; i < m; ++i) triangular_[i] = b[permutation[i]];
  packed.topLeftCorner(m, m).triangularView<Eigen::Upper>().transpose().solveInPlace(triangular_);
  column_.head(m) = triangular_;
  column_.tail(d).setZero();
  apply_householder(packed, qr_.hCoeffs(), m, column_);
  x = column_;
  if (d == 0) return true;
  // N = Q [0; I]
  for (Eigen::Index k = 0; k < d; ++k) {
    column_.setZero();
    column_[m + k] = 1.0;
    apply_householder(packed, qr_.hCoeffs(), m, column_);
    null_basis_.col(k) = column_;
  }
  if (efforts_ == 0) return true;
  // z = −B⁺ τ_p, B = N(0:na, :); internal forces = range(B).
  effort_block_ = null_basis_.topRows(efforts_);
  effort_svd_.compute(effort_block_);
  const VecX& sigma = effort_svd_.singular_values();
  const MatX& v = effort_svd_.right_singular_vectors();
  shift_.setZero();
  for (Eigen::Index k = 0; k < d; ++k) {
    if (!(sigma[k] > tolerance)) continue;  // absolute: B's entries are at most 1
    auto u = internal_basis_.col(internal_dimension_);
    u.noalias() = effort_block_ * v.col(k);
    u /= sigma[k];                                               // u_k = B v_k / σ_k
    shift_.noalias() -= v.col(k) * (u.dot(x.head(efforts_)) / sigma[k]);  // z = −Σ v_k u_kᵀ τ_p / σ_k
    ++internal_dimension_;
  }
  x.noalias() += null_basis_ * shift_;
  return true;
}

}  // namespace mechdyn
