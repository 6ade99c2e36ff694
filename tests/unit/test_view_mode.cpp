// `mechdyn view MODEL --mode K` (docs/viewer.md "Mode shapes"): the page's run is the K-th
// vibration mode about the equilibrium, q(t) = q_eq ⊕ A sin(2π f t) ŝ over a few periods
// (apps/mechdyn/mode_animation.hpp). Checked here on data.js, without a browser, against
// closed forms: the single pendulum's f = √(g/l)/2π and the hanging double pendulum's
// 2 × 2 eigenproblem K s = ω² M s written out below, not mechdyn's numbers. The overlay and
// the time scale in a real browser: viewer/test/browser_test.mjs, modeCase. Each test names
// the bug it catches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;
using Json = nlohmann::json;

constexpr double kPi = 3.14159265358979323846;
constexpr double kG = 9.81;

// A point mass m = 2 kg on a massless rod l = 0.5 m, hanging along −y from a revolute
// joint about z (actuated: held unless --locked none). Linearised about φ = 0:
// m l² φ̈ = −m g l φ, so ω = √(g/l), f = √(g/l)/2π = 0.7049683… Hz.
constexpr double kLength = 0.5;
const char* kPendulum = R"(mechdyn: 1
name: pendulum
gravity: [0, -9.81, 0]
bodies:
  - name: rod
    parent: ground
    joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 2
    com: [0, -0.5, 0]
    inertia: {diag: [0, 0, 0]}
)";

// Two point masses m1 = 1 kg at l1 = 1 m, m2 = 0.5 kg at l2 = 0.8 m beyond, hanging along
// −y; θ2 relative to link 1. Point 2 at l1 (sin θ1, −cos θ1) + l2 (sin(θ1+θ2), −cos(θ1+θ2)):
//   T = ½ m1 l1² θ̇1² + ½ m2 ((l1 + l2) θ̇1 + l2 θ̇2)²   (at θ = 0)
//   V = −g [m1 l1 cos θ1 + m2 (l1 cos θ1 + l2 cos(θ1 + θ2))]
// so M = [[m1 l1² + m2 (l1+l2)², m2 l2 (l1+l2)], [·, m2 l2²]],
//    K = g [[m1 l1 + m2 (l1+l2), m2 l2], [·, m2 l2]].
constexpr double kM1 = 1.0, kL1 = 1.0, kM2 = 0.5, kL2 = 0.8;
const char* kDoublePendulum = R"(mechdyn: 1
name: double_pendulum
gravity: [0, -9.81, 0]
bodies:
  - name: upper
    parent: ground
    joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 1
    com: [0, -1, 0]
    inertia: {diag: [0, 0, 0]}
  - name: lower
    parent: upper
    joint: {name: J2, type: revolute, axis: [0, 0, 1], origin: [0, -1, 0]}
    mass: 0.5
    com: [0, -0.8, 0]
    inertia: {diag: [0, 0, 0]}
)";

struct ModePage {
  Json data;                  // window.MECHDYN_DATA
  std::vector<double> times;  // rows
  std::vector<double> q;      // rows × nq
};

std::vector<double> decode_doubles(const std::string& text) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned char> bytes;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const char* at = std::strchr(alphabet, c);
    if (c == '=' || at == nullptr) break;
    buffer = (buffer << 6) | static_cast<unsigned>(at - alphabet);
    bits += 6;
    if (bits >= 8) bits -= 8, bytes.push_back(static_cast<unsigned char>((buffer >> bits) & 0xFF));
  }
  std::vector<double> values(bytes.size() / sizeof(double));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

ModePage mode_page(const std::string& model_text, const std::string& options) {
  const std::string model = write_temporary_file("model.yaml", model_text);
  const std::string dir = temporary_path("page");
  const CliResult r = run_cli("view " + model + " " + options + " -o " + dir);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(dir + "/data.js");
  const std::string prefix = "window.MECHDYN_DATA = ";
  EXPECT_EQ(text.rfind(prefix, 0), 0u);
  ModePage page;
  page.data = Json::parse(text.substr(prefix.size(), text.rfind(';') - prefix.size()));
  page.times = decode_doubles(page.data["run"]["times"].get<std::string>());
  page.q = decode_doubles(page.data["run"]["q"].get<std::string>());
  return page;
}

