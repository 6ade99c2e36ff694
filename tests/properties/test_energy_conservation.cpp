// Energy conservation of forward dynamics (ABA) over a long run.
//
// A frictionless, unactuated (τ = 0) chain conserves T + V exactly. Integrated by a
// classic fourth-order Runge–Kutta method written here (state q, v; configuration rate
// q̇ = joint_configuration_rate(q, v), quaternions renormalised after every step), the
// energy error is the integrator's O(dt⁴) global error alone, so any drift above it
// comes from accelerations that are not those of the Lagrangian of this T and V
// (the energies are kinetic_energy/potential_energy, checked against ½ vᵀ M v and the
// pose-only Lagrangian in the other property tests).
//
// The vector field is evaluated at normalised quaternions (the stage states q + c·dt·k
// leave the unit sphere by O(dt²)); this makes it a smooth field whose flow keeps unit
// quaternions unit, so RK4 keeps its fourth order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

// A random 6-body chain with revolute, prismatic, universal and spherical joints.
Model six_body_chain(unsigned seed, const Vec3& gravity) {
  testing::RandomTreeOptions options;
  options.bodies = 6;
  options.branch_probability = 0.0;  // a chain
  options.allow_free = false;
  Model model = testing::random_tree(seed, options);
  const JointType types[6] = {JointType::Revolute,  JointType::Spherical, JointType::Prismatic,
                              JointType::Universal, JointType::Revolute,  JointType::Spherical};
  for (int i = 0; i < 6; ++i) model.joints[i].type = types[i];
  model.gravity = gravity;
  finalize_model(model, model.name);
  return model;
}

class Integrator {
 public:
  explicit Integrator(const Model& model)
      : model_(model), data_(model), tau_(VecX::Zero(model.nv)), rate_(model.nq) {}

  // d/dt (q, v) = (configuration rate, ABA(q, v, 0)), evaluated at normalised quaternions.
  void derivative(VecX q, const VecX& v, VecX& q_rate, VecX& v_rate) {
    for (const Joint& joint : model_.joints) joint_normalize(joint, q.data() + joint.q_index);
    v_rate = aba(model_, data_, q, v, tau_);  // also leaves the poses of q in data_
    q_rate.resize(model_.nq);
    for (int l = 0; l < model_.num_bodies(); ++l) {
      const Joint& joint = model_.joints[l];
      const int parent = model_.bodies[l].parent;
      const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data_.rotation[parent];
      joint_configuration_rate(joint, q.data() + joint.q_index, v.data() + joint.v_index, parent_rotation,
                               q_rate.data() + joint.q_index);
    }
  }

  void rk4_step(VecX& q, VecX& v, double dt) {
    VecX k1q, k1v, k2q, k2v, k3q, k3v, k4q, k4v;
    derivative(q, v, k1q, k1v);
    derivative(q + 0.5 * dt * k1q, v + 0.5 * dt * k1v, k2q, k2v);
    derivative(q + 0.5 * dt * k2q, v + 0.5 * dt * k2v, k3q, k3v);
    derivative(q + dt * k3q, v + dt * k3v, k4q, k4v);
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    for (const Joint& joint : model_.joints) joint_normalize(joint, q.data() + joint.q_index);
  }

 private:
  const Model& model_;
  Data data_;
  VecX tau_, rate_;
};

struct EnergyRun {
  double max_drift = 0.0;   // max |E(t) − E(0)|
  double max_kinetic = 0.0; // max T(t), the scale of the energy exchanged
  double initial = 0.0;
};

EnergyRun simulate(const Model& model, unsigned seed, double duration, double dt) {
  std::mt19937 rng(seed);
  VecX q = testing::random_configuration(model, rng);
  VecX v = testing::random_vector(model.nv, rng);
  Data data(model);
  const auto total = [&] { return kinetic_energy(model, data, q, v) + potential_energy(model, data, q); };
  EnergyRun run;
  run.initial = total();
  Integrator integrator(model);
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int step = 0; step < steps; ++step) {
    integrator.rk4_step(q, v, dt);
    run.max_drift = std::max(run.max_drift, std::abs(total() - run.initial));
    run.max_kinetic = std::max(run.max_kinetic, kinetic_energy(model, data, q, v));
  }
  return run;
}

// Catches: ABA accelerations inconsistent with the energy — a wrong velocity-product
// term (c_i = Ṡ q̇ of universal/spherical joints, p^A = v ×* I v), a wrong articulated
// inertia update — which make a conservative system gain or lose energy steadily.
TEST(EnergyConservation, GravityFreeChainConservesKineticEnergy) {
  for (unsigned seed : {3u, 8u, 13u}) {
    const Model model = six_body_chain(seed, Vec3::Zero());
    const EnergyRun run = simulate(model, seed, 10.0, 1e-3);
    const double relative = run.max_drift / run.initial;
    std::printf("seed %u, no gravity: T(0) = %.6f, max |T(t) − T(0)| / T(0) = %.3e\n", seed, run.initial, relative);
    EXPECT_LT(relative, 1e-8) << "seed " << seed;
  }
}

// Catches: gravity entering ABA inconsistently with V = −Σ m gᵀ c (sign, [−g; 0] instead
// of [0; −g], gravity added to only some bodies). The drift is measured against the
// largest kinetic energy reached (T and V exchange energy; E itself may be near zero).
TEST(EnergyConservation, ChainUnderGravityConservesTotalEnergy) {
  for (unsigned seed : {3u, 8u, 13u}) {
    const Model model = six_body_chain(seed, Vec3(0.3, -0.2, -9.81));
    const EnergyRun run = simulate(model, seed, 10.0, 1e-3);
    const double relative = run.max_drift / run.max_kinetic;
    std::printf("seed %u, gravity: max T = %.6f, max |E(t) − E(0)| / max T = %.3e\n", seed, run.max_kinetic,
                relative);
    EXPECT_LT(relative, 1e-8) << "seed " << seed;
  }
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// The energies read off a kinematics stage equal the ones that run their own pass, to the
// bit (the closed-chain rows use the former after the joint reactions; catches a stage
// read at the wrong level or a term left out).
TEST(EnergyFromKinematics, EqualsTheEnergiesThatRunTheirOwnPass) {
  for (unsigned seed : {3u, 4u, 5u}) {
    const Model model = testing::random_tree(seed, {12});
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng), v = VecX::Random(model.nv), a = VecX::Random(model.nv);
    Data data(model), stage(model);
    const double kinetic = kinetic_energy(model, data, q, v), potential = potential_energy(model, data, q);
    forward_kinematics(model, stage, q, v, a);
    EXPECT_EQ(kinetic_energy_from_kinematics(model, stage), kinetic) << "seed " << seed;
    EXPECT_EQ(potential_energy_from_kinematics(model, stage), potential) << "seed " << seed;
  }
}

}  // namespace
}  // namespace mechdyn
