// Issue 16 in the library: the defects the sanitizer build and the fuzzer found below the
// command line, one test each, named after the defect it catches.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {
namespace {

template <typename Error, typename Work>
std::string message_of(Work work) {
  try {
    work();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception";
  return "";
}

// Fills the stack below the caller with a pattern no Eigen::ComputationInfo has, so that
// an uninitialised stack object built next reads it.
__attribute__((noinline)) void poison_stack() {
  volatile unsigned char junk[1 << 16];
  for (std::size_t i = 0; i < sizeof junk; ++i) junk[i] = 0xA5;
}

// Issue 16, defect 2: Data's constructor move-assigned Eigen::LLT<MatX>(nv), whose `info`
// is left uninitialised, so every Data held garbage there. Caught by the UBSan build
// (scripts/test-sanitizers.sh): before the fix this test aborted there with "LLT.h:66:
// runtime error: load of value 2779096485, which is not a valid value for type
// 'ComputationInfo'" — 0xA5A5A5A5, the pattern poison_stack() leaves where the temporary
// is built. (A Release build may read the garbage as anything, Success included: the
// optimiser owes UB nothing.) Both factorisations must be defined.
TEST(Issue16Library, Defect2DataFactorisationsAreInitialised) {
  const Model model = testing::example_model("five_axis_tree.yaml");
  for (int round = 0; round < 3; ++round) {
    poison_stack();
    Data data(model);
    EXPECT_EQ(data.mass_llt.info(), Eigen::Success);
    EXPECT_EQ(data.friction_factor.info(), Eigen::Success);
    EXPECT_EQ(data.mass_llt.matrixLLT().rows(), model.nv);
  }
}

// Issue 16, defect 10: from q = 0 the four-bar has every link along +x; J_p loses the row
// that would close the 0.15 m gap and the gradient J_pᵀΦ vanishes, so Newton stalls
// ("closure residual 0.15"). assemble_with_recovery must close it. Independent check,
// the triangle B C D with the crank at 0 (B = (0.1, 0), D = (0.3, 0), |BC| = 0.35,
// |DC| = 0.3): C = (0.28125, ±0.29941), so (q_coupler, q_rocker) =
// ±(atan2(0.29941, 0.18125), atan2(0.29941, −0.01875)) — one of the two branches.
TEST(Issue16Library, Defect10RecoveryAssemblesTheFourBarFromZero) {
  const Model model = testing::example_model("four_bar.yaml");
  Data data(model);
  VecX q = VecX::Zero(3);
  {
    VecX newton = q;
    const std::string message = message_of<SolverError>([&] { assemble(model, data, newton); });
    EXPECT_NE(message.find("stalled"), std::string::npos) << message;
  }
  const RecoveredAssembly result = assemble_with_recovery(model, data, q);
  EXPECT_LE(result.result.residual, 1e-12);
  EXPECT_EQ(q[0], 0.0) << "the actuated crank moved";
  const double cx = 0.18125, cy = std::sqrt(0.35 * 0.35 - cx * cx);
  const double coupler = std::atan2(cy, cx), rocker = std::atan2(cy, cx - 0.2);
  auto wrap = [](double x) { return std::remainder(x, 2.0 * M_PI); };
  const bool up = std::abs(wrap(q[1] - coupler)) < 1e-9 && std::abs(wrap(q[2] - rocker)) < 1e-9;
  const bool down = std::abs(wrap(q[1] + coupler)) < 1e-9 && std::abs(wrap(q[2] + rocker)) < 1e-9;
  EXPECT_TRUE(up || down) << "q = " << q.transpose() << " (" << result.method << ")";
  // Deterministic: the same input, the same branch.
  VecX again = VecX::Zero(3);
  assemble_with_recovery(model, data, again);
  EXPECT_EQ(again, q);
}

// Issue 16, defect 10: where no configuration closes the loops, recovery gives up with a
// SolverError that says what it tried, and q stays finite (the user's guess).
TEST(Issue16Library, Defect10RecoveryFailsCleanlyWhenNothingCloses) {
  Model model = testing::example_model("four_bar.yaml");
  model.loops[0].a.point = Vec3(0.01, 0, 0);  // 10 mm coupler and rocker cannot bridge 0.2 m
  model.loops[0].b.point = Vec3(0.01, 0, 0);
  finalize_model(model, "short_links");
  Data data(model);
  VecX q(3);
  q << 0.5, 0.0, 0.0;
  const std::string message = message_of<SolverError>([&] { assemble_with_recovery(model, data, q); });
  EXPECT_NE(message.find("restarts"), std::string::npos) << message;
  EXPECT_EQ(q[0], 0.5);
  EXPECT_TRUE(q.allFinite());
}

// Issue 16, defect 6: forward dynamics with friction under an effort that overflows the
// acceleration reported "a[0] is not finite" as an InvalidArgument (bad input) from an
// internal check. It is a solver failure naming the joint.
TEST(Issue16Library, Defect6FrictionOverflowIsASolverError) {
  const Model model = testing::example_model("five_axis_tree_stribeck.yaml");
  Data data(model);
  const VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv);
  VecX tau = VecX::Zero(model.nv);
  tau[0] = 1e308;
  tau[1] = -1e308;
  const std::string message = message_of<SolverError>([&] { forward_dynamics_with_friction(model, data, q, v, tau); });
  EXPECT_NE(message.find("joint '"), std::string::npos) << message;
}

// Issue 16, defect 6: a Runge–Kutta stage that leaves the finite range used to reach the
// algorithms as bad input (their argument checks: InvalidArgument, status 2). The state
// derivative now stops it first: SolverError naming the time and the joint.
TEST(Issue16Library, Defect6NonFiniteStageIsASolverErrorWithTimeAndJoint) {
  const Model model = testing::example_model("planar_3dof_arm.yaml");
  Data data(model);
  const VecX tau = VecX::Constant(model.nv, 1e300);
  // Forward dynamics under 1e300 N m gives huge but finite accelerations; a step of 1e10 s
  // carries the RK4 stage velocity v + h/2 k1 past the largest double.
  Rk4Integrator rk4(model, [&](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                               Eigen::Ref<VecX> a) { a = explicit_forward_dynamics(model, data, q, v, tau); });
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv);
  const std::string message = message_of<SolverError>([&] { rk4.step(0.0, 1e10, q, v); });
  EXPECT_NE(message.find("t = "), std::string::npos) << message;
  EXPECT_NE(message.find("joint '"), std::string::npos) << message;
}

