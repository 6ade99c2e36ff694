// Closed-chain dynamics: long runs, conservation, free-body balance, inverse ↔ forward.
// Catches: drift control that lets the loops open (residual over 10 s); a constrained
// force that does work (energy); cut-joint forces on the wrong body, with the wrong sign
// or at the wrong point (Newton–Euler balance of every body, zero axial torque at ideal
// passive joints); inverse and forward dynamics that disagree (prescribed motion not
// reproduced); redundant rows changing the physics (spatial vs planar cut joint).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {
namespace {

using EffortAt = std::function<void(double t, Eigen::Ref<VecX> tau)>;

// RK4 with constrained forward dynamics and projection after every step. Returns the
// largest closure residual seen; `each_step` is called after every step.
double simulate(const Model& model, VecX& q, VecX& v, double duration, double h, const EffortAt& effort,
                const std::function<void(double, const VecX&, const VecX&)>& each_step = {}) {
  Data dynamics(model), projection(model);
  VecX tau = VecX::Zero(model.nv);
  Rk4Integrator rk4(model, [&](double t, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                               Eigen::Ref<VecX> a) {
    effort(t, tau);
    a = constrained_forward_dynamics(model, dynamics, qq, vv, tau);
  });
  double worst = 0.0;
  const long steps = std::lround(duration / h);
  for (long k = 0; k < steps; ++k) {
    rk4.step(k * h, h, q, v);
    project_positions(model, projection, q);
    project_velocities(model, projection, q, v);
    loop_closure(model, projection, q);
    worst = std::max(worst, projection.loop_residual.lpNorm<Eigen::Infinity>());
    if (each_step) each_step((k + 1) * h, q, v);
  }
  return worst;
}

void assembled_rest(const Model& model, VecX& q, VecX& v, double crank) {
  Data data(model);
  q = VecX::Zero(model.nq);
  if (model.name == "four_bar") q << crank, 1.0, 1.5;
  else q[0] = crank;
  assemble(model, data, q);
  v = VecX::Zero(model.nv);
}

TEST(ClosedChainDynamics, ClosureResidualStaysBelow1e9Over10Seconds) {
  for (const char* file : {"four_bar.yaml", "three_loop_mechanism.yaml"}) {
    const Model model = testing::example_model(file);
    VecX q, v;
    assembled_rest(model, q, v, 0.3);
    const double worst = simulate(model, q, v, 10.0, 1e-3, [](double, Eigen::Ref<VecX> tau) { tau.setZero(); });
    EXPECT_LT(worst, 1e-9) << file;
    EXPECT_TRUE(q.allFinite() && v.allFinite()) << file;
  }
}

TEST(ClosedChainDynamics, EnergyOfAConservativeFourBarIsConserved) {
  // No efforts, no friction, gravity only: T + V constant. RK4 (h = 1 ms) has local
  // error O(h⁵); the projection removes constraint drift with a mass-weighted (least
  // kinetic energy change) velocity correction. The bound allows the integrator's error.
  const Model model = testing::example_model("four_bar.yaml");
  VecX q, v;
  assembled_rest(model, q, v, 0.3);
  Data data(model);
  const double e0 = kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
  double worst = 0.0;
  simulate(model, q, v, 10.0, 1e-3, [](double, Eigen::Ref<VecX> tau) { tau.setZero(); },
           [&](double, const VecX& qq, const VecX& vv) {
             const double e = kinetic_energy(model, data, qq, vv) + potential_energy(model, data, qq);
             worst = std::max(worst, std::abs(e - e0));
           });
  // Scale: the potential energy swing m g Δh ~ 1.5 kg · 9.81 · 0.3 m ≈ 4 J.
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(kinetic_energy(model, data, q, v), 1e-3);  // it did move
}

TEST(ClosedChainDynamics, CutJointForcesBalanceEveryBody) {
  // Newton–Euler for every body b: inertial wrench = own joint reaction − Σ children's
  // reactions + gravity + cut-joint wrenches on b. And ideal passive joints transmit no
  // torque about their axis; the actuated joint transmits exactly its effort.
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
    q[0] = 0.2 * trial;
    v[0] = testing::random_vector(1, rng)[0];
    a[0] = testing::random_vector(1, rng)[0];
    closed_chain_inverse_dynamics(model, data, q, v, a);
    const VecX tau = data.tau;
    const std::vector<Vec3> force = data.reaction_force, torque = data.reaction_torque;
    forward_kinematics(model, data, q, v, a);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Vec3 omega = data.velocity[l].head<3>(), alpha = data.acceleration[l].head<3>();
      const Vec3 c = data.com_position[l];
      const Vec3 vc = data.velocity[l].tail<3>() + omega.cross(c);
      const Vec3 ac = data.acceleration[l].tail<3>() + alpha.cross(c) + omega.cross(vc);
      const double m = model.bodies[l].mass;
      Vec3 f = force[l] + m * model.gravity;                              // forces on body l
      Vec3 n = torque[l] + data.position[l].cross(force[l]) + c.cross(m * model.gravity);  // about the origin
      for (int child : model.children[l]) {
        f -= force[child];
        n -= torque[child] + data.position[child].cross(force[child]);
      }
      for (std::size_t i = 0; i < model.loops.size(); ++i) {
        if (model.loops[i].a.body == l) f += data.cut_wrench_a[i].tail<3>(), n += data.cut_wrench_a[i].head<3>();
        if (model.loops[i].b.body == l) f += data.cut_wrench_b[i].tail<3>(), n += data.cut_wrench_b[i].head<3>();
      }
      const Vec3 f_inertial = m * ac;
      const Vec3 n_inertial = c.cross(f_inertial) + data.inertia_world[l] * alpha + omega.cross(data.inertia_world[l] * omega);
      EXPECT_LT((f - f_inertial).norm(), 1e-9) << "body " << model.bodies[l].name;
      EXPECT_LT((n - n_inertial).norm(), 1e-9) << "body " << model.bodies[l].name;
      const Vec3 axis = data.motion_axis[model.joints[l].v_index].head<3>();
      const double axial = axis.dot(torque[l]);
      EXPECT_NEAR(axial, model.joints[l].actuated ? tau[l] : 0.0, 1e-9) << "joint " << model.joints[l].name;
    }
    // Action and reaction at each cut joint: zero resultant wrench.
    for (std::size_t i = 0; i < model.loops.size(); ++i)
      EXPECT_LT((data.cut_wrench_a[i] + data.cut_wrench_b[i]).norm(), 1e-9);
  }
}

