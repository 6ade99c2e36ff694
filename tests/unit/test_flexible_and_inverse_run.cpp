// The library's flexible-body run (evaluation/flexible_run.hpp) and tree inverse run
// (evaluation/simulate.hpp simulate_inverse): closed forms, cross-algorithm checks and the
// command line (apps/mechdyn/flexible_simulation.cpp, simulate_command.cpp: thin layers
// over these runs, so their CSV must hold the same numbers).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/flexible_run.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

// The CSV as columns by name.
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  std::string field;
  while (std::getline(s, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}
struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;
  double at(std::size_t row, const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return std::stod(rows[row][i]);
    ADD_FAILURE() << "no column " << name;
    return 0.0;
  }
};
Table table(const std::string& csv) {
  Table t;
  std::stringstream s(csv);
  std::string line;
  std::getline(s, line);
  t.names = split(line);
  while (std::getline(s, line)) t.rows.push_back(split(line));
  return t;
}

// RK4 integrates q̈ = c exactly (q is quadratic in t): q(t) = q0 + v0 t + ½ c t². Each
// row's τ is the inverse dynamics at the row's state, explicit and recursive alike.
// Catches: the prescribed accelerations integrated wrongly (a step of the wrong size, a
// drifting grid), τ of another state than the row's, the method option ignored.
TEST(SimulateInverse, ConstantAccelerationIsIntegratedExactly) {
  const Model model = load_model(source_path("examples/models/five_axis_tree.yaml"));
  ASSERT_EQ(model.nq, model.nv);  // revolute joints: q̇ = v
  VecX q0(5), v0(5), c(5);
  q0 << 0.1, -0.2, 0.3, 0.0, 0.5;
  v0 << 1.0, 0.0, -0.5, 0.2, 0.0;
  c << 1.0, -2.0, 0.5, 3.0, 0.0;
  SimulationOptions options;
  options.duration = 0.3;
  options.step = 0.01;
  options.every = 3;
  Data data(model);
  for (DynamicsMethod method : {DynamicsMethod::Explicit, DynamicsMethod::Recursive}) {
    options.method = method;
    long rows = 0;
    simulate_inverse(model, q0, v0, [&](double, Eigen::Ref<VecX> a) { a = c; }, options, [&](SimulationRow& r) {
      const double t = r.time;
      const VecX q_exact = q0 + v0 * t + 0.5 * c * t * t;
      EXPECT_LE((r.q - q_exact).cwiseAbs().maxCoeff(), 1e-13) << t;
      EXPECT_LE((r.v - (v0 + c * t)).cwiseAbs().maxCoeff(), 1e-13) << t;
      EXPECT_EQ(r.a, c);
      const VecX tau = explicit_inverse_dynamics(model, data, r.q, r.v, c);
      EXPECT_LE((r.tau - tau).cwiseAbs().maxCoeff(), 1e-10) << t;
      EXPECT_LE((rnea(model, data, r.q, r.v, c) - tau).cwiseAbs().maxCoeff(), 1e-10) << t;
      ++rows;
    });
    EXPECT_EQ(rows, 11);  // t = 0, 0.03, …, 0.3
  }
  const SimulationResult arrays = simulate_inverse(model, q0, v0, [&](double, Eigen::Ref<VecX> a) { a = c; }, options);
  ASSERT_EQ(arrays.time.size(), 11);
  EXPECT_EQ(arrays.time[10], 0.3);
}

