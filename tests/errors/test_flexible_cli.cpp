// The command-line tool on models with flexible bodies (format version 2): `info`
// describes them; `static` and `modes` print the contract's JSON
// (../shared/spec/flexible-bodies.md); `eval` gives the eval contract's keys with the
// elastic coordinates; `simulate` integrates them; a bad flexible block or bad option is one
// line, status 2, for every command.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace mechdyn {
namespace {

using testing::CliResult;
using testing::run_cli;
using testing::source_path;
using testing::write_temporary_file;

const std::string kArm = source_path("examples/models/flexible_arm.yaml");

void expect_one_line_failure(const CliResult& r, const std::string& file, const std::string& element,
                             const std::string& problem) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_EQ(r.err.rfind("mechdyn: " + file + ": " + element + ": ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
}

// Catches: info failing on version 2, or hiding the beam.
TEST(FlexibleCli, InfoDescribesTheBeam) {
  const CliResult r = run_cli("info " + kArm);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("flexible bodies"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("link2: length 0.8 m along [1, 0, 0], 4 elements, 24 elastic coordinates"), std::string::npos)
      << r.out;
}

// eval on a flexible model: the contract's keys with the elastic coordinates (flex3).
// Catches: a wrong gravity part (closed form: the weights about the two hinges), elastic
// coordinates missing or misnamed in `coordinates`, an asymmetric M, a forward acceleration
// that does not satisfy M a + h = τ, inverse dynamics silently without reactions.
TEST(FlexibleCli, EvalGivesTheContractKeysWithElasticCoordinates) {
  std::string tau = "1,2";
  for (int k = 0; k < 24; ++k) tau += ",0";
  const CliResult e = run_cli("eval " + kArm + " --json --tau " + tau);
  ASSERT_EQ(e.status, 0) << e.err;
  const auto j = nlohmann::json::parse(e.out);
  ASSERT_EQ(j["nq"], 26);
  ASSERT_EQ(j["nv"], 26);
  ASSERT_EQ(j["coordinates"].size(), 26u);
  EXPECT_EQ(j["coordinates"][2]["joint"], "link2_n2_ux");
  EXPECT_EQ(j["coordinates"][2]["type"], "elastic");
  EXPECT_EQ(j["coordinates"][2]["v_index"], 2);
  EXPECT_EQ(j["coordinates"][25]["joint"], "link2_n5_thz");
  EXPECT_EQ(j["coordinates"][25]["node"], 5);
  const auto& m = j["mass_matrix"];
  for (int r = 0; r < 26; ++r)
    for (int c = 0; c < 26; ++c) EXPECT_EQ(m[r][c].get<double>(), m[c][r].get<double>());
  // At q = 0 both links lie along x, the hinges about y, gravity −z: the gravity part of h is
  // −(the weights' moments): hinge 2 carries the beam (ρAL = 2700 π 1e-4 0.8 kg at 0.4 m) and
  // the welded 0.2 kg at its origin; hinge 1 also link1 (2 kg at 0.2 m) and link2 0.4 m further.
  const double beam = 2700 * M_PI * 1e-4 * 0.8, g = 9.81;
  EXPECT_NEAR(j["gravity"][1].get<double>(), -g * beam * 0.4, 1e-9);
  EXPECT_NEAR(j["gravity"][0].get<double>(), -g * (2.0 * 0.2 + 0.2 * 0.4 + beam * 0.8), 1e-9);
  // v = 0 and e = 0: h is gravity alone (no elastic force, no velocity terms).
  for (int k = 0; k < 26; ++k) EXPECT_NEAR(j["bias"][k].get<double>(), j["gravity"][k].get<double>(), 1e-12) << k;
  // M a + h = τ
  for (int r = 0; r < 26; ++r) {
    double sum = j["bias"][r].get<double>();
    for (int c = 0; c < 26; ++c) sum += m[r][c].get<double>() * j["a"][c].get<double>();
    EXPECT_NEAR(sum, r == 0 ? 1.0 : r == 1 ? 2.0 : 0.0, 1e-8) << r;
  }
  EXPECT_EQ(j["body_poses"].size(), 2u);
  // Closed chain on beams: the loops key with the residual of the assembled start.
  const CliResult robot = run_cli("eval " + source_path("examples/models/rrru_3_flexible.yaml") + " --json");
  ASSERT_EQ(robot.status, 0) << robot.err;
  const auto k = nlohmann::json::parse(robot.out);
  ASSERT_EQ(k["loops"]["residual"].size(), 8u);
  for (const auto& x : k["loops"]["residual"]) EXPECT_LT(std::abs(x.get<double>()), 1e-12);
  EXPECT_EQ(k["loops"]["jacobian"][0].size(), 83u);
  // Inverse dynamics with reactions: not yet, one line, status 2.
  std::string a = "0";
  for (int i = 1; i < 26; ++i) a += ",0";
  const CliResult inverse = run_cli("eval " + kArm + " --json --a " + a);
  EXPECT_EQ(inverse.status, 2);
  EXPECT_NE(inverse.err.find("--a: inverse dynamics with joint reactions is not yet available"), std::string::npos)
      << inverse.err;
  EXPECT_EQ(inverse.err.find('\n'), inverse.err.size() - 1) << inverse.err;
  // Derivatives are the rigid algorithms': refused for a flexible model, one line, status 2.
  std::string zero_tau = "0";
  for (int i = 1; i < 26; ++i) zero_tau += ",0";
  const CliResult derivatives = run_cli("eval " + kArm + " --json --derivatives --tau " + zero_tau);
  EXPECT_EQ(derivatives.status, 2);
  EXPECT_NE(derivatives.err.find("--derivatives: not available for models with flexible bodies"), std::string::npos)
      << derivatives.err;
  EXPECT_EQ(derivatives.err.find('\n'), derivatives.err.size() - 1) << derivatives.err;
  EXPECT_TRUE(derivatives.out.empty());
  // The text form runs too.
  const CliResult text = run_cli("eval " + kArm);
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("link2_n5_thz"), std::string::npos);
}

// simulate on a flexible model: Newmark (default) and HHT write the CSV with the elastic
// coordinates, markers, constraint violation and energies; the settings that do not apply
// are refused in one line. Catches: a missing or misaligned column, a failed step, the
// rigid integrators silently used on a beam.
TEST(FlexibleCli, SimulateIntegratesFlexibleModels) {
  for (const char* integrator : {"", " --integrator hht"}) {
    const CliResult r = run_cli("simulate " + kArm + " --duration 0.02 --step 0.001 --tau 'sin(t)',0" + integrator);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < r.out.size()) {
      const std::size_t end = r.out.find('\n', start);
      lines.push_back(r.out.substr(start, end - start));
      start = end + 1;
    }
    ASSERT_EQ(lines.size(), 22u);  // header + 21 rows
    const std::string& header = lines[0];
    EXPECT_EQ(header.rfind("t_s,q_link1_rad,q_link2_rad,e_link2_n2_ux_m,", 0), 0u) << header;
    EXPECT_NE(header.find("edot_link2_n5_thz_rad_per_s,marker_tip_x_m,marker_tip_y_m,marker_tip_z_m,"
                          "deviation_tip_x_m,deviation_tip_y_m,deviation_tip_z_m,effort_link1_N_m,effort_link2_N_m,"
                          "constraint_violation,newton_iterations,kinetic_energy_J,gravity_energy_J,strain_energy_J"),
              std::string::npos)
        << header;
    const auto count = [](const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; };
    EXPECT_EQ(count(header), 1 + 26 + 26 + 3 + 3 + 2 + 5);  // t, q, v, marker, deviation, efforts, 5
    for (std::size_t k = 1; k < lines.size(); ++k) EXPECT_EQ(count(lines[k]), count(header)) << k;
  }
  CliResult r = run_cli("simulate " + kArm + " --integrator rk4 --duration 0.01");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("integrator 'rk4' does not treat flexible bodies (newmark or hht)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  r = run_cli("simulate " + kArm + " --tau 0,0,0 --duration 0.01");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("tau has 3 expressions, the model needs 2"), std::string::npos) << r.err;
  r = run_cli("simulate " + kArm + " --mode inverse --duration 0.01");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("mode inverse on a model with flexible bodies needs the actuated joints' motion"),
            std::string::npos)
      << r.err;
  r = run_cli("simulate " + source_path("examples/models/four_bar.yaml") + " --integrator newmark --duration 0.01");
  EXPECT_EQ(r.status, 2) << r.err;
}

