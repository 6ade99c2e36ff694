// Two allocation detectors together, for the zero-allocation tests. Include this header
// FIRST in the test file (it must define EIGEN_RUNTIME_NO_MALLOC and eigen_assert before
// any Eigen header), and in one translation unit per executable.
//  1. EIGEN_RUNTIME_NO_MALLOC with eigen_assert redefined to record a failure (works in
//     any build type) catches Eigen allocations in code instantiated in the test
//     (inline helpers of the public headers). It cannot see into the library, which is
//     compiled without the macro.
//  2. The counting malloc interposer of allocation_probe.hpp sees every heap allocation
//     of the calling thread, inside the library too.
#pragma once

#define EIGEN_RUNTIME_NO_MALLOC
#include <atomic>
#include <cstdio>
namespace no_malloc_probe {
inline std::atomic<int> eigen_assert_failures{0};
}
#define eigen_assert(x)                                                                  \
  do {                                                                                   \
    if (!(x)) {                                                                          \
      ++no_malloc_probe::eigen_assert_failures;                                          \
      std::fprintf(stderr, "eigen_assert failed: %s (%s:%d)\n", #x, __FILE__, __LINE__); \
    }                                                                                    \
  } while (false)

#include <gtest/gtest.h>

#include <Eigen/Core>

#include "allocation_probe.hpp"

namespace mechdyn::testing {

/// Opens both detectors for the calling thread, runs `work`, closes them; returns the
/// number of heap allocations seen (−1 where the interposer is unavailable).
template <typename Work>
long allocations_during(Work&& work) {
  const int assert_failures_before = no_malloc_probe::eigen_assert_failures.load();
  Eigen::internal::set_is_malloc_allowed(false);
  const long seen = count_allocations(work);
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(no_malloc_probe::eigen_assert_failures.load(), assert_failures_before)
      << "Eigen reported a heap allocation";
  return seen;
}

}  // namespace mechdyn::testing
