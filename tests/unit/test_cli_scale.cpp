// The command line at scale (issue 16, defect 12): `--method auto` picks the explicit
// method up to 16 coordinates and the recursive one (O(n) per step, no dense matrix)
// above, says which, gives the explicit method's numbers, and a 2000-body chain steps
// within a memory limit that a Data of dense matrices cannot meet.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "common.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::temporary_path;
using mechdyn::testing::write_temporary_file;
using Json = nlohmann::json;

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

// A chain of n revolute bodies (axes cycling x, y, z), as scripts/generate_scale_models.py.
std::string chain_model(int n) {
  static const char* const kAxes[] = {"[1, 0, 0]", "[0, 1, 0]", "[0, 0, 1]"};
  std::string text = "mechdyn: 1\nname: chain\nbodies:\n";
  for (int i = 0; i < n; ++i) {
    text += "  - name: b" + std::to_string(i) + "\n    parent: " + (i == 0 ? std::string("ground") : "b" + std::to_string(i - 1)) +
            "\n    joint: {type: revolute, axis: " + kAxes[i % 3] + ", origin: [" + (i == 0 ? "0" : "0.1") +
            ", 0, 0]}\n    mass: 1\n    com: [0.05, 0, 0]\n"
            "    inertia: {ixx: 0.0015, iyy: 0.0012, izz: 0.0018, ixy: 0.0001, ixz: -0.00005, iyz: 0.00008}\n";
  }
  return text;
}

// 20 bodies, nv = 23 (> 16: auto is recursive): revolute, prismatic, universal and
// spherical joints, three branches.
std::string mixed_tree() {
  std::ostringstream text;
  text << "mechdyn: 1\nname: mixed_tree\nbodies:\n";
  auto body = [&](const std::string& name, const std::string& parent, const std::string& joint, int k) {
    text << "  - name: " << name << "\n    parent: " << parent << "\n    joint: " << joint << "\n    mass: "
         << 0.5 + 0.1 * k << "\n    com: [0.05, " << 0.01 * (k % 3) << ", 0.02]\n"
         << "    inertia: {ixx: 0.002, iyy: 0.0015, izz: 0.0025, ixy: 0.0001, ixz: 0.00005, iyz: -0.0001}\n";
  };
  body("b0", "ground", "{type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}", 0);
  body("b1", "b0", "{type: prismatic, axis: [1, 0, 0], origin: [0.1, 0, 0]}", 1);
  body("b2", "b1", "{type: universal, axes: [[1, 0, 0], [0, 1, 0]], origin: [0.1, 0, 0]}", 2);
  body("b3", "b2", "{type: spherical, origin: [0.1, 0, 0.05]}", 3);
  const char* const axes[] = {"[1, 0, 0]", "[0, 1, 0]", "[0, 0, 1]"};
  std::string parent = "b3";
  for (int k = 4; k < 10; ++k) {  // a chain below the spherical joint
    body("b" + std::to_string(k), parent, std::string("{type: revolute, axis: ") + axes[k % 3] + ", origin: [0.1, 0, 0]}", k);
    parent = "b" + std::to_string(k);
  }
  parent = "b1";
  for (int k = 10; k < 15; ++k) {  // a branch from the prismatic body, alternating joint types
    const std::string joint = k % 2 == 0 ? std::string("{type: revolute, axis: ") + axes[k % 3] + ", origin: [0, 0.1, 0]}"
                                         : std::string("{type: prismatic, axis: ") + axes[k % 3] + ", origin: [0, 0.1, 0]}";
    body("b" + std::to_string(k), parent, joint, k);
    parent = "b" + std::to_string(k);
  }
  parent = "b3";
  for (int k = 15; k < 20; ++k) {  // a second branch from the spherical body
    body("b" + std::to_string(k), parent, std::string("{type: revolute, axis: ") + axes[(k + 1) % 3] + ", origin: [0, 0, 0.1]}", k);
    parent = "b" + std::to_string(k);
  }
  return text.str();
}

std::string number_list(const std::vector<double>& values) {
  std::string text;
  char buffer[32];
  for (double x : values) {
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    text += (text.empty() ? "" : ",") + std::string(buffer);
  }
  return text;
}

