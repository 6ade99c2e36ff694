// The CSV target of `simulate` and RFC 4180 fields. See csv_output.hpp.
#include "csv_output.hpp"

#include "mechdyn/csv_text.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common.hpp"

namespace mechdyn::cli {

namespace {

// ---- removal of the temporary file on SIGINT / SIGTERM / SIGHUP ------------------------
// Only async-signal-safe calls in the handler: unlink, sigaction, raise.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
char g_temporary_path[4096];
volatile std::sig_atomic_t g_temporary_active = 0;
struct sigaction g_previous_actions[3];

extern "C" void remove_temporary_and_reraise(int signal_number) {
  if (g_temporary_active) ::unlink(g_temporary_path);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  ::raise(signal_number);  // delivered when the handler returns: the conventional status (128 + n)
}

void install_cleanup(const std::string& temporary) {
  if (temporary.size() >= sizeof g_temporary_path) return;  // cannot be a valid path anyway
  std::memcpy(g_temporary_path, temporary.c_str(), temporary.size() + 1);
  g_temporary_active = 1;
  struct sigaction action {};
  action.sa_handler = remove_temporary_and_reraise;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i)
    ::sigaction(kCleanupSignals[i], &action, &g_previous_actions[i]);
}

void remove_cleanup() {
  if (!g_temporary_active) return;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i)
    ::sigaction(kCleanupSignals[i], &g_previous_actions[i], nullptr);
  g_temporary_active = 0;
}

}  // namespace

std::string rename_target(const std::string& path) {
  struct stat link_status {};
  if (::lstat(path.c_str(), &link_status) != 0) return path;  // does not exist yet: create it
  if (S_ISREG(link_status.st_mode)) return path;
  if (!S_ISLNK(link_status.st_mode)) return "";  // FIFO, device, socket, directory (fails to open)
  // A symbolic link: replace its final target when that is an ordinary regular file; the
  // magic links of /dev and /proc (/dev/stdout → /proc/self/fd/1) are written in place.
  if (path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0) return "";
  std::error_code error;
  const std::filesystem::path target = std::filesystem::canonical(path, error);
  if (error) return "";
  const std::string text = target.string();
  if (text.rfind("/dev/", 0) == 0 || text.rfind("/proc/", 0) == 0) return "";
  struct stat target_status {};
  if (::stat(text.c_str(), &target_status) != 0 || !S_ISREG(target_status.st_mode)) return "";
  return text;
}

std::string csv_field(const std::string& text) { return mechdyn::csv_field(text); }  // mechdyn/csv_text.hpp

std::string csv_header_line(const std::vector<std::string>& columns) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) line += ',';
    line += csv_field(columns[i]);
  }
  line += '\n';
  return line;
}

CsvOutput::CsvOutput(const std::string& path, std::ostream& standard_output) : path_(path) {
  if (path_.empty()) {
    stream_ = &standard_output;
    return;
  }
  target_ = rename_target(path_);
  if (!target_.empty()) temporary_ = target_ + ".partial-" + std::to_string(::getpid());
  const std::string& opened = temporary_.empty() ? path_ : temporary_;
  if (!temporary_.empty()) install_cleanup(temporary_);  // before the file exists: no window
  file_.open(opened, std::ios::binary | std::ios::out | std::ios::trunc);
  if (!file_) {
    remove_cleanup();
    const std::string reason = std::strerror(errno);
    throw UsageError("cannot write '" + path_ + "': " + reason);
  }
  stream_ = &file_;
}

CsvOutput::~CsvOutput() {
  if (!committed_ && !temporary_.empty()) {
    file_.close();
    std::remove(temporary_.c_str());
  }
  remove_cleanup();
}

void CsvOutput::check() {
  if (*stream_) return;
  throw OutputError(std::string("cannot write the CSV to ") +
                    (path_.empty() ? "standard output" : "'" + path_ + "'") +
                    (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

void CsvOutput::commit() {
  stream_->flush();
  check();
  if (path_.empty()) {
    committed_ = true;
    return;
  }
  file_.close();
  if (!file_) throw OutputError("cannot write '" + path_ + "': " + std::strerror(errno));
  if (!temporary_.empty()) {
    std::error_code error;
    std::filesystem::rename(temporary_, target_, error);
    if (error) throw OutputError("cannot write '" + path_ + "': " + error.message());
  }
  committed_ = true;
  remove_cleanup();
}

}  // namespace mechdyn::cli
