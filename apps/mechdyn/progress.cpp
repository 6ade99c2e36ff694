#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "commands.hpp"

namespace mechdyn::cli {

namespace {
bool g_progress_visible = false;
}

void clear_progress() {
  if (g_progress_visible) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    g_progress_visible = false;
  }
}

ProgressBar::ProgressBar() : enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(double fraction) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (g_progress_visible && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  fraction = std::clamp(fraction, 0.0, 1.0);
  constexpr int kWidth = 40;
  const int filled = static_cast<int>(fraction * kWidth);
  char bar[kWidth + 1];
  for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : ' ';
  bar[kWidth] = '\0';
  std::fprintf(stderr, "\r[%s] %3d%%", bar, static_cast<int>(fraction * 100.0));
  std::fflush(stderr);
  g_progress_visible = true;
}

void ProgressBar::finish() { clear_progress(); }

}  // namespace mechdyn::cli
