// Inverse dynamics along a prescribed motion allocates nothing per sample once its
// workspace exists (HOUSE-STYLE "Model and Data"): each of the three methods on the
// Schoenflies trajectory, and the twist prescription of 3UPS-UPU-S (velocity solve,
// RK4 step with projection). Same two detectors as test_no_allocation.cpp.
// Catches: an Eigen decomposition allocating in compute or solve, a dynamic temporary in
// a product, a std::vector or std::string built per sample.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include "closed_chain_models.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "parallel_cases.hpp"

namespace mechdyn {
namespace {

using testing::allocations_during;

TEST(ParallelNoAllocation, EverySampleOfEveryMethodAllocatesNothing) {
  const Model model = testing::example_model("schoenflies_2ups_2upu.yaml");
  std::vector<ExternalWrench> wrenches(1);
  wrenches[0].body = *model.body_index("platform");
  wrenches[0].force = Vec3(1.0, 2.0, 3.0);
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, wrenches[0].body, wrenches);
  for (InverseDynamicsMethod method : {InverseDynamicsMethod::MomentumScrew, InverseDynamicsMethod::NewtonEuler,
                                       InverseDynamicsMethod::ClosedChain}) {
    MotionInverseDynamicsData work(model, problem);
    MotionInverseDynamicsOptions options;
    options.method = method;
    motion_inverse_dynamics(model, problem, work, testing::schoenflies_sample(0.0), options);
    const BodyMotionSample next = testing::schoenflies_sample(0.001);
    const long count = allocations_during([&] { motion_inverse_dynamics(model, problem, work, next, options); });
    if (count >= 0) EXPECT_EQ(count, 0) << inverse_dynamics_method_name(method);
  }
}

TEST(ParallelNoAllocation, TwistPrescriptionAllocatesNothing) {
  const Model model = testing::example_model("ups_3ups_upu_s.yaml");
  const MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, *model.body_index("platform"));
  const TwistPrescription prescription = testing::three_ups_prescription();
  MotionInverseDynamicsData work(model, problem);
  MotionInverseDynamicsOptions options;
  assemble_for_twist(model, problem, work, options);
  motion_inverse_dynamics(model, problem, work, prescription, 0.0, options);
  const long step = allocations_during([&] { advance_twist(model, problem, work, prescription, 0.0, 0.001, options); });
  const long sample = allocations_during([&] { motion_inverse_dynamics(model, problem, work, prescription, 0.001, options); });
  if (step >= 0) {
    EXPECT_EQ(step, 0) << "advance_twist";
    EXPECT_EQ(sample, 0) << "momentum-screw sample of a twist prescription";
  }
}

}  // namespace
}  // namespace mechdyn