// Bug caught: a wrong period (f in rad/s taken for Hz, a time axis in wall seconds), a
// wrong amplitude (the library's mass-normalised shape used unscaled), or a phase error:
// every row's φ must be ±A sin(2π f t) with the closed-form f and A as asked.
TEST(ViewMode, PendulumModeHasClosedFormPeriodAndAmplitude) {
  const double f = std::sqrt(kG / kLength) / (2.0 * kPi);
  for (const auto& [options, amplitude, periods] :
       std::vector<std::tuple<std::string, double, int>>{{"--mode 1 --locked none", 0.2, 3},
                                                         {"--mode 1 --locked none --amplitude 0.05 --periods 2", 0.05, 2}}) {
    SCOPED_TRACE(options);
    const ModePage page = mode_page(kPendulum, options);
    const Json& mode = page.data["mode"];
    EXPECT_NEAR(mode["frequency"].get<double>(), f, 1e-9 * f);
    EXPECT_NEAR(mode["period"].get<double>(), 1.0 / f, 1e-9 / f);
    EXPECT_EQ(mode["number"].get<int>(), 1);
    EXPECT_EQ(mode["count"].get<int>(), 1);
    EXPECT_EQ(mode["coordinate"].get<std::string>(), "J1");
    EXPECT_EQ(mode["unit"].get<std::string>(), "rad");
    EXPECT_DOUBLE_EQ(mode["wall_seconds_per_period"].get<double>(), 2.0);
    ASSERT_EQ(page.times.size(), page.q.size());
    ASSERT_GT(page.times.size(), 40u);
    EXPECT_NEAR(page.times.back(), periods / f, 1e-9);  // whole periods
    const double sign = page.q[page.q.size() / (4 * periods)] > 0 ? 1.0 : -1.0;  // the shape's sign is free
    double largest = 0.0, worst = 0.0;
    for (std::size_t r = 0; r < page.times.size(); ++r) {
      worst = std::max(worst, std::abs(page.q[r] - sign * amplitude * std::sin(2.0 * kPi * f * page.times[r])));
      largest = std::max(largest, std::abs(page.q[r]));
    }
    EXPECT_LT(worst, 1e-9) << "φ(t) is not A sin(2π f t)";
    EXPECT_NEAR(largest, amplitude, 1e-12) << "the peak rows are not ±A";
  }
}

// Bug caught: the frames not moving along the mode shape (a shape column of another mode,
// the coordinates of one joint swapped, the shape's v order taken for q order): each
// frame's (θ1, θ2) must be proportional to the closed-form eigenvector of mode K, and the
// larger component must reach A.
TEST(ViewMode, DoublePendulumFramesAreProportionalToTheShape) {
  const double m11 = kM1 * kL1 * kL1 + kM2 * (kL1 + kL2) * (kL1 + kL2), m12 = kM2 * kL2 * (kL1 + kL2),
               m22 = kM2 * kL2 * kL2;
  const double k11 = kG * (kM1 * kL1 + kM2 * (kL1 + kL2)), k12 = kG * kM2 * kL2, k22 = kG * kM2 * kL2;
  // det(K − λ M) = a λ² + b λ + c = 0, λ = ω²
  const double a = m11 * m22 - m12 * m12, b = -(k11 * m22 + k22 * m11 - 2.0 * k12 * m12), c = k11 * k22 - k12 * k12;
  const double root = std::sqrt(b * b - 4.0 * a * c);
  const double lambdas[2] = {(-b - root) / (2.0 * a), (-b + root) / (2.0 * a)};
  for (int k = 1; k <= 2; ++k) {
    SCOPED_TRACE("mode " + std::to_string(k));
    const double lambda = lambdas[k - 1];
    const double f = std::sqrt(lambda) / (2.0 * kPi);
    const double ratio = -(k11 - lambda * m11) / (k12 - lambda * m12);  // s2 / s1
    const ModePage page = mode_page(kDoublePendulum, "--mode " + std::to_string(k) + " --locked none");
    EXPECT_NEAR(page.data["mode"]["frequency"].get<double>(), f, 1e-8 * f);
    EXPECT_EQ(page.data["mode"]["count"].get<int>(), 2);
    ASSERT_EQ(page.q.size(), 2 * page.times.size());
    double largest1 = 0.0, largest2 = 0.0, worst = 0.0;
    int compared = 0;
    for (std::size_t r = 0; r < page.times.size(); ++r) {
      const double q1 = page.q[2 * r], q2 = page.q[2 * r + 1];
      largest1 = std::max(largest1, std::abs(q1));
      largest2 = std::max(largest2, std::abs(q2));
      // both coordinates share the time function: q2 = ratio · q1 at every row
      worst = std::max(worst, std::abs(q2 - ratio * q1));
      compared += std::abs(q1) > 1e-3;
    }
    EXPECT_GT(compared, 100);
    EXPECT_LT(worst, 1e-9) << "the frames do not move along the shape (s2/s1 = " << ratio << ")";
    EXPECT_NEAR(std::max(largest1, largest2), 0.2, 1e-12) << "the larger excursion is not A";
    EXPECT_EQ(page.data["mode"]["coordinate"].get<std::string>(), std::abs(ratio) > 1.0 ? "J2" : "J1");
    EXPECT_NEAR(page.times.back(), 3.0 / f, 1e-9);
  }
}

