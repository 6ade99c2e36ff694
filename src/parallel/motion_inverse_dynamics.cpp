// Inverse kinematics and dynamics along a prescribed body motion, three methods. See the header.
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/constraints/loop_residual.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/parallel/limb_positions.hpp"

namespace mechdyn {

namespace {

std::string time_prefix(double t) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "t = %.10g s: ", t);
  return buffer;
}

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

// Per-body external wrenches [m; f] about the world origin from Data's poses.
void external_wrenches(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work) {
  if (problem.wrenches.empty()) return;  // work.external stays zero from construction
  for (int b = 0; b < model.num_bodies(); ++b) work.external[b].setZero();
  for (const ExternalWrench& w : problem.wrenches) {
    const Vec3 at = work.data.position[w.body] + work.data.rotation[w.body] * w.point;
    work.external[w.body].head<3>() += w.moment + at.cross(w.force);
    work.external[w.body].tail<3>() += w.force;
  }
}

// Efforts, wrenches and internal forces of the method into the results; power balance
// from the method's body loads F_b (computed here when the method has none).
void finish(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
            const VecX& effort, const AlignedVector<Vec6>& joint_wrench, Eigen::Index internal_dimension,
            const MinimumEffortSolver& solver, const AlignedVector<Vec6>* loads) {
  if (&effort != &work.effort) work.effort = effort;
  if (&joint_wrench != &work.joint_wrench)
    for (std::size_t j = 0; j < joint_wrench.size(); ++j) work.joint_wrench[j] = joint_wrench[j];
  work.internal_force_dimension = internal_dimension;
  if (internal_dimension > 0) {
    work.internal_force_basis.setZero();
    work.internal_force_basis.leftCols(internal_dimension) = solver.internal_force_basis();
  }
  // Σ τ v − Σ V ∘ F (see the header).
  double power = 0.0, scale = 0.0;
  for (int k : problem.actuated_dofs) {
    power += effort[k] * work.v[k];
    scale += std::abs(effort[k] * work.v[k]);
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    double p = 0.0;
    if (loads != nullptr) {
      p = work.body_velocity[b].dot((*loads)[b]);
    } else {
      const Body& body = model.bodies[b];
      p = work.body_velocity[b].dot(body_load(body.mass, work.data.com_position[b], work.data.inertia_world[b],
                                              model.gravity, work.body_velocity[b], work.body_acceleration[b],
                                              work.external[b]));
    }
    power -= p;
    scale += std::abs(p);
  }
  work.power_residual = power;
  work.power_scale = scale;
}

// ‖Φ(q)‖∞ from Data's position kinematics at q (every caller has them).
void check_closure(const Model& model, MotionInverseDynamicsData& work, const MotionInverseDynamicsOptions& options) {
  work.closure_residual = 0.0;
  if (!options.closure_residual || model.num_loop_rows == 0) return;
  work.closure_residual = loop_residual_norm(model, work.data);
  if (!(work.closure_residual <= options.closure_tolerance))
    throw InvalidArgument("the motion violates the loop closure (‖Φ‖∞ = " + number(work.closure_residual) + ")");
}

