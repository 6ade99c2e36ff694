// Newmark-β / HHT-α integration of mechanisms with flexible bodies (flexible/newmark.hpp):
//  - second-order convergence to an independent reference (RK4 at a 20 times smaller step on
//    M v̇ = −h, the same M and h but a different integrator): the error falls ~4x per halving;
//  - average acceleration (α = 0) keeps T + V within a small bound, HHT (α = −0.2) damps the
//    high elastic modes (energy falls), as its spectral radius (1 + α)/(1 − α) < 1 says;
//  - a closed chain with the cut joint on the beam: Baumgarte keeps |Φ| small and bounded.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/flexible/newmark.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

const char* kArm =
    "mechdyn: 2\nname: arm\ngravity: [0, 0, -9.81]\nbodies:\n"
    "  - name: link1\n    parent: ground\n    joint: {type: revolute, axis: [0, 1, 0]}\n"
    "    mass: 2.0\n    com: [0.2, 0, 0]\n    inertia: {diag: [1.0e-4, 0.02672, 0.02672]}\n"
    "  - name: beam\n    parent: link1\n    joint: {type: revolute, axis: [0, 1, 0], origin: [0.4, 0, 0]}\n"
    "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: 2,\n"
    "               section: {circle: 0.01}, material: {youngs_modulus: 5e8, density: 2700, poisson_ratio: 0.3},\n"
    "               geometric_stiffening: false}\n"
    "    mass: 0.2\n    com: [0.01, 0, 0]\n    inertia: {diag: [1.0e-5, 2.0e-5, 3.0e-5]}\n";

struct Simulation {
  explicit Simulation(const std::string& text)
      : model(parse_model_string(text, "test.yaml")), system(make_flexible_system(model)), data(model, system) {}
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;

  double energy(const VecX& q, const VecX& v) {
    flexible_kinematics(model, system, data, q, v);
    flexible_mass_matrix(model, system, data, q);
    const FlexibleEnergies e = flexible_energies(model, system, data, q, v);
    return e.kinetic + e.gravity + e.strain;
  }
  VecX acceleration(const VecX& q, const VecX& v) {
    flexible_kinematics(model, system, data, q, v);
    flexible_mass_matrix(model, system, data, q);
    flexible_bias_force(model, system, data, q, v, VecX());
    return data.mass_matrix.llt().solve(-data.bias_force);
  }
};

VecX start(const Model& model) {
  VecX q = VecX::Zero(model.nq);
  q[0] = 0.2;
  q[1] = 0.4;
  return q;
}

