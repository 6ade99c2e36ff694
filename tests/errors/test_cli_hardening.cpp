// The command line under stress (issue 16): every defect the sanitizer build and the
// fuzzer found, one test each, named after the defect it catches, plus the exit-status
// contract (2 bad input, 3 solver failure or resource exhaustion; never 1 or a signal; the
// error line last on stderr; no NaN or inf with status 0; no output file that looks
// complete unless the run completed).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <streambuf>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "csv_output.hpp"
#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

const std::string kFiveAxis = source_path("examples/models/five_axis_tree.yaml");
const std::string kStribeck = source_path("examples/models/five_axis_tree_stribeck.yaml");
const std::string kArm = source_path("examples/models/planar_3dof_arm.yaml");

// The last line of a text (without its newline).
std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  const auto at = trimmed.rfind('\n');
  return at == std::string::npos ? trimmed : trimmed.substr(at + 1);
}

// The error contract: `status`, the LAST stderr line "mechdyn: ..." containing `expected`,
// every earlier stderr line a reader warning.
void expect_error(const CliResult& r, int status, const std::string& expected) {
  EXPECT_EQ(r.status, status) << r.err;
  const std::string line = last_line(r.err);
  EXPECT_EQ(line.rfind("mechdyn: ", 0), 0u) << r.err;
  EXPECT_EQ(line.rfind("mechdyn: warning:", 0), std::string::npos) << r.err;
  EXPECT_NE(line.find(expected), std::string::npos) << "message: " << r.err;
  std::istringstream lines(r.err);
  std::string each;
  while (std::getline(lines, each))
    if (each != line) EXPECT_EQ(each.rfind("mechdyn: warning: ", 0), 0u) << "stray stderr line: " << each;
}

struct ProcessResult {
  int status = -1;   // exit status, or −1 when killed by a signal
  int signal = 0;    // the signal that ended it
  long max_rss_kb = 0;
};

