// Position-driven (rheonomic) runs of mechanisms with rigid and flexible bodies
// (flexible/newmark.hpp NewmarkOptions::prescribed; flexible/assembly.hpp rigid_equivalent):
//  - a rigid pendulum driven along q(t): the effort is the closed form (I + m l²) q̈ − m g l cos q;
//  - the rigid 3-RRRU driven along a smooth actuated motion: its efforts equal the library's
//    closed-chain inverse dynamics (RNEA + constraint projection, a different algorithm);
//  - the 3-RRRU with its beams 1e4 times stiffer: its end effector and efforts are the rigid
//    robot's (the rigid closed-chain results), the real aluminium beams are not;
//  - power balance: the energy a driven joint puts into an arm with a passive, flexible link
//    equals ∫ μ q̇_a dt (geometric stiffening off: the energy is then a conserved quantity);
//  - a spin-up of a flexible beam past its first bending frequency: bounded with the
//    geometric stiffening, with the axial stretch of the closed form; without it (the linear
//    FFR) the lag deflection diverges (Kane, Ryan & Banerjee 1987);
//  - the generated rigid 3-RRRU file equals rigid_equivalent of the flexible one;
//  - a prescribed step allocates nothing.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/assembly.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/flexible/newmark.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

using mechdyn::testing::allocations_during;

struct Driven {
  Driven(const Model& m, const NewmarkOptions& options)
      : model(m), system(make_flexible_system(model)), data(model, system), newmark(model, system, options) {}
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;
  FlexibleNewmark newmark;
  NewmarkState state;

  void start(const PrescribedMotion& motion, const std::vector<int>& held) {
    state.q = VecX::Zero(model.nq);
    state.v = VecX::Zero(model.nv);
    for (std::size_t p = 0; p < held.size(); ++p) {  // the test models' joints have q index = v index
      state.q[held[p]] = motion.position[static_cast<Eigen::Index>(p)];
      state.v[held[p]] = motion.velocity[static_cast<Eigen::Index>(p)];
    }
    assemble_flexible_state(model, system, data, state.q, state.v, held);
    newmark.initialize(data, state, VecX::Zero(model.nv), &motion);
  }
  Vec3 marker(int m) {
    flexible_kinematics(model, system, data, state.q);
    return data.marker_position[static_cast<std::size_t>(m)];
  }
  double energy() {
    flexible_kinematics(model, system, data, state.q, state.v);
    flexible_mass_matrix(model, system, data, state.q);
    const FlexibleEnergies e = flexible_energies(model, system, data, state.q, state.v);
    return e.kinetic + e.gravity + e.strain;
  }
};

// q_a(t) = A (1 − cos ω t): starts at rest at q = 0.
void smooth_motion(const VecX& amplitude, double omega, double t, PrescribedMotion& out) {
  out.position = amplitude * (1.0 - std::cos(omega * t));
  out.velocity = amplitude * (omega * std::sin(omega * t));
  out.acceleration = amplitude * (omega * omega * std::cos(omega * t));
}

Model robot(double stiffness_factor) {
  Model model = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/rrru_3_flexible.yaml");
  for (Body& body : model.bodies)
    if (body.flexible) {
      body.flexible->material.youngs_modulus *= stiffness_factor;
      body.flexible->material.shear_modulus *= stiffness_factor;
    }
  return model;
}

