// Inverse kinematics along a prescribed body motion (the general method). See the header.
#include "mechdyn/parallel/prescribed_motion_kinematics.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

// Orientation error e = ½ Σ (R eᵢ) × (R* eᵢ) and its rate matrix A (ė = A ω).
void orientation_error(const Mat3& rotation, const Mat3& target, Vec3& error, Mat3& rate) {
  error.setZero();
  rate.setZero();
  for (int c = 0; c < 3; ++c) {
    const Vec3 a = rotation.col(c), b = target.col(c);
    error += 0.5 * a.cross(b);
    rate += 0.5 * skew(b) * skew(a);
  }
}

// Position rows of the pose residual at Data's kinematics: Φ, p − p*, e.
double pose_residual(const Model& model, Data& data, PrescribedMotionWorkspace& work, const Vec3& position,
                     const Mat3& rotation, Mat3& rate) {
  const Eigen::Index rows = model.num_loop_rows;
  work.residual.head(rows) = data.loop_residual;
  work.residual.segment<3>(rows) = data.position[work.body] - position;
  Vec3 error;
  orientation_error(data.rotation[work.body], rotation, error, rate);
  work.residual.segment<3>(rows + 3) = error;
  return work.residual.lpNorm<Eigen::Infinity>();
}

// K = [J; selected rows of the body Jacobian] at Data's kinematics; rows of components that
// are not prescribed are zero. `angular_rows` multiplies the ω rows (the Newton K uses A).
void fill_system(const Model& model, Data& data, PrescribedMotionWorkspace& work, const std::array<bool, 6>& use,
                 const Mat3* angular_rows) {
  const Eigen::Index rows = model.num_loop_rows;
  work.system.topRows(rows) = data.loop_jacobian;
  body_jacobian(model, data, work.body, work.body_jacobian);  // [ω; ṗ] rows
  if (angular_rows != nullptr) {
    work.system.middleRows<3>(rows + 3).noalias() = (*angular_rows) * work.body_jacobian.topRows<3>();
    work.system.middleRows<3>(rows) = work.body_jacobian.bottomRows<3>();
    return;
  }
  // Row order of the body part: ω_x, ω_y, ω_z, ṗ_x, ṗ_y, ṗ_z (TwistComponent order).
  for (int c = 0; c < 6; ++c) {
    if (use[static_cast<std::size_t>(c)]) work.system.row(rows + c) = work.body_jacobian.row(c);
    else work.system.row(rows + c).setZero();
  }
}

void check_rank(const Model& model, PrescribedMotionWorkspace& work, const PrescribedMotionOptions& options) {
  const Eigen::Index rank = work.svd.rank(options.rank_tolerance);
  if (rank < model.nv)
    throw InvalidArgument("singular configuration: the motion of body '" + model.bodies[work.body].name +
                          "' and the loop closure determine only " + std::to_string(rank) + " of the " +
                          std::to_string(model.nv) + " joint velocities");
}

// x = K⁺ rhs with the compatibility check (`what`: "velocities" or "accelerations").
void solve_checked(PrescribedMotionWorkspace& work, Eigen::Ref<VecX> x, const PrescribedMotionOptions& options,
                   const char* what) {
  work.svd.solve_min_norm(work.right_hand_side, x, options.rank_tolerance);
  const double scale = 1.0 + work.right_hand_side.norm();
  work.right_hand_side.noalias() -= work.system * x;
  const double misfit = work.right_hand_side.norm();
  if (!(misfit <= options.compatibility_tolerance * scale))
    throw InvalidArgument(std::string("the prescribed ") + what + " violate the loop closure (residual " +
                          number(misfit) + ")");
}

void twist_velocities(const Model& model, Data& data, PrescribedMotionWorkspace& work,
                      const TwistPrescription& prescription, double t, const Eigen::Ref<const VecX>& q,
                      Eigen::Ref<VecX> v, const PrescribedMotionOptions& options) {
  loop_closure(model, data, q);
  fill_system(model, data, work, prescription.components, nullptr);
  work.svd.compute(work.system);
  check_rank(model, work, options);
  prescription.evaluate(t, work.values, work.rates);
  const Eigen::Index rows = model.num_loop_rows;
  work.right_hand_side.setZero();
  for (int c = 0; c < 6; ++c)
    if (prescription.components[static_cast<std::size_t>(c)]) work.right_hand_side[rows + c] = work.values[c];
  solve_checked(work, v, options, "velocities");
}

