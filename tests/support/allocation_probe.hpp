// Counts the heap allocations of the calling thread, inside the library too.
//
// A counting interposer of the C allocation functions (glibc: the executable's
// malloc/calloc/realloc/memalign family takes precedence and forwards to __libc_*):
// Eigen temporaries (Eigen calls std::malloc), std::vector growth and std::string
// (operator new calls malloc) all end here. Include this header in exactly ONE
// translation unit of a test executable (every test file is its own executable).
//
// Under AddressSanitizer, ThreadSanitizer or MemorySanitizer the sanitizer's runtime owns
// malloc (it interposes it to track every block); a second interposer that forwards to
// __libc_malloc would hand the sanitizer blocks it never saw ("attempting free on address
// which was not malloc()-ed"). There the counter is off (count_allocations returns −1 and
// the zero-allocation tests skip their counts, scripts/test-sanitizers.sh); Eigen's own
// EIGEN_RUNTIME_NO_MALLOC check (no_malloc_probe.hpp) still runs.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MECHDYN_SANITIZER_OWNS_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MECHDYN_SANITIZER_OWNS_MALLOC 1
#endif
#endif

#if defined(__GLIBC__) && !defined(MECHDYN_SANITIZER_OWNS_MALLOC)
#define MECHDYN_COUNT_ALLOCATIONS 1
namespace mechdyn::testing::allocation_probe {
inline thread_local bool counting = false;  // trivially initialised: static TLS, no allocation
inline thread_local long allocations = 0;
inline thread_local unsigned long long bytes = 0;  // bytes requested while counting
inline void note(std::size_t size = 0) {
  if (!counting) return;
  ++allocations;
  bytes += size;
}
}  // namespace mechdyn::testing::allocation_probe
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* malloc(std::size_t size) {
  mechdyn::testing::allocation_probe::note(size);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  mechdyn::testing::allocation_probe::note(count * size);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  mechdyn::testing::allocation_probe::note(size);
  return __libc_realloc(pointer, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  mechdyn::testing::allocation_probe::note(size);
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  mechdyn::testing::allocation_probe::note(size);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  mechdyn::testing::allocation_probe::note(size);
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}
#else
#define MECHDYN_COUNT_ALLOCATIONS 0
#endif

namespace mechdyn::testing {

/// Heap allocations of the calling thread while `work()` runs; −1 where the
/// interposer is unavailable (not glibc, or a sanitizer build).
template <typename Work>
long count_allocations(Work&& work) {
#if MECHDYN_COUNT_ALLOCATIONS
  allocation_probe::allocations = 0;
  allocation_probe::counting = true;
  work();
  allocation_probe::counting = false;
  return allocation_probe::allocations;
#else
  work();
  return -1;
#endif
}

/// Bytes requested from the heap by the calling thread while `work()` runs (every
/// allocation, later frees not subtracted); −1 where the interposer is unavailable.
template <typename Work>
long long count_allocated_bytes(Work&& work) {
#if MECHDYN_COUNT_ALLOCATIONS
  allocation_probe::bytes = 0;
  allocation_probe::counting = true;
  work();
  allocation_probe::counting = false;
  return static_cast<long long>(allocation_probe::bytes);
#else
  work();
  return -1;
#endif
}

}  // namespace mechdyn::testing
