// Time integrators (simulation/integrators.hpp). Each test names the bug it would catch.
// (Time expressions of the tool are tested through it: tests/unit/test_cli.cpp.)
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

// ---- allocation counter (for the no-allocation test) --------------------------------
namespace {
std::atomic<long> g_allocations{0};
}
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace mechdyn {
namespace {

// A pendulum: one revolute joint about z at the world origin, the centre of mass at
// l = 0.5 m below it (−y), gravity −y. Lagrange: (J_zz + m l²) φ̈ = −m g l sin φ.
constexpr double kMass = 2.0, kLength = 0.5, kJzz = 0.01, kGravity = 9.81;

Model pendulum() {
  Model model;
  model.name = "pendulum";
  model.gravity = Vec3(0, -kGravity, 0);
  Body body;
  body.name = "rod";
  body.mass = kMass;
  body.com = Vec3(0, -kLength, 0);
  body.inertia = Vec3(0.01, 0.001, kJzz).asDiagonal();
  Joint joint;
  joint.name = "J1";
  joint.type = JointType::Revolute;
  joint.axis = Vec3::UnitZ();
  model.bodies.push_back(body);
  model.joints.push_back(joint);
  finalize_model(model, "pendulum");
  return model;
}

// The pendulum's φ(t), φ̇(t) by an independent scalar RK4 at a tiny step (the
// reference; its own error ~ (1e-4)^4 · T, far below what the tests resolve).
std::pair<double, double> pendulum_reference(double phi0, double omega0, double duration) {
  const double k = kMass * kGravity * kLength / (kJzz + kMass * kLength * kLength);
  auto f = [k](double phi) { return -k * std::sin(phi); };
  const int steps = static_cast<int>(std::lround(duration / 1e-4));
  const double h = duration / steps;
  double phi = phi0, omega = omega0;
  for (int i = 0; i < steps; ++i) {
    const double k1p = omega, k1v = f(phi);
    const double k2p = omega + 0.5 * h * k1v, k2v = f(phi + 0.5 * h * k1p);
    const double k3p = omega + 0.5 * h * k2v, k3v = f(phi + 0.5 * h * k2p);
    const double k4p = omega + h * k3v, k4v = f(phi + h * k3p);
    phi += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
    omega += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return {phi, omega};
}

// Forward dynamics without efforts, as the simulator wires it.
AccelerationFunction free_motion(const Model& model, Data& data, VecX& zero) {
  zero = VecX::Zero(model.nv);
  return [&model, &data, &zero](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                Eigen::Ref<VecX> a) { a = explicit_forward_dynamics(model, data, q, v, zero); };
}

double rk4_error(const Model& model, double h, double duration) {
  Data data(model);
  VecX zero;
  Rk4Integrator rk4(model, free_motion(model, data, zero));
  VecX q(1), v(1);
  q << 1.0;
  v << 0.0;
  rk4.advance(0.0, duration, h, q, v);
  const auto [phi, omega] = pendulum_reference(1.0, 0.0, duration);
  return std::abs(q[0] - phi) + std::abs(v[0] - omega) * 0.1;
}

// Bug caught: a wrong RK4 weight or stage time (drops the order to 2 or 3), or the
// library dynamics wired with a sign error (large error, no convergence).
TEST(Rk4, FourthOrderConvergenceOnAPendulum) {
  const Model model = pendulum();
  const double coarse = rk4_error(model, 0.04, 2.0);
  const double fine = rk4_error(model, 0.02, 2.0);
  const double finer = rk4_error(model, 0.01, 2.0);
  EXPECT_LT(finer, 1e-6);
  // Order p: halving h divides the error by 2^p = 16.
  EXPECT_NEAR(coarse / fine, 16.0, 3.0);
  EXPECT_NEAR(fine / finer, 16.0, 3.0);
}

// Bug caught: the fixed-step RK4 disagreeing with itself at a 10× smaller step more than
// its h⁴ error allows (e.g. advance() taking a different number of steps than asked).
TEST(Rk4, AgreesWithTenTimesSmallerStep) {
  const Model model = pendulum();
  Data data(model);
  VecX zero;
  Rk4Integrator coarse(model, free_motion(model, data, zero));
  Rk4Integrator fine(model, free_motion(model, data, zero));
  VecX q1(1), v1(1), q2(1), v2(1);
  q1 << 0.8;
  v1 << -1.0;
  q2 = q1;
  v2 = v1;
  coarse.advance(0.0, 1.5, 0.01, q1, v1);
  fine.advance(0.0, 1.5, 0.001, q2, v2);
  EXPECT_NEAR(q1[0], q2[0], 1e-7);
  EXPECT_NEAR(v1[0], v2[0], 1e-6);
  EXPECT_EQ(coarse.evaluations(), 4 * 150);
  EXPECT_EQ(fine.evaluations(), 4 * 1500);
}

// Bug caught: a wrong Dormand–Prince coefficient (the error estimate then does not
// track the error and the tolerance is missed), or output times not hit exactly.
TEST(DormandPrince, MeetsItsToleranceAndHitsOutputTimes) {
  const Model model = pendulum();
  for (double tolerance : {1e-6, 1e-9}) {
    Data data(model);
    VecX zero;
    DormandPrinceOptions options;
    options.relative_tolerance = tolerance;
    options.absolute_tolerance = tolerance;
    DormandPrinceIntegrator dopri5(model, free_motion(model, data, zero), options);
    VecX q(1), v(1);
    q << 1.0;
    v << 0.0;
    double worst = 0.0;
    for (int k = 1; k <= 10; ++k) {  // output every 0.3 s
      dopri5.advance(0.3 * (k - 1), 0.3 * k, q, v);
      const auto [phi, omega] = pendulum_reference(1.0, 0.0, 0.3 * k);
      worst = std::max(worst, std::abs(q[0] - phi));
      (void)omega;
    }
    // Global error of a tolerance-controlled method: a small multiple of the tolerance
    // over a few oscillations (Hairer I §II.4, Fig. 4.3: error ≈ C · Tol).
    EXPECT_LT(worst, 20.0 * tolerance) << "tolerance " << tolerance;
    EXPECT_GT(dopri5.accepted_steps(), 5);
  }
}

// Bug caught: the step-size controller never shrinking (or never growing): a tighter
// tolerance must take more steps.
TEST(DormandPrince, TighterToleranceTakesMoreSteps) {
  const Model model = pendulum();
  int steps[2];
  int i = 0;
  for (double tolerance : {1e-5, 1e-10}) {
    Data data(model);
    VecX zero;
    DormandPrinceOptions options;
    options.relative_tolerance = options.absolute_tolerance = tolerance;
    DormandPrinceIntegrator dopri5(model, free_motion(model, data, zero), options);
    VecX q = VecX::Constant(1, 1.0), v = VecX::Zero(1);
    dopri5.advance(0.0, 3.0, q, v);
    steps[i++] = dopri5.accepted_steps();
  }
  // Step count grows like Tol^(−1/5): 1e5^(1/5) = 10.
  EXPECT_GT(steps[1], 5 * steps[0]);
}

// A free-floating rigid body (free joint, no gravity, no effort), asymmetric inertia,
// spinning about a tilted axis: its angular momentum L = I_world ω (com at the frame
// origin) and kinetic energy are constant, and the quaternion stays unit.
Model free_body() {
  Model model;
  model.name = "free_body";
  model.gravity = Vec3::Zero();
  Body body;
  body.name = "box";
  body.mass = 3.0;
  body.inertia = Vec3(0.1, 0.2, 0.25).asDiagonal();
  Joint joint;
  joint.name = "root";
  joint.type = JointType::Free;
  model.bodies.push_back(body);
  model.joints.push_back(joint);
  finalize_model(model, "free_body");
  return model;
}

// Bug caught: quaternions not renormalised (drift of |q|), a wrong quaternion rate
// (momentum not conserved), a free joint's linear rate in the wrong frame.
TEST(Integrators, FreeBodyConservesAngularMomentumAndUnitQuaternion) {
  const Model model = free_body();
  for (bool adaptive : {false, true}) {
    Data data(model), check(model);
    VecX zero;
    VecX q = model.neutral_configuration(), v(6);
    v << 0.3, -0.1, 0.2, 1.0, 2.0, 3.0;  // linear velocity, then angular velocity (world)
    auto momentum = [&](const VecX& qq, const VecX& vv) {
      forward_kinematics(model, check, qq);
      return Vec3(check.inertia_world[0] * vv.tail<3>());
    };
    const Vec3 l0 = momentum(q, v);
    const double t0_energy = 0.5 * v.tail<3>().dot(l0);
    Rk4Integrator rk4(model, free_motion(model, data, zero));
    DormandPrinceOptions options;
    options.relative_tolerance = options.absolute_tolerance = 1e-11;
    DormandPrinceIntegrator dopri5(model, free_motion(model, data, zero), options);
    for (int k = 1; k <= 200; ++k) {
      const double t0 = 0.01 * (k - 1), t1 = 0.01 * k;
      if (adaptive) dopri5.advance(t0, t1, q, v);
      else rk4.step(t0, t1 - t0, q, v);
      EXPECT_NEAR(q.segment<4>(3).norm(), 1.0, 1e-15);
    }
    const Vec3 l1 = momentum(q, v);
    EXPECT_LT((l1 - l0).norm(), 1e-7) << (adaptive ? "dopri5" : "rk4");
    EXPECT_NEAR(0.5 * v.tail<3>().dot(l1), t0_energy, 1e-7);
    // The centre of mass moves uniformly: x(2 s) = v t.
    EXPECT_NEAR(q[0], 0.6, 1e-12);
    EXPECT_NEAR(q[1], -0.2, 1e-12);
    EXPECT_NEAR(q[2], 0.4, 1e-12);
  }
}

// Bug caught: a NaN from the dynamics propagated into the state instead of an error naming the time.
TEST(Integrators, NonFiniteStateIsASolverErrorWithTheTime) {
  const Model model = pendulum();
  Rk4Integrator rk4(model, [](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                              Eigen::Ref<VecX> a) { a[0] = t > 0.25 ? std::nan("") : 1.0; });
  VecX q = VecX::Zero(1), v = VecX::Zero(1);
  try {
    rk4.advance(0.0, 1.0, 0.1, q, v);
    FAIL() << "no SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("t = 0.3"), std::string::npos) << e.what();
  }
}

// Bug caught: the adaptive step shrinking forever (hang) on a stiff problem instead of
// stopping at the minimum step with a SolverError.
TEST(DormandPrince, StepSizeUnderflowIsASolverError) {
  const Model model = pendulum();
  DormandPrinceOptions options;
  options.min_step = 1e-3;  // the stiff decay below needs h ~ 3/1e6
  DormandPrinceIntegrator dopri5(
      model,
      [](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>& v, Eigen::Ref<VecX> a) {
        a[0] = -1e6 * v[0];
      },
      options);
  VecX q = VecX::Zero(1), v = VecX::Ones(1);
  EXPECT_THROW(dopri5.advance(0.0, 1.0, q, v), SolverError);
}

// Bug caught: stepping that allocates (a heap allocation per step in a long simulation).
TEST(Integrators, SteppingAllocatesNothing) {
  const Model model = free_body();
  auto rate = [](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, Eigen::Ref<VecX> a) {
    a = -0.1 * v - 0.01 * q.head(6);
  };
  Rk4Integrator rk4(model, rate);
  DormandPrinceIntegrator dopri5(model, rate);
  VecX q = model.neutral_configuration(), v = VecX::Ones(6);
  rk4.step(0.0, 0.01, q, v);  // warm up
  dopri5.advance(0.0, 0.01, q, v);
  const long before = g_allocations.load();
  for (int k = 0; k < 10; ++k) rk4.step(0.01 * k, 0.01, q, v);
  dopri5.advance(0.01, 1.0, q, v);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

}  // namespace
}  // namespace mechdyn