// Accelerations at (q, v) given the system factorised at q; `rates` are the prescribed
// (ω̇; p̈) and `use` the prescribed components.
void accelerations(const Model& model, Data& data, PrescribedMotionWorkspace& work, const std::array<bool, 6>& use,
                   const Vec6& rates, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                   Eigen::Ref<VecX> a, const PrescribedMotionOptions& options) {
  loop_bias_acceleration(model, data, q, v);  // J̇v; Data's kinematics at (q, v, 0)
  const int body = work.body;
  const Vec3 omega = data.velocity[body].head<3>();
  const Vec3 alpha = data.acceleration[body].head<3>();
  const Vec3& origin = data.position[body];
  const Vec3 origin_velocity = data.velocity[body].tail<3>() + omega.cross(origin);
  const Vec3 origin_acceleration = data.acceleration[body].tail<3>() + alpha.cross(origin) + omega.cross(origin_velocity);
  const Eigen::Index rows = model.num_loop_rows;
  work.right_hand_side.head(rows) = -data.loop_bias;
  for (int c = 0; c < 6; ++c) {
    const double bias = c < 3 ? alpha[c] : origin_acceleration[c - 3];
    work.right_hand_side[rows + c] = use[static_cast<std::size_t>(c)] ? rates[c] - bias : 0.0;
  }
  solve_checked(work, a, options, "accelerations");
}

}  // namespace

PrescribedMotionWorkspace::PrescribedMotionWorkspace(const Model& model, int body_index) : body(body_index) {
  const Eigen::Index rows = model.num_loop_rows + 6;
  system = MatX::Zero(rows, model.nv);
  residual = VecX::Zero(rows);
  right_hand_side = VecX::Zero(rows);
  step = VecX::Zero(model.nv);
  trial = VecX::Zero(model.nq);
  body_jacobian = MatX::Zero(6, model.nv);
  svd.resize(rows, model.nv);
  stage_q = VecX::Zero(model.nq);
  stage_v = VecX::Zero(model.nv);
  rate_sum = VecX::Zero(model.nq);
  q_rate = VecX::Zero(model.nq);
}

void solve_body_pose(const Model& model, Data& data, PrescribedMotionWorkspace& work, const Vec3& position,
                     const Mat3& rotation, Eigen::Ref<VecX> q, const PrescribedMotionOptions& options) {
  static const std::array<bool, 6> all{true, true, true, true, true, true};
  Mat3 rate;
  loop_closure(model, data, q);
  double norm = pose_residual(model, data, work, position, rotation, rate);
  work.iterations = 0;
  while (norm > options.tolerance) {
    if (work.iterations >= options.max_iterations)
      throw SolverError("Newton's method on the closure and the pose of body '" + model.bodies[work.body].name +
                        "' did not converge in " + std::to_string(options.max_iterations) + " iterations (residual " +
                        number(norm) + ")");
    ++work.iterations;
    fill_system(model, data, work, all, &rate);  // Newton K: ė = A ω
    work.svd.compute(work.system);
    work.svd.solve_min_norm(work.residual, work.step, options.rank_tolerance);
    work.step = -work.step;
    const double merit = work.residual.squaredNorm();
    double length = 1.0;
    bool accepted = false;
    while (length > 1e-10) {
      work.trial = q;
      apply_velocity_increment(model, data, work.trial, work.step);
      loop_closure(model, data, work.trial);
      const double trial_norm = pose_residual(model, data, work, position, rotation, rate);
      if (work.residual.squaredNorm() <= (1.0 - 1e-4 * length) * merit) {
        norm = trial_norm;
        accepted = true;
        break;
      }
      length *= 0.5;
      work.step *= 0.5;
      loop_closure(model, data, q);  // parent rotations of q for the next trial
    }
    if (!accepted) {
      loop_closure(model, data, q);
      pose_residual(model, data, work, position, rotation, rate);
      throw InvalidArgument("the prescribed pose of body '" + model.bodies[work.body].name +
                            "' violates the loop closure: Newton stalled at residual " + number(norm) +
                            " (no configuration of the mechanism has this pose nearby)");
    }
    q = work.trial;
  }
  if (!std::isfinite(norm)) throw SolverError("the inverse kinematics produced a non-finite configuration");
  work.closure_residual = data.loop_residual.size() ? data.loop_residual.lpNorm<Eigen::Infinity>() : 0.0;
}

