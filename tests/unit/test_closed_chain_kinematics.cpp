// Closed-chain kinematics: J̇v, cut-joint unit wrenches, rank/mobility, assembly.
// Catches: a J̇v that is not the derivative of J v (missing Coriolis-like term of a
// cut-joint type); a unit wrench on the wrong body or with the wrong sign (it would
// not reproduce J); a rank count that misses redundant rows; assembly that does not
// close the loops or moves the actuated joint.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "closed_chain_models.hpp"
#include <Eigen/QR>
#include <Eigen/SVD>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/jacobi_svd.hpp"
#include "mechdyn/constraints/constraint_rank.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

TEST(JacobiSvd, MatchesEigenOnRankDeficientMatrices) {
  // Random m × n matrices of rank r (products of random factors) in both shapes: the
  // singular values, the rank, A⁺ b and (AᵀA)⁺ c agree with Eigen's BDC SVD and COD.
  std::mt19937 rng(42);
  for (auto [m, n, r] : std::vector<std::array<int, 3>>{{6, 7, 6}, {15, 7, 6}, {5, 9, 3}, {9, 4, 4}, {8, 8, 5}}) {
    const MatX a = MatX(testing::random_vector(m * r, rng).reshaped(m, r)) *
                   MatX(testing::random_vector(r * n, rng).reshaped(r, n));
    JacobiSvd svd(m, n);
    svd.compute(a);
    EXPECT_EQ(svd.rank(1e-9), r);
    VecX sorted = svd.singular_values();
    std::sort(sorted.data(), sorted.data() + n, std::greater<double>());
    const Eigen::BDCSVD<MatX> reference(a);
    for (int i = 0; i < std::min(m, n); ++i) EXPECT_NEAR(sorted[i], reference.singularValues()[i], 1e-12);
    const VecX b = testing::random_vector(m, rng), c = testing::random_vector(n, rng);
    VecX x(n), y(n);
    svd.solve_min_norm(b, x, 1e-9);
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(a);
    cod.setThreshold(1e-9);
    EXPECT_LT((x - cod.solve(b)).norm(), 1e-9);
    svd.solve_gram(c, y, 1e-9);
    const MatX gram = a.transpose() * a;
    Eigen::CompleteOrthogonalDecomposition<MatX> gram_cod(gram);
    gram_cod.setThreshold(1e-12);
    EXPECT_LT((y - gram_cod.solve(c)).norm(), 1e-6 * (1 + y.norm()));
  }
}

TEST(JacobiSvd, DirectGramSolveTakesCholeskyOnlyWhenCertifiedAndMatchesTheSvd) {
  // solve_gram_direct (constrained forward dynamics' λ) against compute + solve_gram.
  // Catches: a Cholesky path taken on a rank-deficient or ill-conditioned AᵀA (redundant
  // closure rows would get a wrong λ instead of the minimum-norm one), a wrong in-place
  // triangular inverse, and a stale workspace when the SVD is needed after the Cholesky.
  std::mt19937 rng(7);
  struct Shape {
    int m, n, r;
    double spread;  // ratio of the smallest to the largest singular value of a full-rank A
    bool direct;    // the expected path
  };
  for (const Shape& s : std::vector<Shape>{{7, 6, 6, 0.1, true},
                                           {7, 2, 2, 0.5, true},
                                           {12, 9, 9, 0.05, true},
                                           {7, 6, 5, 1.0, false},      // redundant row
                                           {3, 5, 3, 1.0, false},      // more rows than coordinates
                                           {7, 6, 6, 1e-5, false}}) {  // cond(AᵀA) = 1e10 > 1e6
    MatX a;
    if (s.r < s.n) {
      a = MatX(testing::random_vector(s.m * s.r, rng).reshaped(s.m, s.r)) *
          MatX(testing::random_vector(s.r * s.n, rng).reshaped(s.r, s.n));
    } else {  // U diag(σ) Vᵀ with σ from 1 down to `spread`
      const Eigen::HouseholderQR<MatX> u(MatX(testing::random_vector(s.m * s.n, rng).reshaped(s.m, s.n)));
      const Eigen::HouseholderQR<MatX> v(MatX(testing::random_vector(s.n * s.n, rng).reshaped(s.n, s.n)));
      VecX sigma(s.n);
      for (int i = 0; i < s.n; ++i) sigma[i] = std::pow(s.spread, double(i) / std::max(1, s.n - 1));
      a = MatX(u.householderQ()).leftCols(s.n) * sigma.asDiagonal() * MatX(v.householderQ()).transpose();
    }
    const VecX c = testing::random_vector(s.n, rng);
    JacobiSvd reference(s.m, s.n), direct(s.m, s.n);
    VecX expected(s.n), y(s.n);
    reference.compute(a);
    reference.solve_gram(c, expected, 1e-9);
    for (int repeat = 0; repeat < 2; ++repeat) {  // the second call starts from the first's workspace
      EXPECT_EQ(direct.solve_gram_direct(a, c, y, 1e-9), s.direct) << s.m << "x" << s.n << " rank " << s.r;
      EXPECT_LT((y - expected).norm(), 1e-10 * (1 + expected.norm())) << s.m << "x" << s.n << " rank " << s.r;
    }
  }
}

