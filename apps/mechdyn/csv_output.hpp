// Where `simulate` writes its CSV table, and how a field is written (RFC 4180).
//
// Targets (docs/cli.md, "--output"):
//  - no path: the rows stream to standard output as they are computed (nothing is held
//    in memory); a run that fails part-way has printed the rows before the failure and
//    exits with its error status;
//  - a path that does not exist or is a regular file: the rows go to a temporary file
//    PATH.partial-PID beside it, renamed to PATH by commit(), so a failed or interrupted
//    run leaves no file that looks complete (SIGINT, SIGTERM and SIGHUP remove the
//    temporary file, then the signal takes its default action);
//  - a symbolic link to a regular file: the same, onto the link's final target (the link
//    stays a link);
//  - anything else (a FIFO, /dev/stdout, a terminal, /dev/null): written in place, as a
//    shell redirection would (a rename would replace the special file by a regular one).
// Every write is checked: a target that stops accepting data (disk full, closed pipe) is
// an OutputError (exit status 3), never a silently short file.
#pragma once

#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"

namespace mechdyn::cli {

/// The output cannot be written (disk full, closed pipe, ...): exit status 3.
class OutputError : public mechdyn::Error {
 public:
  using mechdyn::Error::Error;
};

/// Where CsvOutput's temporary-then-rename goes for `path`: `path` itself (it does not
/// exist, or is a regular file), a symbolic link's final regular-file target, or "" when
/// the target must be written in place (FIFO, device, /dev and /proc links, ...).
std::string rename_target(const std::string& path);

/// One CSV field per RFC 4180: quoted ("...", inner quotes doubled) when it holds a comma,
/// a double quote, CR or LF, or begins or ends with a space; otherwise as is.
std::string csv_field(const std::string& text);

/// The header line: every column through csv_field, comma-separated, ending in '\n'.
std::string csv_header_line(const std::vector<std::string>& columns);

class CsvOutput {
 public:
  /// `path` empty: stream to `standard_output`. Otherwise see the header comment.
  /// Throws UsageError (status 2) when the file cannot be created.
  CsvOutput(const std::string& path, std::ostream& standard_output);
  ~CsvOutput();  // removes the temporary file unless commit() succeeded
  CsvOutput(const CsvOutput&) = delete;
  CsvOutput& operator=(const CsvOutput&) = delete;

  std::ostream& stream() { return *stream_; }
  /// Throws OutputError when the stream has failed (call after each row).
  void check();
  /// Flushes; renames the temporary file onto the target (file mode).
  void commit();
  bool to_file() const { return !path_.empty(); }
  /// A regular file (temporary then rename); false for standard output and for targets
  /// written in place (FIFO, /dev/stdout, ...), where a summary line would mix with the CSV.
  bool to_regular_file() const { return !temporary_.empty(); }

 private:
  std::string path_;       // as given ("" for standard output)
  std::string target_;     // the file the rename replaces (path_, or a link's target)
  std::string temporary_;  // "" when written in place or to standard output
  std::ofstream file_;
  std::ostream* stream_ = nullptr;
  bool committed_ = false;
};

}  // namespace mechdyn::cli
