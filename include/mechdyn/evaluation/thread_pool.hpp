// A persistent pool of worker threads for evaluating many independent items in one call
// (evaluation/batch.hpp, `mechdyn sweep`; docs/python.md "Batches"). std::thread only.
//
// parallel_for(count, body) hands out [0, count) in contiguous blocks of equal length (about
// 8 per thread) to the calling thread and the workers, which take the next block when they
// finish one, and returns when every block is done. body is called as body(begin, end,
// thread) once per block; `thread` (0 … size() − 1: 0 the caller, c worker c) is the same
// for every block one thread runs, so that a caller can give each thread its own
// workspace. Why blocks handed out rather than one fixed chunk per thread: on a shared
// machine a worker may be descheduled for milliseconds; with fixed chunks the caller then
// waits for it, with blocks the others take its share (docs/benchmarks.md, "Batch").
// A worker that wakes after the caller has taken the last block takes no part in that call.
//
// Errors: an exception thrown by body stops the handing out of further blocks; after the
// blocks already handed out are done, the exception of the lowest block is rethrown in the
// caller (blocks are handed out in order, so it is the first failing range of items), the
// others are dropped. A call from inside one of the pool's own blocks (nesting) throws
// InvalidArgument. Calls from several threads on one pool take turns (a mutex).
//
// Waiting: a worker spins for about 50 µs for the next call before it sleeps on a condition
// variable, so that calls in quick succession do not pay a wake-up each; the caller spins
// likewise for the workers' last blocks. Allocates nothing per call after the constructor
// (the body is passed by pointer, not in a std::function).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace mechdyn {

class ThreadPool {
 public:
  /// A pool of `threads` threads: the caller and threads − 1 workers.
  /// 0: std::thread::hardware_concurrency() (1 when unknown). Throws InvalidArgument for
  /// a negative count.
  explicit ThreadPool(int threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// The number of threads (the caller included).
  int size() const { return size_; }

  /// body(begin, end, thread) on blocks covering [0, count) once; see the header.
  template <class Body>
  void parallel_for(std::ptrdiff_t count, Body&& body) {
    using Stored = std::remove_reference_t<Body>;
    run(count, [](void* function, std::ptrdiff_t begin, std::ptrdiff_t end, int thread) {
      (*static_cast<Stored*>(function))(begin, end, thread);
    }, const_cast<void*>(static_cast<const void*>(&body)));
  }

 private:
  using Invoke = void (*)(void* function, std::ptrdiff_t begin, std::ptrdiff_t end, int thread);
  void run(std::ptrdiff_t count, Invoke invoke, void* function);
  void take_blocks(int thread) noexcept;  // runs blocks of the current call until none is left
  void worker_loop(int thread);

  int size_ = 1;
  std::vector<std::thread> workers_;                // size_ − 1 threads; worker c is thread c
  std::vector<std::exception_ptr> errors_;          // per thread: what its body threw (null: nothing)
  std::vector<std::ptrdiff_t> error_begin_;         // per thread: the first item of the block that threw
  std::mutex call_mutex_;                           // one call at a time
  std::mutex mutex_;                                // guards open_, joining a call and the sleeping waits
  std::condition_variable wake_;                    // workers sleep here between calls
  std::condition_variable done_;                    // the caller sleeps here for the workers' last blocks
  std::atomic<unsigned long> generation_{0};        // incremented at every call that wakes the workers
  std::atomic<int> active_{0};                      // workers inside the current call
  std::atomic<std::ptrdiff_t> next_{0};             // the first item of the next block to hand out
  std::atomic<bool> stop_{false};                   // the destructor's request
  // The current call: written under mutex_ before open_ is set, read by a worker after it
  // joined the call under mutex_.
  bool open_ = false;                               // a worker may join the current call
  Invoke invoke_ = nullptr;
  void* function_ = nullptr;
  std::ptrdiff_t count_ = 0;
  std::ptrdiff_t block_ = 1;
};

}  // namespace mechdyn
