// compute_all_terms (evaluation/compute_all_terms.hpp) against the separate entry points,
// each run on a fresh Data so that it computes its own kinematics: on seeded random trees
// with every joint type and one cut joint of every loop type, and on the example models
// with joint friction, for both methods.
//
// Catches: a term that reads a stage an earlier term overwrote (the reactions reading
// ABA's q̈ accelerations instead of a, J̇-style a⁰ written into data.acceleration, RNEA
// clobbering the world poses), a term computed at the wrong level (h at a instead of
// q̈ = 0), the explicit τ = h + M a or q̈ built from a stale M or h, and an allocation in
// the one-pass evaluation.
#include <gtest/gtest.h>

#include <random>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include "allocation_probe.hpp"  // last: it defines malloc and friends

namespace mechdyn {
namespace {

double relative(const Eigen::Ref<const MatX>& x, const Eigen::Ref<const MatX>& reference) {
  return (x - reference).norm() / (1.0 + reference.norm());
}

// The one-pass terms equal the separate entry points (same functions, so to round-off).
void expect_terms_match(const Model& model, const VecX& q, const VecX& v, const VecX& a, const VecX& tau,
                        DynamicsMethod method, const std::string& what) {
  const bool recursive = method == DynamicsMethod::Recursive;
  Data all(model);
  AllTermsOptions options;
  options.method = method;
  compute_all_terms(model, all, q, v, &a, &tau, options);

  Data one(model);
  const double tol = 1e-12;
  EXPECT_LT(relative(all.mass_matrix, crba(model, one, q)), tol) << what;
  const VecX zero = VecX::Zero(model.nv);
  const VecX bias = recursive ? VecX(rnea(model, one, q, v, zero)) : VecX(explicit_bias_force(model, one, q, v));
  const VecX gravity = recursive ? VecX(rnea(model, one, q, zero, zero)) : VecX(one.gravity_force);
  EXPECT_LT(relative(all.bias_force, bias), tol) << what;
  EXPECT_LT(relative(all.gravity_force, gravity), tol) << what;
  const VecX inverse = recursive ? VecX(rnea(model, one, q, v, a)) : VecX(explicit_inverse_dynamics(model, one, q, v, a));
  EXPECT_LT(relative(all.tau, inverse), tol) << what;
  const VecX forward =
      recursive ? VecX(aba(model, one, q, v, tau)) : VecX(explicit_forward_dynamics(model, one, q, v, tau));
  EXPECT_LT(relative(all.ddq, forward), 1e-10) << what;
  if (model.num_loop_rows > 0) {
    loop_closure(model, one, q);
    EXPECT_LT(relative(all.loop_residual, one.loop_residual), tol) << what;
    EXPECT_LT(relative(all.loop_jacobian, one.loop_jacobian), tol) << what;
  }
  inverse_dynamics_with_friction(model, one, q, v, a, LuGreEvaluation::SteadyState);
  EXPECT_LT(relative(all.tau_with_friction, one.tau_with_friction), tol) << what;
  EXPECT_LT(relative(all.normal_load, one.normal_load), tol) << what;
  EXPECT_LT(relative(all.constraint_torque, one.constraint_torque), tol) << what;
  for (int l = 0; l < model.num_bodies(); ++l) {
    EXPECT_LT((all.reaction_force[l] - one.reaction_force[l]).norm(), tol * (1.0 + one.reaction_force[l].norm()))
        << what << " body " << l;
    EXPECT_LT((all.reaction_torque[l] - one.reaction_torque[l]).norm(), tol * (1.0 + one.reaction_torque[l].norm()))
        << what << " body " << l;
  }
  forward_kinematics(model, one, q);  // the poses `mechdyn eval` prints
  for (int l = 0; l < model.num_bodies(); ++l) {
    EXPECT_EQ(all.position[l], one.position[l]) << what << " body " << l;
    EXPECT_EQ(all.rotation[l], one.rotation[l]) << what << " body " << l;
  }
}

TEST(ComputeAllTerms, EqualsTheSeparateEntryPointsOnRandomTreesWithEveryLoopType) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model model = testing::tree_with_every_loop_type(seed);
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    const VecX tau = testing::random_vector(model.nv, rng, 5.0);
    for (DynamicsMethod method : {DynamicsMethod::Explicit, DynamicsMethod::Recursive})
      expect_terms_match(model, q, v, a, tau, method, "seed " + std::to_string(seed));
  }
}

TEST(ComputeAllTerms, EqualsTheSeparateEntryPointsWithJointFriction) {
  for (const char* file : {"five_axis_tree_stribeck.yaml", "five_axis_tree_coulomb_viscous.yaml",
                           "three_loop_mechanism.yaml"}) {
    const Model model = testing::example_model(file);
    std::mt19937 rng(3);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    const VecX tau = testing::random_vector(model.nv, rng, 5.0);
    for (DynamicsMethod method : {DynamicsMethod::Explicit, DynamicsMethod::Recursive})
      expect_terms_match(model, q, v, a, tau, method, file);
  }
}