// Catches: a wrong sign or placement of the prescribed efforts μ, q_a not landing on q_a(t).
TEST(FlexibleDriven, PendulumEffortIsTheClosedForm) {
  // Rigid pendulum about y, centre of mass at l along x: z_c = −l sin q, V = −m g l sin q,
  // τ = (I_yy + m l²) q̈ − m g l cos q.
  const Model model = parse_model_string(
      "mechdyn: 1\nname: pendulum\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - {name: rod, parent: ground, joint: {name: J, type: revolute, axis: [0, 1, 0]}, mass: 1.5,\n"
      "     com: [0.4, 0, 0], inertia: {diag: [0.001, 0.02, 0.02]}}\n",
      "pendulum.yaml");
  NewmarkOptions options;
  options.prescribed = {0};
  Driven run(model, options);
  const VecX amplitude = VecX::Constant(1, 0.7);
  PrescribedMotion motion;
  smooth_motion(amplitude, 3.0, 0.0, motion);
  run.start(motion, {0});
  double worst = 0.0;
  for (int k = 1; k <= 500; ++k) {
    const double t = 1e-3 * k;
    smooth_motion(amplitude, 3.0, t, motion);
    run.newmark.step(run.data, run.state, 1e-3, VecX::Zero(1), &motion);
    EXPECT_NEAR(run.state.q[0], motion.position[0], 1e-15);
    const double q = motion.position[0], a = motion.acceleration[0];
    const double expected = (0.02 + 1.5 * 0.16) * a - 1.5 * 9.81 * 0.4 * std::cos(q);
    worst = std::max(worst, std::abs(run.state.prescribed_efforts[0] - expected));
  }
  std::printf("pendulum: largest effort error %.3e N m\n", worst);
  EXPECT_LT(worst, 1e-10);
}

// Catches: efforts of a driven closed chain that are not its inverse dynamics (a missing
// loop force, an inconsistent partition of the prescribed coordinates).
TEST(FlexibleDriven, RigidRobotEffortsAreTheClosedChainInverseDynamics) {
  const Model rigid = rigid_equivalent(robot(1.0));
  ASSERT_FALSE(has_flexible_bodies(rigid));
  const std::vector<int> actuated = actuated_velocities(rigid);
  ASSERT_EQ(actuated.size(), 3u);
  NewmarkOptions options;
  options.prescribed = actuated;
  Driven run(rigid, options);
  VecX amplitude(3);
  amplitude << 0.03, -0.02, 0.025;
  PrescribedMotion motion;
  smooth_motion(amplitude, 8.0, 0.0, motion);
  run.start(motion, actuated);
  Data data(rigid);
  double worst = 0.0, largest = 0.0;
  for (int k = 1; k <= 200; ++k) {
    smooth_motion(amplitude, 8.0, 1e-3 * k, motion);
    run.newmark.step(run.data, run.state, 1e-3, VecX::Zero(rigid.nv), &motion);
    if (k % 20 != 0) continue;
    VecX q = run.state.q, v = VecX::Zero(rigid.nv), a = VecX::Zero(rigid.nv);
    for (int p = 0; p < 3; ++p) v[actuated[p]] = motion.velocity[p], a[actuated[p]] = motion.acceleration[p];
    const VecX tau = closed_chain_inverse_dynamics(rigid, data, q, v, a);
    for (int p = 0; p < 3; ++p) {
      worst = std::max(worst, std::abs(run.state.prescribed_efforts[p] - tau[actuated[p]]));
      largest = std::max(largest, std::abs(tau[actuated[p]]));
    }
  }
  std::printf("rigid 3-RRRU driven: efforts up to %.3f N m, largest difference to the inverse dynamics %.3e\n",
              largest, worst);
  EXPECT_GT(largest, 5.0);
  // The residual of Baumgarte's index-1 form: ω_b² |Φ| ≈ 2.5e5 × 1e-9 m/s² of acceleration
  // error (ω_b = 1/(2Δt)), a few 1e-6 N m of effort.
  EXPECT_LT(worst, 3e-6 * largest);
}