// Catches: a reader error on a flexible block escaping as another status or several lines.
TEST(FlexibleCli, BadFlexibleBlockIsOneLine) {
  std::string text = testing::read_file(kArm);
  text.replace(text.find("elements: 4"), 11, "elements: 0");
  const std::string path = write_temporary_file("zero_elements.yaml", text);
  expect_one_line_failure(run_cli("info " + path), path, "bodies[1] 'link2' flexible.elements", "at least 1");

  text = testing::read_file(kArm);
  text.replace(text.find("mechdyn: 2"), 10, "mechdyn: 1");
  const std::string old = write_temporary_file("version_one.yaml", text);
  expect_one_line_failure(run_cli("info " + old), old, "bodies[1] 'link2' flexible", "format version 2");
}

// The contract's JSON shapes. Catches: missing keys, q without the elastic coordinates,
// frequencies unsorted or not positive, zero modes listed, the locked list.
TEST(FlexibleCli, StaticAndModesPrintTheContractsJson) {
  CliResult r = run_cli("static " + kArm + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["q"].is_array());
  EXPECT_EQ(j["q"].size(), 2u + 24u);  // two joints, then 4 elements x 6
  ASSERT_EQ(j["markers"].size(), 1u);
  EXPECT_EQ(j["markers"][0]["name"], "tip");
  EXPECT_EQ(j["markers"][0]["position"].size(), 3u);
  // Held at q = 0 (both joints actuated), the arm sags under gravity: the tip below z = 0.
  EXPECT_LT(j["markers"][0]["position"][2].get<double>(), 0.0);

  for (const char* locked : {"actuated", "none"}) {
    r = run_cli("modes " + kArm + " --locked " + locked + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j["frequencies"].is_array());
    EXPECT_GE(j["frequencies"].size(), 10u);
    double previous = 0.0;
    for (const auto& f : j["frequencies"]) {
      EXPECT_GT(f.get<double>(), previous);
      previous = f.get<double>();
    }
    EXPECT_EQ(j["threshold"].get<double>(), 1e-6);
    EXPECT_TRUE(j["zero_modes"].is_number_integer());
    if (std::string(locked) == "actuated") {
      EXPECT_EQ(j["locked"], nlohmann::json::array({"link1", "link2"}));
      EXPECT_EQ(j["frequencies"].size(), 24u);
    } else {
      // Free joints (linearisation.md): the modes about the equilibrium that `static --locked
      // none` reaches from q = 0, which need not be stable: every mode is counted once.
      EXPECT_TRUE(j["locked"].empty());
      EXPECT_EQ(j["frequencies"].size() + j["zero_modes"].get<std::size_t>() + j.value("unstable_modes", 0u), 26u);
    }
  }
}

