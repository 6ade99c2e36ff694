// The run's inputs as the library gives them (issue 25): time expressions
// (math/time_expressions.hpp), the sweep spec reader (io/sweep_spec.hpp) and one
// sample's run (evaluation/sweep.hpp), without the command line. `mechdyn sweep` and
// Python's SweepSpec are thin layers over these (test_sweep_and_simulate.cpp and
// tests/python/test_sweep.py compare them end to end).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/evaluation/sweep.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/io/sweep_spec.hpp"

namespace mechdyn {
namespace {

// A pendulum: one revolute joint about y, a 1 kg bob at 1 m below the axis.
const char* kPendulum =
    "mechdyn: 1\n"
    "name: pendulum\n"
    "gravity: [0, 0, -9.81]\n"
    "bodies:\n"
    "  - name: bob\n"
    "    parent: ground\n"
    "    joint: {name: hinge, type: revolute, axis: [0, 1, 0], origin: [0, 0, 0]}\n"
    "    mass: 1\n"
    "    com: [0, 0, -1]\n"
    "    inertia: {diag: [0.01, 0.01, 0.01]}\n";

// The spec with the pendulum's file content inline (model_text), `rest` appended.
std::string spec_text(const std::string& rest) {
  std::string indented;
  for (const char* c = kPendulum; *c; ++c) {
    indented += *c;
    if (*c == '\n' && c[1] != '\0') indented += "  ";
  }
  return "model_text: |\n  " + indented + "duration: 0.2\nstep: 0.01\n" + rest;
}

// Catches expressions evaluated at the wrong time or a parser that lets an assignment
// change the shared t: 2 sin(t) + 1 at t = π/6 is exactly 2 · 1/2 + 1 = 2 (to rounding).
TEST(TimeExpressions, EvaluatesAndRefusesAssignmentsAndNonFiniteValues) {
  TimeExpressions e(split_expression_list("2*sin(t) + 1, min(t, 1)"), "tau");
  ASSERT_EQ(e.size(), 2);
  VecX values(2);
  e.evaluate(std::acos(-1.0) / 6.0, values);
  EXPECT_NEAR(values[0], 2.0, 1e-15);
  EXPECT_EQ(values[1], std::acos(-1.0) / 6.0);
  EXPECT_THROW(TimeExpressions({"t=7"}, "tau"), InvalidArgument);
  TimeExpressions inverse({"1/t"}, "tau");
  VecX one(1);
  try {
    inverse.evaluate(0.0, one);
    FAIL() << "1/t at t = 0 passed";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("tau[0] '1/t' is not finite at t = 0 s"), std::string::npos) << error.what();
  }
}

// Catches a sample whose parameters do not reach the run (mass, q0, tau expression) or a
// row that is not the run's last state: the row equals simulate on a model changed by hand,
// bit for bit (the same calls in the same order).
TEST(SweepLibrary, SampleEqualsASimulationByHand) {
  const SweepSpec spec =
      read_sweep_spec(spec_text("base: {tau: \"0.3*sin(2*t)\"}\ngrid: {mass.bob: [1, 2], q0.hinge: [0.1]}\n"), "<test>");
  ASSERT_EQ(spec.samples.size(), 2u);
  EXPECT_EQ(sweep_columns(spec),
            (std::vector<std::string>{"sample", "status", "tau_hinge_N_m", "mass_bob_kg", "q0_hinge_rad", "t_end_s",
                                      "q_hinge_rad", "v_hinge_rad_per_s", "kinetic_energy_J", "potential_energy_J",
                                      "error"}));
  const SweepRow row = run_sweep_sample(spec, 1);
  ASSERT_TRUE(row.ok) << row.error;
  EXPECT_EQ(row.parameters, (std::vector<std::string>{"0.3*sin(2*t)", "2", "0.10000000000000001"}));

  Model model = parse_model_string(kPendulum, "<pendulum>");
  model.bodies[0].mass = 2.0;
  VecX q0(1), v0 = VecX::Zero(1);
  q0 << 0.1;
  SimulationOptions options;
  options.duration = 0.2;
  options.step = 0.01;
  const SimulationResult run = simulate(
      model, q0, v0,
      [](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
        out[0] = 0.3 * std::sin(2 * t);
      },
      options);
  const Eigen::Index last = run.time.size() - 1;
  EXPECT_EQ(row.results[0], 0.2);
  EXPECT_EQ(row.results[1], run.q(last, 0));
  EXPECT_EQ(row.results[2], run.v(last, 0));
}

// Catches a failing sample that throws (it must be a row) and a broken spec that does not
// (it must stop before anything runs, naming the key).
TEST(SweepLibrary, FailingSampleIsARowAndBrokenSpecThrows) {
  const SweepSpec spec = read_sweep_spec(spec_text("samples: [{mass.bob: -1}]\n"), "<test>");
  const SweepRow row = run_sweep_sample(spec, 0);
  EXPECT_FALSE(row.ok);
  EXPECT_NE(row.error.find("mass must be ≥ 0"), std::string::npos) << row.error;
  EXPECT_TRUE(std::isnan(row.results[0]));
  EXPECT_EQ(sweep_csv_row(row).rfind("0,error,-1,nan,", 0), 0u) << sweep_csv_row(row);
  EXPECT_THROW(run_sweep_sample(spec, 1), InvalidArgument);
  try {
    read_sweep_spec(spec_text("base: {mass.arm: 1}\n"), "<test>");
    FAIL() << "an unknown body passed";
  } catch (const InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "sweep '<test>' base mass.arm: model 'pendulum' has no body 'arm'");
  }
  EXPECT_THROW(read_sweep_spec("model: /nonexistent/model.yaml\n", "<test>"), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
