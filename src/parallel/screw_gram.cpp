// Gram-matrix solves with a small set of screws. See parallel/screw_gram.hpp.
#include "mechdyn/parallel/screw_gram.hpp"

#include <cmath>

namespace mechdyn {

namespace {

// G = SᵀS = L Lᵀ for the first K columns (Cholesky–Banachiewicz). Returns K, or the first
// column j with L_jj² ≤ tolerance² G_jj (nearly in the span of the columns before it).
template <int K>
int cholesky(const Mat6& screws, double tolerance, double (&lower)[6][6], double (&inverse_diagonal)[6]) {
  double gram[K][K];
#pragma GCC unroll 6
  for (int i = 0; i < K; ++i)
#pragma GCC unroll 6
    for (int j = 0; j <= i; ++j) gram[i][j] = screws.col(i).dot(screws.col(j));
#pragma GCC unroll 6
  for (int j = 0; j < K; ++j) {
    double pivot = gram[j][j];
#pragma GCC unroll 6
    for (int m = 0; m < j; ++m) pivot -= lower[j][m] * lower[j][m];
    if (!(pivot > tolerance * tolerance * gram[j][j])) return j;
    lower[j][j] = std::sqrt(pivot);
    inverse_diagonal[j] = 1.0 / lower[j][j];
#pragma GCC unroll 6
    for (int i = j + 1; i < K; ++i) {
      double sum = gram[i][j];
#pragma GCC unroll 6
      for (int m = 0; m < j; ++m) sum -= lower[i][m] * lower[j][m];
      lower[i][j] = sum * inverse_diagonal[j];
    }
  }
  return K;
}

// x ← L⁻¹ x (forward substitution).
template <int K>
void forward(const double (&lower)[6][6], const double (&inverse_diagonal)[6], double* x) {
#pragma GCC unroll 6
  for (int i = 0; i < K; ++i) {
    double sum = x[i];
#pragma GCC unroll 6
    for (int m = 0; m < i; ++m) sum -= lower[i][m] * x[m];
    x[i] = sum * inverse_diagonal[i];
  }
}

// x ← G⁻¹ x = L⁻ᵀ L⁻¹ x.
template <int K>
void gram_solve(const double (&lower)[6][6], const double (&inverse_diagonal)[6], double* x) {
  forward<K>(lower, inverse_diagonal, x);
#pragma GCC unroll 6
  for (int i = K - 1; i >= 0; --i) {
    double sum = x[i];
#pragma GCC unroll 6
    for (int m = i + 1; m < K; ++m) sum -= lower[m][i] * x[m];
    x[i] = sum * inverse_diagonal[i];
  }
}

}  // namespace

#define MECHDYN_GRAM_DISPATCH(k, call) \
  switch (k) {                         \
    case 1: call(1); break;            \
    case 2: call(2); break;            \
    case 3: call(3); break;            \
    case 4: call(4); break;            \
    case 5: call(5); break;            \
    case 6: call(6); break;            \
    default: break;                    \
  }

int ScrewGram::factor(const LimbScrews& screws, double tolerance) {
  k_ = static_cast<int>(screws.cols());
  screws_.setZero();
  screws_.leftCols(k_) = screws;
  int rank = 0;
#define MECHDYN_CALL(K) rank = cholesky<K>(screws_, tolerance, lower_, inverse_diagonal_)
  MECHDYN_GRAM_DISPATCH(k_, MECHDYN_CALL)
#undef MECHDYN_CALL
  return rank;
}

int ScrewGram::factor(const Mat6& screws, double tolerance) {
  k_ = 6;
  screws_ = screws;
  return cholesky<6>(screws_, tolerance, lower_, inverse_diagonal_);
}

void ScrewGram::least_squares(const Vec6& r, double* x) const {
  Vec6 products;
  products.noalias() = screws_.transpose() * r;  // zero beyond k
  solve(products.data());
  for (int i = 0; i < k_; ++i) x[i] = products[i];
}

void ScrewGram::solve(double* x) const {
#define MECHDYN_CALL(K) gram_solve<K>(lower_, inverse_diagonal_, x)
  MECHDYN_GRAM_DISPATCH(k_, MECHDYN_CALL)
#undef MECHDYN_CALL
}

void ScrewGram::least_squares(const LimbScrews& screws, const Vec6& r, LimbVector& x) const {
  (void)screws;  // factor() keeps a padded copy
  Vec6 products;
  products.noalias() = screws_.transpose() * r;
  solve(products.data());
  x = products.head(k_);
}

Vec6 ScrewGram::dual(const LimbScrews& screws, const double* e) const {
  (void)screws;
  Vec6 coefficients = Vec6::Zero();
  for (int i = 0; i < k_; ++i) coefficients[i] = e[i];
  solve(coefficients.data());
  return screws_ * coefficients;
}

void ScrewGram::dual_basis(const LimbScrews& screws, LimbScrews& dual) const {
  dual.resize(6, k_);
  double e[6] = {};
  for (int j = 0; j < k_; ++j) {
    e[j] = 1.0;
    dual.col(j) = this->dual(screws, e);
    e[j] = 0.0;
  }
}

void ScrewGram::reciprocal_basis(const LimbScrews& screws, LimbScrews& reciprocal) const {
  (void)screws;
  const int wanted = 6 - k_;
  reciprocal.resize(6, wanted);
  if (wanted == 0) return;
  // P = 1 − S G⁻¹ Sᵀ = 1 − Yᵀ Y with Y = L⁻¹ Sᵀ: the orthogonal projector onto the
  // complement of span S (Σ diag P = 6 − k).
  Mat6 y = Mat6::Zero();
  for (int r = 0; r < 6; ++r) {
    double row[6];
    for (int i = 0; i < k_; ++i) row[i] = screws_(r, i);
#define MECHDYN_CALL(K) forward<K>(lower_, inverse_diagonal_, row)
    MECHDYN_GRAM_DISPATCH(k_, MECHDYN_CALL)
#undef MECHDYN_CALL
    for (int i = 0; i < k_; ++i) y(i, r) = row[i];
  }
  if (wanted == 1) {  // one column: P e_r = e_r − S G⁻¹ s_r for the largest P_rr = 1 − |y_r|²
    int best = 0;
    for (int r = 1; r < 6; ++r)
      if (y.col(r).squaredNorm() < y.col(best).squaredNorm()) best = r;
    double x[6];
    for (int i = 0; i < k_; ++i) x[i] = screws_(best, i);
    solve(x);
    Vec6 column = Vec6::Unit(best);
    for (int i = 0; i < k_; ++i) column -= screws_.col(i) * x[i];
    reciprocal.col(0) = column.normalized();
    return;
  }
  Mat6 projector = Mat6::Identity();
  projector.noalias() -= y.transpose() * y;
  bool used[6] = {};
  for (int found = 0; found < wanted;) {
    int best = -1;
    for (int r = 0; r < 6; ++r)
      if (!used[r] && (best < 0 || projector(r, r) > projector(best, best))) best = r;
    if (best < 0) break;
    used[best] = true;
    Vec6 column = projector.col(best);
    for (int i = 0; i < found; ++i) column -= Vec6(reciprocal.col(i)) * reciprocal.col(i).dot(column);
    const double norm = column.norm();
    if (norm > 1e-3) reciprocal.col(found++) = column / norm;
  }
}

#undef MECHDYN_GRAM_DISPATCH

}  // namespace mechdyn
