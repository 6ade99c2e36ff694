// A system of screws: its rank, a basis of its span and its reciprocal system.
//
// Source: screw-kinematics-3UPS-UPU-S §2.2, eqs. (8) and (13): the reciprocal screws $_r
// of a set S = [$₁ … $_k] solve Sᵀ ℵ $_r = 0 (ℵ = [0 1; 1 0]): wrenches that do no work
// on any twist of the set (or twists on which no wrench of the set does work). With V an
// orthonormal basis of span(S)^⊥, the reciprocal system is ℵ V (ℵ² = 1), of dimension
// 6 − rank S. The span and the rank come from the singular value decomposition of S
// (Golub & Van Loan, "Matrix Computations", 4th ed., §2.4, §5.4.1).
//
// Units. Twist coordinates mix rad/s and m/s, wrench coordinates N and N·m, so a rank
// decision on raw coordinates depends on the units and on where the world origin is. Before
// deciding, every screw (a; b) is moved to a reference point c near the mechanism and its
// line part multiplied by a characteristic length L:
//   (a; b)  →  (L a; b + a × c)                                   (ScrewScale)
// (twists become (Lω; v_c) in m/s, wrenches (Lf; m_c) in N·m). The reciprocal product
// becomes xᵀℵy / L, so reciprocity — and the reciprocal system — are unchanged; only the
// metric used for "small" is made unit-consistent and independent of the origin.
// A singular value σ_i (of the scaled screws) counts when σ_i > tolerance · max(σ_max,
// reference_magnitude); the default tolerance is kScrewTolerance = 1e-9 (relative).
// reference_magnitude (scaled units) lets a caller say how large a screw of this system
// would be when it is not zero (e.g. a body's twist per unit joint rate), so that a system
// made only of round-off is found to have rank 0.
//
// Cost: add() is O(36) (one row of a Givens QR, R ∈ ℝ^{6×6}: Sᵀ = Q R, so S Sᵀ = Rᵀ R and
// the left singular vectors of S are the right singular vectors of R); factorize() is one
// 6 × 6 Jacobi SVD. Any number of screws; nothing allocates (fixed-size storage).
#pragma once

#include <Eigen/SVD>

#include "mechdyn/screw/screw_axis.hpp"
#include "mechdyn/screw/twist_wrench.hpp"

namespace mechdyn {

enum class ScrewKind { Twist, Wrench };

/// Up to 6 screws as the columns of a 6 × k matrix (Plücker, line part first). Fixed
/// maximum size: never allocates.
using ScrewBasis = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

/// The scale of rank decisions (see the file comment).
struct ScrewScale {
  Vec3 reference_point = Vec3::Zero();  // c: screws are moved here before deciding (world, m)
  double length = 1.0;                  // L: characteristic length of the mechanism (m)
};

class ScrewSystem {
 public:
  ScrewSystem() = default;
  explicit ScrewSystem(ScrewKind kind, const ScrewScale& scale = {}) { reset(kind, scale); }

  /// Empties the system; the screws added next are of `kind`.
  void reset(ScrewKind kind, const ScrewScale& scale = {});
  /// Adds one screw (Plücker coordinates of the system's kind). Throws InvalidArgument on a
  /// non-finite coordinate.
  void add(const Vec6& plucker);
  /// Adds a twist; InvalidArgument when the system holds wrenches.
  void add(const Twist& twist);
  /// Adds a wrench; InvalidArgument when the system holds twists.
  void add(const Wrench& wrench);
  /// Adds every column of a 6 × k matrix.
  void add_columns(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws);

  /// Decides the rank and the bases (after the screws are added).
  void factorize(double tolerance = kScrewTolerance, double reference_magnitude = 0.0);

  ScrewKind kind() const { return kind_; }
  const ScrewScale& scale() const { return scale_; }
  int count() const { return count_; }  // screws added
  int rank() const { return rank_; }    // after factorize
  /// Singular values of the scaled screws, descending (factorize first).
  const Vec6& singular_values() const { return singular_values_; }

  /// A basis of the span: rank() screws of the system's kind, orthonormal in the scaled
  /// coordinates, returned about the world origin in raw units.
  ScrewBasis basis() const;
  /// A basis of the reciprocal system: 6 − rank() screws of the other kind (wrenches for a
  /// system of twists, twists for a system of wrenches), orthonormal when scaled.
  ScrewBasis reciprocal_basis() const;
  /// The same spaces in reduced row-echelon form (unique for a subspace): each screw has a
  /// coordinate equal to 1 (its pivot) where the others are 0; pivots are chosen in the
  /// order ω_x ω_y ω_z v_x v_y v_z (f…, m… for wrenches) by largest scaled magnitude, and
  /// entries below tolerance · the pivot (scaled) are set to 0. For reports and tests.
  ScrewBasis canonical_basis() const;
  ScrewBasis canonical_reciprocal_basis() const;

  /// |(L a; b + a × c)|: the norm used for the decisions (see the file comment).
  double scaled_norm(const Vec6& plucker) const;
  /// True when `plucker` (the system's kind) lies in the span within the tolerance.
  bool contains(const Vec6& plucker) const;  // residual ≤ tolerance · |screw| (scaled)

 private:
  Vec6 to_scaled(const Vec6& plucker) const;
  Vec6 from_scaled(const Vec6& scaled) const;
  ScrewBasis canonical(const ScrewBasis& scaled) const;

  ScrewKind kind_ = ScrewKind::Twist;
  ScrewScale scale_;
  Mat6 triangle_ = Mat6::Zero();     // R of Sᵀ = Q R (scaled screws as rows)
  Eigen::JacobiSVD<Mat6> svd_;       // of R: V spans the screws
  Vec6 singular_values_ = Vec6::Zero();
  Mat6 directions_ = Mat6::Identity();  // V: columns 0..rank−1 span, the rest the complement
  double tolerance_ = kScrewTolerance;
  int count_ = 0;
  int rank_ = 0;
};

/// Rank of the columns of `screws` (6 × k), scale-aware (see above).
int screw_rank(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws, const ScrewScale& scale = {},
               double tolerance = kScrewTolerance);

/// The reciprocal system of the columns of `screws` (twists → wrenches, wrenches → twists),
/// in canonical (row-echelon) form.
ScrewBasis reciprocal_screws(const Eigen::Ref<const Eigen::Matrix<double, 6, Eigen::Dynamic>>& screws,
                             const ScrewScale& scale = {}, double tolerance = kScrewTolerance);

}  // namespace mechdyn