TEST(ClosedChainDynamics, ForwardDynamicsAgreesWithInverseAtOneState) {
  // FD(q, v, τ_a from ID) = the accelerations ID used, and the same multipliers.
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data inverse(model), forward(model);
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
  q[0] = 0.4, v[0] = 0.7, a[0] = -1.3;
  closed_chain_inverse_dynamics(model, inverse, q, v, a);
  constrained_forward_dynamics(model, forward, q, v, inverse.tau);
  EXPECT_LT((forward.ddq - a).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_LT((forward.loop_multiplier - inverse.loop_multiplier).lpNorm<Eigen::Infinity>(), 1e-6);
}

TEST(ClosedChainDynamics, InverseThenForwardReproducesThePrescribedMotion) {
  // Prescribe the crank: θ(t) = 0.3 + 0.5 sin 2t. Forward dynamics driven by the
  // efforts of inverse dynamics must follow it.
  const Model model = testing::example_model("four_bar.yaml");
  Data inverse(model);
  VecX qi(3), vi = VecX::Zero(3), ai = VecX::Zero(3);
  qi << 0.3, 1.0, 1.5;
  auto prescribe = [&](double t) {
    qi[0] = 0.3 + 0.5 * std::sin(2 * t);
    vi[0] = 1.0 * std::cos(2 * t);
    ai[0] = -2.0 * std::sin(2 * t);
    closed_chain_inverse_dynamics(model, inverse, qi, vi, ai);
  };
  prescribe(0.0);
  VecX q = qi, v = vi;
  double worst = 0.0;
  simulate(model, q, v, 2.0, 1e-3,
           [&](double t, Eigen::Ref<VecX> tau) {
             prescribe(t);
             tau = inverse.tau;
           },
           [&](double t, const VecX& qq, const VecX&) {
             worst = std::max(worst, std::abs(qq[0] - (0.3 + 0.5 * std::sin(2 * t))));
           });
  // The difference is RK4's truncation error: 6.7e-8 at h = 1 ms, 4.2e-9 at h = 0.5 ms
  // (ratio 16 = 2⁴, measured). A wrong effort or multiplier would give O(1) drift.
  EXPECT_LT(worst, 2e-7);
}

TEST(ClosedChainDynamics, RedundantCutJointRowsDoNotChangeTheDynamics) {
  // The four-bar closed by a spatial revolute cut (5 rows, 3 redundant) moves exactly as
  // with the planar-revolute cut (2 rows); inverse dynamics gives the same crank effort.
  const Model planar = testing::example_model("four_bar.yaml");
  Model spatial = planar;
  spatial.loops[0].type = LoopType::Revolute;
  finalize_model(spatial, "four_bar_revolute_cut");
  Data dp(planar), ds(spatial);
  VecX q(3), v(3), tau(3);
  q << 0.7, 1.0, 1.5;
  assemble(planar, dp, q);
  v << 1.2, 0.0, 0.0;
  VecX a = VecX::Zero(3), qs = q, vs = v, as = a;
  closed_chain_inverse_dynamics(planar, dp, q, v, a);
  closed_chain_inverse_dynamics(spatial, ds, qs, vs, as);
  EXPECT_NEAR(dp.tau[0], ds.tau[0], 1e-9);
  EXPECT_LT((dp.cut_force[0] - ds.cut_force[0]).norm(), 1e-8);
  tau << 0.5, 0.0, 0.0;
  constrained_forward_dynamics(planar, dp, q, v, tau);
  constrained_forward_dynamics(spatial, ds, q, v, tau);
  EXPECT_LT((dp.ddq - ds.ddq).lpNorm<Eigen::Infinity>(), 1e-8);
}

TEST(ClosedChainDynamics, AdaptiveIntegratorWithProjectionKeepsTheLoopsClosed) {
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  VecX q, v;
  assembled_rest(model, q, v, 0.3);
  Data dynamics(model), projection(model);
  const VecX tau = VecX::Zero(model.nv);
  ConstrainedDynamicsOptions baumgarte;
  baumgarte.baumgarte_alpha = 10.0;
  baumgarte.baumgarte_beta = 10.0;
  DormandPrinceIntegrator dopri(model, [&](double, const Eigen::Ref<const VecX>& qq, const Eigen::Ref<const VecX>& vv,
                                           Eigen::Ref<VecX> a) {
    a = constrained_forward_dynamics(model, dynamics, qq, vv, tau, baumgarte);
  });
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    dopri.advance(0.01 * k, 0.01 * (k + 1), q, v);
    project_positions(model, projection, q);
    project_velocities(model, projection, q, v);
    loop_closure(model, projection, q);
    worst = std::max(worst, projection.loop_residual.lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(worst, 1e-9);
}

}  // namespace
}  // namespace mechdyn