// With joint friction the row's τ is τ + τ_f: the library's run holds the numbers of
// `mechdyn simulate --mode inverse` (the CLI writes this run's rows). Catches a CLI that
// runs another loop than the library's, or friction left out of one of them.
TEST(SimulateInverse, WithFrictionEqualsTheCommandLine) {
  const std::string path = source_path("examples/models/five_axis_tree_coulomb_viscous.yaml");
  const Model model = load_model(path);
  const auto cli = run_cli("simulate " + path + " --mode inverse --accelerations 2,1,0,-1,0.5 --duration 0.2 --step 0.01");
  ASSERT_EQ(cli.status, 0) << cli.err;
  const Table t = table(cli.out);
  ASSERT_EQ(t.rows.size(), 21u);
  VecX c(5);
  c << 2, 1, 0, -1, 0.5;
  SimulationOptions options;
  options.duration = 0.2;
  options.step = 0.01;
  const SimulationResult run = simulate_inverse(model, VecX::Zero(5), VecX::Zero(5),
                                                [&](double, Eigen::Ref<VecX> a) { a = c; }, options);
  ASSERT_EQ(run.time.size(), 21);
  for (std::size_t k = 0; k < 21; ++k)
    for (int j = 0; j < 5; ++j) {
      const std::string name = "J" + std::to_string(j + 1);
      EXPECT_EQ(run.q(static_cast<Eigen::Index>(k), j), t.at(k, "q_" + name + "_rad"));
      EXPECT_EQ(run.tau(static_cast<Eigen::Index>(k), j), t.at(k, "tau_" + name + "_N_m"));
    }
}

// Catches inputs that reach the integrator unchecked, and a model the run cannot treat.
TEST(SimulateInverse, RefusesBadArguments) {
  const Model model = load_model(source_path("examples/models/planar_3dof_arm.yaml"));
  const VecX q = VecX::Zero(3), v = VecX::Zero(3);
  EXPECT_THROW(simulate_inverse(model, VecX::Zero(2), v, {}), InvalidArgument);
  EXPECT_THROW(simulate_inverse(model, q, v, [](double, Eigen::Ref<VecX> a) { a.setConstant(std::nan("")); }),
               InvalidArgument);
  const Model loops = load_model(source_path("examples/models/four_bar.yaml"));
  EXPECT_THROW(simulate_inverse(loops, loops.neutral_configuration(), VecX::Zero(loops.nv), {}), ModelError);
}

// A position-driven run: the actuated coordinates at every row are the prescription's
// values exactly (they leave the unknowns), the rows and their rigid reference come on
// the output grid. Catches a prescription sampled at the wrong time, or rows that drift.
TEST(FlexibleRun, DrivenCoordinatesFollowThePrescription) {
  const Model model = load_model(source_path("examples/models/flexible_arm.yaml"));
  const std::vector<int> actuated = flexible_run_actuated(model);
  ASSERT_EQ(actuated.size(), 2u);
  FlexibleRunOptions options;
  options.driven = true;
  options.duration = 0.05;
  options.step = 0.001;
  options.every = 5;
  FlexibleInputs inputs;
  inputs.actuated_motion = [](double t, PrescribedMotion& m) {
    m.position << 0.3 * std::sin(2 * t), 0.1 * t * t;
    m.velocity << 0.6 * std::cos(2 * t), 0.2 * t;
    m.acceleration << -1.2 * std::sin(2 * t), 0.2;
  };
  std::vector<double> times;
  const FlexibleRunSummary summary =
      run_flexible(model, model.neutral_configuration(), VecX::Zero(model.nv), inputs, options, [&](const FlexibleRow& r) {
        const double t = r.time;
        times.push_back(t);
        EXPECT_EQ(r.state.q[0], 0.3 * std::sin(2 * t));
        EXPECT_EQ(r.state.q[1], 0.1 * t * t);
        EXPECT_EQ(r.state.v[0], 0.6 * std::cos(2 * t));
        ASSERT_NE(r.reference, nullptr);
        EXPECT_EQ(r.reference->state.q[0], r.state.q[0]);
        EXPECT_EQ(r.actuated_effort.size(), 2);
        EXPECT_TRUE(std::isfinite(r.actuated_effort[0]));
        EXPECT_EQ(r.data.marker_position.size(), model.markers.size());
      });
  EXPECT_EQ(summary.rows, 11);
  ASSERT_EQ(times.size(), 11u);
  EXPECT_EQ(times.back(), 0.05);
  EXPECT_FALSE(summary.reference_stopped);
}