TEST(LoopAcceleration, BiasIsTheDerivativeOfJacobianTimesVelocity) {
  // d/dt (J(q(t)) v) at constant v equals J̇ v: central differences along q(t) = q ⊕ t v.
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const Model model = testing::tree_with_every_loop_type(seed);
    std::mt19937 rng(seed + 3);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    loop_bias_acceleration(model, data, q, v);
    const double h = 1e-6;
    loop_closure(model, plus, testing::integrate_configuration(model, q, v, h));
    loop_closure(model, minus, testing::integrate_configuration(model, q, v, -h));
    const VecX fd = (plus.loop_jacobian * v - minus.loop_jacobian * v) / (2 * h);
    for (Eigen::Index r = 0; r < fd.size(); ++r)
      EXPECT_NEAR(data.loop_bias[r], fd[r], 2e-5 * (1 + std::abs(fd[r]))) << "seed " << seed << " row " << r;
  }
}

TEST(CutJointForces, RowWrenchesReproduceTheJacobian) {
  // J_rk = s_kᵀ W_a,r (k on a's chain) + s_kᵀ W_b,r (k on b's chain): power of the unit wrenches.
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const Model model = testing::tree_with_every_loop_type(seed);
    std::mt19937 rng(seed + 5);
    const VecX q = testing::random_configuration(model, rng);
    Data data(model);
    loop_closure(model, data, q);
    loop_row_wrenches(model, data);
    MatX rebuilt = MatX::Zero(model.num_loop_rows, model.nv);
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      const Loop& loop = model.loops[i];
      for (int r = model.loop_row_index[i]; r < model.loop_row_index[i] + loop_rows(loop.type); ++r) {
        for (int side = 0; side < 2; ++side) {
          const int body = side == 0 ? loop.a.body : loop.b.body;
          const Vec6& w = side == 0 ? data.loop_row_wrench_a[r] : data.loop_row_wrench_b[r];
          for (int b = body; b != kGround; b = model.bodies[b].parent)
            for (int k = model.joints[b].v_index; k < model.joints[b].v_index + model.joints[b].nv; ++k)
              rebuilt(r, k) += data.motion_axis[k].dot(w);
        }
      }
    }
    EXPECT_LT((rebuilt - data.loop_jacobian).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
  }
}

TEST(ConstraintRank, PlanarFourBarHasMobilityOne) {
  const Model model = testing::example_model("four_bar.yaml");
  Data data(model);
  VecX q(3);
  q << 0.5, 0.0, 1.5;
  assemble(model, data, q);
  const ConstraintRank rank = constraint_rank(model, data, q);
  EXPECT_EQ(rank.rows, 2);
  EXPECT_EQ(rank.rank, 2);
  EXPECT_EQ(rank.mobility, 1);
  EXPECT_TRUE(rank.redundant_rows.empty());
}

TEST(ConstraintRank, SpatialRevoluteCutOfAPlanarLoopHasThreeRedundantRows) {
  // The same four-bar closed by a spatial revolute cut joint (5 rows): the loop is planar,
  // so the out-of-plane rows (z position, two tilts) are identically satisfied: rank 2.
  Model model = testing::example_model("four_bar.yaml");
  model.loops[0].type = LoopType::Revolute;
  finalize_model(model, "four_bar_revolute_cut");
  Data data(model);
  VecX q(3);
  q << 0.5, 0.0, 1.5;
  assemble(model, data, q);
  const ConstraintRank rank = constraint_rank(model, data, q);
  EXPECT_EQ(rank.rows, 5);
  EXPECT_EQ(rank.rank, 2);
  EXPECT_EQ(rank.mobility, 1);
  EXPECT_EQ(rank.redundant_rows, (std::vector<int>{2, 3, 4}));
}

TEST(ConstraintRank, ThreeLoopMechanismHasOneDegreeOfFreedom) {
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  VecX q = VecX::Zero(model.nq);
  assemble(model, data, q);
  const ConstraintRank rank = constraint_rank(model, data, q);
  EXPECT_EQ(model.nv, 7);
  EXPECT_EQ(rank.rows, 6);
  EXPECT_EQ(rank.rank, 6);
  EXPECT_EQ(rank.mobility, 1);
}

TEST(Assembly, ClosesTheLoopsAndKeepsTheActuatedCoordinates) {
  for (const char* file : {"four_bar.yaml", "slider_crank.yaml", "three_loop_mechanism.yaml"}) {
    const Model model = testing::example_model(file);
    Data data(model);
    VecX q = VecX::Zero(model.nq);
    q[0] = 0.3;  // the actuated crank in every file is the first body
    const AssemblyResult result = assemble(model, data, q);
    EXPECT_LE(result.residual, 1e-12) << file;
    EXPECT_DOUBLE_EQ(q[0], 0.3) << file;
    loop_closure(model, data, q);
    EXPECT_LE(data.loop_residual.lpNorm<Eigen::Infinity>(), 1e-12) << file;
  }
}

TEST(Assembly, ThreeLoopTableConfigurationClosesExactly) {
  // The reconstruction puts the ground pivots so that q = 0 is the table's assembled pose:
  // with the exact pivot of joint 1'' at [−0.1, 0.0001] (sums of Table 3's vectors) all
  // three loops close at q = 0 to round-off, and assembly leaves q = 0 in place. Catches a
  // rounded pivot (the earlier [−0.1, 0] left a 1e-4 m misclosure and moved q by 3.6 mrad).
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  VecX q = VecX::Zero(model.nq);
  loop_closure(model, data, q);
  EXPECT_LT(data.loop_residual.lpNorm<Eigen::Infinity>(), 1e-15);
  assemble(model, data, q);
  EXPECT_LT(q.lpNorm<Eigen::Infinity>(), 1e-12);
}

}  // namespace
}  // namespace mechdyn
