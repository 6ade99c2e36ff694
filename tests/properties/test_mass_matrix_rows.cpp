// M(q) row by row (dynamics/mass_matrix_rows.hpp), the form `mechdyn eval` prints for
// large trees without holding M: checked against the literal element sums of EJ eqs.
// (30)–(37) (explicit_mass_matrix_direct, an independent computation) and against CRBA,
// whose contractions it reorders (bit for bit), on seeded random trees with every joint
// type, branched and unbranched.
#include <gtest/gtest.h>

#include <random>

#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

// Bug caught: a row that misses the entries of descendants (the upper part of CRBA's
// columns), takes a wrong body's composite inertia, or lists a coordinate of a sibling
// branch as non-zero. The literal sums over each subtree are the reference.
TEST(MassMatrixRows, EqualTheLiteralSumsAndCrba) {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    testing::RandomTreeOptions options;
    options.bodies = 1 + static_cast<int>(seed % 30);
    options.branch_probability = seed % 3 == 0 ? 0.0 : 0.5;  // chains and branched trees
    const Model model = testing::random_tree(seed, options);
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    Data rows_data(model, DenseWorkspace::None), reference(model);
    composite_forces(model, rows_data, q);
    const MatX direct = explicit_mass_matrix_direct(model, reference, q);
    const MatX body_frames = crba(model, reference, q);  // body coordinates for one-axis trees (crba.hpp)
    forward_kinematics(model, reference, q);
    const MatX recursive = crba_from_kinematics(model, reference);  // the world form the rows share
    VecX row = VecX::Constant(model.nv, 7.0);  // garbage the row must overwrite
    for (int i = 0; i < model.nv; ++i) {
      mass_matrix_row(model, rows_data, i, row);
      const double scale = 1.0 + direct.row(i).cwiseAbs().maxCoeff();
      worst = std::max(worst, (row.transpose() - direct.row(i)).cwiseAbs().maxCoeff() / scale);
      EXPECT_LE((row.transpose() - direct.row(i)).cwiseAbs().maxCoeff(), 1e-12 * scale) << "seed " << seed << " row " << i;
      EXPECT_LE((body_frames.row(i) - direct.row(i)).cwiseAbs().maxCoeff(), 1e-12 * scale) << "seed " << seed;
      // The same dot products of the same operands as the world-frame CRBA: equal to the last bit.
      for (int j = 0; j < model.nv; ++j) EXPECT_EQ(row[j], recursive(i, j)) << "seed " << seed << " M(" << i << "," << j << ")";
    }
  }
  RecordProperty("worst_relative_difference_to_literal_sums", std::to_string(worst));
}

// Bug caught: an out-of-range row index or a row of the wrong size writing out of bounds.
TEST(MassMatrixRows, RefusesBadArguments) {
  const Model model = testing::random_tree(3, {5});
  Data data(model, DenseWorkspace::None);
  composite_forces(model, data, model.neutral_configuration());
  VecX row = VecX::Zero(model.nv);
  EXPECT_THROW(mass_matrix_row(model, data, -1, row), InvalidArgument);
  EXPECT_THROW(mass_matrix_row(model, data, model.nv, row), InvalidArgument);
  VecX short_row = VecX::Zero(model.nv - 1);
  EXPECT_THROW(mass_matrix_row(model, data, 0, short_row), InvalidArgument);
  EXPECT_THROW(composite_forces(model, data, VecX::Zero(model.nq + 1)), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