// A state of the mixed tree: nq = 24 (the spherical joint's unit quaternion at q[4..7]).
std::string mixed_state() {
  std::vector<double> q, v, a, tau;
  for (int k = 0; k < 24; ++k) q.push_back(0.3 * std::sin(1.7 * k + 0.4));
  const double w = 0.9, x = 0.1, y = -0.3, z = 0.2, norm = std::sqrt(w * w + x * x + y * y + z * z);
  q[4] = w / norm, q[5] = x / norm, q[6] = y / norm, q[7] = z / norm;
  for (int k = 0; k < 23; ++k) {
    v.push_back(0.5 * std::cos(0.9 * k));
    a.push_back(0.7 * std::sin(1.3 * k + 1.0));
    tau.push_back(0.2 * std::cos(2.1 * k));
  }
  return "--q " + number_list(q) + " --v " + number_list(v) + " --a " + number_list(a) + " --tau " + number_list(tau);
}

// Every number of two JSON values of the same shape, |x − y| ≤ tolerance · max(1, scale).
void expect_close(const Json& x, const Json& y, double scale, double tolerance, const std::string& where) {
  if (x.is_number() && y.is_number()) {  // "0" parses as an integer, "1e-17" as a double
    EXPECT_LE(std::abs(x.get<double>() - y.get<double>()), tolerance * std::max(1.0, scale))
        << where << ": " << x.get<double>() << " vs " << y.get<double>();
  } else if (x.is_array()) {
    ASSERT_TRUE(y.is_array()) << where;
    ASSERT_EQ(x.size(), y.size()) << where;
    for (std::size_t k = 0; k < x.size(); ++k) expect_close(x[k], y[k], scale, tolerance, where + "[" + std::to_string(k) + "]");
  } else if (x.is_object()) {
    for (auto it = x.begin(); it != x.end(); ++it) {
      ASSERT_TRUE(y.contains(it.key())) << where << "." << it.key();
      expect_close(it.value(), y[it.key()], scale, tolerance, where + "." + it.key());
    }
  } else {
    EXPECT_EQ(x, y) << where;
  }
}

// The largest |number| in a JSON value (the scale of a quantity).
double largest(const Json& x) {
  if (x.is_number()) return std::abs(x.get<double>());
  double m = 0.0;
  if (x.is_array() || x.is_object())
    for (const auto& item : x) m = std::max(m, largest(item));
  return m;
}

