// The persistent thread pool of evaluation/thread_pool.hpp.
//
// One call: the caller writes the call's fields and opens it under mutex_, increments
// generation_ and wakes the workers; then it takes blocks (next_.fetch_add) until none is
// left, closes the call under mutex_ and waits until no worker is inside it (active_ = 0).
// A worker that sees a new generation joins under mutex_ only while the call is open
// (++active_), takes blocks likewise, and leaves with active_.fetch_sub (release). So every
// worker that touches the call's fields joined before the caller closed it, and the
// caller's acquire of active_ = 0 orders every worker's writes (results, errors_) before
// its own reads. Race-free under ThreadSanitizer (atomics and mutexes only).
//
// Spinning: plain loads, no pause instruction. On the development machine (a 2-vCPU AMD
// EPYC virtual machine) a spin on `pause` cost about 150 µs per empty call — the
// hypervisor's pause-loop exiting deschedules the spinning vCPU — against under 10 µs
// without it.
#include "mechdyn/evaluation/thread_pool.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

constexpr std::chrono::microseconds spin_time{50};  // how long a waiting thread spins before it sleeps
constexpr int blocks_per_thread = 8;                // blocks of a call: about this many per thread

// Spins until ready() or about spin_time has passed; returns ready().
template <class Ready>
bool spin_until(Ready&& ready) {
  const auto deadline = std::chrono::steady_clock::now() + spin_time;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      std::atomic_signal_fence(std::memory_order_seq_cst);  // keeps the compiler from merging the loads
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
    std::this_thread::yield();  // a descheduled thread of this pool may be waiting for this core
  }
}

// The pool whose block the current thread runs (nested calls are refused).
thread_local const ThreadPool* running_pool = nullptr;

struct RunningPool {  // restores the pool the thread ran before (a call from inside another pool's block)
  explicit RunningPool(const ThreadPool* pool) : previous(running_pool) { running_pool = pool; }
  ~RunningPool() { running_pool = previous; }
  const ThreadPool* previous;
};

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads < 0)
    throw InvalidArgument("ThreadPool: the thread count must be ≥ 0 (0: one per core), got " + std::to_string(threads));
  if (threads == 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  size_ = threads > 0 ? threads : 1;
  errors_.resize(static_cast<std::size_t>(size_));
  error_begin_.resize(static_cast<std::size_t>(size_), 0);
  workers_.reserve(static_cast<std::size_t>(size_ - 1));
  for (int thread = 1; thread < size_; ++thread) workers_.emplace_back([this, thread] { worker_loop(thread); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::take_blocks(int thread) noexcept {
  for (;;) {
    const std::ptrdiff_t begin = next_.fetch_add(block_, std::memory_order_relaxed);
    if (begin >= count_) return;
    const std::ptrdiff_t end = std::min(begin + block_, count_);
    try {
      invoke_(function_, begin, end, thread);
    } catch (...) {
      errors_[static_cast<std::size_t>(thread)] = std::current_exception();
      error_begin_[static_cast<std::size_t>(thread)] = begin;
      next_.store(count_, std::memory_order_relaxed);  // no further blocks
      return;
    }
  }
}

void ThreadPool::worker_loop(int thread) {
  RunningPool running(this);
  unsigned long seen = 0;
  for (;;) {
    const bool woken = spin_until([&] {
      return generation_.load(std::memory_order_relaxed) != seen || stop_.load(std::memory_order_relaxed);
    });
    std::unique_lock<std::mutex> lock(mutex_);
    if (!woken)
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen || stop_.load(); });
    if (stop_.load()) return;
    seen = generation_.load(std::memory_order_relaxed);
    if (!open_) continue;  // the caller took every block already
    active_.fetch_add(1, std::memory_order_relaxed);
    lock.unlock();
    take_blocks(thread);
    if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> notify(mutex_);  // the caller may be between its test and its wait
      done_.notify_one();
    }
  }
}

void ThreadPool::run(std::ptrdiff_t count, Invoke invoke, void* function) {
  if (running_pool == this)
    throw InvalidArgument("ThreadPool::parallel_for: called from inside one of the pool's own blocks (nesting)");
  if (count < 0) throw InvalidArgument("ThreadPool::parallel_for: negative count " + std::to_string(count));
  if (count == 0) return;
  std::lock_guard<std::mutex> call(call_mutex_);
  RunningPool running(this);
  if (size_ == 1 || count == 1) {  // one block: on the caller, no worker woken
    invoke(function, 0, count, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    invoke_ = invoke;
    function_ = function;
    count_ = count;
    block_ = std::max<std::ptrdiff_t>(1, count / (static_cast<std::ptrdiff_t>(size_) * blocks_per_thread));
    next_.store(0, std::memory_order_relaxed);
    open_ = true;
    generation_.fetch_add(1, std::memory_order_relaxed);
  }
  wake_.notify_all();
  take_blocks(0);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = false;  // a worker not yet inside stays out
  }
  if (!spin_until([&] { return active_.load(std::memory_order_acquire) == 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return active_.load(std::memory_order_acquire) == 0; });
  }
  std::exception_ptr first;
  std::ptrdiff_t first_begin = count;
  for (std::size_t t = 0; t < errors_.size(); ++t) {
    if (errors_[t] && error_begin_[t] < first_begin) {
      first = errors_[t];
      first_begin = error_begin_[t];
    }
    errors_[t] = nullptr;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace mechdyn
