// mechdyn invdyn with bad input: one line on stderr naming the file or option, the line or
// time, and the problem; exit status 2 (3 for a solver failure); no output file left.
// Catches: a crash or NaN instead of a message, a message without its place, a partial
// output file presented as complete, a wrong exit status.
#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

#include "cli_runner.hpp"
#include "mechdyn/io/body_motion_csv.hpp"
#include "parallel_cases.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

const std::string kSchoenflies = source_path("examples/models/schoenflies_2ups_2upu.yaml");
const std::string kThreeUps = source_path("examples/models/ups_3ups_upu_s.yaml");

std::string good_csv() { return write_body_motion_csv(testing::schoenflies_trajectory(0.01, 1e-3)); }

struct Expect {
  std::string arguments;
  int status;
  std::vector<std::string> fragments;  // each must appear in the one line on stderr
};

void check(const Expect& e) {
  const std::string out = testing::temporary_path("out.csv");
  const auto r = run_cli("invdyn " + e.arguments + " --output " + out);
  EXPECT_EQ(r.status, e.status) << e.arguments << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("mechdyn: ", 0), 0u) << r.err;
  for (const std::string& f : e.fragments) EXPECT_NE(r.err.find(f), std::string::npos) << "'" << f << "' in " << r.err;
  EXPECT_FALSE(std::ifstream(out).good()) << "an output file was left: " << e.arguments;
  EXPECT_FALSE(std::ifstream(out + ".partial-" + std::to_string(::getpid())).good());
}

std::string file_with(const std::string& text) { return testing::write_temporary_file("motion.csv", text); }

TEST(InvdynErrors, BadMotionFiles) {
  std::string csv = good_csv();
  const std::string header = csv.substr(0, csv.find('\n') + 1);
  std::string rows = csv.substr(csv.find('\n') + 1);
  // a missing column
  {
    std::string h = header;
    h.replace(h.find(",vx"), 3, ",vq");
    const std::string f = file_with(h + rows);
    check({kSchoenflies + " --motion platform=" + f, 2, {f, "line 1", "lacks the column vx"}});
  }
  // a non-unit quaternion on the third data row (line 4)
  {
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string& line = lines[3];
    std::vector<std::string> cells;
    std::istringstream cells_in(line);
    for (std::string c; std::getline(cells_in, c, ',');) cells.push_back(c);
    cells[4] = "1.2";
    line.clear();
    for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + cells[i];
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    const std::string f = file_with(text);
    check({kSchoenflies + " --motion platform=" + f, 2, {f, "line 4", "t = 0.002", "quaternion has norm"}});
  }
  // times out of order: the second data row repeated after the third
  {
    std::istringstream in(rows);
    std::string r1, r2, r3;
    std::getline(in, r1), std::getline(in, r2), std::getline(in, r3);
    const std::string f = file_with(header + r1 + "\n" + r2 + "\n" + r3 + "\n" + r2 + "\n");
    check({kSchoenflies + " --motion platform=" + f, 2, {f, "line 5", "times must increase strictly"}});
  }
  // not a number, not finite, a short row, an empty file
  {
    const std::string f = file_with(header + "0,0,0.3,1,1,0,0,0,abc,0,0,0,0,0,0,0,0,0,0,0\n");
    check({kSchoenflies + " --motion platform=" + f, 2, {f, "line 2", "'abc' is not a number"}});
    const std::string g = file_with(header + "0,0,0.3,1,1,0,0,0,inf,0,0,0,0,0,0,0,0,0,0,0\n");
    check({kSchoenflies + " --motion platform=" + g, 2, {g, "line 2", "not finite"}});
    const std::string h = file_with(header + "0,0,0.3,1,1,0,0,0\n");
    check({kSchoenflies + " --motion platform=" + h, 2, {h, "line 2", "8 cells, the header has 20"}});
    const std::string e = file_with("");
    check({kSchoenflies + " --motion platform=" + e, 2, {e, "empty file"}});
    check({kSchoenflies + " --motion platform=/nonexistent/motion.csv", 2, {"/nonexistent/motion.csv", "cannot open"}});
  }
}

TEST(InvdynErrors, BadOptions) {
  const std::string f = file_with(good_csv());
  check({kSchoenflies + " --motion lid=" + f, 2, {"--motion", "no body named 'lid'", "platform"}});
  check({kSchoenflies, 2, {"exactly one of --motion"}});
  check({kSchoenflies + " --motion platform=" + f + " --motion-expr platform=px=0", 2, {"exactly one of"}});
  check({kSchoenflies + " --motion platform=" + f + " --wrench platform=1,2,3", 2, {"--wrench platform", "3 numbers"}});
  check({kSchoenflies + " --motion platform=" + f + " --wrench base=1,2,3,4,5,6", 2, {"--wrench", "no body named 'base'"}});
  check({kSchoenflies + " --motion platform=" + f + " --method fastest", 2, {"--method 'fastest'"}});
  check({kSchoenflies + " --motion platform=" + f + " --duration 2", 2, {"--duration", "--motion-expr"}});
  check({kSchoenflies + " --motion-expr 'platform=px=sin(t), wq=1'", 2, {"unknown key 'wq'"}});
  check({kSchoenflies + " --motion-expr 'platform=px=sin(t), wx=1'", 2, {"cannot be mixed"}});
  check({kSchoenflies + " --motion-expr 'platform=px=sin(t' ", 2, {"--motion-expr platform"}});
  // a kink inside Ridders' stencil (±0.05 s): the derivative is refused, not guessed
  check({kSchoenflies + " --motion-expr 'platform=py=0.3, pz=1+abs(t-0.0005)' --duration 0.002", 2,
         {"first derivative of expression 2 is not smooth at t = 0 s"}});
  check({source_path("examples/models/five_axis_tree.yaml") + " --motion L5=" + f, 2, {"has no loops"}});
  check({source_path("examples/models/four_bar.yaml") + " --motion rocker=" + f + " --method momentum-screw", 2,
         {"--method momentum-screw", "not a parallel manipulator"}});
}

TEST(InvdynErrors, InfeasibleAndSingularMotions) {
  // A tilt about x: the Schoenflies platform cannot leave the horizontal (the UPU limbs'
  // constraint couples): the closure is violated from t = 0.
  check({kSchoenflies + " --motion-expr 'platform=py=0.3, pz=1, rx=0.1*t' --duration 0.01", 2, {"t = 0", "violate"}});
  check({kSchoenflies + " --motion-expr 'platform=py=0.3, pz=1, rx=0.1*t' --duration 0.01 --method newton-euler", 2,
         {"t = 0", "violate the loop closure"}});
  // Prescribing only ω_z of the 3UPS-UPU-S platform: one prescribed component for two
  // degrees of freedom, the joint motion is not determined (singular).
  check({kThreeUps + " --motion-expr 'platform=wz=0.1' --duration 0.01", 2, {"t = 0 s", "singular configuration"}});
  // A failure after some rows were computed leaves no output file either (the motion
  // starts feasible — rx, its rate and acceleration vanish at t = 0 — and tilts after).
  check({kSchoenflies + " --motion-expr 'platform=py=0.3, pz=1, rx=10*t^3' --duration 0.01", 2,
         {"t = 0.001 s", "violate"}});
}

}  // namespace
}  // namespace mechdyn