// Catches: a flexible system whose rigid limit is not the rigid mechanism (coupling terms,
// points on the beams, the prescribed partition with elastic coordinates present).
TEST(FlexibleDriven, StiffBeamsReproduceTheRigidRobot) {
  VecX amplitude(3);
  amplitude << 0.03, -0.02, 0.025;
  auto run_robot = [&](const Model& model, Vec3& end, VecX& efforts) {
    NewmarkOptions options;
    options.alpha = -0.3;  // damps the ringing of the beams released undeformed (they are stiff)
    options.prescribed = actuated_velocities(model);
    Driven run(model, options);
    PrescribedMotion motion;
    smooth_motion(amplitude, 8.0, 0.0, motion);
    run.start(motion, options.prescribed);
    for (int k = 1; k <= 200; ++k) {
      smooth_motion(amplitude, 8.0, 1e-3 * k, motion);
      run.newmark.step(run.data, run.state, 1e-3, VecX::Zero(model.nv), &motion);
    }
    end = run.marker(0);
    efforts = run.state.prescribed_efforts;
  };
  Vec3 rigid_end, stiff_end, real_end;
  VecX rigid_efforts, stiff_efforts, real_efforts;
  run_robot(rigid_equivalent(robot(1.0)), rigid_end, rigid_efforts);
  run_robot(robot(1e4), stiff_end, stiff_efforts);
  run_robot(robot(1.0), real_end, real_efforts);
  const double stiff = (stiff_end - rigid_end).norm(), real = (real_end - rigid_end).norm();
  const double stiff_effort = (stiff_efforts - rigid_efforts).cwiseAbs().maxCoeff();
  std::printf("end effector off the rigid robot: E x 1e4 %.3e m, aluminium %.3e m; efforts %.3e N m (of %.3f)\n",
              stiff, real, stiff_effort, rigid_efforts.cwiseAbs().maxCoeff());
  EXPECT_LT(stiff, 1e-7);               // the static sag scales as 1/E: 1.1e-4 m / 1e4
  EXPECT_GT(real, 1e-5);                // the aluminium robot is not rigid
  EXPECT_LT(stiff_effort, 1e-3 * rigid_efforts.cwiseAbs().maxCoeff());
}

// Catches: efforts that do not do the work the system receives (sign, HHT weights, the
// prescribed velocity not landing on q̇_a(t)).
TEST(FlexibleDriven, WorkOfTheDrivingJointIsTheEnergyGain) {
  const Model model = parse_model_string(
      "mechdyn: 2\nname: arm\ngravity: [0, 0, -9.81]\nbodies:\n"
      "  - name: link1\n    parent: ground\n    joint: {type: revolute, axis: [0, 1, 0]}\n"
      "    mass: 2.0\n    com: [0.2, 0, 0]\n    inertia: {diag: [1.0e-4, 0.02672, 0.02672]}\n"
      "  - name: beam\n    parent: link1\n    joint: {type: revolute, axis: [0, 1, 0], origin: [0.4, 0, 0], actuated: false}\n"
      "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: 2,\n"
      "               section: {circle: 0.01}, material: {youngs_modulus: 5e9, density: 2700, poisson_ratio: 0.3},\n"
      "               geometric_stiffening: false}\n",
      "arm.yaml");
  NewmarkOptions options;
  options.prescribed = {0};
  Driven run(model, options);
  const VecX amplitude = VecX::Constant(1, 0.8);
  PrescribedMotion motion;
  smooth_motion(amplitude, 5.0, 0.0, motion);
  run.start(motion, {0});
  const double e0 = run.energy();
  double work = 0.0, largest_power = 0.0;
  double previous_power = run.state.prescribed_efforts[0] * motion.velocity[0];
  for (int k = 1; k <= 1000; ++k) {
    smooth_motion(amplitude, 5.0, 1e-4 * k, motion);
    run.newmark.step(run.data, run.state, 1e-4, VecX::Zero(model.nv), &motion);
    const double power = run.state.prescribed_efforts[0] * motion.velocity[0];
    work += 0.5 * 1e-4 * (power + previous_power);  // trapezoid (the rule of average acceleration)
    previous_power = power;
    largest_power = std::max(largest_power, std::abs(power));
  }
  const double gain = run.energy() - e0;
  std::printf("driven arm: work %.6e J, energy gain %.6e J (largest power %.3f W)\n", work, gain, largest_power);
  EXPECT_GT(std::abs(work), 0.1);
  EXPECT_NEAR(gain, work, 2e-4 * std::abs(work));
}

