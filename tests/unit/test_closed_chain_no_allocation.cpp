// Closed-chain evaluation allocates nothing once Data exists (HOUSE-STYLE "Model and
// Data"): constrained forward dynamics, J̇v, projection of velocities and positions, and
// closed-chain inverse dynamics with assembly. Same two detectors as test_no_allocation.cpp
// (Eigen's EIGEN_RUNTIME_NO_MALLOC and a counting glibc malloc interposer).
// Catches: a temporary VecX/MatX in the range-space solve, an Eigen decomposition that
// reallocates in compute(), a std::vector built per call.
#define EIGEN_RUNTIME_NO_MALLOC
#include <atomic>
#include <cstdio>
#include <cstdlib>
namespace no_malloc_probe {
inline std::atomic<int> eigen_assert_failures{0};
}
#define eigen_assert(x)                                                      \
  do {                                                                       \
    if (!(x)) {                                                              \
      ++no_malloc_probe::eigen_assert_failures;                              \
      std::fprintf(stderr, "eigen_assert failed: %s (%s:%d)\n", #x, __FILE__, __LINE__); \
    }                                                                        \
  } while (false)


#include <gtest/gtest.h>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/model/data.hpp"

// ---- counting interposer (glibc only) ------------------------------------------------
#if defined(__GLIBC__)
#define MECHDYN_COUNT_ALLOCATIONS 1
namespace no_malloc_probe {
thread_local bool counting = false;  // trivially initialised: lives in static TLS, no allocation
thread_local long allocations = 0;
inline void note() {
  if (counting) ++allocations;
}
}  // namespace no_malloc_probe
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* malloc(std::size_t size) {
  no_malloc_probe::note();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  no_malloc_probe::note();
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  no_malloc_probe::note();
  return __libc_realloc(pointer, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  no_malloc_probe::note();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  no_malloc_probe::note();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  no_malloc_probe::note();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}
#else
#define MECHDYN_COUNT_ALLOCATIONS 0
#endif

namespace mechdyn {
namespace {

// Opens both detectors for the calling thread, runs `work`, closes them; returns the
// number of heap allocations seen (−1 where the interposer is unavailable).
template <typename Work>
long allocations_during(Work&& work) {
  const int assert_failures_before = no_malloc_probe::eigen_assert_failures.load();
  Eigen::internal::set_is_malloc_allowed(false);
#if MECHDYN_COUNT_ALLOCATIONS
  no_malloc_probe::allocations = 0;
  no_malloc_probe::counting = true;
#endif
  work();
#if MECHDYN_COUNT_ALLOCATIONS
  no_malloc_probe::counting = false;
  const long seen = no_malloc_probe::allocations;
#else
  const long seen = -1;
#endif
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(no_malloc_probe::eigen_assert_failures.load(), assert_failures_before)
      << "Eigen reported a heap allocation";
  return seen;
}

TEST(ClosedChainNoAllocation, EvaluationAllocatesNothing) {
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv), a = VecX::Zero(model.nv), tau = VecX::Zero(model.nv);
  v[0] = 0.3, a[0] = 0.1, tau[0] = 0.5;
  q[0] = 0.2;
  closed_chain_inverse_dynamics(model, data, q, v, a);  // warm up: assembled state
  q[0] = 0.25;                                          // a new input: assembly must iterate
  const long forward = allocations_during([&] { constrained_forward_dynamics(model, data, q, v, tau); });
  const long bias = allocations_during([&] { loop_bias_acceleration(model, data, q, v); });
  const long velocities = allocations_during([&] { project_velocities(model, data, q, v); });
  const long positions = allocations_during([&] { project_positions(model, data, q); });
  const long inverse = allocations_during([&] { closed_chain_inverse_dynamics(model, data, q, v, a); });
  if (forward >= 0) {
    EXPECT_EQ(forward, 0) << "constrained_forward_dynamics";
    EXPECT_EQ(bias, 0) << "loop_bias_acceleration";
    EXPECT_EQ(velocities, 0) << "project_velocities";
    EXPECT_EQ(positions, 0) << "project_positions";
    EXPECT_EQ(inverse, 0) << "closed_chain_inverse_dynamics";
  }
}

}  // namespace
}  // namespace mechdyn
