// Memory of Data and Model in proportion to what the chosen algorithm needs (issue 16,
// defect 12): a Data made without dense workspaces holds O(n) bytes for a tree, and
// Data::allocated_bytes() says so truthfully; a dense group missing from a lean Data is
// allocated by the first algorithm that needs it and never again; Model::subtree costs
// O(n) and lists exactly the descendants.
#include <malloc.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/errors.hpp"
#include "random_model.hpp"
// Last: it defines malloc & co., whose declarations the system headers above must come first.
#include "allocation_probe.hpp"

#if MECHDYN_COUNT_ALLOCATIONS
// Frees, counted beside allocation_probe.hpp's allocations, so that a constructor's
// temporaries (Eigen's GEMM blocking buffers inside LLT::compute) are not taken for
// memory it holds: bytes freed by the calling thread while `tracking_frees` is set, as
// the allocator's usable size of each block (≥ what was requested for it).
namespace {
thread_local bool tracking_frees = false;
thread_local unsigned long long bytes_freed = 0;
}  // namespace
extern "C" {
void __libc_free(void*);
void free(void* pointer) {
  if (tracking_frees && pointer != nullptr) bytes_freed += malloc_usable_size(pointer);
  __libc_free(pointer);
}
}
#endif

namespace mechdyn {
namespace {

using testing::count_allocations;

// A chain of n one-axis joints (revolute and prismatic, random axes): nv = n.
Model chain(int n, unsigned seed = 5) {
  testing::RandomTreeOptions options;
  options.bodies = n;
  options.all_joint_types = false;
  options.branch_probability = 0.0;
  return testing::random_tree(seed, options);
}

// Bug caught: an nv × nv member allocated by the lean constructor (the 16 dense matrices
// of every Data before defect 12: 2.2 GB for a 4000-body chain). The lean Data's bytes
// double when n doubles; the full Data's quadruple (which shows the test can tell).
TEST(DataMemory, LeanDataOfATreeGrowsLinearly) {
  const Model m100 = chain(100), m200 = chain(200), m400 = chain(400);
  const double lean100 = static_cast<double>(Data(m100, DenseWorkspace::None).allocated_bytes());
  const double lean200 = static_cast<double>(Data(m200, DenseWorkspace::None).allocated_bytes());
  const double lean400 = static_cast<double>(Data(m400, DenseWorkspace::None).allocated_bytes());
  EXPECT_NEAR(lean200 / lean100, 2.0, 0.05);
  EXPECT_NEAR(lean400 / lean200, 2.0, 0.05);
  EXPECT_LT(lean400 / 400.0, 4096.0) << "bytes per body of a lean Data";
  const double full200 = static_cast<double>(Data(m200).allocated_bytes());
  const double full400 = static_cast<double>(Data(m400).allocated_bytes());
  EXPECT_GT(full400 / full200, 3.5) << "the full Data holds nv² matrices";
  // Each group adds its own matrices only: M alone is nv² doubles.
  const Data with_mass(m400, DenseWorkspace::MassMatrix);
  EXPECT_EQ(with_mass.allocated_bytes() - static_cast<std::size_t>(lean400), 400u * 400u * sizeof(double));
  EXPECT_TRUE(with_mass.holds(DenseWorkspace::MassMatrix));
  EXPECT_FALSE(with_mass.holds(DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor));
}

// Bug caught: allocated_bytes() missing a member (or a group), so that the accounting the
// scale tests and docs rely on would understate Data's memory. Independent count: the
// bytes the constructor requests from the heap minus what it frees again (the counting
// allocator of allocation_probe.hpp and the free hook above, which see inside the
// library), against allocated_bytes(). Allowed: the allocator's rounding of the freed
// temporaries (up to a page each) and the doubling growth of two index vectors — 1 % and 16 KB.
TEST(DataMemory, AllocatedBytesAccountsForEveryAllocation) {
#if !MECHDYN_COUNT_ALLOCATIONS
  GTEST_SKIP() << "allocation counting needs glibc and no sanitizer (allocation_probe.hpp)";
#else
  const Model tree = testing::random_tree(3, {300});
  const Model looped = testing::tree_with_every_loop_type(4);
  for (const Model* model : {&tree, &looped}) {
    for (const DenseWorkspace groups : {DenseWorkspace::None, DenseWorkspace::MassMatrix, DenseWorkspace::ClosedChains,
                                         DenseWorkspace::Friction, DenseWorkspace::All}) {
      SCOPED_TRACE(model->name + ", groups " + std::to_string(static_cast<unsigned>(groups)));
      Data* data = nullptr;
      bytes_freed = 0;
      tracking_frees = true;
      const long long requested = testing::count_allocated_bytes([&] { data = new Data(*model, groups); });
      tracking_frees = false;
      const double held = static_cast<double>(requested) - static_cast<double>(bytes_freed) -
                          static_cast<double>(sizeof(Data));
      const double counted = static_cast<double>(data->allocated_bytes());
      delete data;
      EXPECT_GE(held, 0.99 * counted - 16384) << "allocated_bytes() counts more than the Data holds";
      EXPECT_LE(held, 1.01 * counted + 16384) << "an allocation allocated_bytes() does not count";
    }
  }
#endif
}

// Bug caught: an O(n) algorithm that reads or writes a dense member (it would write out
// of range in a lean Data, or allocate). Every recursive algorithm and the row-wise M run
// on a Data with no dense workspace, allocating nothing from the first call, and give
// the full Data's results exactly.
TEST(DataMemory, RecursiveAlgorithmsNeedNoDenseWorkspace) {
  const Model model = testing::random_tree(11, {30});
  std::mt19937 rng(11);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng), a = testing::random_vector(model.nv, rng);
  Data lean(model, DenseWorkspace::None), full(model);
  VecX row = VecX::Zero(model.nv);
  const long seen = count_allocations([&] {
    rnea(model, lean, q, v, a);
    aba(model, lean, q, v, a);
    joint_reactions(model, lean, q, v, a);
    kinetic_energy(model, lean, q, v);
    composite_forces(model, lean, q);
    mass_matrix_row(model, lean, model.nv - 1, row);
  });
  if (seen >= 0) EXPECT_EQ(seen, 0);
  EXPECT_EQ(lean.dense_workspaces(), DenseWorkspace::None);
  EXPECT_EQ(rnea(model, lean, q, v, a), rnea(model, full, q, v, a));
  EXPECT_EQ(aba(model, lean, q, v, a), aba(model, full, q, v, a));
}

// Bug caught: a lean Data that crashes an algorithm needing a dense group, or that keeps
// allocating on every call. The first call reserves the group (allocates), later calls
// allocate nothing, and the results equal those of a full Data bit for bit.
TEST(DataMemory, MissingGroupIsReservedOnTheFirstCallOnly) {
  const Model model = testing::random_tree(12, {25});
  std::mt19937 rng(12);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng), tau = testing::random_vector(model.nv, rng);
  Data lean(model, DenseWorkspace::None), full(model);
  // The M route of the explicit forward dynamics needs M and its factor (the two-route
  // explicit_forward_dynamics takes ABA for this nv = 25 tree and needs neither).
  const long first = count_allocations([&] { explicit_forward_dynamics_mass_matrix(model, lean, q, v, tau); });
  if (first >= 0) EXPECT_GT(first, 0);
  EXPECT_TRUE(lean.holds(DenseWorkspace::MassMatrix | DenseWorkspace::MassMatrixFactor));
  EXPECT_FALSE(lean.holds(DenseWorkspace::ClosedChains));
  const long second = count_allocations([&] {
    explicit_forward_dynamics_mass_matrix(model, lean, q, v, tau);
    explicit_forward_dynamics(model, lean, q, v, tau);
    explicit_inverse_dynamics(model, lean, q, v, tau);
    crba(model, lean, q);
  });
  if (second >= 0) EXPECT_EQ(second, 0);
  EXPECT_EQ(explicit_forward_dynamics(model, lean, q, v, tau), explicit_forward_dynamics(model, full, q, v, tau));
  EXPECT_EQ(explicit_forward_dynamics_mass_matrix(model, lean, q, v, tau),
            explicit_forward_dynamics_mass_matrix(model, full, q, v, tau));