// Bug caught: a closed chain animated by the linear increments alone (the loop opens by
// O(A²) at the peaks, the page shows a broken mechanism): every frame of the slider-crank's
// mode must close by the library's own Φ, `mechdyn eval --q … --json`, while its free
// coordinate still follows the formula exactly and the dependent ones differ from the
// linear increment (so the re-assembly did something).
TEST(ViewMode, ClosedChainFramesAreReassembled) {
  const std::string model = source_path("examples/models/slider_crank.yaml");
  const std::string dir = temporary_path("page");
  const CliResult r = run_cli("view " + model + " --mode 1 --locked none -o " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(dir + "/data.js");
  const Json data = Json::parse(text.substr(text.find('{'), text.rfind(';') - text.find('{')));
  const Json& mode = data["mode"];
  EXPECT_EQ(mode["reassembled"].get<int>(), 1);
  const std::vector<double> times = decode_doubles(data["run"]["times"].get<std::string>());
  const std::vector<double> q = decode_doubles(data["run"]["q"].get<std::string>());
  const std::vector<double> shape = mode["shape"].get<std::vector<double>>();
  const std::vector<double> q_eq = mode["q_equilibrium"].get<std::vector<double>>();
  const std::size_t nq = q_eq.size();
  ASSERT_EQ(q.size(), nq * times.size());
  const double amplitude = mode["amplitude"].get<double>(), f = mode["frequency"].get<double>();
  double largest_departure = 0.0;
  for (const std::size_t row : {std::size_t{25}, std::size_t{50}, std::size_t{75}, std::size_t{130}}) {
    std::string list;
    for (std::size_t i = 0; i < nq; ++i) {
      char number[40];
      std::snprintf(number, sizeof number, "%.17g", q[row * nq + i]);
      list += (i ? "," : "") + std::string(number);
    }
    const CliResult e = run_cli("eval " + model + " --q " + list + " --json");
    ASSERT_EQ(e.status, 0) << e.err;
    double residual = 0.0;
    for (const double x : Json::parse(e.out)["loops"]["residual"].get<std::vector<double>>())
      residual = std::max(residual, std::abs(x));
    EXPECT_LT(residual, 1e-9) << "row " << row << ": the loop is open";
    const double modal = amplitude * std::sin(2.0 * kPi * f * times[row]);
    double departure = 0.0, kept = 1e300;  // largest and smallest over the coordinates
    for (std::size_t i = 0; i < nq; ++i) {
      const double d = std::abs(q[row * nq + i] - q_eq[i] - modal * shape[i]);
      departure = std::max(departure, d), kept = std::min(kept, d);
    }
    EXPECT_LT(kept, 1e-12) << "row " << row << ": the free coordinate does not follow A sin(2π f t) ŝ";
    largest_departure = std::max(largest_departure, departure);
  }
  EXPECT_GT(largest_departure, 1e-4) << "no coordinate departs from the linear increment: not re-assembled";
}

// A slider of m = 2 kg on a joint spring k = 8 N/m along x (no gravity): ω = √(k/m) = 2 rad/s,
// f = 1/π Hz. Its centre of mass 0.5 m from the frame origin on the axis: the box around
// the body origin and the centre of mass has a diagonal of 0.5 m.
const char* kSlider = R"(mechdyn: 3
name: slider
gravity: [0, 0, 0]
bodies:
  - name: block
    parent: ground
    joint: {name: X, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0]}
    mass: 2
    com: [0.5, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
forces:
  - {name: K, type: joint-spring-damper, joint: X, stiffness: 8, rest: 0}
)";