std::string spinning(bool stiffening) {
  return std::string(
             "mechdyn: 2\nname: spin\ngravity: [0, 0, 0]\nbodies:\n"
             "  - name: beam\n    parent: ground\n    joint: {name: hub, type: revolute, axis: [0, 0, 1]}\n"
             "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.0, elements: 2,\n"
             "               section: {circle: 0.01}, material: {youngs_modulus: 7e9, density: 2700, poisson_ratio: 0.3},\n"
             "               geometric_stiffening: ") +
         (stiffening ? "true" : "false") + "}\n";
}

// Kane, Ryan & Banerjee's spin-up: Ω(t) = Ω_s/T (t − T/(2π) sin(2π t/T)) for t < T, then Ω_s.
void spin_up(double spin, double ramp, double t, PrescribedMotion& out) {
  const double w = 2.0 * M_PI / ramp;
  if (t < ramp) {
    out.position[0] = spin / ramp * (0.5 * t * t + (std::cos(w * t) - 1.0) / (w * w));
    out.velocity[0] = spin / ramp * (t - std::sin(w * t) / w);
    out.acceleration[0] = spin / ramp * (1.0 - std::cos(w * t));
  } else {
    out.position[0] = spin / ramp * (0.5 * ramp * ramp) + spin * (t - ramp);
    out.velocity[0] = spin;
    out.acceleration[0] = 0.0;
  }
}

// Catches: a driven run that loses the centrifugal stiffening (the linear FFR's divergence),
// a wrong centrifugal load on the elastic coordinates (the axial stretch).
TEST(FlexibleDriven, SpinUpPastTheFirstFrequencyStaysBoundedWithGeometricStiffening) {
  // ω₀ = 1.8751² √(EI/(ρA L⁴)) = 28.31 rad/s (clamped–free); spin to Ω_s = 1.5 ω₀ in T = 4 s.
  const double rho = 2700, e_modulus = 7e9, length = 1.0;
  const double omega0 = 1.8751 * 1.8751 * std::sqrt(e_modulus * M_PI * 1e-8 / 4 / (rho * M_PI * 1e-4));
  const double spin = 1.5 * omega0, ramp = 4.0;
  auto run_spin = [&](bool stiffening, double& largest_lag, double& mean_stretch) {
    const Model model = parse_model_string(spinning(stiffening), "spin.yaml");
    NewmarkOptions options;
    options.prescribed = {0};
    Driven run(model, options);
    PrescribedMotion motion;
    motion.position = motion.velocity = motion.acceleration = VecX::Zero(1);
    spin_up(spin, ramp, 0.0, motion);
    run.start(motion, {0});
    const int tip = model.rigid_nq + 6;  // node 3: u_x, u_y, …
    largest_lag = 0.0, mean_stretch = 0.0;
    int samples = 0;
    try {
      for (int k = 1; k <= 5000; ++k) {
        const double t = 1e-3 * k;
        spin_up(spin, ramp, t, motion);
        run.newmark.step(run.data, run.state, 1e-3, VecX::Zero(model.nv), &motion);
        largest_lag = std::max(largest_lag, std::abs(run.state.q[tip + 1]));
        if (t > ramp) mean_stretch += run.state.q[tip], ++samples;
        if (largest_lag > 0.5 * length) return;  // diverged
      }
    } catch (const SolverError&) {
      largest_lag = INFINITY;  // diverged so far that Newton failed
      return;
    }
    mean_stretch /= samples;
  };
  double lag = 0.0, stretch = 0.0, linear_lag = 0.0, unused = 0.0;
  run_spin(true, lag, stretch);
  run_spin(false, linear_lag, unused);
  // Axial bar under ρA Ω² s: N(s) = ρA Ω² (L² − s²)/2, u(L) = ∫ N/(EA) ds = ρ Ω² L³/(3E).
  const double expected = rho * spin * spin * std::pow(length, 3) / (3.0 * e_modulus);
  std::printf("spin-up to %.2f rad/s (1.5 omega0): largest tip lag %.4e m; stretch %.6e m (closed form %.6e); "
              "linear FFR: largest lag %.3e m\n",
              spin, lag, stretch, expected, linear_lag);
  // Quasi-static lag under the largest Ω̇ = 2 Ω_s/T: Ω̇ ρA (11 L⁵/120)/EI = 0.0165 m; a load
  // applied over a finite time amplifies a static response less than twice.
  EXPECT_LT(lag, 2 * 0.0165);
  // The closed form leaves out the centrifugal softening of the axial mode, Ω²/ω_axial² = 2.7e-4.
  EXPECT_NEAR(stretch, expected, 1e-3 * expected);
  EXPECT_GT(linear_lag, 0.5 * length);
}

