// mechdyn invdyn: the contract's columns, the three methods through the tool, the motion as
// a CSV file and as expressions, the external wrench, redundant actuation and the optional
// column blocks. Catches: columns a contract reader cannot find, a CSV row read wrongly
// (orientation, velocity order), expressions differentiated wrongly, a method option
// ignored, an --output left as a partial file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli_runner.hpp"
#include "closed_chain_models.hpp"
#include "mechdyn/io/body_motion_csv.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;
using testing::source_path;

struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  int index(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  std::vector<double> column(const std::string& name) const {
    const int i = index(name);
    std::vector<double> out;
    for (const auto& r : rows) out.push_back(r[static_cast<std::size_t>(i)]);
    return out;
  }
};

Table parse(const std::string& csv) {
  Table t;
  std::istringstream in(csv);
  std::string line, cell;
  std::getline(in, line);
  std::istringstream header(line);
  while (std::getline(header, cell, ',')) t.names.push_back(cell);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::vector<double> values;
    while (std::getline(row, cell, ',')) values.push_back(std::stod(cell));
    t.rows.push_back(values);
  }
  return t;
}

const std::string kSchoenflies = source_path("examples/models/schoenflies_2ups_2upu.yaml");
const std::string kThreeUps = source_path("examples/models/ups_3ups_upu_s.yaml");
const std::string kPose = "'platform=px=0.5*sin(_pi*t), py=0.3*cos(2*_pi*t), pz=0.2*sin(3*_pi*t)+1, rz=0.2*sin(_pi*t)'";

std::string trajectory_file(double duration) {
  return testing::write_temporary_file("motion.csv",
                                       write_body_motion_csv(testing::schoenflies_trajectory(duration, 1e-3)));
}