// Bug caught: a mode led by a length animated with 0.2 m whatever the model's size (a
// 1 cm mechanism thrown off screen), or its unit said to be rad: the default amplitude is
// 0.2 × the model's size (0.2 × 0.5 m), in m, at the closed-form f.
TEST(ViewMode, LengthModeDefaultAmplitudeFollowsTheModelSize) {
  const ModePage page = mode_page(kSlider, "--mode 1 --locked none");
  const Json& mode = page.data["mode"];
  EXPECT_NEAR(mode["frequency"].get<double>(), 1.0 / kPi, 1e-9);
  EXPECT_EQ(mode["unit"].get<std::string>(), "m");
  EXPECT_NEAR(mode["amplitude"].get<double>(), 0.1, 1e-12);
  double largest = 0.0;
  for (const double x : page.q) largest = std::max(largest, std::abs(x));
  EXPECT_NEAR(largest, 0.1, 1e-12);
  const std::vector<std::string> columns = page.data["run"]["columns"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(columns.begin(), columns.end(), "modal_coordinate_m"), columns.end());
}

// Bug caught: K beyond the modes silently clamped, or a model with no mode animated as a
// still picture: one line naming the count, exit status 2, no page written.
TEST(ViewMode, ModeOutOfRangeNamesTheCount) {
  const std::string model = write_temporary_file("model.yaml", kDoublePendulum);
  const std::string dir = temporary_path("page");
  CliResult r = run_cli("view " + model + " --mode 3 --locked none -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--mode 3: " + model + " has 2 nonzero vibration modes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("K from 1 to 2"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(read_file(dir + "/index.html").empty()) << "a page was written";

  r = run_cli("view " + model + " --mode 0 --locked none -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--mode 0: K counts from 1"), std::string::npos) << r.err;

  // every joint actuated and held (the default --locked actuated): no mode at all
  r = run_cli("view " + model + " --mode 1 -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no nonzero vibration mode about the equilibrium (2 actuated joints held"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--locked none"), std::string::npos) << r.err;
  EXPECT_TRUE(read_file(dir + "/index.html").empty()) << "a page was written";
}

// Bug caught: mode options accepted and ignored (no --mode, or a run given as well), a
// bad amplitude used, a failed equilibrium reported as bad input.
TEST(ViewMode, RefusesInconsistentOptionsAndReportsSolverFailures) {
  const std::string model = write_temporary_file("model.yaml", kPendulum);
  const std::string dir = temporary_path("page");
  CliResult r = run_cli("view " + model + " --amplitude 0.1 -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--amplitude is an option of --mode K"), std::string::npos) << r.err;
  r = run_cli("view " + model + " --mode 1 --locked none --amplitude -0.1 -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--amplitude -0.1: must be a positive number"), std::string::npos) << r.err;
  const std::string run = write_temporary_file("run.csv", "t_s,q_J1_rad\n0,0\n");
  r = run_cli("view " + model + " " + run + " --mode 1 -o " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--mode and a RUN.csv"), std::string::npos) << r.err;
  // a floating body falls: no equilibrium (status 3, as `mechdyn modes`)
  r = run_cli("view " + source_path("examples/models/floating_base.yaml") + " --mode 1 --locked none -o " + dir);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("no equilibrium"), std::string::npos) << r.err;
}

}  // namespace
