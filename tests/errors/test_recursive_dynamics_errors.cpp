// Error cases of the recursive algorithms: each bad input gives the typed exception
// whose message names the element and the problem (HOUSE-STYLE "Errors").
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

// Runs `call`, expects an exception of type E whose message contains every fragment.
template <typename E, typename Call>
void expect_error(Call&& call, std::initializer_list<const char*> fragments) {
  try {
    call();
    ADD_FAILURE() << "no exception";
  } catch (const E& error) {
    const std::string message = error.what();
    for (const char* fragment : fragments)
      EXPECT_NE(message.find(fragment), std::string::npos) << "message: " << message << "\nmissing: " << fragment;
  } catch (const std::exception& other) {
    ADD_FAILURE() << "wrong exception type: " << other.what();
  }
}

// Catches: a missing size check (out-of-range reads of q, v, a, τ, or of a Data made for
// another model) and a NaN input passed on instead of reported.
TEST(RecursiveDynamicsErrors, WrongSizesAndNonFiniteInputsAreInvalidArguments) {
  const Model model = testing::random_tree(4, {8});
  Data data(model);
  const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv);
  const VecX short_v = VecX::Zero(model.nv - 1);
  expect_error<InvalidArgument>([&] { rnea(model, data, q, short_v, v); }, {"v has"});
  expect_error<InvalidArgument>([&] { rnea(model, data, q, v, short_v); }, {"a has"});
  expect_error<InvalidArgument>([&] { crba(model, data, VecX::Zero(model.nq + 1)); }, {"q has"});
  expect_error<InvalidArgument>([&] { aba(model, data, q, v, short_v); }, {"tau has"});
  expect_error<InvalidArgument>([&] { kinetic_energy(model, data, q, short_v); }, {"v has"});
  VecX bad_v = v;
  bad_v[2] = std::numeric_limits<double>::quiet_NaN();
  expect_error<InvalidArgument>([&] { aba(model, data, q, bad_v, v); }, {"v[2]", "not finite"});

  const Model other = testing::random_tree(5, {3});
  Data other_data(other);
  expect_error<InvalidArgument>([&] { rnea(model, other_data, q, v, v); }, {"rnea", "data was not built"});
  expect_error<InvalidArgument>([&] { crba(model, other_data, q); }, {"crba", "data was not built"});
  expect_error<InvalidArgument>([&] { aba(model, other_data, q, v, v); }, {"aba", "data was not built"});
  expect_error<InvalidArgument>([&] { potential_energy(model, other_data, q); }, {"potential_energy"});
}

// Catches: a non-finite number missed by the finiteness check (a two-accumulator pass
// over the vector with a separate last element for odd sizes) at an even or odd position,
// at the last position of an odd size, or of one sign of infinity; chains of 1–6 bodies.
TEST(RecursiveDynamicsErrors, EveryNonFiniteNumberAtEveryPositionIsReported) {
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
  for (int bodies = 1; bodies <= 6; ++bodies) {
    testing::RandomTreeOptions options;
    options.bodies = bodies;
    options.all_joint_types = false;  // revolute and prismatic: nq = nv = bodies
    const Model model = testing::random_tree(static_cast<unsigned>(10 + bodies), options);
    Data data(model);
    const VecX q = model.neutral_configuration(), v = VecX::Zero(model.nv);
    for (int k = 0; k < model.nv; ++k) {
      for (const double x : bad) {
        const std::string at = "[" + std::to_string(k) + "]";
        VecX broken = v;
        broken[k] = x;
        VecX broken_q = q;
        broken_q[k] = x;
        expect_error<InvalidArgument>([&] { crba(model, data, broken_q); }, {("q" + at).c_str(), "not finite"});
        expect_error<InvalidArgument>([&] { rnea(model, data, q, broken, v); }, {("v" + at).c_str(), "not finite"});
        expect_error<InvalidArgument>([&] { rnea(model, data, q, v, broken); }, {("a" + at).c_str(), "not finite"});
      }
    }
    EXPECT_NO_THROW(rnea(model, data, q, v, v));
  }
}

// A massless body with no inertia on joint `carrier`, carrying a body on a second joint
// of the same type at the same origin (coaxial for revolute). The carrier's joint moves
// nothing that the child's joint does not also move, so its articulated inertia
// D = Sᵀ I^A S is zero: the mass matrix is singular.
Model coaxial_pair(JointType type) {
  Model model;
  model.name = "coaxial_pair";
  Body carrier, load;
  carrier.name = "carrier";
  carrier.mass = 0.0;  // allowed: it carries a child; zero inertia
  load.name = "load";
  load.parent = 0;
  load.mass = 1.5;
  load.com = Vec3(0.2, 0.1, 0.0);
  load.inertia = Vec3(0.02, 0.03, 0.04).asDiagonal();
  Joint first, second;
  first.name = "shoulder";
  second.name = "elbow";
  first.type = second.type = type;
  first.axis = second.axis = Vec3::UnitZ();
  first.origin = Vec3(0.3, -0.1, 0.2);
  second.origin = Vec3::Zero();
  model.bodies = {carrier, load};
  model.joints = {first, second};
  finalize_model(model, "coaxial_pair");
  return model;
}

// Catches: a singular D inverted anyway (NaN or huge accelerations passed on), a
// message that does not name the joint, and a check that misses multi-DoF joints.
TEST(RecursiveDynamicsErrors, SingularJointInertiaIsSolverErrorNamingTheJoint) {
  for (JointType type : {JointType::Revolute, JointType::Spherical, JointType::Prismatic}) {
    const Model model = coaxial_pair(type);
    Data data(model);
    std::mt19937 rng(1);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    expect_error<SolverError>([&] { aba(model, data, q, v, VecX::Zero(model.nv)); },
                              {"joint 'shoulder'", "singular"});
  }
}

// Catches: a singularity threshold so strict that a valid mechanism far from the world
// origin (where world-origin spatial quantities are large) is rejected.
TEST(RecursiveDynamicsErrors, RegularTreeFarFromTheOriginIsNotRejected) {
  Model model = testing::random_tree(6, {10});
  for (int i = 0; i < model.num_bodies(); ++i)  // every root: the whole tree ~1 km from the origin
    if (model.bodies[i].parent == kGround) model.joints[i].origin += Vec3(1000.0, -500.0, 300.0);
  finalize_model(model, model.name);
  Data data(model);
  std::mt19937 rng(2);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng);
  const VecX a = testing::random_vector(model.nv, rng);
  const VecX tau = rnea(model, data, q, v, a);
  const VecX ddq = aba(model, data, q, v, tau);
  // World-origin spatial quantities lose about |r|²/(body size)² of relative precision:
  // ≈ 4e-8 is achieved here (3e-13 at the origin).
  EXPECT_LT((ddq - a).norm(), 1e-6 * a.norm());
}

}  // namespace
}  // namespace mechdyn
