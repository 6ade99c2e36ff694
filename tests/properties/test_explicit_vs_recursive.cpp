// The two independent ways of computing tree dynamics must agree:
//   explicit (EJ eqs. 30–37, EC eqs. 19–22, resultant iteration, LTDL)  vs
//   recursive (CRBA, RNEA, ABA; Featherstone 2008).
// They share only the forward kinematics (itself checked against finite differences in
// test_forward_kinematics). Catches: a wrong element formula or subtree sum in either
// family, a missing Coriolis/gyroscopic term in one of them, a bad sparse factorisation.
#include <gtest/gtest.h>

#include <filesystem>

#include <Eigen/Eigenvalues>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

// |x − y| / max(|y|, floor): relative error with a floor for quantities that vanish.
double relative_error(const MatX& x, const MatX& y, double floor = 1.0) {
  return (x - y).norm() / std::max(y.norm(), floor);
}

struct Worst {
  int singular = 0;
  double mass_direct = 0;
  double mass = 0, bias = 0, gravity = 0, inverse = 0, reactions_tau = 0, forward_backward = 0, forward = 0;
};

void compare(const Model& model, unsigned seed, Worst& worst, const std::string& label) {
  std::mt19937 rng(seed);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng, 2.0);
  const VecX a = testing::random_vector(model.nv, rng, 2.0);
  const VecX zero = VecX::Zero(model.nv);
  Data explicit_data(model), recursive_data(model);

  const MatX m_explicit = explicit_mass_matrix(model, explicit_data, q);
  const MatX m_crba = crba(model, recursive_data, q);
  const double e_mass = relative_error(m_explicit, m_crba);

  const VecX h_explicit = explicit_bias_force(model, explicit_data, q, v);
  const VecX g_explicit = explicit_data.gravity_force;
  const VecX h_rnea = rnea(model, recursive_data, q, v, zero);
  const VecX g_rnea = rnea(model, recursive_data, q, zero, zero);
  const double e_bias = relative_error(h_explicit, h_rnea);
  const double e_gravity = relative_error(g_explicit, g_rnea);

  const VecX tau_explicit = explicit_inverse_dynamics(model, explicit_data, q, v, a);
  const VecX tau_rnea = rnea(model, recursive_data, q, v, a);
  const double e_inverse = relative_error(tau_explicit, tau_rnea);
  joint_reactions(model, explicit_data, q, v, a);
  // The reaction wrench carries a joint's effort without its drive's armature × a (the
  // armature's inertial effort belongs to the drive: ../shared/spec/force-elements.md), RNEA's
  // tau includes it: add it back (the bundled servo and gear examples have armature).
  VecX tau_reactions = explicit_data.tau;
  if (model.has_armature) tau_reactions += model.armature.cwiseProduct(a);
  const double e_reactions = relative_error(tau_reactions, tau_rnea);

  // The literal paper sums (EJ eqs. 30–37, O(n³)) against CRBA: the aggregated explicit form
  // and world-frame CRBA perform the same contractions, the literal one does not.
  const double e_mass_direct = relative_error(explicit_mass_matrix_direct(model, explicit_data, q), m_crba);
  EXPECT_LT(e_mass_direct, 1e-12) << label;
  worst.mass_direct = std::max(worst.mass_direct, e_mass_direct);

  const VecX tau = testing::random_vector(model.nv, rng, 5.0);
  // A singular M (e.g. the lunar-rover rocker of EJ Table 3, whose links have zero inertia
  // about their own joint axes) must be refused by both methods, never solved into NaN.
  bool explicit_refused = false, aba_refused = false;
  VecX a_explicit, a_aba;
  try {
    a_explicit = explicit_forward_dynamics(model, explicit_data, q, v, tau);
  } catch (const SolverError&) {
    explicit_refused = true;
  }
  try {
    a_aba = aba(model, recursive_data, q, v, tau);
  } catch (const SolverError&) {
    aba_refused = true;
  }
  EXPECT_EQ(explicit_refused, aba_refused) << label;
  if (explicit_refused || aba_refused) {
    ++worst.singular;
    return;
  }
  // Backward error: how far apart the two answers are in effort space, relative to the efforts.
  const double e_backward = (m_crba * (a_explicit - a_aba)).norm() / std::max((tau - h_rnea).norm(), 1.0);
  const double e_forward = relative_error(a_explicit, a_aba);

  EXPECT_LT(e_mass, 1e-12) << label;
  EXPECT_LT(e_bias, 1e-12) << label;
  EXPECT_LT(e_gravity, 1e-12) << label;
  EXPECT_LT(e_inverse, 1e-12) << label;
  EXPECT_LT(e_reactions, 1e-12) << label;
  EXPECT_LT(e_backward, 1e-12) << label;
  // The forward error is the backward error amplified by cond(M); bound it accordingly.
  const double cond = [&] {
    Eigen::SelfAdjointEigenSolver<MatX> eig(m_crba, Eigen::EigenvaluesOnly);
    return eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  }();
  EXPECT_LT(e_forward, 1e-15 * cond + 1e-12) << label << " cond(M) = " << cond;

  worst.mass = std::max(worst.mass, e_mass);
  worst.bias = std::max(worst.bias, e_bias);
  worst.gravity = std::max(worst.gravity, e_gravity);
  worst.inverse = std::max(worst.inverse, e_inverse);
  worst.reactions_tau = std::max(worst.reactions_tau, e_reactions);
  worst.forward_backward = std::max(worst.forward_backward, e_backward);
  worst.forward = std::max(worst.forward, e_forward);
}