// Catches: a wrong Newmark update (eq. 64's misprints), an inconsistent iteration, a first-
// order error (e.g. the HHT force weights or the previous-step force).
TEST(FlexibleNewmark, ConvergesWithSecondOrderToAReference) {
  Simulation run(kArm);
  const double duration = 0.1;
  VecX q = start(run.model), v = VecX::Zero(run.model.nv);
  const double h = 1e-4;  // RK4 reference
  for (int k = 0; k < static_cast<int>(std::lround(duration / h)); ++k) {
    const VecX a1 = run.acceleration(q, v), v1 = v;
    const VecX a2 = run.acceleration(q + 0.5 * h * v1, v + 0.5 * h * a1), v2 = v + 0.5 * h * a1;
    const VecX a3 = run.acceleration(q + 0.5 * h * v2, v + 0.5 * h * a2), v3 = v + 0.5 * h * a2;
    const VecX a4 = run.acceleration(q + h * v3, v + h * a3), v4 = v + h * a3;
    q += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  // Newmark (α = 0): order 2 on the joints. HHT (α = −0.2) damps the elastic modes that the
  // step does not resolve (ω dt ≳ 1 for the axial modes here), which the reference keeps, so
  // its error is pre-asymptotic at these steps; its order is checked on a linear beam below.
  for (double alpha : {0.0, -0.2}) {
    double previous = 0.0;
    for (double dt : {5e-4, 2.5e-4, 1.25e-4}) {
      NewmarkOptions options;
      options.alpha = alpha;
      FlexibleNewmark newmark(run.model, run.system, options);
      NewmarkState state;
      state.q = start(run.model);
      state.v = VecX::Zero(run.model.nv);
      const VecX effort = VecX::Zero(run.model.nv);
      newmark.initialize(run.data, state, effort);
      for (int k = 0; k < static_cast<int>(std::lround(duration / dt)); ++k) newmark.step(run.data, state, dt, effort);
      const double error = (state.q.head(2) - q.head(2)).cwiseAbs().maxCoeff();
      std::printf("alpha %.1f dt %.2e: joint error %.3e", alpha, dt, error);
      if (previous > 0) std::printf(" ratio %.2f", previous / error);
      std::printf("\n");
      if (previous > 0 && alpha == 0.0) EXPECT_GT(previous / error, 3.5) << dt;
      previous = error;
    }
    EXPECT_LT(previous, alpha == 0.0 ? 1e-5 : 2e-5);
  }
}

// A cantilever (fixed joint, one element, soft so that it swings ~1 m under gravity):
// linear, so HHT is second order whatever α (Hilber, Hughes & Taylor 1977). Reference: RK4
// at 1e-5 s. Catches: a first-order error in the HHT weights (the previous step's force,
// γ = ½ − α, β = ¼ (1 − α)²).
TEST(FlexibleNewmark, HhtIsSecondOrderOnALinearBeam) {
  Simulation run("mechdyn: 2\nname: c\ngravity: [0, 0, -9.81]\nbodies:\n  - name: beam\n    parent: ground\n"
                 "    joint: {type: fixed}\n"
                 "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1, elements: 1,\n"
                 "               section: {circle: 0.01}, material: {youngs_modulus: 1e6, density: 2700, "
                 "poisson_ratio: 0.3}, geometric_stiffening: false}\n");
  VecX q = VecX::Zero(6), v = VecX::Zero(6);
  const double h = 1e-5;
  for (int k = 0; k < 20000; ++k) {
    const VecX a1 = run.acceleration(q, v), v1 = v;
    const VecX a2 = run.acceleration(q + 0.5 * h * v1, v + 0.5 * h * a1), v2 = v + 0.5 * h * a1;
    const VecX a3 = run.acceleration(q + 0.5 * h * v2, v + 0.5 * h * a2), v3 = v + 0.5 * h * a2;
    const VecX a4 = run.acceleration(q + h * v3, v + h * a3), v4 = v + h * a3;
    q += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  for (double alpha : {0.0, -0.2, -1.0 / 3.0}) {
    double previous = 0.0;
    for (double dt : {2e-3, 1e-3, 5e-4}) {
      NewmarkOptions options;
      options.alpha = alpha;
      FlexibleNewmark newmark(run.model, run.system, options);
      NewmarkState state;
      state.q = VecX::Zero(6);
      state.v = VecX::Zero(6);
      const VecX effort = VecX::Zero(6);
      newmark.initialize(run.data, state, effort);
      for (int k = 0; k < static_cast<int>(std::lround(0.2 / dt)); ++k) newmark.step(run.data, state, dt, effort);
      const double error = (state.q - q).cwiseAbs().maxCoeff();
      if (previous > 0) EXPECT_NEAR(previous / error, 4.0, 0.1) << alpha << " " << dt;
      previous = error;
    }
  }
}

// Catches: numerical damping in the average-acceleration rule, or none in HHT.
TEST(FlexibleNewmark, AverageAccelerationKeepsEnergyHhtDampsHighModes) {
  std::string text = kArm;  // no gravity: the energy is the elastic disturbance's (nearly linear)
  text.replace(text.find("gravity: [0, 0, -9.81]"), 22, "gravity: [0, 0, 0]");
  Simulation run(text);
  VecX q0 = start(run.model);
  std::srand(3);
  q0.tail(12) = VecX::Random(12) * 2e-4;  // an elastic disturbance of all modes, up to the highest
  const double e0 = run.energy(q0, VecX::Zero(run.model.nv));
  double change[2];
  for (int k = 0; k < 2; ++k) {
    NewmarkOptions options;
    options.alpha = k == 0 ? 0.0 : -0.2;
    FlexibleNewmark newmark(run.model, run.system, options);
    NewmarkState state;
    state.q = q0;
    state.v = VecX::Zero(run.model.nv);
    const VecX effort = VecX::Zero(run.model.nv);
    newmark.initialize(run.data, state, effort);
    for (int step = 0; step < 200; ++step) newmark.step(run.data, state, 1e-3, effort);
    change[k] = run.energy(state.q, state.v) - e0;
  }
  run.energy(q0, VecX::Zero(run.model.nv));
  const double strain = flexible_energies(run.model, run.system, run.data, q0, VecX::Zero(run.model.nv)).strain;
  std::printf("initial strain energy %.4e J; energy change: Newmark %.3e J, HHT -0.2 %.3e J\n", strain, change[0],
              change[1]);
  EXPECT_LT(std::abs(change[0]), 1e-2 * strain);
  EXPECT_LT(change[1], -0.1 * strain);
}

// A crank, the beam on it and a rocker from the ground, closed by a spherical cut joint at
// the beam's tip; assembled at q = 0 (tip at (1.2, 0, 0) on the rocker's end). Gravity in
// the plane swings it. Catches: constraint drift (Baumgarte missing or with the wrong sign),
// a wrong J̇ v on the deformed beam, non-convergence of the constrained iteration.
TEST(FlexibleNewmark, ClosedChainStaysClosed) {
  const std::string text =
      "mechdyn: 2\nname: chain\ngravity: [0, -9.81, 0]\nbodies:\n"
      "  - name: crank\n    parent: ground\n    joint: {type: revolute, axis: [0, 0, 1]}\n"
      "    mass: 1.0\n    com: [0.1, 0, 0]\n    inertia: {diag: [1.0e-4, 3.0e-3, 3.0e-3]}\n"
      "  - name: beam\n    parent: crank\n    joint: {type: revolute, axis: [0, 0, 1], origin: [0.2, 0, 0]}\n"
      "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.0, elements: 2,\n"
      "               section: {circle: 0.01}, material: {youngs_modulus: 7e10, density: 2700, poisson_ratio: 0.3}}\n"
      "  - name: rocker\n    parent: ground\n    joint: {type: revolute, axis: [0, 0, 1], origin: [1.2, -0.5, 0]}\n"
      "    mass: 0.5\n    com: [0, 0.25, 0]\n    inertia: {diag: [1.0e-2, 1.0e-4, 1.0e-2]}\n"
      "loops:\n  - {name: cut, type: spherical, a: {body: beam, point: [1, 0, 0]}, b: {body: rocker, point: [0, 0.5, 0]}}\n";
  Simulation run(text);
  FlexibleNewmark newmark(run.model, run.system);
  NewmarkState state;
  state.q = VecX::Zero(run.model.nq);
  state.v = VecX::Zero(run.model.nv);
  const VecX effort = VecX::Zero(run.model.nv);
  newmark.initialize(run.data, state, effort);
  double largest = 0.0;
  for (int step = 0; step < 300; ++step) {
    newmark.step(run.data, state, 1e-3, effort);
    largest = std::max(largest, run.data.loop_residual.cwiseAbs().maxCoeff());
  }
  std::printf("closed chain: crank turned %.4f rad, largest |Φ| %.3e m\n", state.q[0], largest);
  EXPECT_GT(std::abs(state.q[0]), 0.05);  // it moved
  EXPECT_LT(largest, 1e-6);
}

}  // namespace
}  // namespace mechdyn
