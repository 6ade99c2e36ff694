// A directory written all or nothing: its files go into DIR.partial-PID, which is renamed
// onto DIR at the end (an earlier DIR is moved aside first and removed after); on any
// failure, or when the writer is destroyed uncommitted, the staging directory is removed
// and DIR is as it was. An existing DIR is replaced only when it is empty or holds the
// writer's marker file (it was written by the same tool); anything else is the user's.
// Used by `mechdyn codegen` (codegen/code_directory.cpp) and `mechdyn view`
// (apps/mechdyn/view_command.cpp), each with its own error policy (StagingErrors).
// Top-level like errors.hpp: below every layer of scripts/check-layers.sh.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace mechdyn {

/// How a StagedDirectory reports a failure: each callable receives the whole message
/// (naming the directory) and must throw the caller's exception type.
struct StagingErrors {
  std::function<void(const std::string& message)> refuse;  // DIR is not ours, or cannot be created
  std::function<void(const std::string& message)> fail;    // a write or a rename failed
};

/// What a StagedDirectory writes and says.
struct StagingPolicy {
  std::string marker_file;  // e.g. ".mechdyn-codegen": marks DIR as the tool's own
  std::string marker_text;  // its content
  std::string tool;         // e.g. "mechdyn codegen", named in the messages
  StagingErrors errors;
};

class StagedDirectory {
 public:
  /// Refuses (policy.errors.refuse) a `target` that exists and is not a directory, or a
  /// non-empty directory without the marker file. No file-system change.
  static void check_target(const std::filesystem::path& target, const StagingPolicy& policy);

  /// check_target, then creates target.partial-PID (refuse when it cannot be created).
  StagedDirectory(std::filesystem::path target, StagingPolicy policy);
  ~StagedDirectory();  // removes the staging directory unless committed
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  const std::filesystem::path& path() const { return staging_; }
  /// Writes `name` inside the staging directory (fail on any error).
  void write_file(const std::string& name, const std::string& text) const;
  /// Writes the marker file and renames the staging directory onto the target (fail on
  /// any error, the earlier target restored).
  void commit();

 private:
  std::filesystem::path target_, staging_;
  StagingPolicy policy_;
  bool committed_ = false;
};

}  // namespace mechdyn