void solve_body_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work, const BodyMotionSample& sample,
                       Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a,
                       const PrescribedMotionOptions& options) {
  static const std::array<bool, 6> all{true, true, true, true, true, true};
  solve_body_pose(model, data, work, sample.position, sample.orientation.toRotationMatrix(), q, options);
  // Data's kinematics are at q (the last evaluation was at the accepted configuration).
  fill_system(model, data, work, all, nullptr);
  work.svd.compute(work.system);
  check_rank(model, work, options);
  const Eigen::Index rows = model.num_loop_rows;
  work.right_hand_side.head(rows).setZero();
  work.right_hand_side.segment<3>(rows) = sample.angular_velocity;
  work.right_hand_side.segment<3>(rows + 3) = sample.velocity;
  solve_checked(work, v, options, "velocities");
  Vec6 rates;
  rates << sample.angular_acceleration, sample.acceleration;
  accelerations(model, data, work, all, rates, q, v, a, options);
}

void solve_twist_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work,
                        const TwistPrescription& prescription, double t, const Eigen::Ref<const VecX>& q,
                        Eigen::Ref<VecX> v, Eigen::Ref<VecX> a, const PrescribedMotionOptions& options) {
  twist_velocities(model, data, work, prescription, t, q, v, options);
  work.closure_residual = data.loop_residual.size() ? data.loop_residual.lpNorm<Eigen::Infinity>() : 0.0;
  accelerations(model, data, work, prescription.components, work.rates, q, v, a, options);
}

void advance_twist_motion(const Model& model, Data& data, PrescribedMotionWorkspace& work,
                          const TwistPrescription& prescription, double t, double h, Eigen::Ref<VecX> q,
                          const PrescribedMotionOptions& options) {
  // q̇ = rate(q, v(q, t)) by the joint model (quaternion rates), Data's kinematics at q.
  // Stage quaternions are normalised: q + c h q̇ has norm √(1 + c²h²|q̇|²) and represents
  // the same rotation as its normalisation (which the rotation-matrix formula assumes).
  auto stage = [&](VecX& at, double time) {
    for (const Joint& joint : model.joints) joint_normalize(joint, at.data() + joint.q_index);
    twist_velocities(model, data, work, prescription, time, at, work.stage_v, options);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Joint& joint = model.joints[l];
      const int parent = model.bodies[l].parent;
      const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[parent];
      joint_configuration_rate(joint, at.data() + joint.q_index, work.stage_v.data() + joint.v_index, parent_rotation,
                               work.q_rate.data() + joint.q_index);
    }
  };
  work.trial = q;
  stage(work.trial, t);  // k1
  work.rate_sum = work.q_rate;
  work.stage_q = work.trial + 0.5 * h * work.q_rate;
  stage(work.stage_q, t + 0.5 * h);  // k2
  work.rate_sum += 2.0 * work.q_rate;
  work.stage_q = work.trial + 0.5 * h * work.q_rate;
  stage(work.stage_q, t + 0.5 * h);  // k3
  work.rate_sum += 2.0 * work.q_rate;
  work.stage_q = work.trial + h * work.q_rate;
  stage(work.stage_q, t + h);  // k4
  work.rate_sum += work.q_rate;
  q = work.trial + (h / 6.0) * work.rate_sum;
  for (const Joint& joint : model.joints) joint_normalize(joint, q.data() + joint.q_index);
  ProjectionOptions projection;
  projection.tolerance = options.tolerance;
  project_positions(model, data, q, projection);
}

}  // namespace mechdyn
