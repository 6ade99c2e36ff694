// Rank, span and reciprocal system of a set of screws. See the header.
#include "mechdyn/screw/screw_system.hpp"

#include <algorithm>
#include <cmath>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {
// ℵ x: swap the line and moment parts (screw-kinematics eq. 8).
Vec6 swap_halves(const Vec6& x) {
  Vec6 out;
  out << x.tail<3>(), x.head<3>();
  return out;
}
}  // namespace

void ScrewSystem::reset(ScrewKind kind, const ScrewScale& scale) {
  if (!(scale.length > 0.0) || !std::isfinite(scale.length))
    throw InvalidArgument("screw system: the characteristic length must be positive and finite");
  if (!scale.reference_point.allFinite()) throw InvalidArgument("screw system: the reference point is not finite");
  kind_ = kind;
  scale_ = scale;
  triangle_.setZero();
  singular_values_.setZero();
  directions_.setIdentity();
  count_ = 0;
  rank_ = 0;
}

Vec6 ScrewSystem::to_scaled(const Vec6& x) const {
  // (a; b) → (L a; b + a × c): moved to c, line part in the moment part's unit.
  const Vec3 a = x.head<3>();
  Vec6 out;
  out << scale_.length * a, x.tail<3>() + a.cross(scale_.reference_point);
  return out;
}

Vec6 ScrewSystem::from_scaled(const Vec6& y) const {
  const Vec3 a = y.head<3>() / scale_.length;
  Vec6 out;
  out << a, y.tail<3>() - a.cross(scale_.reference_point);
  return out;
}

double ScrewSystem::scaled_norm(const Vec6& plucker) const { return to_scaled(plucker).norm(); }

void ScrewSystem::add(const Vec6& plucker) {
  if (!plucker.allFinite()) throw InvalidArgument("screw system: a screw has a non-finite coordinate");
  Vec6 row = to_scaled(plucker);
  // One Givens sweep: [R; xᵀ] → [R'; 0] with R'ᵀR' = RᵀR + x xᵀ (G&VL §5.1.8, §6.5.3).
  for (int j = 0; j < 6; ++j) {
    if (row[j] == 0.0) continue;
    const double r = std::hypot(triangle_(j, j), row[j]);
    const double c = triangle_(j, j) / r, s = row[j] / r;
    for (int k = j; k < 6; ++k) {
      const double upper = triangle_(j, k), lower = row[k];
      triangle_(j, k) = c * upper + s * lower;
      row[k] = -s * upper + c * lower;
    }
    row[j] = 0.0;
  }
  ++count_;
}

void ScrewSystem::add(const Twist& twist) {
  if (kind_ != ScrewKind::Twist) throw InvalidArgument("screw system: a twist added to a system of wrenches");
  add(twist.plucker);
}

void ScrewSystem::add(const Wrench& wrench) {
  if (kind_ != ScrewKind::Wrench) throw InvalidArgument("screw system: a wrench added to a system of twists");
  add(wrench.plucker);
}

void ScrewSystem::add_columns(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws) {
  for (Eigen::Index k = 0; k < screws.cols(); ++k) add(Vec6(screws.col(k)));
}

void ScrewSystem::factorize(double tolerance, double reference_magnitude) {
  if (!(tolerance > 0.0 && tolerance < 1.0)) throw InvalidArgument("screw system: the tolerance must lie in (0, 1)");
  tolerance_ = tolerance;
  svd_.compute(triangle_, Eigen::ComputeFullV);  // S Sᵀ = RᵀR: V holds S's left singular vectors
  singular_values_ = svd_.singularValues();      // descending
  directions_ = svd_.matrixV();
  const double threshold = tolerance * std::max(singular_values_[0], reference_magnitude);
  rank_ = 0;
  if (threshold > 0.0)
    for (int i = 0; i < 6; ++i)
      if (singular_values_[i] > threshold) ++rank_;
}