// The dynamics part of a sample whose q, v, a (and, for MomentumScrew, the limb
// workspace) are set; Data's position kinematics at q.
void dynamics(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
              const MotionInverseDynamicsOptions& options) {
  switch (options.method) {
    case InverseDynamicsMethod::MomentumScrew: {
      external_wrenches(model, problem, work);
      momentum_screw_inverse_dynamics(model, *problem.parallel, work.data, *work.limbs, work.external,
                                      *work.momentum_screw, options.rank_tolerance);
      // The results change places with the method's workspace instead of being copied: every
      // entry of these is written again by the next sample (every body belongs to a limb or
      // to the platform group, every joint to a limb).
      std::swap(work.body_velocity, work.limbs->body_velocity);
      std::swap(work.body_acceleration, work.limbs->body_acceleration);
      std::swap(work.joint_wrench, work.momentum_screw->joint_wrench);
      std::swap(work.effort, work.momentum_screw->effort);  // both zero but at the actuated coordinates
      finish(model, problem, work, work.effort, work.joint_wrench,
             work.momentum_screw->internal_force_dimension, work.momentum_screw->solver, &work.momentum_screw->body_load);
      return;
    }
    case InverseDynamicsMethod::NewtonEuler: {
      forward_kinematics(model, work.data, work.q, work.v, work.a);
      external_wrenches(model, problem, work);
      newton_euler_inverse_dynamics(model, work.data, work.external, work.newton_euler, options.rank_tolerance);
      for (int b = 0; b < model.num_bodies(); ++b) {
        work.body_velocity[b] = work.data.velocity[b];
        work.body_acceleration[b] = work.data.acceleration[b];
      }
      finish(model, problem, work, work.newton_euler.effort, work.newton_euler.joint_wrench,
             work.newton_euler.solver.internal_force_dimension(), work.newton_euler.solver, &work.newton_euler.body_load);
      return;
    }
    case InverseDynamicsMethod::ClosedChain: {
      external_wrenches(model, problem, work);
      for (int b = 0; b < model.num_bodies(); ++b) work.data.external_wrench[b] = work.external[b];
      ClosedChainOptions cc;
      cc.assembly.tolerance = options.kinematics.tolerance;
      cc.rank_tolerance = options.rank_tolerance;
      closed_chain_inverse_dynamics(model, work.data, work.q, work.v, work.a, cc);
      // Data's kinematics are at (q, v, a) (the joint reactions ran them last).
      const int n = model.num_bodies();
      AlignedVector<Vec6>& wrench = work.newton_euler.joint_wrench;  // scratch of the right size
      for (int b = 0; b < n; ++b) {
        wrench[b] << work.data.reaction_torque[b] + work.data.position[b].cross(work.data.reaction_force[b]),
            work.data.reaction_force[b];
        work.body_velocity[b] = work.data.velocity[b];
        work.body_acceleration[b] = work.data.acceleration[b];
      }
      for (std::size_t i = 0; i < model.loops.size(); ++i)
        wrench[n + i] << work.data.cut_torque[i] + work.data.cut_point[i].cross(work.data.cut_force[i]),
            work.data.cut_force[i];
      finish(model, problem, work, work.data.tau, wrench, work.data.effort_solver.internal_force_dimension(),
             work.data.effort_solver, nullptr);
      return;
    }
  }
}

template <typename Body>
void with_time(double t, Body&& body) {
  try {
    body();
  } catch (const SolverError& e) {
    throw SolverError(time_prefix(t) + e.what());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(time_prefix(t) + e.what());
  }
}

}  // namespace

const char* inverse_dynamics_method_name(InverseDynamicsMethod method) {
  switch (method) {
    case InverseDynamicsMethod::MomentumScrew: return "momentum-screw";
    case InverseDynamicsMethod::NewtonEuler: return "newton-euler";
    case InverseDynamicsMethod::ClosedChain: return "closed-chain";
  }
  return "?";
}

std::optional<InverseDynamicsMethod> inverse_dynamics_method_from_name(const std::string& name) {
  for (InverseDynamicsMethod m : {InverseDynamicsMethod::MomentumScrew, InverseDynamicsMethod::NewtonEuler,
                                  InverseDynamicsMethod::ClosedChain})
    if (name == inverse_dynamics_method_name(m)) return m;
  return std::nullopt;
}

MotionInverseDynamicsModel make_motion_inverse_dynamics(const Model& model, int body,
                                                        std::vector<ExternalWrench> wrenches) {
  MotionInverseDynamicsModel problem;
  if (body < 0 || body >= model.num_bodies())
    throw ModelError("model '" + model.name + "': the prescribed body is not in the model");
  if (model.loops.empty())
    throw ModelError("model '" + model.name + "' has no loops: inverse dynamics along a body motion needs a closed chain");
  problem.body = body;
  for (const ExternalWrench& w : wrenches) {
    if (w.body < 0 || w.body >= model.num_bodies())
      throw ModelError("model '" + model.name + "': an external wrench acts on a body that is not in the model");
    if (!w.force.allFinite() || !w.moment.allFinite() || !w.point.allFinite())
      throw InvalidArgument("the external wrench on body '" + model.bodies[w.body].name + "' is not finite");
  }
  problem.wrenches = std::move(wrenches);
  for (const Joint& joint : model.joints)
    if (joint.actuated)
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) problem.actuated_dofs.push_back(k);
  if (problem.actuated_dofs.empty())
    throw ModelError("model '" + model.name + "' has no actuated joint (actuated: true): no effort to compute");
  try {
    problem.parallel = make_parallel_model(model, body);
  } catch (const ModelError& e) {
    problem.parallel_problem = e.what();
  }
  return problem;
}

