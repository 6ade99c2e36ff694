// Cost of the flexible system level (flexible/flexible_system.hpp, newmark.hpp): one
// Newmark step (average acceleration, 1 ms) of the flexible arm (examples/models/
// flexible_arm.yaml) with 1 and 4 elements and of a crank–beam–rocker closed chain with a
// cut joint on the beam; and one evaluation (kinematics, M, h) against the rigid model's
// crba + rnea (the beam replaced by a rigid body). Per step counters: Newton iterations.
// "ms per simulated second" = time per step × 1000 (1 ms steps). Ratios within one run
// only (the machine is shared: docs/benchmarks.md).
// The 3-RRRU robot (examples/models/rrru_3_flexible.yaml, issue 11 §5): a whole 5 s run at
// 1 ms, position-driven along the rigid inverse kinematics of the circle of eq. (71)
// (computed once in the set-up from the rigid robot, parallel/prescribed_motion_kinematics),
// with 1 and 4 elements per flexible link and the rigid robot (rigid_equivalent) through the
// same integrator; counter `realtime_factor` = simulated seconds per second of CPU time.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/flexible/assembly.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/flexible/newmark.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/prescribed_motion_kinematics.hpp"

namespace {

using namespace mechdyn;

std::string arm(int elements) {
  return "mechdyn: 2\nname: arm\ngravity: [0, 0, -9.81]\nbodies:\n"
         "  - name: link1\n    parent: ground\n    joint: {type: revolute, axis: [0, 1, 0]}\n"
         "    mass: 2.0\n    com: [0.2, 0, 0]\n    inertia: {diag: [1.0e-4, 0.02672, 0.02672]}\n"
         "  - name: link2\n    parent: link1\n    joint: {type: revolute, axis: [0, 1, 0], origin: [0.4, 0, 0]}\n"
         "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: " +
         std::to_string(elements) +
         ",\n               section: {circle: 0.01}, material: {youngs_modulus: 71.7e9, density: 2700, "
         "poisson_ratio: 0.3}}\n"
         "    mass: 0.2\n    com: [0, 0, 0]\n    inertia: {diag: [1.0e-5, 1.0e-5, 1.0e-5]}\n";
}

const char* kChain =
    "mechdyn: 2\nname: chain\ngravity: [0, -9.81, 0]\nbodies:\n"
    "  - name: crank\n    parent: ground\n    joint: {type: revolute, axis: [0, 0, 1]}\n"
    "    mass: 1.0\n    com: [0.1, 0, 0]\n    inertia: {diag: [1.0e-4, 3.0e-3, 3.0e-3]}\n"
    "  - name: beam\n    parent: crank\n    joint: {type: revolute, axis: [0, 0, 1], origin: [0.2, 0, 0]}\n"
    "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.0, elements: 4,\n"
    "               section: {circle: 0.01}, material: {youngs_modulus: 7e10, density: 2700, poisson_ratio: 0.3}}\n"
    "  - name: rocker\n    parent: ground\n    joint: {type: revolute, axis: [0, 0, 1], origin: [1.2, -0.5, 0]}\n"
    "    mass: 0.5\n    com: [0, 0.25, 0]\n    inertia: {diag: [1.0e-2, 1.0e-4, 1.0e-2]}\n"
    "loops:\n  - {name: cut, type: spherical, a: {body: beam, point: [1, 0, 0]}, b: {body: rocker, point: [0, 0.5, 0]}}\n";

void newmark_step(benchmark::State& state, const std::string& text, double start_angle) {
  const Model model = parse_model_string(text, "bench");
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  FlexibleNewmark newmark(model, system);
  NewmarkState s;
  s.q = model.neutral_configuration();
  s.q[0] = start_angle;  // the chain starts assembled at q = 0 and swings under gravity
  s.v = VecX::Zero(model.nv);
  const VecX effort = VecX::Zero(model.nv);
  newmark.initialize(data, s, effort);
  long iterations = 0, steps = 0;
  for (auto _ : state) {
    newmark.step(data, s, 1e-3, effort);
    iterations += s.iterations;
    ++steps;
    if (steps % 300 == 0) {  // restart the swing (0.3 s) so that the state stays representative
      s.q = model.neutral_configuration();
      s.q[0] = start_angle;
      s.v.setZero();
      newmark.initialize(data, s, effort);
    }
  }
  state.counters["newton_iterations"] = static_cast<double>(iterations) / static_cast<double>(steps);
  state.counters["nv"] = model.nv;
}

void flexible_evaluation(benchmark::State& state) {
  const Model model = parse_model_string(arm(static_cast<int>(state.range(0))), "bench");
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const VecX q = VecX::Constant(model.nq, 0.01), v = VecX::Constant(model.nv, 0.1), none;
  for (auto _ : state) {
    flexible_kinematics(model, system, data, q, v);
    flexible_mass_matrix(model, system, data, q);
    flexible_bias_force(model, system, data, q, v, none);
    benchmark::DoNotOptimize(data.bias_force.data());
  }
}

void rigid_evaluation(benchmark::State& state) {
  Model model = parse_model_string(arm(1), "bench");
  Body& beam = model.bodies[1];
  beam.flexible.reset();
  beam.mass = 0.2 + 2700 * 3.14159e-4 * 0.8;
  beam.com = Eigen::Vector3d(0.35, 0, 0);
  beam.inertia = Eigen::Vector3d(1e-5, 0.04, 0.04).asDiagonal();
  finalize_model(model, "bench");
  Data data(model);
  const VecX q = VecX::Constant(model.nq, 0.01), v = VecX::Constant(model.nv, 0.1), a = VecX::Zero(model.nv);
  for (auto _ : state) {
    crba(model, data, q);
    rnea(model, data, q, v, a);
    benchmark::DoNotOptimize(data.tau.data());
  }
}

// The 3-RRRU robot with `elements` per flexible link (0: its rigid equivalent).
Model rrru(int elements) {
  Model model = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/rrru_3_flexible.yaml");
  if (elements == 0) return rigid_equivalent(model);
  for (Body& body : model.bodies)
    if (body.flexible) body.flexible->elements = elements;
  finalize_model(model, "bench");
  return model;
}

// q_a, q̇_a, q̈_a of the three actuators along the circle, every 1 ms for 5 s: the rigid
// robot's inverse kinematics (as `mechdyn invdyn --motion-expr` computes it).
const std::vector<PrescribedMotion>& circle_motion() {
  static const std::vector<PrescribedMotion> motion = [] {
    const Model rigid = rrru(0);
    Data data(rigid);
    const int platform = *rigid.body_index("platform");
    PrescribedMotionWorkspace work(rigid, platform);
    VecX q = VecX::Zero(rigid.nq), v = VecX::Zero(rigid.nv), a = VecX::Zero(rigid.nv);
    const std::vector<int> actuated = actuated_velocities(rigid);
    std::vector<PrescribedMotion> out;
    for (int k = 0; k <= 5000; ++k) {
      const double t = 1e-3 * k, w = 2.0;  // eq. (71); the platform frame origin is 0.1 m from the centre
      BodyMotionSample sample;
      sample.time = t;
      sample.position = Vec3(0.1 * std::cos(w * t) + 0.1, 0.1 * std::sin(w * t), -0.7);
      sample.velocity = Vec3(-0.1 * w * std::sin(w * t), 0.1 * w * std::cos(w * t), 0.0);
      sample.acceleration = Vec3(-0.1 * w * w * std::cos(w * t), -0.1 * w * w * std::sin(w * t), 0.0);
      solve_body_motion(rigid, data, work, sample, q, v, a);
      PrescribedMotion m;
      m.position = m.velocity = m.acceleration = VecX::Zero(3);
      for (int p = 0; p < 3; ++p) m.position[p] = q[actuated[p]], m.velocity[p] = v[actuated[p]],
                                  m.acceleration[p] = a[actuated[p]];
      out.push_back(m);
    }
    return out;
  }();
  return motion;
}

void rrru_circle_run(benchmark::State& state) {
  const Model model = rrru(static_cast<int>(state.range(0)));
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  NewmarkOptions options;
  options.prescribed = actuated_velocities(model);
  FlexibleNewmark newmark(model, system, options);
  const std::vector<PrescribedMotion>& motion = circle_motion();
  const VecX effort = VecX::Zero(model.nv);
  long iterations = 0, steps = 0, runs = 0;
  for (auto _ : state) {
    NewmarkState s;
    s.q = VecX::Zero(model.nq);
    s.v = VecX::Zero(model.nv);
    for (int p = 0; p < 3; ++p) s.v[options.prescribed[p]] = motion[0].velocity[p];
    assemble_flexible_state(model, system, data, s.q, s.v, options.prescribed);  // the passive velocities
    newmark.initialize(data, s, effort, &motion[0]);
    for (std::size_t k = 1; k < motion.size(); ++k) {
      newmark.step(data, s, 1e-3, effort, &motion[k]);
      iterations += s.iterations;
      ++steps;
    }
    benchmark::DoNotOptimize(s.q.data());
    ++runs;
  }
  state.counters["nv"] = model.nv;
  state.counters["newton_iterations"] = static_cast<double>(iterations) / static_cast<double>(steps);
  state.counters["realtime_factor"] = benchmark::Counter(5.0 * static_cast<double>(runs), benchmark::Counter::kIsRate);
}

BENCHMARK(rrru_circle_run)->Arg(4)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(newmark_step, arm_1_element, arm(1), 0.3);
BENCHMARK_CAPTURE(newmark_step, arm_4_elements, arm(4), 0.3);
BENCHMARK_CAPTURE(newmark_step, chain_4_elements, std::string(kChain), 0.0);
BENCHMARK(flexible_evaluation)->Arg(1)->Arg(4);
BENCHMARK(rigid_evaluation);

}  // namespace

BENCHMARK_MAIN();
