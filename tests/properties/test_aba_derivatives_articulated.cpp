// aba_derivatives on deep trees, where it solves with the articulated-body recursion
// (src/dynamics/articulated_solve.cpp, docs/derivatives.md eqs. D23–D25) instead of the
// factors of M: long chains (one path: every block of 4 right-hand sides row by row) and
// deep branched trees (each block down and up the tree), every joint type, with column
// counts that are and are not multiples of 4 (the last block's repeated lanes).
// The other derivative tests (test_dynamics_derivatives.cpp, test_derivatives_complex_step.cpp)
// run on models too shallow for the recursion, so they check the factors' path.
#include "no_malloc_probe.hpp"  // first: it configures Eigen (no_malloc_probe.hpp)

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>
#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"
// The sweeps themselves, private to the library (src/dynamics): for the test that both of
// their builds, and every storage of the right-hand sides, solve M x = b.
#include "../../src/dynamics/articulated_solve.hpp"

namespace mechdyn {
namespace {

// The differences' step: on these deep trees the rounding error of a centred difference,
// ~ε |q̈| κ(M) / h, is what limits it (measured on a 39-coordinate chain: 3e-3 at h = 1e-6,
// 2e-4 at 1e-5, 2.4e-5 at 1e-4, falling as h grows, so truncation is not yet felt), hence
// 1e-4 rather than the 1e-6 of test_dynamics_derivatives.cpp's shallow trees.
constexpr double kStep = 1e-4;

struct State {
  VecX q, v, tau;
};

State random_state(const Model& model, std::mt19937& rng) {
  return {testing::random_configuration(model, rng), testing::random_vector(model.nv, rng, 2.0),
          testing::random_vector(model.nv, rng, 3.0)};
}

/// A chain (`branching` 0) or a deep branched tree of random joints of every type.
Model deep_tree(unsigned seed, int bodies, double branching) {
  testing::RandomTreeOptions options;
  options.bodies = bodies;
  options.branch_probability = branching;
  return testing::random_tree(seed, options);
}

/// The deep models of these tests: chains and branched trees that take the recursion.
std::vector<Model> deep_models() {
  std::vector<Model> models;
  for (unsigned seed = 1; seed <= 6; ++seed) models.push_back(deep_tree(seed, 13 + 3 * static_cast<int>(seed), 0.0));
  for (unsigned seed = 11; seed <= 40 && models.size() < 12; ++seed) {
    Model model = deep_tree(seed, 36, 0.08);
    const DerivativeData work(model);
    if (work.articulated_solve && !work.single_path) models.push_back(std::move(model));
  }
  return models;
}

/// q ⊕ h e_j (the model's own integrate).
VecX shifted(const Model& model, Data& data, const VecX& q, Eigen::Index j, double h) {
  forward_kinematics(model, data, q);
  VecX dv = VecX::Zero(model.nv);
  dv[j] = h;
  VecX out = q;
  apply_velocity_increment(model, data, out, dv);
  return out;
}

/// Largest |analytic − centred difference| / (1e-6 (1 + |difference matrix|max)), as in
/// test_dynamics_derivatives.cpp (< 1 passes).
template <typename F>
double worst_ratio(const MatX& analytic, const F& column_difference) {
  MatX difference(analytic.rows(), analytic.cols());
  for (Eigen::Index j = 0; j < analytic.cols(); ++j) difference.col(j) = column_difference(j);
  return (analytic - difference).cwiseAbs().maxCoeff() / (1e-6 * (1.0 + difference.cwiseAbs().maxCoeff()));
}

double relative_difference(const MatX& a, const MatX& b) {
  return (a - b).cwiseAbs().maxCoeff() / (1.0 + b.cwiseAbs().maxCoeff());
}

// Bug caught: the models meant to exercise the recursion not taking it (the rule that picks
// it, articulated_solve_pays, changed) — every other test here would then test the factors.
TEST(AbaDerivativesArticulated, DeepModelsTakeTheRecursionOnPathsAndOnTrees) {
  int paths = 0, trees = 0, ragged = 0;
  for (const Model& model : deep_models()) {
    const DerivativeData work(model);
    EXPECT_TRUE(work.articulated_solve) << model.nv << " coordinates";
    (work.single_path ? paths : trees) += 1;
    ragged += model.nv % 4 != 0;
  }
  EXPECT_EQ(paths, 6);
  EXPECT_GE(trees, 3);
  EXPECT_GE(ragged, 3);  // a last block with repeated lanes
  const DerivativeData shallow(deep_tree(3, 4, 0.0));
  EXPECT_FALSE(shallow.articulated_solve);  // the factors stay the shorter there
}

// Bug caught: any wrong step of the recursion — a sign in (D24) or (D25), U_k for U_k / D_k,
// P not passed to the parent on a tree, a lane of a block mixed up or the last block's
// repeated lanes written wrong, the symmetric half of M⁻¹ copied the wrong way, the
// articulated inertia of a multi-axis joint taken per body rather than per coordinate —
// shows as a column of ∂q̈/∂q, ∂q̈/∂v or ∂q̈/∂τ that disagrees with the centred differences
// of ABA (a different algorithm: body-frame articulated inertias, joint by joint).
TEST(AbaDerivativesArticulated, MatchCentredDifferencesOfAba) {
  unsigned seed = 100;
  for (const Model& model : deep_models()) {
    Data data(model), scratch(model);
    DerivativeData work(model);
    std::mt19937 rng(++seed);
    for (int trial = 0; trial < 2; ++trial) {
      SCOPED_TRACE(std::to_string(model.nv) + " coordinates, trial " + std::to_string(trial));
      const State s = random_state(model, rng);
      aba_derivatives(model, data, work, s.q, s.v, s.tau);
      EXPECT_LT((data.ddq - aba(model, scratch, s.q, s.v, s.tau)).cwiseAbs().maxCoeff(),
                1e-9 * (1.0 + data.ddq.cwiseAbs().maxCoeff()));
      const auto difference = [&](const VecX& x, Eigen::Index j, bool effort) {
        VecX plus = x, minus = x;
        plus[j] += kStep, minus[j] -= kStep;
        const VecX fp = effort ? aba(model, scratch, s.q, s.v, plus) : aba(model, scratch, s.q, plus, s.tau);
        const VecX fm = effort ? aba(model, scratch, s.q, s.v, minus) : aba(model, scratch, s.q, minus, s.tau);
        return VecX((fp - fm) / (2 * kStep));
      };
      const auto position_difference = [&](Eigen::Index j, double h) {
        const VecX plus = aba(model, scratch, shifted(model, scratch, s.q, j, h), s.v, s.tau);
        const VecX minus = aba(model, scratch, shifted(model, scratch, s.q, j, -h), s.v, s.tau);
        return VecX((plus - minus) / (2 * h));
      };
      EXPECT_LT(worst_ratio(work.da_dq, [&](Eigen::Index j) { return position_difference(j, kStep); }), 1.0);
      EXPECT_LT(worst_ratio(work.da_dv, [&](Eigen::Index j) { return difference(s.v, j, false); }), 1.0);
      EXPECT_LT(worst_ratio(work.da_dtau, [&](Eigen::Index j) { return difference(s.tau, j, true); }), 1.0);
    }
  }
}

// Bug caught: an error too small for the differences' 1e-6 (a term of order 1e-8, a lane
// off by rounding-level garbage), and a wrong factor left in data.mass_matrix_factor (the
// recursion writes L and D from its own numbers, eq. D23', instead of factoring M): against
// dense algebra on CRBA's M — Eigen's LDLᵀ for M⁻¹, M⁻¹ times rnea_derivatives' ∂τ at
// a = q̈ — and against factor_mass_matrix on the same M, to 1e-9.
TEST(AbaDerivativesArticulated, MatchDenseAlgebraOnTheMassMatrixAndItsFactor) {
  unsigned seed = 200;
  for (const Model& model : deep_models()) {
    Data data(model), reference(model);
    DerivativeData work(model), inverse_work(model);
    std::mt19937 rng(++seed);
    SCOPED_TRACE(std::to_string(model.nv) + " coordinates");
    const State s = random_state(model, rng);
    aba_derivatives(model, data, work, s.q, s.v, s.tau);
    const MatX mass = crba(model, reference, s.q);
    EXPECT_LT(relative_difference(data.mass_matrix, mass), 1e-12);
    const Eigen::LDLT<MatX> dense(mass);
    const MatX inverse = dense.solve(MatX::Identity(model.nv, model.nv));
    EXPECT_LT(relative_difference(work.da_dtau, inverse), 1e-9);
    // both halves written: on a path one is copied from the other, on a tree each column is solved
    if (work.single_path) EXPECT_TRUE(work.da_dtau == work.da_dtau.transpose());
    EXPECT_LT(relative_difference(work.da_dtau, work.da_dtau.transpose()), 1e-12);
    rnea_derivatives(model, reference, inverse_work, s.q, s.v, data.ddq);
    EXPECT_LT(relative_difference(work.da_dq, MatX(-dense.solve(inverse_work.dtau_dq))), 1e-9);
    EXPECT_LT(relative_difference(work.da_dv, MatX(-dense.solve(inverse_work.dtau_dv))), 1e-9);
    reference.mass_matrix = data.mass_matrix;
    factor_mass_matrix(model, reference);
    EXPECT_LT(relative_difference(data.mass_matrix_factor, reference.mass_matrix_factor), 1e-10);
    VecX x = s.tau;
    solve_mass_matrix(model, data, x);  // the factor left behind solves M x = b
    EXPECT_LT((mass * x - s.tau).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + s.tau.cwiseAbs().maxCoeff()));
  }
}

// Bug caught: one of the builds of the sweeps wrong — the best the machine has (AVX-512's 8
// right-hand sides a block on a path, or AVX2+FMA: all that the tests above can run here),
// the AVX2+FMA variant (on a machine with AVX-512 the Best runs only on trees and columns),
// or the x86-64 baseline's (what every other machine runs) — or one of the three storages
// of the right-hand sides (column-major, transposed, the identity's half of M⁻¹) mishandled
// (a ragged last block of 8 included: nv = 19, 22, …): each against Eigen's LDLᵀ of CRBA's
// M on random right-hand sides, to 1e-9, and each build against the baseline's, to 1e-12.
TEST(AbaDerivativesArticulated, BothBuildsAndEveryStorageSolveTheMassMatrix) {
  using detail::SolveLayout;
  using detail::SolveVariant;
  unsigned seed = 300;
  for (const Model& model : deep_models()) {
    Data data(model), reference(model);
    DerivativeData work(model);
    std::mt19937 rng(++seed);
    SCOPED_TRACE(std::to_string(model.nv) + " coordinates");
    const State s = random_state(model, rng);
    aba_derivatives(model, data, work, s.q, s.v, s.tau);  // leaves the articulated axes in work
    const Eigen::LDLT<MatX> dense(crba(model, reference, s.q));
    MatX right(model.nv, model.nv);
    for (Eigen::Index j = 0; j < model.nv; ++j) right.col(j) = testing::random_vector(model.nv, rng, 1.0);
    const MatX identity = MatX::Identity(model.nv, model.nv);
    for (const SolveLayout layout : {SolveLayout::Columns, SolveLayout::Rows, SolveLayout::Identity}) {
      const MatX& b = layout == SolveLayout::Identity ? identity : right;
      const MatX expected = dense.solve(b);
      MatX solved[3];
      for (const SolveVariant variant : {SolveVariant::Best, SolveVariant::Avx2, SolveVariant::Baseline}) {
        MatX x = layout == SolveLayout::Rows ? MatX(b.transpose()) : b;
        detail::solve_articulated(model, work, x, layout, variant);
        if (layout == SolveLayout::Rows) x.transposeInPlace();
        EXPECT_LT(relative_difference(x, expected), 1e-9) << static_cast<int>(layout);
        solved[static_cast<int>(variant)] = x;
      }
      EXPECT_LT(relative_difference(solved[0], solved[2]), 1e-12) << static_cast<int>(layout);
      EXPECT_LT(relative_difference(solved[1], solved[2]), 1e-12) << static_cast<int>(layout);
    }
  }
}

// Bug caught: an allocation in the recursion's path (an Eigen temporary, a transposition
// that allocates), on a chain and on a branched tree; a stale number carried from one call
// to the next (the block scratch not reset): a second call at another state must give what
// a fresh DerivativeData gives, bit for bit.
TEST(AbaDerivativesArticulated, AllocatesNothingAndCarriesNothingOver) {
  const std::vector<Model> models = deep_models();
  for (const Model* model : {&models.front(), &models.back()}) {
    Data data(*model, DenseWorkspace::None);
    DerivativeData work(*model);
    ASSERT_TRUE(work.articulated_solve);
    std::mt19937 rng(7);
    const State s = random_state(*model, rng), t = random_state(*model, rng);
    aba_derivatives(*model, data, work, s.q, s.v, s.tau);  // the first call reserves M and its factor
    const long allocations = testing::allocations_during([&] { aba_derivatives(*model, data, work, t.q, t.v, t.tau); });
    if (allocations >= 0) EXPECT_EQ(allocations, 0);
    Data fresh_data(*model);
    DerivativeData fresh(*model);
    aba_derivatives(*model, fresh_data, fresh, t.q, t.v, t.tau);
    EXPECT_TRUE(work.da_dq == fresh.da_dq);
    EXPECT_TRUE(work.da_dv == fresh.da_dv);
    EXPECT_TRUE(work.da_dtau == fresh.da_dtau);
    EXPECT_TRUE(data.mass_matrix_factor == fresh_data.mass_matrix_factor);
  }
}

// Bug caught: a singular M let through the recursion (a division by a zero pivot D_k
// passing NaN on) instead of the SolverError every solve with M throws: a chain whose last
// body has no mass and no inertia, so its coordinate moves nothing.
TEST(AbaDerivativesArticulated, RefusesASingularMassMatrix) {
  Model model = deep_tree(5, 28, 0.0);
  Body& last = model.bodies.back();
  last.mass = 0.0;
  last.inertia.setZero();
  Data data(model);
  DerivativeData work(model);
  ASSERT_TRUE(work.articulated_solve);
  std::mt19937 rng(5);
  const State s = random_state(model, rng);
  EXPECT_THROW(aba_derivatives(model, data, work, s.q, s.v, s.tau), SolverError);
}

}  // namespace
}  // namespace mechdyn
