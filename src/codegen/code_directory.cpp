// write_generated_code (mechdyn/codegen/codegen.hpp): the generated files into a
// directory, all or nothing. They are written into DIR.partial-PID, which is renamed onto
// DIR at the end (an earlier DIR, when it is empty or holds the marker file
// `.mechdyn-codegen`, is moved aside first and removed after); on any failure the
// staging directory is removed and DIR is as it was. Reads: the generated files. Writes:
// the file system.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerFile = ".mechdyn-codegen";

/// DIR may be replaced only when it does not exist, is an empty directory or holds the marker.
void check_target(const fs::path& dir) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(dir, error);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    throw InvalidArgument(dir.string() + ": exists and is not a directory (codegen -o writes a directory)");
  if (fs::is_empty(dir, error) || fs::exists(dir / kMarkerFile, error)) return;
  throw InvalidArgument(dir.string() + ": exists and was not written by mechdyn codegen; remove it or choose another -o DIR");
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw InvalidArgument(path.string() + ": cannot write (no permission or disk full?)");
}

/// The staging directory, removed unless committed.
class Staging {
 public:
  explicit Staging(const fs::path& target)
      : target_(target), path_(target.string() + ".partial-" + std::to_string(::getpid())) {
    std::error_code error;
    fs::remove_all(path_, error);
    if (!fs::create_directories(path_, error))
      throw InvalidArgument(target.string() + ": cannot create the output directory (" +
                            (error ? error.message() : std::string("unknown error")) + ")");
  }
  ~Staging() {
    std::error_code error;
    if (!committed_) fs::remove_all(path_, error);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  const fs::path& path() const { return path_; }
  void commit() {
    std::error_code error;
    const fs::path old = target_.string() + ".old-" + std::to_string(::getpid());
    const bool replace = fs::exists(target_, error);
    if (replace) {
      fs::rename(target_, old, error);
      if (error) throw InvalidArgument(target_.string() + ": cannot replace it: " + error.message());
    }
    fs::rename(path_, target_, error);
    if (error) {
      std::error_code ignored;
      if (replace) fs::rename(old, target_, ignored);
      throw InvalidArgument(target_.string() + ": cannot move the generated files into place: " + error.message());
    }
    committed_ = true;
    if (replace) fs::remove_all(old, error);
  }

 private:
  fs::path target_, path_;
  bool committed_ = false;
};

}  // namespace

void write_generated_code(const GeneratedCode& code, const std::string& directory) {
  if (directory.empty()) throw InvalidArgument("codegen: the output directory is empty");
  fs::path target(directory);
  if (target.filename().empty()) target = target.parent_path();  // "out/" → "out"
  check_target(target);
  Staging staging(target);
  for (const GeneratedFile& file : code.files) write_file(staging.path() / file.name, file.text);
  write_file(staging.path() / kMarkerFile,
             "written by mechdyn codegen; this directory is replaced when codegen writes here again\n");
  staging.commit();
}

}  // namespace mechdyn