// Runs the CLI with `arguments` (no shell), stdout to `stdout_path`, stderr to
// `stderr_path`; `during(pid)` runs while it does. Returns how it ended and its peak RSS.
template <typename During>
ProcessResult run_process(const std::vector<std::string>& arguments, const std::string& stdout_path,
                          const std::string& stderr_path, During during) {
  std::vector<char*> argv;
  std::string program = MECHDYN_CLI_PATH;
  argv.push_back(program.data());
  std::vector<std::string> copies = arguments;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  during(pid);
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  ProcessResult result;
  result.max_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

bool exists(const std::string& path) {
  struct stat s {};
  return ::lstat(path.c_str(), &s) == 0;
}

// ---- defect 1 ------------------------------------------------------------------------
// Issue 16, defect 1: read_scenario bound a const YAML::Node& to a member of yaml-cpp's
// temporary iterator value (AddressSanitizer: stack-use-after-scope on every scenario;
// the Release build worked by luck). Every key is read here and its effect checked, so
// the sanitizer build (scripts/test-sanitizers.sh) catches a dangling node on any key.
TEST(Issue16, Defect1ScenarioEveryKeyIsRead) {
  const std::string scenario = write_temporary_file("every_key.yaml", "model: " + kArm + R"(
mode: inverse
duration: 0.004
step: 0.001
integrator: rk4
rtol: 1e-9
atol: 1e-11
method: recursive
every: 2
q0: [0.1, 0.2, 0.3]
v0: "0, 0, 0"
accelerations: [1, "2*t", 0]
max_steps: 1000
max_wall_time: 60
)");
  const CliResult r = run_cli("simulate --scenario " + scenario);
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream rows(r.out);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(rows, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u) << r.out;  // header, t = 0, 0.002, 0.004 (every 2 of 4 intervals)
  EXPECT_EQ(lines[1].rfind("0,0.10000000000000001,0.20000000000000001,0.29999999999999999,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[3].rfind("0.0040000000000000001,", 0), 0u) << lines[3];
}

// ---- defect 3 ------------------------------------------------------------------------
std::string two_body_model(const std::string& mass) {
  return R"(mechdyn: 1
name: heavy
bodies:
  - name: a
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: )" + mass + R"(
    com: [0, 0, 0]
    inertia: {diag: [1, 1, 1]}
  - name: b
    parent: a
    joint: {type: revolute, axis: [0, 0, 1], origin: [1, 0, 0]}
    mass: )" + mass + R"(
    com: [0, 0, 0]
    inertia: {diag: [1, 1, 1]}
)";
}

// Issue 16, defect 3: `info` printed "total mass inf kg" with status 0 for two finite
// masses of 1e308. Now status 3 naming the quantity, nothing on stdout.
TEST(Issue16, Defect3InfoRefusesAnInfiniteTotalMass) {
  const std::string model = write_temporary_file("huge_mass.yaml", two_body_model("1e308"));
  const CliResult r = run_cli("info " + model);
  expect_error(r, 3, "total mass");
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// Issue 16, defect 3: with masses of 1e160 the reactions are ~1e161 (finite) but the
// constraint torque |τ − n(n·τ)| overflowed in the sum of squares: text mode printed
// "inf" with status 0 while --json refused the same state with status 3. Now the norm is
// computed without overflow, both modes print it, and they agree. Independent value: body
// a carries body b (1e160 kg) at x = 1 m under g = 9.81 along −z, so the torque of joint a
// about its origin is r × F = (1, 0, 0) × (0, 0, −9.81e160) = (0, 9.81e160, 0) from b's
// weight (the parent's reaction torque is its negative); its radial part (⊥ z) has
// magnitude 9.81e160.
TEST(Issue16, Defect3TextAndJsonAgreeOnAHugeButFiniteConstraintTorque) {
  const std::string model = write_temporary_file("big_mass.yaml", two_body_model("1e160"));
  const CliResult text = run_cli("eval " + model + " --a 0,0");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_EQ(text.out.find("inf"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("nan"), std::string::npos) << text.out;
  const CliResult json = run_cli("eval " + model + " --a 0,0 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto at = json.out.find("\"constraint_torque\":");
  ASSERT_NE(at, std::string::npos) << json.out;
  const double torque = std::strtod(json.out.c_str() + at + 20, nullptr);
  EXPECT_NEAR(torque / 9.81e160, 1.0, 1e-15);
  EXPECT_NE(text.out.find("9.81e+160"), std::string::npos) << text.out;  // the text shows the same value
}

// Issue 16, defect 3: a state whose results genuinely overflow (masses of 1e308: the
// gravity force is inf) is refused by both output modes, with the same one line.
TEST(Issue16, Defect3OverflowRefusedAlikeInTextAndJson) {
  const std::string model = write_temporary_file("huge_mass2.yaml", two_body_model("1e308"));
  const CliResult text = run_cli("eval " + model + " --a 0,0");
  const CliResult json = run_cli("eval " + model + " --a 0,0 --json");
  expect_error(text, 3, "not finite");
  expect_error(json, 3, "not finite");
  EXPECT_EQ(text.err, json.err);
  EXPECT_TRUE(text.out.empty() && json.out.empty());
}

// ---- defect 4 ------------------------------------------------------------------------
// Issue 16, defect 4: muParser's assignment operator let `--accelerations 't=7,t'`
// overwrite the time shared by every expression (every later column saw t = 7). Refused
// in every expression list (flags and scenario), status 2, one line; comparisons stay.
TEST(Issue16, Defect4AssignmentInExpressionsIsRefused) {
  expect_error(run_cli("simulate " + kArm + " --mode inverse --accelerations 't=7,t,0' --duration 0.01"), 2,
               "assignment");
  expect_error(run_cli("simulate " + kArm + " --tau '0,0,t += 1' --duration 0.01"), 2, "assignment");
  expect_error(run_cli("simulate " + kArm + " --tau '0,(t = 1) * 2,0' --duration 0.01"), 2, "tau[1]");
  const std::string scenario =
      write_temporary_file("assign.yaml", "model: " + kArm + "\nduration: 0.01\ntau: ['t=3', 0, 0]\n");
  expect_error(run_cli("simulate --scenario " + scenario), 2, "assignment");
  const std::string four_bar = source_path("examples/models/four_bar.yaml");
  expect_error(run_cli("simulate " + four_bar + " --mode inverse --velocities 't=1' --duration 0.01"), 2,
               "assignment");
  // ==, <=, >=, != are comparisons, not assignments.
  const CliResult ok = run_cli("simulate " + kArm + " --mode inverse --accelerations 't<=1 ? 1 : 0, t==0, t!=0' "
                               "--duration 0.002");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// ---- defect 5 ------------------------------------------------------------------------
// Issue 16, defect 5: DOPRI5 on extreme but valid input ran for minutes (a step cap only
// per output interval; before the fix: 0.01 s of simulated time at v = 1e6 took 4.6 s, so
// the default 1 s would take ~8 min; the stiff LuGre case below ran > 10 min). A global
// step budget now ends each of the issue's inputs with status 3 and a message naming the
// budget and the option. The extreme inputs run with a small explicit budget (5000 steps:
// fast also under the sanitizers); the default (100000 + 1000 per output interval) is
// checked over one output interval: 101000 steps.
TEST(Issue16, Defect5ExtremeInputsEndWithinTheStepBudget) {
  const std::string budget = " --max-steps 5000";
  // A joint velocity of 1e6 rad/s.
  expect_error(run_cli("simulate " + kFiveAxis + " --v0 1e6,0,0,0,0 --integrator dopri5 --duration 0.05" + budget), 3,
               "step budget exhausted: 5000 steps used");
  // An effort of tan(π/2) = 1.6e16 N m.
  expect_error(
      run_cli("simulate " + kFiveAxis + " --tau 'tan(_pi/2),0,0,0,0' --integrator dopri5 --duration 0.05" + budget), 3,
      "--max-steps");
  // A stiff LuGre bristle (σ0 = 1e8 N m/rad: bristle rate σ0 |v| / g = 1e9 /s at v = 1)
  // in forward dynamics with friction: the budget (DOPRI5); RK4 at 1 ms is unstable there
  // and overflows: a solver failure naming the time; at σ0 = 1e12 even DOPRI5's first
  // stage overflows.
  auto lugre_model = [](const std::string& stiffness) {
    return write_temporary_file("stiff_lugre.yaml", R"(mechdyn: 1
name: stiff_lugre
bodies:
  - name: wheel
    parent: ground
    joint:
      type: revolute
      axis: [0, 0, 1]
      friction: {model: lugre, coulomb: 0.1, static: 0.2, viscous: 0.01, stribeck_velocity: 0.01,
                 bristle_stiffness: )" + stiffness + R"(, bristle_damping: 1}
    mass: 1
    com: [0.1, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
)");
  };
  expect_error(run_cli("simulate " + lugre_model("1e8") + " --tau 5 --v0 1 --integrator dopri5 --duration 0.05" + budget),
               3, "step budget");
  expect_error(run_cli("simulate " + lugre_model("1e8") + " --tau 5 --v0 1 --duration 0.05"), 3, "at t = ");
  expect_error(run_cli("simulate " + lugre_model("1e12") + " --tau 5 --v0 1 --integrator dopri5 --duration 0.05"), 3,
               "at t = ");
  // The default budget: one interval, 100000 + 1000 steps, then status 3 (the planar arm
  // whirling at 1e7 rad/s needs ~2.6e8 steps per second).
  expect_error(run_cli("simulate " + kArm + " --v0 1e7,0,0 --integrator dopri5 --duration 0.001 --step 0.001"), 3,
               "101000 steps used");
  // A wall-time budget, and bad budgets.
  expect_error(run_cli("simulate " + kFiveAxis + " --v0 1e6,0,0,0,0 --integrator dopri5 --duration 10 "
                       "--max-steps 100000000 --max-wall-time 0.5"),
               3, "--max-wall-time");
  expect_error(run_cli("simulate " + kFiveAxis + " --max-steps 0"), 2, "max-steps");
  expect_error(run_cli("simulate " + kFiveAxis + " --max-wall-time -1"), 2, "max-wall-time");
}

// ---- defect 6 ------------------------------------------------------------------------
// Issue 16, defect 6: friction simulations whose accelerations overflow exited with
// status 2 and "a[0] is not finite" (an internal check reporting bad input), without the
// time. It is a solver failure: status 3, naming the time and the joint.
TEST(Issue16, Defect6FrictionBlowUpIsASolverFailureWithTimeAndJoint) {
  for (const std::string tau : {"1e200,0,0,0,0", "tan(_pi/2),0,0,0,0", "1e150*t,1e150,0,0,0"}) {
    SCOPED_TRACE(tau);
    const CliResult r = run_cli("simulate " + kStribeck + " --tau '" + tau + "' --duration 0.01");
    expect_error(r, 3, "at t = ");
    EXPECT_NE(r.err.find("joint '"), std::string::npos) << r.err;
  }
}

// ---- defect 7 ------------------------------------------------------------------------
// Issue 16, defect 7: --output to a FIFO was replaced by a regular file (the rename of
// the temporary file). Now a FIFO is written in place: the reader gets the CSV and the
// FIFO stays a FIFO. (Before the fix the reader below waited until `timeout` killed it.)
TEST(Issue16, Defect7OutputToAFifoIsWrittenInPlace) {
  const std::string fifo = temporary_path("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string received = temporary_path("fifo_received.csv");
  ASSERT_EQ(std::system(("(timeout 20 cat " + fifo + " > " + received + ") &").c_str()), 0);
  const CliResult r = run_cli("simulate " + kFiveAxis + " --duration 0.01 --output " + fifo);
  EXPECT_EQ(r.status, 0) << r.err;
  struct stat s {};
  ASSERT_EQ(::lstat(fifo.c_str(), &s), 0);
  EXPECT_TRUE(S_ISFIFO(s.st_mode)) << "the FIFO was replaced";
  std::string csv;
  for (int i = 0; i < 200 && csv.find("\n0.01,") == std::string::npos; ++i) {  // cat may lag a little
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    csv = read_file(received);
  }
  EXPECT_EQ(csv.rfind("t_s,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n0.01,"), std::string::npos) << csv;
  std::remove(fifo.c_str());
  std::remove(received.c_str());
}

// Issue 16, defect 7: --output /dev/stdout failed (no temporary file can be made beside
// it) — or, run as root, renamed a regular file over /dev/stdout, as it did over a FIFO.
// The choice of target, checked on the literal special paths without writing to them (a
// regressed rename run as root would replace /dev/stdout or /dev/full machine-wide, as
// the unfixed tool did while this test was written):
TEST(Issue16, Defect7SpecialFilesAreNeverRenamedOver) {
  using mechdyn::cli::rename_target;
  for (const char* special : {"/dev/stdout", "/dev/stderr", "/dev/null", "/dev/full", "/dev/fd/1", "/proc/self/fd/1"})
    EXPECT_EQ(rename_target(special), "") << special;
  const std::string fifo = temporary_path("target.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(rename_target(fifo), "");
  EXPECT_EQ(rename_target(::testing::TempDir()), "") << "a directory";
  const std::string missing = temporary_path("new.csv");
  EXPECT_EQ(rename_target(missing), missing);
  const std::string regular = write_temporary_file("old.csv", "x\n");
  EXPECT_EQ(rename_target(regular), regular);
  const std::string link = temporary_path("link.csv");
  ASSERT_EQ(::symlink(regular.c_str(), link.c_str()), 0);
  char resolved[4096];
  ASSERT_NE(::realpath(regular.c_str(), resolved), nullptr);
  EXPECT_EQ(rename_target(link), resolved) << "a link to a regular file: its target is replaced, the link kept";
  const std::string to_stdout = temporary_path("to_stdout");
  ASSERT_EQ(::symlink("/dev/stdout", to_stdout.c_str()), 0);
  EXPECT_EQ(rename_target(to_stdout), "");
  for (const std::string& p : {fifo, regular, link, to_stdout}) std::remove(p.c_str());
}

// Issue 16, defect 7, end to end: a link to /dev/stdout (standing in for the literal path,
// see above) is written in place: the CSV arrives on standard output, no summary mixed in.
TEST(Issue16, Defect7OutputToDevStdout) {
  const std::string link = temporary_path("stdout_link");
  ASSERT_EQ(::symlink("/dev/stdout", link.c_str()), 0);
  const CliResult r = run_cli("simulate " + kFiveAxis + " --duration 0.003 --output " + link);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("t_s,", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5) << r.out;  // header + t = 0 .. 0.003
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  struct stat s {};
  EXPECT_EQ(::lstat(link.c_str(), &s), 0);
  EXPECT_TRUE(S_ISLNK(s.st_mode)) << "the link was replaced";
  std::remove(link.c_str());
}

// Issue 16, defect 7: SIGINT or SIGTERM during `simulate --output F` left F.partial-PID
// behind. Now the handler removes it, and the process ends by the signal (the
// conventional status 128 + n in a shell); F is never created.
TEST(Issue16, Defect7InterruptRemovesThePartialFile) {
  for (int signal_number : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(signal_number);
    const std::string target = temporary_path("interrupted.csv");
    std::string partial;
    const ProcessResult result = run_process(
        {"simulate", kFiveAxis, "--duration", "100000", "--output", target}, "/dev/null", temporary_path("err.txt"),
        [&](pid_t pid) {
          partial = target + ".partial-" + std::to_string(pid);
          for (int i = 0; i < 400 && !exists(partial); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
          EXPECT_TRUE(exists(partial)) << "the run never started writing " << partial;
          std::this_thread::sleep_for(std::chrono::milliseconds(100));  // some rows written
          ::kill(pid, signal_number);
        });
    EXPECT_EQ(result.signal, signal_number);
    EXPECT_FALSE(exists(partial)) << partial << " was left behind";
    EXPECT_FALSE(exists(target)) << target << " looks complete but the run was interrupted";
  }
}

// Issue 16, defect 7: without --output the whole CSV was held in memory before it was
// printed (158 MB for a one-minute Panda run). Now rows stream: peak memory does not grow
// with the duration. A 20 s run writes ~20 MB more CSV than a 2 s one; the peak RSS may
// differ by far less. (Skipped under sanitizers: ASan's quarantine keeps freed memory
// resident, so RSS does not measure what the program holds.)
TEST(Issue16, Defect7StdoutStreamsWithoutGrowingMemory) {
  if (kSanitized) GTEST_SKIP() << "RSS is not comparable under AddressSanitizer (quarantine, shadow memory)";
  auto peak = [&](const char* duration) {
    const ProcessResult r = run_process({"simulate", kFiveAxis, "--duration", duration}, "/dev/null",
                                        temporary_path("err.txt"), [](pid_t) {});
    EXPECT_EQ(r.status, 0);
    return r.max_rss_kb;
  };
  const long short_run = peak("2"), long_run = peak("20");
  EXPECT_LT(long_run - short_run, 4000) << "peak RSS " << short_run << " KB for 2 s, " << long_run << " KB for 20 s";
}

// Issue 16, defects 7 and the contract: rows reach a pipe while the run goes on (a
// 100000 s run is read after a few rows), and a reader that closes the pipe ends the run
// with status 3 and one line — not a death by SIGPIPE, not status 1.
TEST(Issue16, Defect7RowsStreamAndAClosedPipeIsStatus3) {
  const std::string err = temporary_path("stderr.txt");
  FILE* pipe = ::popen((std::string(MECHDYN_CLI_PATH) + " simulate " + kFiveAxis + " --duration 100000 2>" + err).c_str(),
                       "r");
  ASSERT_NE(pipe, nullptr);
  char line[65536];
  int lines = 0;
  while (lines < 50 && std::fgets(line, sizeof line, pipe) != nullptr) ++lines;
  EXPECT_EQ(lines, 50);
  const int status = ::pclose(pipe);  // closes our end: the next write fails with EPIPE
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  CliResult r;
  r.status = WEXITSTATUS(status);
  r.err = read_file(err);
  expect_error(r, 3, "cannot write");
}

// The contract: an output that cannot take the data (here a file-size limit, EFBIG — as a
// full disk gives ENOSPC) is status 3 with one line, for a CSV file (whose partial file is
// removed: no file that looks complete) and for standard output alike; never status 1,
// never death by SIGXFSZ. (Before: status 1 "cannot write to standard output", or killed.)
TEST(Issue16, ContractUnwritableOutputIsStatus3) {
  const std::string csv = temporary_path("limited.csv");
  const std::string limit = "ulimit -f 2; ";  // 1 to 2 KB (sh counts 512- or 1024-byte blocks)
  auto limited = [&](const std::string& arguments) {
    const std::string err = temporary_path("limited_err.txt");
    const int status = std::system(("sh -c '" + limit + "exec " + std::string(MECHDYN_CLI_PATH) + " " + arguments +
                                    " 2> " + err + "'").c_str());
    CliResult r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_file(err);
    return r;
  };
  expect_error(limited("simulate " + kFiveAxis + " --duration 0.5 --output " + csv), 3, "cannot write");
  EXPECT_FALSE(exists(csv));
  const std::string listing = temporary_path("listing.txt");
  std::system(("ls " + csv + ".partial-* > " + listing + " 2>/dev/null").c_str());
  EXPECT_TRUE(read_file(listing).empty()) << "left behind: " << read_file(listing);
  const std::string redirected = temporary_path("redirected.txt");
  expect_error(limited("simulate " + kFiveAxis + " --duration 0.5 > " + redirected), 3, "cannot write");
  expect_error(limited("eval " + source_path("examples/models/panda_7dof.yaml") + " --a 1,1,1,1,1,1,1 --json > " +
                       redirected),
               3, "cannot write");
  expect_error(limited("info " + source_path("examples/models/panda_7dof.yaml") + " > " + redirected), 3,
               "cannot write");
  std::remove(redirected.c_str());
}

// ---- defect 8 ------------------------------------------------------------------------
// Issue 16, defect 8: a body or joint name with a comma was written unquoted into the CSV
// header (one name became two columns). Now every CSV writer quotes per RFC 4180, checked
// by reading the header back with Python's csv module; names with control characters
// (newline, tab) are refused by the reader with one line.
TEST(Issue16, Defect8NamesWithCommasAndQuotesRoundTripThroughCsv) {
  const std::string model = write_temporary_file("odd_names.yaml", R"(mechdyn: 1
name: odd
bodies:
  - name: "arm, left"
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    com: [0.1, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
  - name: " padded "
    parent: "arm, left"
    joint: {name: "\"say\" \"hi\", twice", type: prismatic, axis: [1, 0, 0], origin: [0.2, 0, 0]}
    mass: 1
    com: [0, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
)");
  const std::string csv = temporary_path("odd_names.csv");
  const CliResult r = run_cli("simulate " + model + " --duration 0.002 --joint-loads --output " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  // The expected header, built here from the documented column scheme (docs/cli.md); the
  // joint names are the first body's (its joint's default) and the second's own.
  const std::string j1 = "arm, left", j2 = "\"say\" \"hi\", twice";
  std::vector<std::string> expected{"t_s", "q_" + j1 + "_rad", "q_" + j2 + "_m", "v_" + j1 + "_rad_per_s",
                                    "v_" + j2 + "_m_per_s", "a_" + j1 + "_rad_per_s2", "a_" + j2 + "_m_per_s2",
                                    "tau_" + j1 + "_N_m", "tau_" + j2 + "_N"};
  for (const std::string& j : {j1, j2}) {
    for (const char* c : {"fx", "fy", "fz"}) expected.push_back("reaction_" + j + "_" + c + "_N");
    for (const char* c : {"tx", "ty", "tz"}) expected.push_back("reaction_" + j + "_" + c + "_N_m");
  }
  expected.push_back("kinetic_energy_J");
  expected.push_back("potential_energy_J");
  for (const auto& [j, prismatic] : {std::pair{j1, false}, std::pair{j2, true}}) {
    expected.push_back("constraint_torque_" + j + "_N_m");
    expected.push_back("constraint_force_" + j + "_N");
    expected.push_back("axial_load_" + j + (prismatic ? "_N_m" : "_N"));
  }
  // Python prints each header field on its own line in <>, then the set of row widths.
  const std::string script = temporary_path("read_header.py");
  std::FILE* f = std::fopen(script.c_str(), "w");
  std::fputs("import csv, sys\nrows = list(csv.reader(open(sys.argv[1], newline='')))\n"
             "for field in rows[0]: print('<' + field + '>')\nprint(sorted(set(len(r) for r in rows)))\n", f);
  std::fclose(f);
  FILE* pipe = ::popen(("/usr/bin/python3 " + script + " " + csv).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string python;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) python += buffer;
  ASSERT_EQ(::pclose(pipe), 0) << python;
  std::string expected_text;
  for (const std::string& e : expected) expected_text += "<" + e + ">\n";
  expected_text += "[" + std::to_string(expected.size()) + "]\n";  // every row as wide as the header
  EXPECT_EQ(python, expected_text);
}

TEST(Issue16, Defect8ControlCharactersInNamesAreRefused) {
  for (const std::string name : {"\"a\\nb\"", "\"a\\tb\"", "\"a\\rb\""}) {
    const std::string model = write_temporary_file("control_name.yaml", R"(mechdyn: 1
name: control
bodies:
  - name: )" + name + R"(
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    com: [0.1, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
)");
    const CliResult r = run_cli("info " + model);
    expect_error(r, 2, "control characters");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// ---- defect 9 ------------------------------------------------------------------------
// A chain of n revolute bodies (model text), for size tests.
std::string chain_model(int n) {
  std::string text = "mechdyn: 1\nname: chain\nbodies:\n";
  for (int i = 0; i < n; ++i) {
    text += "  - name: b" + std::to_string(i) + "\n    parent: " + (i == 0 ? std::string("ground") : "b" + std::to_string(i - 1)) +
            "\n    joint: {type: revolute, axis: [0, 0, 1], origin: [" + (i == 0 ? "0" : "0.1") +
            ", 0, 0]}\n    mass: 1\n    com: [0.05, 0, 0]\n    inertia: {diag: [0.001, 0.001, 0.001]}\n";
  }
  return text;
}

// Records how the command line writes to its standard output: the largest single write
// and the number of writes.
class WriteRecorder : public std::streambuf {
 public:
  std::size_t largest = 0, writes = 0, total = 0;

 protected:
  std::streamsize xsputn(const char* /*data*/, std::streamsize count) override {
    note(static_cast<std::size_t>(count));
    return count;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) note(1);
    return traits_type::not_eof(c);
  }

 private:
  void note(std::size_t count) {
    largest = std::max(largest, count);
    ++writes;
    total += count;
  }
};

// Issue 16, defect 9: `eval --json` built a JSON tree (~100 bytes per mass-matrix entry:
// 14.6 GB for 12,000 DoF) and then one string of it, printed in a single write. Now the
// JSON streams as it is formatted: run in process (cli.hpp) on a 300-body chain (a ~2 MB
// document), no single write to standard output exceeds one number or name, so no
// buffer of the document exists. (Before: one write of the whole document.)
TEST(Issue16, Defect9EvalJsonStreams) {
  const std::string model = write_temporary_file("chain300.yaml", chain_model(300));
  for (const bool json : {true, false}) {
    SCOPED_TRACE(json ? "--json" : "text");
    WriteRecorder recorder;
    std::ostream out(&recorder);
    std::vector<std::string> arguments{"eval", model};
    if (json) arguments.push_back("--json");
    ASSERT_EQ(mechdyn::cli::run(arguments, out), 0);
    EXPECT_GT(recorder.total, 300u * 300u) << "the mass matrix is not all there";
    EXPECT_LT(recorder.largest, 4096u) << "a buffered document of " << recorder.largest << " bytes";
  }
}

// Issue 16, defect 9: out of memory anywhere in the CLI ended with "internal error:
// std::bad_alloc" and status 1. Now status 3 with one line naming the cause, the last
// line on stderr. The request that cannot fit: `--method explicit` holds M (nv × nv) —
// 200 MB for a 5000-body chain — under a 250 MB address-space limit. (Before defect 12
// any eval of a 3000-body chain did: its Data held 16 dense matrices; the recursive
// method, the default at that size, now holds none — test_cli_scale.cpp. Skipped under
// sanitizers: ASan reserves terabytes of address space and aborts on an allocation
// failure by design.)
TEST(Issue16, Defect9OutOfMemoryIsStatus3) {
  if (kSanitized) GTEST_SKIP() << "an address-space limit is incompatible with ASan's shadow memory";
  const std::string model = write_temporary_file("chain5000.yaml", chain_model(5000));
  const std::string err = temporary_path("oom_err.txt");
  const int status = std::system(("bash -c 'ulimit -v 250000; exec " + std::string(MECHDYN_CLI_PATH) + " eval " + model +
                                  " --json --method explicit > /dev/null 2> " + err + "'")
                                     .c_str());
  CliResult limited;
  limited.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  limited.err = read_file(err);
  expect_error(limited, 3, "out of memory");
}

// ---- defect 10 -----------------------------------------------------------------------
// Issue 16, defect 10: `mechdyn simulate examples/models/four_bar.yaml`, as a newcomer
// types it, exited 3 (q = 0 is not assembled). Every bundled model runs with no flags:
// loops assemble from the model's initial_configuration, and assembly tries harder
// (Levenberg–Marquardt, restarts). The one exception is physics, not robustness:
// lunar_rover_rocker has links with zero inertia about their own axes (EJ Table 3 as
// printed), so M is singular and forward dynamics does not exist (docs/dynamics.md);
// it must say so (status 3, naming the joint) and its bundled inverse-dynamics scenario
// must run.
TEST(Issue16, Defect10EveryBundledModelRunsWithNoFlags) {
  const std::vector<std::string> models = {
      "five_axis_tree",    "five_axis_tree_coulomb_viscous", "five_axis_tree_stribeck", "floating_base",
      "four_bar",          "panda_7dof",                     "planar_3dof_arm",         "slider_crank",
      "three_loop_mechanism", "schoenflies_2ups_2upu",        "ups_3ups_upu_s",         "flexible_arm",
      "rrru_3_flexible",   "rrru_3_rigid",
      // force elements, drives and couplings (model format 3): the case studies of
      // docs/benchmarks.md, "Force elements: case studies"
      "andrews_squeezer", "servo_step", "servo_arm", "geared_drive", "iftomm_four_bar_spring",
      // the IFToMM benchmark problems (docs/closed-chains.md)
      "iftomm_a01_pendulum", "iftomm_a04_bricard", "iftomm_spatial_slider_crank", "n_four_bar_1", "n_four_bar_2",
      "n_four_bar_40",
      // force elements (model format 3): the viewer's example (docs/viewer.md)
      "spring_pendulum",
      // linearisation case study (docs/benchmarks.md, "Linearisation: case studies")
      "elastic_pendulum"};
  // The list above must be every file in examples/models but the rover and the stiff
  // flyball governor (below; flexible_arm runs with Newmark since issue 11's second part).
  FILE* listing = ::popen(("ls " + source_path("examples/models") + " | grep -c '\\.yaml$'").c_str(), "r");
  int files = 0;
  ASSERT_EQ(std::fscanf(listing, "%d", &files), 1);
  ::pclose(listing);
  EXPECT_EQ(files, static_cast<int>(models.size()) + 2) << "a new example: add it to this test";
  for (const std::string& name : models) {
    const CliResult r = run_cli("simulate " + source_path("examples/models/" + name + ".yaml"));
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << name;
    EXPECT_EQ(r.out.find("inf"), std::string::npos) << name;
  }
  expect_error(run_cli("simulate " + source_path("examples/models/lunar_rover_rocker.yaml")), 3, "joint5");
  const CliResult rover = run_cli("simulate --scenario " + source_path("examples/scenarios/lunar_rover_rocker_inverse.yaml"));
  EXPECT_EQ(rover.status, 0) << rover.err;
  // The IFToMM A05 flyball governor is stiff (spring-dampers of 8e5 N/m and 4e4 N s/m): its
  // fastest mode bounds an RK4 step near 0.42 ms, below the default 1 ms, so the run with no
  // flags diverges and must say so (status 3); its scenario (DOPRI5) runs.
  expect_error(run_cli("simulate " + source_path("examples/models/iftomm_a05_flyball_governor.yaml")), 3, "non-finite");
  const CliResult flyball =
      run_cli("simulate --scenario " + source_path("examples/scenarios/iftomm_a05_flyball_governor.yaml") + " --duration 1");
  EXPECT_EQ(flyball.status, 0) << flyball.err;
}

// The initial_configuration key is checked like --q0: the count, finite numbers, unit
// quaternions; a wrong one is bad input (status 2) naming the key.
TEST(Issue16, Defect10InitialConfigurationIsChecked) {
  const std::string base = R"(mechdyn: 1
name: ball
bodies:
  - name: ball
    parent: ground
    joint: {type: spherical}
    mass: 1
    com: [0, 0, -0.5]
    inertia: {diag: [0.01, 0.01, 0.01]}
)";
  expect_error(run_cli("info " + write_temporary_file("ic1.yaml", base + "initial_configuration: [1, 0, 0]\n")), 2,
               "initial_configuration: has 3 numbers");
  expect_error(run_cli("info " + write_temporary_file("ic2.yaml", base + "initial_configuration: [2, 0, 0, 0]\n")), 2,
               "quaternion");
  expect_error(run_cli("info " + write_temporary_file("ic3.yaml", base + "initial_configuration: [.nan, 0, 0, 0]\n")), 2,
               "initial_configuration[0]");
  // A valid one is where the simulation starts: q at t = 0 is the (normalised) quaternion.
  const std::string ok = write_temporary_file("ic4.yaml", base + "initial_configuration: [0, 1, 0, 0]\n");
  const CliResult r = run_cli("simulate " + ok + " --duration 0.001");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\n0,0,1,0,0,"), std::string::npos) << r.out;
}

}  // namespace