TEST(InvdynCli, ContractColumnsFromACsvMotionMatchTheLibrary) {
  const std::string motion = trajectory_file(0.5);
  const std::string out = testing::temporary_path("forces.csv");
  const auto r = run_cli("invdyn " + kSchoenflies + " --motion platform=" + motion + " --output " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = parse(testing::read_file(out));
  ASSERT_EQ(t.rows.size(), 501u);
  EXPECT_EQ(t.names[0], "t_s");
  // The contract's names with the unit suffix: q_<joint>_, v_<joint>_, a_<joint>_, effort_<joint>_.
  for (const char* joint : {"P1", "P2", "P3", "P4"})
    for (const char* quantity : {"q_", "v_", "a_", "effort_"}) {
      bool found = false;
      for (const std::string& name : t.names) found = found || name.rfind(std::string(quantity) + joint + "_", 0) == 0;
      EXPECT_TRUE(found) << quantity << joint;
    }
  // Library reference (momentum screw, same samples).
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  MotionInverseDynamicsData work(model, problem);
  const auto samples = testing::schoenflies_trajectory(0.5, 1e-3);
  const auto effort = t.column("effort_P2_N"), velocity = t.column("v_P3_m_per_s");
  for (std::size_t k = 0; k < samples.size(); ++k) {
    motion_inverse_dynamics(model, problem, work, samples[k]);
    EXPECT_NEAR(effort[k], work.effort[model.joints[*model.body_index("upper2")].v_index], 1e-9 * (1 + std::abs(effort[k])));
    EXPECT_NEAR(velocity[k], work.v[model.joints[*model.body_index("upper3")].v_index], 1e-12);
  }
  for (double x : t.column("closure_residual")) EXPECT_LE(x, 1e-12);
  for (double x : t.column("internal_force_dimension")) EXPECT_EQ(x, 0.0);
}

TEST(InvdynCli, ExpressionsAgreeWithTheExactTrajectory) {
  // Ridders' derivatives of the expressions against the hand derivatives in the CSV.
  const std::string motion = trajectory_file(1.0);
  const auto file = run_cli("invdyn " + kSchoenflies + " --motion platform=" + motion);
  const auto expr = run_cli("invdyn " + kSchoenflies + " --motion-expr " + kPose + " --duration 1");
  ASSERT_EQ(file.status, 0) << file.err;
  ASSERT_EQ(expr.status, 0) << expr.err;
  const Table a = parse(file.out), b = parse(expr.out);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  double worst_velocity = 0.0, worst_effort = 0.0;
  for (const char* joint : {"P1", "P2", "P3", "P4"}) {
    const auto va = a.column(std::string("v_") + joint + "_m_per_s"), vb = b.column(std::string("v_") + joint + "_m_per_s");
    const auto fa = a.column(std::string("effort_") + joint + "_N"), fb = b.column(std::string("effort_") + joint + "_N");
    for (std::size_t k = 0; k < va.size(); ++k) {
      worst_velocity = std::max(worst_velocity, std::abs(va[k] - vb[k]));
      worst_effort = std::max(worst_effort, std::abs(fa[k] - fb[k]) / (1.0 + std::abs(fa[k])));
    }
  }
  std::printf("expressions vs exact: velocity %.3g m/s, effort %.3g relative\n", worst_velocity, worst_effort);
  EXPECT_LE(worst_velocity, 1e-10);
  EXPECT_LE(worst_effort, 1e-8);
}

TEST(InvdynCli, TheThreeMethodsAgreeThroughTheTool) {
  std::vector<Table> tables;
  for (const char* method : {"momentum-screw", "newton-euler", "closed-chain"}) {
    const auto r = run_cli("invdyn " + kSchoenflies + " --motion-expr " + kPose + " --duration 0.2 --joint-wrenches --method " +
                           method);
    ASSERT_EQ(r.status, 0) << method << ": " << r.err;
    tables.push_back(parse(r.out));
  }
  for (std::size_t m = 1; m < 3; ++m) {
    ASSERT_EQ(tables[m].names, tables[0].names);
    for (std::size_t k = 0; k < tables[0].rows.size(); ++k)
      for (std::size_t c = 0; c < tables[0].names.size(); ++c) {
        if (tables[0].names[c] == "closure_residual" || tables[0].names[c] == "power_residual_W") continue;
        EXPECT_NEAR(tables[m].rows[k][c], tables[0].rows[k][c], 1e-8 * (1.0 + std::abs(tables[0].rows[k][c])))
            << tables[0].names[c];
      }
  }
  // every joint's wrench: 9 tree joints (with the weld) + 1 hinge + 3 cut joints, 6 columns each
  int wrench_columns = 0;
  for (const std::string& name : tables[0].names) wrench_columns += name.rfind("wrench_", 0) == 0 ? 1 : 0;
  EXPECT_EQ(wrench_columns, 6 * (10 + 3));
}

TEST(InvdynCli, ThreeUpsTwistPrescriptionWithTheLoad) {
  const std::string out = testing::temporary_path("three_ups.csv");
  const auto r = run_cli("invdyn " + kThreeUps +
                         " --motion-expr 'platform=wx=0.2*sin(t), wy=0.1*cos(t)' --duration 0.5 --step 0.01"
                         " --wrench platform=0,0,1000,1000,0,0@0,0,0.5196152422706632 --internal-forces"
                         " --joint-kinematics --body-kinematics --output " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote 51 rows"), std::string::npos) << r.out;
  const Table t = parse(testing::read_file(out));
  for (double x : t.column("internal_force_dimension")) EXPECT_EQ(x, 2.0);
  // the prescribed components come back in the platform's kinematics
  const auto wx = t.column("body_platform_wx_rad_per_s"), times = t.column("t_s");
  for (std::size_t k = 0; k < wx.size(); ++k) EXPECT_NEAR(wx[k], 0.2 * std::sin(times[k]), 1e-9);
  // library reference with the same load
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  std::vector<ExternalWrench> load(1);
  load[0].body = *model.body_index("platform");
  load[0].force = Vec3(0, 0, 1000);
  load[0].moment = Vec3(1000, 0, 0);
  load[0].point = Vec3(0, 0, 0.5196152422706632);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, load[0].body, load);
  MotionInverseDynamicsData work(model, problem);
  const TwistPrescription p = testing::three_ups_prescription();
  assemble_for_twist(model, problem, work);
  const auto effort = t.column("effort_P1_N");
  for (int k = 0; k <= 50; ++k) {
    if (k > 0) advance_twist(model, problem, work, p, 0.01 * (k - 1), 0.01);
    motion_inverse_dynamics(model, problem, work, p, 0.01 * k);
    EXPECT_NEAR(effort[k], work.effort[model.joints[*model.body_index("upper1")].v_index], 1e-6 * (1 + std::abs(effort[k])));
  }
}

}  // namespace
}  // namespace mechdyn