// Issue 16, defect 5: the budget is global — shared by the integrators of a run and
// counting every step attempt across calls — unlike DormandPrinceOptions::max_steps
// (per advance call). 50 steps of RK4 plus DOPRI5 steps exhaust a budget of 60 exactly
// at the 61st attempt, whatever the split.
TEST(Issue16Library, Defect5BudgetIsSharedAndGlobal) {
  const Model model = testing::example_model("planar_3dof_arm.yaml");
  auto free_fall = [](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> a) {
    a.setConstant(-1.0);
  };
  IntegrationBudget budget(60, 0.0);
  Rk4Integrator rk4(model, free_fall);
  rk4.set_budget(&budget);
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv);
  for (int k = 0; k < 50; ++k) rk4.step(k * 0.01, 0.01, q, v);
  EXPECT_EQ(budget.steps(), 50);
  DormandPrinceOptions options;
  options.max_step = 1e-3;  // 10 steps per 0.01 s (free fall: zero error, always the largest step)
  options.initial_step = 1e-3;
  options.budget = &budget;
  DormandPrinceIntegrator dopri5(model, free_fall, options);
  dopri5.advance(0.5, 0.509, q, v);  // 9 steps: 59 in all
  EXPECT_EQ(budget.steps(), 59);
  bool exceeded = false;
  try {
    dopri5.advance(0.509, 0.6, q, v);
  } catch (const BudgetExceeded& e) {
    exceeded = true;
    EXPECT_FALSE(e.wall_time());
    EXPECT_NE(std::string(e.what()).find("60 steps used"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(exceeded);
  EXPECT_EQ(budget.steps(), 61);
}

}  // namespace
}  // namespace mechdyn