Json eval_json(const std::string& arguments) {
  const CliResult r = run_cli("eval " + arguments + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

// Bug caught: auto not applied or not reported; the threshold off by one. A chain of 16
// coordinates runs explicit, of 17 recursive; eval's JSON, info and the simulate
// summary all name the method.
TEST(CliScale, AutoIsExplicitUpToSixteenCoordinates) {
  const std::string sixteen = write_temporary_file("chain16.yaml", chain_model(16));
  const std::string seventeen = write_temporary_file("chain17.yaml", chain_model(17));
  EXPECT_EQ(eval_json(sixteen)["method"], "explicit");
  EXPECT_EQ(eval_json(seventeen)["method"], "recursive");
  EXPECT_EQ(eval_json(seventeen + " --method explicit")["method"], "explicit");
  EXPECT_EQ(eval_json(sixteen + " --method recursive")["method"], "recursive");
  EXPECT_NE(run_cli("info " + seventeen).out.find("method     recursive (auto: nv = 17 > 16)"), std::string::npos);
  EXPECT_NE(run_cli("info " + sixteen).out.find("method     explicit (auto: nv = 16 <= 16)"), std::string::npos);
  const std::string csv = temporary_path("chain17.csv");
  const CliResult r = run_cli("simulate " + seventeen + " --duration 0.002 --output " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("method recursive (auto: nv = 17 > 16)"), std::string::npos) << r.out;
  const CliResult bad = run_cli("eval " + sixteen + " --method fastest");
  EXPECT_EQ(bad.status, 2) << bad.err;
}

// Bug caught: the automatically chosen (recursive) path computing a different quantity
// than the explicit one — M, h, g, tau, a, reactions, poses and joint loads of one state
// of a 23-coordinate tree with every one-axis and multi-axis joint type, 1e-10 of each
// quantity's scale; and simulate's rows after 10 RK4 steps from the same state.
TEST(CliScale, AutoAgreesWithExplicit) {
  const std::string model = write_temporary_file("mixed_tree.yaml", mixed_tree());
  const std::string state = mixed_state();
  const Json automatic = eval_json(model + " " + state);
  const Json explicit_method = eval_json(model + " " + state + " --method explicit");
  ASSERT_EQ(automatic["nv"], 23);
  ASSERT_EQ(automatic["method"], "recursive");
  for (const char* key : {"mass_matrix", "bias", "gravity", "tau", "a", "reactions", "body_poses", "joint_loads"}) {
    ASSERT_TRUE(automatic.contains(key)) << key;
    expect_close(automatic[key], explicit_method[key], largest(explicit_method[key]), 1e-10, key);
  }

  // simulate: the same initial state, 10 RK4 steps, every column of every row.
  const std::string q0 = state.substr(4, state.find(" --v") - 4);
  std::string tau = "0.1*sin(t)";
  for (int k = 1; k < 23; ++k) tau += ",0";
  const std::string common = " --q0 " + q0 + " --duration 0.01 --step 0.001 --tau '" + tau + "'";
  const CliResult by_auto = run_cli("simulate " + model + common);
  const CliResult by_explicit = run_cli("simulate " + model + common + " --method explicit");
  ASSERT_EQ(by_auto.status, 0) << by_auto.err;
  ASSERT_EQ(by_explicit.status, 0) << by_explicit.err;
  std::istringstream a_lines(by_auto.out), e_lines(by_explicit.out);
  std::string a_line, e_line;
  std::getline(a_lines, a_line);
  std::getline(e_lines, e_line);
  EXPECT_EQ(a_line, e_line) << "headers";
  int rows = 0;
  while (std::getline(a_lines, a_line) && std::getline(e_lines, e_line)) {
    std::istringstream a_cells(a_line), e_cells(e_line);
    std::string a_cell, e_cell;
    int column = 0;
    while (std::getline(a_cells, a_cell, ',') && std::getline(e_cells, e_cell, ',')) {
      const double x = std::stod(a_cell), y = std::stod(e_cell);
      EXPECT_LE(std::abs(x - y), 1e-10 * std::max(1.0, std::abs(y))) << "row " << rows << " column " << column;
      ++column;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 11);
}

// Bug caught: dense n × n workspaces allocated for a tree whose method needs none (before:
// 16 dense matrices in simulate's two Data, 512 MB for 2000 bodies, 631 MB peak address
// space). Under a 150 MB address-space limit the default (recursive) method steps a
// 2000-body chain; the explicit method — M and its factor in both Data, 128 MB — cannot
// start under the same limit, which shows the limit is tight enough to catch dense
// matrices. (Skipped under sanitizers: ASan reserves terabytes of address space.)
TEST(CliScale, TwoThousandBodyChainStepsWithinAMemoryLimit) {
  if (kSanitized) GTEST_SKIP() << "an address-space limit is incompatible with ASan's shadow memory";
  const std::string model = write_temporary_file("chain2000.yaml", chain_model(2000));
  auto run_limited = [&](const std::string& method) {
    const std::string csv = temporary_path("chain2000.csv");
    const std::string err = temporary_path("chain2000_err.txt");
    const int status = std::system(("bash -c 'ulimit -v 150000; exec " + std::string(MECHDYN_CLI_PATH) + " simulate " +
                                    model + " --duration 0.001 --method " + method + " --output " + csv + " > /dev/null 2> " +
                                    err + "'")
                                       .c_str());
    CliResult r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_file(err);
    r.out = read_file(csv);
    return r;
  };
  const CliResult lean = run_limited("auto");
  ASSERT_EQ(lean.status, 0) << lean.err;
  std::istringstream lines(lean.out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) ++count;
  EXPECT_EQ(count, 3) << "header and the rows at t = 0 and t = 0.001";
  const CliResult dense = run_limited("explicit");
  EXPECT_EQ(dense.status, 3) << "the dense method fitted under the limit: the test cannot catch dense matrices";
  EXPECT_NE(dense.err.find("out of memory"), std::string::npos) << dense.err;
}

// Bug caught: the fast number formatting (std::to_chars, which eval's 10⁸-number mass
// matrices need) printing other digits than %.17g — the contract's format. Compared with
// snprintf on a million seeded random bit patterns (every exponent, subnormals, signs)
// and the edge values.
TEST(CliScale, NumberFormatIsExactlyPrintf17g) {
  std::mt19937_64 rng(16);
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.1, 1e-300, 4.9406564584124654e-324, 2.2250738585072014e-308,
                                1.7976931348623157e308, 123456789012345678.0, 1e16, 1e17, 9.999999999999999e16, 0.5,
                                1.0 / 3.0};
  for (int k = 0; k < 1000000; ++k) {
    const std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) values.push_back(x);
  }
  for (const double x : values) {
    char expected[64];
    std::snprintf(expected, sizeof expected, "%.17g", x);
    char buffer[32];
    const std::string got(buffer, mechdyn::cli::format_17g(x, buffer));
    ASSERT_EQ(got, expected) << "bits of " << expected;
  }
}

}  // namespace