// Catches: bad options or broken files escaping as another status or several lines.
TEST(FlexibleCli, StaticAndModesRefuseBadInputInOneLine) {
  for (const char* command : {"static", "modes"}) {
    CliResult r = run_cli(std::string(command) + " " + kArm + " --q 0,0");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--q"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("26"), std::string::npos) << "names nq = 26: " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;

    std::string text = testing::read_file(kArm);
    text.replace(text.find("poisson_ratio: 0.3"), 18, "poisson_ratio: 0.3, shear_modulus: 27e9");
    const std::string both = write_temporary_file("both_moduli.yaml", text);
    expect_one_line_failure(run_cli(std::string(command) + " " + both), both, "bodies[1] 'link2' flexible.material",
                            "not both");
    text = testing::read_file(kArm);
    text.replace(text.find("section_y: [0, 1, 0]"), 20, "section_y: [1, 1, 0]");
    const std::string oblique = write_temporary_file("oblique_section.yaml", text);
    expect_one_line_failure(run_cli(std::string(command) + " " + oblique), oblique,
                            "bodies[1] 'link2' flexible.section_y", "not perpendicular");
    text = testing::read_file(kArm);
    text.replace(text.find("point: [0.8, 0, 0]"), 18, "point: [0.9, 0, 0]");
    const std::string beyond = write_temporary_file("marker_beyond.yaml", text);
    expect_one_line_failure(run_cli(std::string(command) + " " + beyond), beyond, "markers[0] 'tip' point",
                            "beyond the beam's length");
    text = testing::read_file(kArm);
    text.replace(text.find("mechdyn: 2"), 10, "mechdyn: 1");
    const std::string old = write_temporary_file("version_one_static.yaml", text);
    expect_one_line_failure(run_cli(std::string(command) + " " + old), old, "bodies[1] 'link2' flexible",
                            "format version 2");
    text = testing::read_file(kArm);
    text.replace(text.find("elements: 4"), 11, "elements: 0");
    const std::string zero = write_temporary_file("zero_elements_static.yaml", text);
    expect_one_line_failure(run_cli(std::string(command) + " " + zero), zero, "bodies[1] 'link2' flexible.elements",
                            "at least 1");
  }
  const CliResult r = run_cli("modes " + kArm + " --locked some");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

// A free body under gravity has no equilibrium: status 3 (a solver failure), one line.
TEST(FlexibleCli, NoEquilibriumIsASolverFailure) {
  std::string text = testing::read_file(kArm);
  const std::string joint = "joint: {type: revolute, axis: [0, 1, 0], origin: [0.4, 0, 0]}";
  text.replace(text.find(joint), joint.size(), "joint: {type: free, origin: [0.4, 0, 0], actuated: false}");
  const std::string path = write_temporary_file("falling.yaml", text);
  const CliResult r = run_cli("static " + path + " --json");
  EXPECT_EQ(r.status, 3) << r.err << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find("static:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mechdyn