  // Closed chains: the constraint group too.
  const Model looped = testing::tree_with_every_loop_type(6);
  const VecX ql = testing::random_configuration(looped, rng);
  const VecX vl = testing::random_vector(looped.nv, rng), taul = testing::random_vector(looped.nv, rng);
  Data lean_looped(looped, DenseWorkspace::None), full_looped(looped);
  EXPECT_EQ(constrained_forward_dynamics(looped, lean_looped, ql, vl, taul),
            constrained_forward_dynamics(looped, full_looped, ql, vl, taul));
  EXPECT_TRUE(lean_looped.holds(DenseWorkspace::MassMatrix | DenseWorkspace::ClosedChains));
  const long again = count_allocations([&] { constrained_forward_dynamics(looped, lean_looped, ql, vl, taul); });
  if (again >= 0) EXPECT_EQ(again, 0);
}

// Bug caught: solving with a factor that was never computed (a lean Data): an
// out-of-range read instead of a typed error.
TEST(DataMemory, SolveWithoutAFactorIsRefused) {
  const Model model = chain(6);
  const Data lean(model, DenseWorkspace::None);
  VecX x = VecX::Ones(model.nv);
  EXPECT_THROW(solve_mass_matrix(model, lean, x), InvalidArgument);
}

// Bug caught: the compact subtree index losing or adding a descendant, listing a child
// before its parent, or not starting with the body itself. Reference: the definition,
// body b is in uL when u is b or one of its ancestors (Model::is_ancestor_or_self).
TEST(ModelSubtree, ListsExactlyTheDescendantsParentsFirst) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    const Model model = testing::random_tree(seed, {static_cast<int>(1 + seed % 37), true, true, 0.5});
    const int n = model.num_bodies();
    ASSERT_EQ(model.subtree.size(), static_cast<std::size_t>(n));
    for (int u = 0; u < n; ++u) {
      const auto range = model.subtree[u];
      ASSERT_FALSE(range.empty());
      EXPECT_EQ(range[0], u);
      std::set<int> listed(range.begin(), range.end());
      EXPECT_EQ(listed.size(), range.size()) << "a body listed twice";
      std::set<int> expected;
      for (int b = 0; b < n; ++b)
        if (model.is_ancestor_or_self(u, b)) expected.insert(b);
      EXPECT_EQ(listed, expected) << "seed " << seed << ", body " << u;
      std::set<int> seen;
      for (const int b : range) {
        if (b != u) EXPECT_TRUE(seen.count(model.bodies[b].parent)) << "child before its parent";
        seen.insert(b);
      }
    }
    EXPECT_EQ(model.subtree.allocated_bytes(), 3u * static_cast<std::size_t>(n) * sizeof(int));
  }
}

// Bug caught: a subtree representation quadratic in a chain's length (a list per body:
// 5·10⁷ entries, 200 MB, for 10,000 bodies). The index holds 12 bytes per body.
TEST(ModelSubtree, ChainIndexIsLinear) {
  const Model model = chain(10000);
  EXPECT_EQ(model.subtree[0].size(), 10000u);
  EXPECT_EQ(model.subtree[9999].size(), 1u);
  EXPECT_EQ(model.subtree.allocated_bytes(), 3u * 10000u * sizeof(int));
}

}  // namespace
}  // namespace mechdyn
