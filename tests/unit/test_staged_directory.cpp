// StagedDirectory (mechdyn/staged_directory.hpp), the all-or-nothing directory writer that
// `mechdyn codegen` and `mechdyn view` share with different error policies. The commands'
// own behaviour is tested in tests/errors/test_codegen_errors.cpp and test_view_errors.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "mechdyn/staged_directory.hpp"

namespace {

namespace fs = std::filesystem;
using mechdyn::StagedDirectory;
using mechdyn::StagingPolicy;

struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

StagingPolicy policy() {
  return {".marker", "ours\n", "the tool",
          {[](const std::string& m) { throw Refused(m); }, [](const std::string& m) { throw Failed(m); }}};
}

fs::path fresh(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("mechdyn_staged_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Catches a writer that leaves DIR.partial-PID behind, writes into DIR directly, or does
// not replace its own earlier directory as a whole.
TEST(StagedDirectory, WritesAllOrNothingAndReplacesItsOwn) {
  const fs::path dir = fresh("own");
  {
    StagedDirectory staging(dir, policy());
    staging.write_file("a.txt", "first");
    EXPECT_FALSE(fs::exists(dir)) << "written into the target before commit";
    staging.commit();
  }
  EXPECT_EQ(read(dir / "a.txt"), "first");
  EXPECT_EQ(read(dir / ".marker"), "ours\n");
  {
    StagedDirectory staging(dir.string() + "/", policy());  // trailing slash: the same directory
    staging.write_file("b.txt", "second");
    staging.commit();
  }
  EXPECT_FALSE(fs::exists(dir / "a.txt")) << "the earlier directory was not replaced as a whole";
  EXPECT_EQ(read(dir / "b.txt"), "second");
  {
    StagedDirectory abandoned(dir, policy());
    abandoned.write_file("c.txt", "never");
  }  // destroyed uncommitted: nothing changes
  EXPECT_FALSE(fs::exists(dir / "c.txt"));
  for (const auto& entry : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(entry.path().filename().string().rfind(dir.filename().string() + ".", 0), std::string::npos)
        << "left behind: " << entry.path();
  fs::remove_all(dir);
}

// Catches a policy that is not used (the caller's exception type lost) or a foreign
// directory that is replaced.
TEST(StagedDirectory, RefusesWhatIsNotItsOwnWithThePolicysType) {
  const fs::path dir = fresh("foreign");
  fs::create_directories(dir);
  std::ofstream(dir / "mine.txt") << "user's";
  EXPECT_THROW(StagedDirectory::check_target(dir, policy()), Refused);
  EXPECT_THROW(StagedDirectory(dir, policy()), Refused);
  EXPECT_EQ(read(dir / "mine.txt"), "user's");
  try {
    StagedDirectory::check_target(dir, policy());
  } catch (const Refused& e) {
    EXPECT_NE(std::string(e.what()).find("was not written by the tool"), std::string::npos) << e.what();
  }
  const fs::path file = fresh("file");
  std::ofstream(file) << "x";
  EXPECT_THROW(StagedDirectory::check_target(file, policy()), Refused);
  EXPECT_THROW(StagedDirectory(file / "below", policy()), Refused);  // cannot be created under a file
  fs::remove_all(dir);
  fs::remove(file);
}

// Catches a policy callable that returns being taken as success.
TEST(StagedDirectory, APolicyThatDoesNotThrowIsABug) {
  const fs::path dir = fresh("lenient");
  fs::create_directories(dir);
  std::ofstream(dir / "mine.txt") << "user's";
  StagingPolicy lenient = policy();
  lenient.errors.refuse = [](const std::string&) {};
  EXPECT_THROW(StagedDirectory::check_target(dir, lenient), std::logic_error);
  fs::remove_all(dir);
}

}  // namespace
