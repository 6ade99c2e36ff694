// write_generated_code (mechdyn/codegen/codegen.hpp): the generated files into a
// directory, all or nothing, by StagedDirectory (mechdyn/staged_directory.hpp: written
// into DIR.partial-PID and renamed onto DIR; an earlier DIR replaced only when empty or
// holding the marker file `.mechdyn-codegen`). Every failure is an InvalidArgument naming
// the directory (the CLI's exit status 2). Reads: the generated files. Writes: the file
// system.
#include <string>

#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/staged_directory.hpp"

namespace mechdyn {

void write_generated_code(const GeneratedCode& code, const std::string& directory) {
  if (directory.empty()) throw InvalidArgument("codegen: the output directory is empty");
  const auto invalid = [](const std::string& message) { throw InvalidArgument(message); };
  StagedDirectory staging(directory,
                          {".mechdyn-codegen",
                           "written by mechdyn codegen; this directory is replaced when codegen writes here again\n",
                           "mechdyn codegen", {invalid, invalid}});
  for (const GeneratedFile& file : code.files) staging.write_file(file.name, file.text);
  staging.commit();
}

}  // namespace mechdyn
