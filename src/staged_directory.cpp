// StagedDirectory (mechdyn/staged_directory.hpp): write into DIR.partial-PID, rename onto
// DIR at the end; replace DIR only when empty or marked as the tool's own. Error policy
// from the caller. Cost: the file system's. Reads/writes: the file system only.
#include "mechdyn/staged_directory.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <utility>

namespace mechdyn {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void raise(const std::function<void(const std::string&)>& policy, const std::string& message) {
  if (policy) policy(message);
  throw std::logic_error("StagedDirectory: the error policy did not throw: " + message);  // a bug of the caller
}

}  // namespace

void StagedDirectory::check_target(const fs::path& target, const StagingPolicy& policy) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(target, error);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    raise(policy.errors.refuse, target.string() + ": exists and is not a directory (" + policy.tool + " -o writes a directory)");
  if (fs::is_empty(target, error) || fs::exists(target / policy.marker_file, error)) return;
  raise(policy.errors.refuse, target.string() + ": exists and was not written by " + policy.tool +
                                  "; remove it or choose another -o DIR");
}

StagedDirectory::StagedDirectory(fs::path target, StagingPolicy policy)
    : target_(std::move(target)), policy_(std::move(policy)) {
  if (target_.filename().empty()) target_ = target_.parent_path();  // "out/" → "out"
  check_target(target_, policy_);
  staging_ = target_.string() + ".partial-" + std::to_string(::getpid());
  std::error_code error;
  fs::remove_all(staging_, error);
  if (!fs::create_directories(staging_, error))
    raise(policy_.errors.refuse, target_.string() + ": cannot create the output directory " + staging_.string() + " (" +
                                     (error ? error.message() : std::string("unknown error")) + ")");
}

StagedDirectory::~StagedDirectory() {
  std::error_code error;
  if (!committed_) fs::remove_all(staging_, error);
}

void StagedDirectory::write_file(const std::string& name, const std::string& text) const {
  const fs::path path = staging_ / name;
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) raise(policy_.errors.fail, path.string() + ": cannot write (no permission or disk full?)");
}

void StagedDirectory::commit() {
  write_file(policy_.marker_file, policy_.marker_text);
  std::error_code error;
  const fs::path old = target_.string() + ".old-" + std::to_string(::getpid());
  const bool replace = fs::exists(target_, error);
  if (replace) {
    fs::rename(target_, old, error);
    if (error) raise(policy_.errors.fail, target_.string() + ": cannot replace it: " + error.message());
  }
  fs::rename(staging_, target_, error);
  if (error) {
    std::error_code ignored;
    if (replace) fs::rename(old, target_, ignored);
    raise(policy_.errors.fail, target_.string() + ": cannot move the written files into place: " + error.message());
  }
  committed_ = true;
  if (replace) fs::remove_all(old, error);
}

}  // namespace mechdyn
