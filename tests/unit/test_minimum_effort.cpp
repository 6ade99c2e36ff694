// The minimum-effort solution of an indeterminate force balance
// (constraints/minimum_effort.hpp), against an independent construction with Eigen's
// JacobiSVD: x = x_p + N z, x_p = A⁺ b, N = kernel of A, z = −(N_τ)⁺ τ_p.
// Catches: minimising (τ, y) together instead of τ first, a wrong null-space basis, a
// wrong internal-force space, a row-rank-deficient system reported as solved.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <random>

#include "mechdyn/constraints/minimum_effort.hpp"

namespace mechdyn {
namespace {

VecX reference(const MatX& a, const VecX& b, Eigen::Index efforts, MatX& internal) {
  Eigen::JacobiSVD<MatX> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const VecX particular = svd.solve(b);
  const Eigen::Index rank = svd.rank();
  const MatX kernel = svd.matrixV().rightCols(a.cols() - rank);
  if (kernel.cols() == 0) {
    internal = MatX::Zero(efforts, 0);
    return particular;
  }
  const MatX block = kernel.topRows(efforts);
  Eigen::JacobiSVD<MatX> small(block, Eigen::ComputeFullU | Eigen::ComputeFullV);
  small.setThreshold(1e-9);
  const VecX z = -small.solve(particular.head(efforts));
  internal = small.matrixU().leftCols(small.rank());
  return particular + kernel * z;
}

TEST(MinimumEffort, MatchesAnIndependentConstruction) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  struct Case { int rows, cols, efforts, passive_patterns; };
  // passive_patterns: columns of A duplicated among the non-effort unknowns, so that
  // some internal patterns involve no effort at all (passive over-constraint).
  for (const Case c : {Case{6, 6, 4, 0}, Case{6, 8, 4, 0}, Case{54, 56, 4, 0}, Case{10, 14, 3, 2}, Case{5, 9, 6, 0}}) {
    MatX a(c.rows, c.cols);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
    for (int p = 0; p < c.passive_patterns; ++p) a.col(c.cols - 1 - p) = a.col(c.efforts + p);
    VecX b(c.rows);
    for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = normal(rng);
    MinimumEffortSolver solver(c.rows, c.cols, c.efforts);
    VecX x(c.cols);
    ASSERT_TRUE(solver.solve(a, b, x));
    MatX internal;
    const VecX expected = reference(a, b, c.efforts, internal);
    EXPECT_LE((a * x - b).norm(), 1e-10 * (1.0 + b.norm())) << c.rows << "x" << c.cols;
    EXPECT_LE((x - expected).norm(), 1e-9 * (1.0 + expected.norm())) << c.rows << "x" << c.cols;
    ASSERT_EQ(solver.internal_force_dimension(), internal.cols());
    const MatX basis = solver.internal_force_basis();
    EXPECT_LE((basis * basis.transpose() - internal * internal.transpose()).norm(), 1e-9);
    EXPECT_LE((basis.transpose() * basis - MatX::Identity(basis.cols(), basis.cols())).norm(), 1e-12);
    // the efforts have no component along the internal forces: no smaller efforts exist
    EXPECT_LE((basis.transpose() * x.head(c.efforts)).norm(), 1e-9 * (1.0 + x.norm()));
  }
}

TEST(MinimumEffort, ReportsALostRowRank) {
  MatX a(3, 4);
  a << 1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 1;  // row 2 = 2 × row 1
  MinimumEffortSolver solver(3, 4, 1);
  VecX x(4);
  EXPECT_FALSE(solver.solve(a, VecX::Ones(3), x));
  MinimumEffortSolver tall(4, 3, 1);  // more equations than unknowns
  VecX y(3);
  EXPECT_FALSE(tall.solve(MatX::Random(4, 3), VecX::Ones(4), y));
}

}  // namespace
}  // namespace mechdyn