MotionInverseDynamicsData::MotionInverseDynamicsData(const Model& model, const MotionInverseDynamicsModel& problem)
    : data(model), kinematics(model, problem.body), newton_euler(model) {
  if (problem.parallel) {
    limbs.emplace(model, *problem.parallel);
    momentum_screw.emplace(model, *problem.parallel);
  }
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  external.assign(n, Vec6::Zero());
  body_velocity.assign(n, Vec6::Zero());
  body_acceleration.assign(n, Vec6::Zero());
  q = model.neutral_configuration();
  v = VecX::Zero(model.nv);
  a = VecX::Zero(model.nv);
  effort = VecX::Zero(model.nv);
  joint_wrench.assign(n + model.loops.size(), Vec6::Zero());
  const Eigen::Index na = static_cast<Eigen::Index>(problem.actuated_dofs.size());
  internal_force_basis = MatX::Zero(na, na);
}

void motion_inverse_dynamics(const Model& model, const MotionInverseDynamicsModel& problem,
                             MotionInverseDynamicsData& work, const BodyMotionSample& sample,
                             const MotionInverseDynamicsOptions& options) {
  with_time(sample.time, [&] {
    const bool screw = options.method == InverseDynamicsMethod::MomentumScrew;
    if (screw && !problem.parallel)
      throw ModelError("the momentum-screw method needs a parallel manipulator: " + problem.parallel_problem);
    const Mat3 rotation = sample.orientation.toRotationMatrix();
    if (screw && options.closed_form_positions && problem.parallel->closed_form_positions) {
      // closed form; writes Data's position kinematics too (no forward_kinematics needed)
      limb_positions(model, *problem.parallel, sample.position, rotation, work.q, work.data, *work.limbs);
    } else {
      if (work.has_previous) {  // predictor q ⊕ (h v + ½ h² a): Newton then needs one step
        const double h = sample.time - work.previous_time;
        forward_kinematics(model, work.data, work.q);
        work.kinematics.step = h * work.v + 0.5 * h * h * work.a;
        apply_velocity_increment(model, work.data, work.q, work.kinematics.step);
      }
      if (screw) {
        solve_body_pose(model, work.data, work.kinematics, sample.position, rotation, work.q, options.kinematics);
      } else {
        solve_body_motion(model, work.data, work.kinematics, sample, work.q, work.v, work.a, options.kinematics);
      }
    }
    if (screw) {
      Vec6 twist, rate;
      platform_screws(sample.position, sample.velocity, sample.acceleration, sample.angular_velocity,
                      sample.angular_acceleration, twist, rate);
      // Data's position kinematics are at q (limb_positions, or Newton's last evaluation)
      work.limbs->closed_form_legs = options.closed_form_legs;
      limb_screw_kinematics(model, *problem.parallel, work.data, *work.limbs, twist, rate, work.v, work.a);
    }
    check_closure(model, work, options);
    dynamics(model, problem, work, options);
    work.has_previous = true;
    work.previous_time = sample.time;
  });
}

void motion_inverse_dynamics(const Model& model, const MotionInverseDynamicsModel& problem,
                             MotionInverseDynamicsData& work, const TwistPrescription& prescription, double t,
                             const MotionInverseDynamicsOptions& options) {
  with_time(t, [&] {
    const bool screw = options.method == InverseDynamicsMethod::MomentumScrew;
    if (screw && !problem.parallel)
      throw ModelError("the momentum-screw method needs a parallel manipulator: " + problem.parallel_problem);
    solve_twist_motion(model, work.data, work.kinematics, prescription, t, work.q, work.v, work.a, options.kinematics);
    if (screw) {  // the platform's twist and its rate, then the limbs in screw form
      forward_kinematics(model, work.data, work.q, work.v, work.a);
      const Vec6 twist = work.data.velocity[problem.body], rate = work.data.acceleration[problem.body];
      work.limbs->closed_form_legs = options.closed_form_legs;
      limb_screw_kinematics(model, *problem.parallel, work.data, *work.limbs, twist, rate, work.v, work.a);
    }
    check_closure(model, work, options);
    dynamics(model, problem, work, options);
    work.has_previous = true;
    work.previous_time = t;
  });
}

void advance_twist(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
                   const TwistPrescription& prescription, double t, double h,
                   const MotionInverseDynamicsOptions& options) {
  (void)problem;
  with_time(t + h, [&] {
    advance_twist_motion(model, work.data, work.kinematics, prescription, t, h, work.q, options.kinematics);
  });
}

void assemble_for_twist(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
                        const MotionInverseDynamicsOptions& options) {
  forward_kinematics(model, work.data, work.q);
  const Vec3 position = work.data.position[problem.body];
  const Mat3 rotation = work.data.rotation[problem.body];
  with_time(0.0, [&] {
    solve_body_pose(model, work.data, work.kinematics, position, rotation, work.q, options.kinematics);
  });
}

}  // namespace mechdyn
