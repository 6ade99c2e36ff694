// linearize on a workspace allocates nothing after the first call for a tree with the
// default outputs (issue 27 "Speed"; analysis/linearize.hpp), with force elements too.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn::testing {
namespace {

TEST(LinearisationNoAllocation, TreeWithElementsOnAWorkspace) {
  const Model model = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/spring_pendulum.yaml");
  ASSERT_TRUE(model.has_force_elements);
  LinearizeWorkspace workspace(model);
  LinearModel out;
  LinearizeOptions options;
  options.tau = VecX::Constant(model.nv, 0.3);
  options.time = 0.2;
  VecX q = VecX::Constant(model.nq, 0.25), v = VecX::Constant(model.nv, -0.4);
  linearize(model, workspace, q, v, options, out);  // the first call sizes everything
  const MatX first = out.A;
  q[0] += 0.01;
  const long seen = allocations_during([&] { linearize(model, workspace, q, v, options, out); });
  EXPECT_LE(seen, 0) << "heap allocations in linearize on a workspace";
  EXPECT_GT((out.A - first).cwiseAbs().maxCoeff(), 0.0);  // it did recompute
  EXPECT_EQ(out.inputs.size(), 2u);
}

}  // namespace
}  // namespace mechdyn::testing
