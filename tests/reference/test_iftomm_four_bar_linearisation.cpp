// The IFToMM benchmark "Fourbar linkage with diagonal spring" (library.iftomm-multibody.org;
// examples/models/iftomm_four_bar_spring.yaml gives the definition we use): the equilibrium
// angle and the eigenvalues of the linearised motion about it, as published with the
// benchmark to about 11 digits. The published numbers are those that B. Minaker's EoM
// solution (IFToMM solution 120, iftomm-multibody.org/benchmark/solution/120/) checks its
// poles against, in the EoM sources (github.com/BPMinaker/eom_pkg; input_ex_four_bar.m has
// φ = 2.23433101898 rad, k = 25 N/m, c = 1 N s/m, unit links and masses):
//   c = 1: λ = −0.2423858093 ± 2.1339550282 i (1/s);   c = 0: λ = ± 2.14767663837 i.
// Catches any error in the closed chain's reduced stiffness (its closure-curvature term),
// mass or damping, and in the equilibrium search.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "closed_chain_models.hpp"
#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(IftommFourBarLinearisation, EigenvaluesAboutTheEquilibriumAreThePublishedOnes) {
  const Model model = testing::example_model("iftomm_four_bar_spring.yaml");
  ModesOptions options;
  options.equilibrium.lock_actuated = false;  // the crank is the model's free coordinate
  // start 0.3 rad away from the equilibrium: the search must find it
  VecX start = model.initial_configuration;
  start[0] += 0.3;
  const MechanismModes modes = mechanism_modes(model, start, options);
  ASSERT_EQ(modes.frequencies.size(), 1u);
  ASSERT_EQ(modes.eigenvalues.size(), 2u);
  const std::complex<double> published(-0.2423858093, 2.1339550282);
  const std::complex<double> upper = modes.eigenvalues[0].imag() > 0 ? modes.eigenvalues[0] : modes.eigenvalues[1];
  EXPECT_LT(std::abs(upper - published), 2e-10 * std::abs(published)) << upper;
  EXPECT_NEAR(modes.frequencies[0] * 2.0 * kPi, 2.14767663837, 2e-10 * 2.14767663837);  // undamped (c = 0)
  // the same from the linear model's A at that equilibrium
  const LinearModel lm = linearize(model, modes.q, VecX::Zero(model.nv));
  ASSERT_EQ(lm.A.rows(), 2);
  const double trace = lm.A.trace(), det = lm.A.determinant();
  const std::complex<double> root = 0.5 * (trace + std::sqrt(std::complex<double>(trace * trace - 4.0 * det)));
  EXPECT_LT(std::abs(root - published), 2e-10 * std::abs(published)) << root;
}

}  // namespace
}  // namespace mechdyn
