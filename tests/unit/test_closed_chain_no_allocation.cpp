// Closed-chain evaluation allocates nothing once Data exists (HOUSE-STYLE "Model and
// Data"): constrained forward dynamics, J̇v, projection of velocities and positions, and
// closed-chain inverse dynamics with assembly. Same two detectors as test_no_allocation.cpp
// (Eigen's EIGEN_RUNTIME_NO_MALLOC and a counting glibc malloc interposer).
// Catches: a temporary VecX/MatX in the range-space solve, an Eigen decomposition that
// reallocates in compute(), a std::vector built per call.
#include "no_malloc_probe.hpp"


#include <gtest/gtest.h>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/model/data.hpp"


namespace mechdyn {
namespace {

using testing::allocations_during;

TEST(ClosedChainNoAllocation, EvaluationAllocatesNothing) {
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv), a = VecX::Zero(model.nv), tau = VecX::Zero(model.nv);
  v[0] = 0.3, a[0] = 0.1, tau[0] = 0.5;
  q[0] = 0.2;
  closed_chain_inverse_dynamics(model, data, q, v, a);  // warm up: assembled state
  q[0] = 0.25;                                          // a new input: assembly must iterate
  const long forward = allocations_during([&] { constrained_forward_dynamics(model, data, q, v, tau); });
  const long bias = allocations_during([&] { loop_bias_acceleration(model, data, q, v); });
  const long velocities = allocations_during([&] { project_velocities(model, data, q, v); });
  const long positions = allocations_during([&] { project_positions(model, data, q); });
  const long inverse = allocations_during([&] { closed_chain_inverse_dynamics(model, data, q, v, a); });
  if (forward >= 0) {
    EXPECT_EQ(forward, 0) << "constrained_forward_dynamics";
    EXPECT_EQ(bias, 0) << "loop_bias_acceleration";
    EXPECT_EQ(velocities, 0) << "project_velocities";
    EXPECT_EQ(positions, 0) << "project_positions";
    EXPECT_EQ(inverse, 0) << "closed_chain_inverse_dynamics";
  }
}

}  // namespace
}  // namespace mechdyn
