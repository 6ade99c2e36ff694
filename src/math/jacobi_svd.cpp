// One-sided Jacobi SVD (Hestenes; Golub & Van Loan §8.6.4). See the header.
#include "mechdyn/math/jacobi_svd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mechdyn {

void JacobiSvd::resize(Eigen::Index rows, Eigen::Index cols) {
  w_ = MatX::Zero(rows, cols);
  v_ = MatX::Identity(cols, cols);
  sigma_ = VecX::Zero(cols);
  work_ = VecX::Zero(cols);
}

int JacobiSvd::compute(const Eigen::Ref<const MatX>& a) {
  w_ = a;
  v_.setIdentity();
  const Eigen::Index n = w_.cols();
  const double eps = std::numeric_limits<double>::epsilon();
  int sweep = 0;
  for (; sweep < 60; ++sweep) {
    bool rotated = false;
    for (Eigen::Index i = 0; i + 1 < n; ++i) {
      for (Eigen::Index j = i + 1; j < n; ++j) {
        const double alpha = w_.col(i).squaredNorm(), beta = w_.col(j).squaredNorm();
        const double gamma = w_.col(i).dot(w_.col(j));
        if (alpha == 0.0 || beta == 0.0 || std::abs(gamma) <= eps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        // Rotation that zeroes the (i, j) entry of WᵀW (G&VL Alg. 8.5.1, symmetric Schur).
        const double zeta = (beta - alpha) / (2.0 * gamma);
        const double t = (zeta >= 0.0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
        for (Eigen::Index r = 0; r < w_.rows(); ++r) {
          const double wi = w_(r, i), wj = w_(r, j);
          w_(r, i) = c * wi - s * wj;
          w_(r, j) = s * wi + c * wj;
        }
        for (Eigen::Index r = 0; r < n; ++r) {
          const double vi = v_(r, i), vj = v_(r, j);
          v_(r, i) = c * vi - s * vj;
          v_(r, j) = s * vi + c * vj;
        }
      }
    }
    if (!rotated) break;
  }
  largest_ = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    sigma_[i] = w_.col(i).norm();
    largest_ = std::max(largest_, sigma_[i]);
  }
  return sweep;
}

Eigen::Index JacobiSvd::rank(double tolerance) const {
  Eigen::Index r = 0;
  for (Eigen::Index i = 0; i < sigma_.size(); ++i)
    if (largest_ > 0.0 && sigma_[i] > tolerance * largest_) ++r;
  return r;
}

void JacobiSvd::solve_min_norm(const Eigen::Ref<const VecX>& b, Eigen::Ref<VecX> x, double tolerance) {
  work_.noalias() = w_.transpose() * b;  // Σ Uᵀ b
  for (Eigen::Index i = 0; i < sigma_.size(); ++i)
    work_[i] = (largest_ > 0.0 && sigma_[i] > tolerance * largest_) ? work_[i] / (sigma_[i] * sigma_[i]) : 0.0;
  x.noalias() = v_ * work_;
}

void JacobiSvd::solve_gram(const Eigen::Ref<const VecX>& r, Eigen::Ref<VecX> y, double tolerance) {
  work_.noalias() = v_.transpose() * r;
  for (Eigen::Index i = 0; i < sigma_.size(); ++i)
    work_[i] = (largest_ > 0.0 && sigma_[i] > tolerance * largest_) ? work_[i] / (sigma_[i] * sigma_[i]) : 0.0;
  y.noalias() = v_ * work_;
}

bool JacobiSvd::solve_gram_direct(const Eigen::Ref<const MatX>& a, const Eigen::Ref<const VecX>& r, Eigen::Ref<VecX> y,
                                  double tolerance) {
  const Eigen::Index n = v_.cols();
  MatX& x = v_;  // G, then L, then X = L⁻¹: lower triangles only
  double trace = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) x(i, j) = a.col(i).dot(a.col(j));  // G = AᵀA
    trace += x(j, j);
  }
  bool factored = trace > 0.0;
  for (Eigen::Index j = 0; j < n && factored; ++j) {  // G = L Lᵀ (Cholesky–Banachiewicz by columns)
    double pivot = x(j, j);
    for (Eigen::Index k = 0; k < j; ++k) pivot -= x(j, k) * x(j, k);
    if (!(pivot > 0.0)) {
      factored = false;
      break;
    }
    x(j, j) = std::sqrt(pivot);
    for (Eigen::Index i = j + 1; i < n; ++i) {
      double sum = x(i, j);
      for (Eigen::Index k = 0; k < j; ++k) sum -= x(i, k) * x(j, k);
      x(i, j) = sum / x(j, j);
    }
  }
  if (factored) {
    // X = L⁻¹ in place, column by column: X_jj = 1/L_jj, X_ij = −(Σ_{k=j}^{i−1} L_ik X_kj)/L_ii.
    // Column j reads L only in columns ≥ j, which are still L.
    double inverse_norm2 = 0.0;  // ‖X‖²_F ≥ ‖X‖²₂ = ‖G⁻¹‖₂ = 1/λ_min(G)
    for (Eigen::Index j = 0; j < n; ++j) {
      x(j, j) = 1.0 / x(j, j);
      inverse_norm2 += x(j, j) * x(j, j);
      for (Eigen::Index i = j + 1; i < n; ++i) {
        double sum = 0.0;
        for (Eigen::Index k = j; k < i; ++k) sum += x(i, k) * x(k, j);
        x(i, j) = -sum / x(i, i);
        inverse_norm2 += x(i, j) * x(i, j);
      }
    }
    largest_ = 0.0;  // the SVD state is gone (see the header)
    sigma_.setZero();
    if (1.0 / inverse_norm2 > std::max(kDirectConditionLimit, tolerance * tolerance) * trace) {
      work_.noalias() = x.triangularView<Eigen::Lower>() * r;                // X r
      y.noalias() = x.transpose().triangularView<Eigen::Upper>() * work_;  // Xᵀ X r = G⁻¹ r
      return true;
    }
  }
  compute(a);
  solve_gram(r, y, tolerance);
  return false;
}

}  // namespace mechdyn