// Catches: the generator script and the library disagreeing on a beam's rigid inertia.
TEST(FlexibleDriven, GeneratedRigidRobotIsTheRigidEquivalent) {
  const Model from_file = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/rrru_3_rigid.yaml");
  const Model equivalent = rigid_equivalent(robot(1.0));
  ASSERT_EQ(from_file.num_bodies(), equivalent.num_bodies());
  for (int i = 0; i < from_file.num_bodies(); ++i) {
    const Body& a = from_file.bodies[i];
    const Body& b = equivalent.bodies[i];
    EXPECT_NEAR(a.mass, b.mass, 1e-12) << a.name;
    EXPECT_LT((a.com - b.com).norm(), 1e-12) << a.name;
    EXPECT_LT((a.inertia - b.inertia).norm(), 1e-12) << a.name;
  }
  // The flexible robot's mass matrix at e = 0 has the rigid one's joint block.
  const Model flexible = robot(1.0);
  const FlexibleSystem system = make_flexible_system(flexible);
  FlexibleSystemData data(flexible, system);
  const VecX q = VecX::Zero(flexible.nq);
  flexible_kinematics(flexible, system, data, q);
  flexible_mass_matrix(flexible, system, data, q);
  const FlexibleSystem rigid_system = make_flexible_system(equivalent);
  FlexibleSystemData rigid_data(equivalent, rigid_system);
  flexible_kinematics(equivalent, rigid_system, rigid_data, q.head(equivalent.nq));
  flexible_mass_matrix(equivalent, rigid_system, rigid_data, q.head(equivalent.nq));
  EXPECT_LT((data.mass_matrix.topLeftCorner(11, 11) - rigid_data.mass_matrix).cwiseAbs().maxCoeff(), 1e-13);
}

// Catches: an allocation per step in the prescribed path (the selector rows, μ).
TEST(FlexibleDriven, PrescribedStepAllocatesNothing) {
  const Model model = robot(1.0);
  NewmarkOptions options;
  options.prescribed = actuated_velocities(model);
  Driven run(model, options);
  VecX amplitude(3);
  amplitude << 0.03, -0.02, 0.025;
  PrescribedMotion motion;
  smooth_motion(amplitude, 8.0, 0.0, motion);
  run.start(motion, options.prescribed);
  const VecX effort = VecX::Zero(model.nv);
  smooth_motion(amplitude, 8.0, 1e-3, motion);
  run.newmark.step(run.data, run.state, 1e-3, effort, &motion);  // the first step may size things
  smooth_motion(amplitude, 8.0, 2e-3, motion);
  const long seen = allocations_during([&] { run.newmark.step(run.data, run.state, 1e-3, effort, &motion); });
  EXPECT_LE(seen, 0);
}

}  // namespace
}  // namespace mechdyn