// A forward run under τ(t) holds the numbers of `mechdyn simulate` on the same model.
// Catches a CLI that runs another loop than the library's (or drops the rigid reference's
// deviation columns).
TEST(FlexibleRun, ForwardEqualsTheCommandLine) {
  const std::string path = source_path("examples/models/flexible_arm.yaml");
  const Model model = load_model(path);
  const auto cli = run_cli("simulate " + path + " --tau 0.5,-0.2 --duration 0.02 --step 0.001");
  ASSERT_EQ(cli.status, 0) << cli.err;
  const Table t = table(cli.out);
  ASSERT_EQ(t.rows.size(), 21u);
  FlexibleRunOptions options;
  options.duration = 0.02;
  options.step = 0.001;
  FlexibleInputs inputs;
  inputs.effort = [](double, Eigen::Ref<VecX> effort) { effort << 0.5, -0.2; };
  std::size_t k = 0;
  const VecX q0 = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
  run_flexible(model, q0, VecX::Zero(model.nv), inputs, options, [&](const FlexibleRow& r) {
    EXPECT_EQ(r.time, t.at(k, "t_s"));
    EXPECT_EQ(r.state.q[0], t.at(k, "q_" + model.joints[0].name + "_rad"));
    EXPECT_EQ(r.energy.strain, t.at(k, "strain_energy_J"));
    ASSERT_NE(r.reference, nullptr);
    const Vec3 deviation = r.data.marker_position[0] - r.reference->data.marker_position[0];
    EXPECT_EQ(deviation.x(), t.at(k, "deviation_" + model.markers[0].name + "_x_m"));
    ++k;
  });
  EXPECT_EQ(k, 21u);
}

// The 3-RRRU falling with zero torques: its rigid reference's step fails at t ≈ 0.383 s;
// the run goes on, one warning, rows without a reference from there. Catches an auxiliary
// run that stops the main one or keeps handing out its stale state.
TEST(FlexibleRun, AFailingRigidReferenceStopsWithOneWarning) {
  const Model model = load_model(source_path("examples/models/rrru_3_flexible.yaml"));
  FlexibleRunOptions options;
  options.duration = 0.5;
  options.step = 0.001;
  options.every = 100;
  std::vector<std::string> warnings;
  options.warning = [&](const std::string& line) { warnings.push_back(line); };
  std::vector<bool> with_reference;
  const VecX q0 = model.initial_configuration.size() > 0 ? model.initial_configuration : model.neutral_configuration();
  const FlexibleRunSummary summary = run_flexible(model, q0, VecX::Zero(model.nv), FlexibleInputs{}, options,
                                                  [&](const FlexibleRow& r) { with_reference.push_back(r.reference != nullptr); });
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("the rigid reference stopped at t = ", 0), 0u) << warnings[0];
  EXPECT_TRUE(summary.reference_stopped);
  EXPECT_GT(summary.reference_stop_time, 0.3);
  ASSERT_EQ(with_reference.size(), 6u);
  EXPECT_TRUE(with_reference.front());
  EXPECT_FALSE(with_reference.back());
}

// Catches options and inputs that reach the integrator unchecked.
TEST(FlexibleRun, RefusesBadArguments) {
  const Model model = load_model(source_path("examples/models/flexible_arm.yaml"));
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv);
  auto ignore = [](const FlexibleRow&) {};
  FlexibleRunOptions driven;
  driven.driven = true;
  EXPECT_THROW(run_flexible(model, q, v, FlexibleInputs{}, driven, ignore), InvalidArgument);  // no motion
  EXPECT_THROW(run_flexible(model, VecX::Zero(1), v, FlexibleInputs{}, FlexibleRunOptions{}, ignore), InvalidArgument);
  VecX not_finite = q;
  not_finite[0] = std::nan("");
  EXPECT_THROW(run_flexible(model, not_finite, v, FlexibleInputs{}, FlexibleRunOptions{}, ignore), InvalidArgument);
  FlexibleRunOptions bad_alpha;
  bad_alpha.alpha = 0.5;
  EXPECT_THROW(run_flexible(model, q, v, FlexibleInputs{}, bad_alpha, ignore), InvalidArgument);
  FlexibleRunOptions bad_step;
  bad_step.step = 0.0;
  EXPECT_THROW(run_flexible(model, q, v, FlexibleInputs{}, bad_step, ignore), InvalidArgument);
}

}  // namespace
}  // namespace mechdyn