// Catches: a missing check (out-of-range reads), or a message that does not name the
// argument, for each optional input.
TEST(ComputeAllTerms, BrokenSizesAreInvalidArgumentsNamingTheArgument) {
  const Model model = testing::tree_with_every_loop_type(2);
  Data data(model);
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv), short_v = VecX::Zero(model.nv - 1);
  EXPECT_THROW(compute_all_terms(model, data, VecX::Zero(model.nq - 1), v), InvalidArgument);
  for (const char* name : {"q", "v", "a", "tau"}) {
    try {
      const std::string n = name;
      const VecX bad_q = n == "q" ? VecX(VecX::Zero(model.nq + 1)) : q;
      compute_all_terms(model, data, bad_q, n == "v" ? short_v : v, n == "a" ? &short_v : &v,
                        n == "tau" ? &short_v : &v);
      ADD_FAILURE() << name << ": no exception";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(std::string(name) + " has", 0), 0u) << e.what();
    }
  }
  const Model other = testing::random_tree(3, {4});
  Data other_data(other);
  try {
    compute_all_terms(model, other_data, q, v);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("compute_all_terms: data was not built"), std::string::npos) << e.what();
  }
}

TEST(ComputeAllTerms, AllocatesNothing) {
  const Model model = testing::tree_with_every_loop_type(4);
  Data data(model);
  std::mt19937 rng(4);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng), a = testing::random_vector(model.nv, rng);
  const VecX tau = testing::random_vector(model.nv, rng);
  for (DynamicsMethod method : {DynamicsMethod::Explicit, DynamicsMethod::Recursive}) {
    AllTermsOptions options;
    options.method = method;
    compute_all_terms(model, data, q, v, &a, &tau, options);  // warm-up
    const long count = testing::count_allocations([&] { compute_all_terms(model, data, q, v, &a, &tau, options); });
    if (count >= 0) EXPECT_EQ(count, 0);
  }
}

// The rows form (MassMatrixForm::Rows, what `mechdyn eval` uses above 16 coordinates) on
// a Data made with no dense workspace. Catches: a term of the recursive method that
// reads or writes an nv × nv member (an out-of-range access or an allocation in the lean
// Data), rows formed from column forces a later term overwrote (each row is compared
// with CRBA's bit for bit after every term has run), and a rows form whose other terms
// differ from the dense form's (the same functions on the same stage: equal bit for bit).
TEST(ComputeAllTerms, RowsFormHoldsNoDenseMatrixAndGivesCrbasRows) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    const Model looped = testing::tree_with_every_loop_type(seed);
    const Model friction = testing::example_model("five_axis_tree_stribeck.yaml");
    for (const Model* model : {&looped, &friction}) {
      std::mt19937 rng(seed);
      const VecX q = testing::random_configuration(*model, rng);
      const VecX v = testing::random_vector(model->nv, rng), a = testing::random_vector(model->nv, rng);
      const VecX tau = testing::random_vector(model->nv, rng, 5.0);
      AllTermsOptions rows_options;
      rows_options.method = DynamicsMethod::Recursive;
      rows_options.mass_matrix = MassMatrixForm::Rows;
      Data lean(*model, DenseWorkspace::None);
      const long count =
          testing::count_allocations([&] { compute_all_terms(*model, lean, q, v, &a, &tau, rows_options); });
      if (count >= 0) EXPECT_EQ(count, 0) << model->name << ": the first call on a lean Data";
      EXPECT_EQ(lean.dense_workspaces(), DenseWorkspace::None) << model->name;
      EXPECT_EQ(lean.mass_matrix.size(), 0) << model->name;

      Data reference(*model);  // the world-frame CRBA (crba(q) may run in body coordinates: crba.hpp)
      forward_kinematics(*model, reference, q);
      const MatX crba_mass_matrix = crba_from_kinematics(*model, reference);
      VecX row = VecX::Constant(model->nv, 7.0);  // garbage the row must overwrite
      for (int i = 0; i < model->nv; ++i) {
        mass_matrix_row(*model, lean, i, row);
        for (int j = 0; j < model->nv; ++j)
          EXPECT_EQ(row[j], crba_mass_matrix(i, j)) << model->name << " M(" << i << "," << j << ")";
      }
      AllTermsOptions dense_options;
      dense_options.method = DynamicsMethod::Recursive;
      Data dense(*model);
      compute_all_terms(*model, dense, q, v, &a, &tau, dense_options);
      EXPECT_EQ(lean.bias_force, dense.bias_force) << model->name;
      EXPECT_EQ(lean.gravity_force, dense.gravity_force) << model->name;
      EXPECT_EQ(lean.tau, dense.tau) << model->name;
      EXPECT_EQ(lean.tau_with_friction, dense.tau_with_friction) << model->name;
      EXPECT_EQ(lean.ddq, dense.ddq) << model->name;
      EXPECT_EQ(lean.loop_jacobian, dense.loop_jacobian) << model->name;
      for (int l = 0; l < model->num_bodies(); ++l) {
        EXPECT_EQ(lean.reaction_force[l], dense.reaction_force[l]) << model->name << " body " << l;
        EXPECT_EQ(lean.position[l], dense.position[l]) << model->name << " body " << l;
      }
    }
  }
}

// Catches: the explicit method silently reading a dense M that the rows form never made
// (zeros, or an out-of-range read in a lean Data) for τ = M a + h and M q̈ = τ − h.
TEST(ComputeAllTerms, RowsFormWithTheExplicitMethodIsRefused) {
  const Model model = testing::random_tree(7, {6});
  Data data(model, DenseWorkspace::None);
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv);
  AllTermsOptions options;
  options.method = DynamicsMethod::Explicit;
  options.mass_matrix = MassMatrixForm::Rows;
  try {
    compute_all_terms(model, data, q, v, nullptr, nullptr, options);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("compute_all_terms: the explicit method"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mechdyn
