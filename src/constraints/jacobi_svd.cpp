// One-sided Jacobi SVD (Hestenes; Golub & Van Loan §8.6.4). See the header.
#include "mechdyn/constraints/jacobi_svd.hpp"

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

}  // namespace mechdyn
