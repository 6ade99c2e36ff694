// A percentage bar on standard error, drawn only when stderr is a terminal and
// redrawn at most ten times per second.
#pragma once

#include <chrono>

namespace mechdyn::cli {

class ProgressBar {
 public:
  ProgressBar();
  ~ProgressBar();
  void update(double fraction);  // 0..1
  void finish();

 private:
  bool enabled_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace mechdyn::cli