ScrewBasis ScrewSystem::basis() const {
  ScrewBasis out(6, rank_);
  for (int i = 0; i < rank_; ++i) out.col(i) = from_scaled(directions_.col(i));
  return out;
}

ScrewBasis ScrewSystem::reciprocal_basis() const {
  // u ⟂ span(scaled S) ⇔ ℵ u reciprocal to every scaled screw ⇔ (unscaled) reciprocal.
  ScrewBasis out(6, 6 - rank_);
  for (int i = rank_; i < 6; ++i) out.col(i - rank_) = from_scaled(swap_halves(directions_.col(i)));
  return out;
}

ScrewBasis ScrewSystem::canonical(const ScrewBasis& scaled) const {
  // Rows = screws in scaled coordinates about the world origin: (L a; b).
  const int count = static_cast<int>(scaled.cols());
  Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor, 6, 6> rows(count, 6);
  for (int i = 0; i < count; ++i) {
    const Vec6 raw = from_scaled(scaled.col(i));
    rows.row(i) << scale_.length * raw.head<3>().transpose(), raw.tail<3>().transpose();
  }
  // Gauss–Jordan elimination with partial pivoting, coordinates in order.
  int pivot_row = 0;
  int pivots[6] = {0, 0, 0, 0, 0, 0};
  for (int column = 0; column < 6 && pivot_row < count; ++column) {
    const double largest = rows.cwiseAbs().maxCoeff();
    int best = pivot_row;
    for (int r = pivot_row + 1; r < count; ++r)
      if (std::abs(rows(r, column)) > std::abs(rows(best, column))) best = r;
    if (!(std::abs(rows(best, column)) > tolerance_ * largest)) continue;
    rows.row(best).swap(rows.row(pivot_row));
    rows.row(pivot_row) /= rows(pivot_row, column);
    for (int r = 0; r < count; ++r)
      if (r != pivot_row) rows.row(r) -= rows(r, column) * rows.row(pivot_row);
    pivots[pivot_row] = column;
    ++pivot_row;
  }
  ScrewBasis out(6, pivot_row);
  for (int i = 0; i < pivot_row; ++i) {
    Vec6 x = rows.row(i).transpose();
    for (int k = 0; k < 6; ++k)
      if (std::abs(x[k]) <= tolerance_) x[k] = 0.0;  // round-off relative to the pivot 1
    x.head<3>() /= scale_.length;
    out.col(i) = x / x[pivots[i]];  // the pivot equals 1 in raw units too
  }
  return out;
}

ScrewBasis ScrewSystem::canonical_basis() const {
  ScrewBasis scaled(6, rank_);
  for (int i = 0; i < rank_; ++i) scaled.col(i) = directions_.col(i);
  return canonical(scaled);
}

ScrewBasis ScrewSystem::canonical_reciprocal_basis() const {
  ScrewBasis scaled(6, 6 - rank_);
  for (int i = rank_; i < 6; ++i) scaled.col(i - rank_) = swap_halves(directions_.col(i));
  return canonical(scaled);
}

bool ScrewSystem::contains(const Vec6& plucker) const {
  const Vec6 x = to_scaled(plucker);
  Vec6 residual = x;
  for (int i = 0; i < rank_; ++i) residual -= directions_.col(i).dot(x) * directions_.col(i);
  return residual.norm() <= tolerance_ * x.norm();
}

int screw_rank(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws, const ScrewScale& scale,
               double tolerance) {
  ScrewSystem system(ScrewKind::Twist, scale);
  system.add_columns(screws);
  system.factorize(tolerance);
  return system.rank();
}

ScrewBasis reciprocal_screws(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws,
                             const ScrewScale& scale, double tolerance) {
  ScrewSystem system(ScrewKind::Twist, scale);
  system.add_columns(screws);
  system.factorize(tolerance);
  return system.canonical_reciprocal_basis();
}

}  // namespace mechdyn
