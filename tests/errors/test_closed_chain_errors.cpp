// Closed-chain error cases: each gives its own typed error with a message naming the
// problem, never NaN. Catches: Newton returning an unconverged configuration silently;
// a singular configuration yielding infinite/NaN passive velocities; a loop naming an
// unknown body being accepted.
#include <gtest/gtest.h>

#include <cmath>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

template <typename Error, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

TEST(ClosedChainErrors, UnassemblableMechanism) {
  // Coupler and rocker of 10 mm each cannot bridge the ≥ 0.2 m between crank tip and D.
  Model model = testing::example_model("four_bar.yaml");
  model.joints[2].origin = Vec3(0.3, 0, 0);
  model.loops[0].a.point = Vec3(0.01, 0, 0);
  model.loops[0].b.point = Vec3(0.01, 0, 0);
  finalize_model(model, "short_links");
  Data data(model);
  VecX q(3);
  q << 0.5, 0.0, 0.0;
  const std::string message = message_of<SolverError>([&] { assemble(model, data, q); });
  EXPECT_NE(message.find("cannot be assembled"), std::string::npos) << message;
  EXPECT_TRUE(q.allFinite());
}

TEST(ClosedChainErrors, SingularConfiguration) {
  // a = 0.1, d = 0.3, b = c = 0.2: b + c = a + d, so at θ₂ = π coupler and rocker are
  // collinear (q = [π, −π, π], exactly assembled) and J_p has rank 1: a dead point.
  Model model = testing::example_model("four_bar.yaml");
  model.bodies[1].com = Vec3(0.1, 0, 0);
  model.loops[0].a.point = Vec3(0.2, 0, 0);
  model.loops[0].b.point = Vec3(0.2, 0, 0);
  finalize_model(model, "toggle");
  Data data(model);
  VecX q(3), v(3), a = VecX::Zero(3);
  q << kPi, -kPi, kPi;
  v << 1.0, 0.0, 0.0;
  const std::string message = message_of<SolverError>([&] { closed_chain_inverse_dynamics(model, data, q, v, a); });
  EXPECT_NE(message.find("singular configuration"), std::string::npos) << message;
  EXPECT_TRUE(v.allFinite() && a.allFinite());
}

TEST(ClosedChainErrors, LoopNamingAnUnknownBody) {
  const std::string text = R"(mechdyn: 1
name: bad_loop
bodies:
  - name: L1
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 1
    com: [0.1, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
loops:
  - name: C1
    type: spherical
    a: {body: L1, point: [0.2, 0, 0]}
    b: {body: L7, point: [0, 0, 0]}
)";
  const std::string message = message_of<ModelError>([&] { parse_model_string(text, "bad_loop.yaml"); });
  EXPECT_NE(message.find("unknown body 'L7'"), std::string::npos) << message;
  EXPECT_NE(message.find("C1"), std::string::npos) << message;
}

}  // namespace
}  // namespace mechdyn