void print(const Worst& w, const char* what) {
  std::printf("%s worst relative differences: M literal %.2e, M %.2e, h %.2e, g %.2e, M a + h vs RNEA %.2e, "
              "reactions' tau vs RNEA %.2e, forward (effort space) %.2e, forward (accelerations) %.2e; singular M refused by both: %d\n",
              what, w.mass_direct, w.mass, w.bias, w.gravity, w.inverse, w.reactions_tau, w.forward_backward, w.forward, w.singular);
}

TEST(ExplicitVsRecursive, AgreeOnEveryBundledExample) {
  Worst worst;
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MECHDYN_SOURCE_DIR) + "/examples/models")) {
    if (entry.path().extension() != ".yaml") continue;
    const Model model = load_model_file(entry.path().string());
    if (has_flexible_bodies(model)) continue;  // the rigid algorithms refuse beams (flexible/flexible_beam.hpp)
    for (unsigned seed = 1; seed <= 10; ++seed) compare(model, seed, worst, entry.path().filename().string());
    ++count;
  }
  EXPECT_GE(count, 5);
  print(worst, "examples:");
}

TEST(ExplicitVsRecursive, AgreeOnSeededRandomTreesOfOneToSixtyBodiesWithEveryJointType) {
  Worst worst;
  int joints_seen[6] = {0, 0, 0, 0, 0, 0};
  for (int bodies = 1; bodies <= 60; ++bodies) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      const Model model = testing::random_tree(1000 * bodies + seed, {bodies});
      for (const Joint& j : model.joints) ++joints_seen[static_cast<int>(j.type)];
      compare(model, seed, worst, model.name);
    }
  }
  for (int t = 0; t < 6; ++t) EXPECT_GT(joints_seen[t], 10) << joint_type_name(static_cast<JointType>(t));
  print(worst, "random trees:");
}

TEST(ExplicitVsRecursive, AgreeOnRevolutePrismaticChainsUpToSixty) {
  // The papers' own setting: R/P joints only, long serial chains.
  Worst worst;
  for (int bodies : {1, 2, 5, 10, 20, 40, 60}) {
    testing::RandomTreeOptions options;
    options.bodies = bodies;
    options.all_joint_types = false;
    options.branch_probability = 0.0;
    const Model model = testing::random_tree(77 + bodies, options);
    compare(model, bodies, worst, model.name);
  }
  print(worst, "R/P chains:");
}

}  // namespace
}  // namespace mechdyn
