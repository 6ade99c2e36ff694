// The library's simulate (evaluation/simulate.hpp) against the command line's own
// simulate (apps/mechdyn/simulate_command.cpp, closed_chain_simulation.cpp: separate code
// with the same choices), and `mechdyn sweep` (apps/mechdyn/sweep_command.cpp) against
// simulate on a model changed by hand. Also the broken sweep specs (exit status 2). These
// run under ASan/UBSan in CI (the Python tests, tests/python/, cover the bindings).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/io/robot_files.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  std::string field;
  while (std::getline(s, field, ',')) fields.push_back(field);
  return fields;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) lines.push_back(line);
  return lines;
}

// The final q of a `mechdyn simulate` CSV (the columns q_*).
VecX final_q(const std::string& csv) {
  const auto lines = lines_of(csv);
  const auto header = split(lines.front()), last = split(lines.back());
  std::vector<double> q;
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].rfind("q_", 0) == 0) q.push_back(std::stod(last[i]));
  return Eigen::Map<VecX>(q.data(), static_cast<Eigen::Index>(q.size()));
}

struct Case {
  const char* model;
  const char* tau;  // per velocity coordinate (trees) / per actuated coordinate (loops): constants
  bool adaptive;
};

// Catches a simulate that differs from the CLI's in the dynamics chosen (friction,
// loops with assembly and projection), the integrator or the output grid.
TEST(Simulate, EqualsTheCommandLine) {
  for (const Case& c : {Case{"examples/models/five_axis_tree.yaml", "0.5,0,-1,0,0.2", false},
                        Case{"examples/models/five_axis_tree_stribeck.yaml", "3,0,0,0,0", false},
                        Case{"examples/models/panda_7dof.yaml", "0,1,0,0,0,0,0", true},
                        Case{"examples/models/four_bar.yaml", "0.3", false}}) {
    SCOPED_TRACE(c.model);
    const Model model = load_model(source_path(c.model));
    const auto cli = run_cli("simulate " + source_path(c.model) + " --tau " + c.tau + " --duration 0.2 --step 0.01" +
                             (c.adaptive ? " --integrator dopri5" : ""));
    ASSERT_EQ(cli.status, 0) << cli.err;
    std::vector<double> constants;
    for (const auto& f : split(c.tau)) constants.push_back(std::stod(f));
    VecX effort = VecX::Zero(model.nv);
    int k = 0;
    for (const Joint& j : model.joints)  // loops: the actuated coordinates, as the CLI
      for (int i = 0; i < j.nv; ++i)
        if (model.loops.empty() || j.actuated) effort[j.v_index + i] = constants[static_cast<std::size_t>(k++)];
    SimulationOptions options;
    options.duration = 0.2;
    options.step = 0.01;
    options.adaptive = c.adaptive;
    const VecX q0 = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
    const SimulationResult run = simulate(model, q0, VecX::Zero(model.nv),
                                          [&](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                              Eigen::Ref<VecX> out) { out = effort; },
                                          options);
    ASSERT_EQ(run.time.size(), 21);
    EXPECT_EQ(run.time[20], 0.2);
    const VecX q_end = run.q.row(20).transpose();
    EXPECT_LE((q_end - final_q(cli.out)).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// Catches options and arguments that reach the integrator unchecked.
TEST(Simulate, RefusesBadArguments) {
  const Model model = load_model(source_path("examples/models/planar_3dof_arm.yaml"));
  const VecX q = VecX::Zero(3), v = VecX::Zero(3);
  SimulationOptions bad_step;
  bad_step.step = 0.0;
  EXPECT_THROW(simulate(model, q, v, {}, bad_step), InvalidArgument);
  EXPECT_THROW(simulate(model, VecX::Zero(2), v, {}), InvalidArgument);
  SimulationOptions nan_duration;
  nan_duration.duration = std::nan("");
  EXPECT_THROW(simulate(model, q, v, {}, nan_duration), InvalidArgument);
  EXPECT_THROW(simulate(model, q, v,
                        [](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
                          out.setConstant(std::nan(""));
                        }),
               InvalidArgument);
}

// Sample 4 of the example spec = (mass.link3 1.0, q0.joint1 0.5): catches a parameter
// applied to the wrong body or coordinate, or rows out of sample order from the pool.
TEST(Sweep, RowEqualsASimulationByHand) {
  const auto cli = run_cli("sweep " + source_path("examples/sweeps/arm_payload.yaml") + " --threads 2");
  ASSERT_EQ(cli.status, 0) << cli.err;
  const auto lines = lines_of(cli.out);
  ASSERT_EQ(lines.size(), 14u);
  const auto header = split(lines[0]), row = split(lines[5]);
  EXPECT_EQ(row[0], "4");
  EXPECT_EQ(row[1], "ok");
  Model model = load_model(source_path("examples/models/planar_3dof_arm.yaml"));
  model.bodies[2].mass = 1.0;
  VecX q0(3), v0(3);
  q0 << 0.5, 0.0, 0.0;
  v0 << 0.0, 0.5, 0.0;
  SimulationOptions options;
  options.duration = 0.5;
  const SimulationResult run = simulate(
      model, q0, v0,
      [](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
        out << 2 * std::sin(3 * t), 0, 0;
      },
      options);
  const Eigen::Index last = run.time.size() - 1;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "mass_link3_kg") EXPECT_EQ(std::stod(row[i]), 1.0);
    if (header[i] == "q0_joint1_rad") EXPECT_EQ(std::stod(row[i]), 0.5);
    if (header[i] == "q_joint1_rad") EXPECT_NEAR(std::stod(row[i]), run.q(last, 0), 1e-12);
    if (header[i] == "v_joint3_rad_per_s") EXPECT_NEAR(std::stod(row[i]), run.v(last, 2), 1e-12);
  }
  // The last sample (a massless last link): an error row with the solver's message.
  EXPECT_EQ(split(lines[13])[1], "error");
  EXPECT_NE(lines[13].find("not positive definite"), std::string::npos);
  EXPECT_NE(cli.err.find("13 samples on 2 threads, 1 failed"), std::string::npos);
}

// Each broken spec: status 2, one line naming the problem, nothing on stdout.
TEST(Sweep, BrokenSpecsExitWithStatus2) {
  const std::string model = "model: " + source_path("examples/models/planar_3dof_arm.yaml") + "\n";
  for (const std::string& text :
       {std::string("model: ["), std::string("duration: 1\n"), model + "colour: red\n", model + "base: {height: 2}\n",
        model + "grid: {mass.nope: [1, 2]}\n", model + "samples: [{q0: [1, 2]}]\n", model + "grid: {mass.link3: []}\n",
        model + "grid: {q0.joint1: [0, x]}\n", model + "integrator: euler\n", model + "step: -1\n",
        model + "samples: {q0: [1, 2, 3]}\n", std::string("model: does_not_exist.yaml\n")}) {
    SCOPED_TRACE(text);
    const auto path = testing::write_temporary_file("spec.yaml", text);
    const auto cli = run_cli("sweep " + path);
    EXPECT_EQ(cli.status, 2);
    EXPECT_TRUE(cli.out.empty());
    EXPECT_EQ(cli.err.rfind("mechdyn: ", 0), 0u) << cli.err;
  }
  EXPECT_EQ(run_cli("sweep /nonexistent/spec.yaml").status, 2);
  EXPECT_EQ(run_cli("sweep " + source_path("examples/sweeps/arm_payload.yaml") + " --threads -1").status, 2);
}

}  // namespace
}  // namespace mechdyn
