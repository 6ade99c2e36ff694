// The generalized force of force elements (format 3). See the header for the laws.
#include "mechdyn/dynamics/force_elements.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>
#include <cstdio>

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// World position of a body point and its velocity, from the velocity stage.
Vec3 world_point(const Data& data, const BodyPoint& at) {
  if (at.body == kGround) return at.point;
  const auto b = static_cast<std::size_t>(at.body);
  return data.position[b] + data.rotation[b] * at.point;
}

Vec3 point_velocity(const Data& data, int body, const Vec3& p) {
  if (body == kGround) return Vec3::Zero();
  const Vec6& V = data.velocity[static_cast<std::size_t>(body)];
  return V.tail<3>() + V.head<3>().cross(p);
}

Vec3 body_omega(const Data& data, int body) {
  return body == kGround ? Vec3::Zero() : Vec3(data.velocity[static_cast<std::size_t>(body)].head<3>());
}

Mat3 body_rotation(const Data& data, int body) {
  return body == kGround ? Mat3::Identity() : data.rotation[static_cast<std::size_t>(body)];
}

// Spatial force of a force F through p and a moment M: [M + p × F; F].
Vec6 wrench(const Vec3& p, const Vec3& force, const Vec3& moment) { return make_vec6(moment + p.cross(force), force); }

// Q_k += s_kᵀ W for every coordinate k on the chain ground → body.
void add_chain(const Model& model, const Data& data, int body, const Vec6& W, Eigen::Ref<VecX> out) {
  for (int b = body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent) {
    const Joint& joint = model.joints[static_cast<std::size_t>(b)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) out[k] += data.motion_axis[static_cast<std::size_t>(k)].dot(W);
  }
}

// The world-frame points at q = 0 (natural frames: every body frame parallel to the world,
// its origin the sum of the joint origins; neutral coordinates zero): a bushing's d⁰.
Vec3 point_at_zero(const Model& model, const BodyPoint& at) {
  Vec3 p = at.point;
  for (int b = at.body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent)
    p += model.joints[static_cast<std::size_t>(b)].origin;
  return p;
}

// A time function's message names its position in the Data's lists ("forces[k] '…'" for
// data.element_expressions, "forces_target[k] '…'" for data.element_targets; data.cpp's
// order); name the element and its key instead: "force 'servo1' target '…' is not finite …".
std::string name_failing_element(const Model& model, const std::string& message) {
  int index = -1;
  const bool targets = message.rfind("forces_target[", 0) == 0;
  if (std::sscanf(message.c_str(), targets ? "forces_target[%d]" : "forces[%d]", &index) != 1) return message;
  const std::size_t close = message.find(']');
  const std::string rest = close == std::string::npos ? message : message.substr(close + 1);
  int position = 0;
  for (const ForceElement& e : model.forces) {
    std::vector<const char*> keys;
    if (e.type == ForceElementType::JointServo) {
      if (targets) {
        if (e.target_rate.empty()) keys.push_back("target (at t ± h, its numerical rate)");
      } else {
        keys.push_back("target");
        if (!e.target_rate.empty()) keys.push_back("target_rate");
      }
    } else if (e.type == ForceElementType::Applied && !targets) {
      keys = {"force[0]", "force[1]", "force[2]", "torque[0]", "torque[1]", "torque[2]"};
    }
    for (const char* key : keys)
      if (position++ == index) return "force '" + e.name + "' " + key + rest;
  }
  return message;
}

// log of a rotation as a rotation vector (|θ| ≤ π).
Vec3 rotation_log(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

}  // namespace

void force_elements_from_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                    const Eigen::Ref<const VecX>& v, double t) {
  data.applied_force.setZero();
  if (model.forces.empty()) return;
  check_kinematics(data, 1, "force_elements_from_kinematics");
  data.element_effort.setZero();
  for (Vec6& w : data.external_wrench) w.setZero();

  if (!std::isfinite(t)) throw InvalidArgument("force elements: the time t is not finite");
  // Servos without target_rate: the central difference of the target (header).
  const double h = 1e-6 * std::max(1.0, std::abs(t));
  try {
    if (data.element_expressions) data.element_expressions->evaluate(t, data.element_expression_values);
    if (data.element_targets) data.element_targets->evaluate(t + h, data.element_target_ahead);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(name_failing_element(model, e.what()));
  }
  int expression = 0, target = 0;  // running indices into the time functions (data.cpp's order)

  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    double value = 0.0, energy = 0.0, length = 0.0;
    Vec6 on_a = Vec6::Zero(), on_b = Vec6::Zero();
    Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();
    switch (e.type) {
      case ForceElementType::SpringDamper: {
        pa = world_point(data, e.a);
        pb = world_point(data, e.b);
        const Vec3 d = pb - pa;
        length = d.norm();
        if (length < 1e-12) {
          if (e.damping == 0.0 && e.stiffness * e.free_length == e.preload) break;  // T = k L ≈ 0: exerts nothing
          std::ostringstream message;
          message << "force '" << e.name << "': the spring-damper's points coincide (L = " << length
                  << " m < 1e-12 m), so its direction is undefined, and it exerts a force (k L0 != T0 or c > 0)";
          throw SolverError(message.str());
        }
        const Vec3 u = d / length;
        const double rate = u.dot(point_velocity(data, e.b.body, pb) - point_velocity(data, e.a.body, pa));  // L̇
        const double stretch = length - e.free_length;
        value = e.stiffness * stretch + e.damping * rate + e.preload;  // T
        energy = 0.5 * e.stiffness * stretch * stretch + e.preload * stretch;
        on_a = wrench(pa, value * u, Vec3::Zero());
        on_b = -wrench(pb, value * u, Vec3::Zero());
        break;
      }
      case ForceElementType::Bushing: {
        pa = world_point(data, e.a);
        pb = world_point(data, e.b);
        const Vec3 d = pb - pa;
        length = d.norm();
        const Mat3 Ra = body_rotation(data, e.a.body), Rb = body_rotation(data, e.b.body);
        const Vec3 omega_a = body_omega(data, e.a.body), omega_b = body_omega(data, e.b.body);
        const Vec3 d0 = point_at_zero(model, e.b) - point_at_zero(model, e.a);
        const Vec3 dt = Ra.transpose() * d - d0;                                              // δ_t
        const Vec3 dr = rotation_log(Ra.transpose() * Rb);                                     // δ_r
        const Vec3 d_rate = point_velocity(data, e.b.body, pb) - point_velocity(data, e.a.body, pa);
        const Vec3 dt_rate = Ra.transpose() * (d_rate - omega_a.cross(d));                    // δ̇_t
        const Vec3 dr_rate =
            rotation_vector_jacobian(dr).partialPivLu().solve(Ra.transpose() * (omega_b - omega_a));  // δ̇_r
        const Vec3 f_local = e.stiffness6.head<3>().cwiseProduct(dt) + e.damping6.head<3>().cwiseProduct(dt_rate);
        const Vec3 m_local = e.stiffness6.tail<3>().cwiseProduct(dr) + e.damping6.tail<3>().cwiseProduct(dr_rate);
        const Vec3 force = -Ra * f_local, moment = -Ra * m_local;  // on b
        on_b = wrench(pb, force, moment);
        on_a = -on_b;
        value = force.norm();
        energy = 0.5 * (dt.dot(e.stiffness6.head<3>().cwiseProduct(dt)) + dr.dot(e.stiffness6.tail<3>().cwiseProduct(dr)));
        break;
      }
      case ForceElementType::JointSpringDamper: {
        const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
        const double x = q[joint.q_index] - e.rest, rate = v[joint.v_index];
        value = -e.stiffness * x - e.damping * rate;
        energy = 0.5 * e.stiffness * x * x;
        data.element_effort[joint.v_index] += value;
        break;
      }
      case ForceElementType::JointStop: {
        const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
        const double x = q[joint.q_index], rate = v[joint.v_index];
        if (x < e.lower) {
          const double depth = e.lower - x;
          value = std::max(0.0, e.stiffness * depth - e.damping * rate);
          energy = 0.5 * e.stiffness * depth * depth;
        } else if (x > e.upper) {
          const double depth = x - e.upper;
          value = std::min(0.0, -e.stiffness * depth - e.damping * rate);
          energy = 0.5 * e.stiffness * depth * depth;
        }
        data.element_effort[joint.v_index] += value;
        break;
      }
      case ForceElementType::JointServo:  // after the loop: its target rate may need t − h
        expression += e.target_rate.empty() ? 1 : 2;
        break;
      case ForceElementType::Applied: {
        pa = world_point(data, e.a);
        const Vec3 force = data.element_expression_values.segment<3>(expression);
        const Vec3 moment = data.element_expression_values.segment<3>(expression + 3);
        expression += 6;
        on_a = wrench(pa, force, moment);
        value = force.norm();
        break;
      }
    }
    data.element_value[static_cast<Eigen::Index>(i)] = value;
    data.element_energy[static_cast<Eigen::Index>(i)] = energy;
    data.element_length[static_cast<Eigen::Index>(i)] = length;
    data.element_wrench_a[i] = on_a;
    data.element_wrench_b[i] = on_b;
    data.element_point_a[i] = pa;
    data.element_point_b[i] = pb;
  }

  // Servos: the numerical target rate needs the targets at t − h too (one evaluation of
  // the same parsers), then the clamped efforts.
  if (data.element_targets) {  // target_rate ≈ (target(t + h) − target(t − h)) / 2h
    try {
      data.element_targets->evaluate(t - h, data.element_target_values);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(name_failing_element(model, e.what()));
    }
    data.element_target_values = (data.element_target_ahead - data.element_target_values) / (2.0 * h);
  }
  expression = 0;
  target = 0;
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    if (e.type == ForceElementType::Applied) expression += 6;
    if (e.type != ForceElementType::JointServo) continue;
    const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
    const double goal = data.element_expression_values[expression++];
    const double goal_rate =
        e.target_rate.empty() ? data.element_target_values[target++] : data.element_expression_values[expression++];
    const double raw = e.stiffness * (goal - q[joint.q_index]) + e.damping * (goal_rate - v[joint.v_index]);
    const double effort = std::clamp(raw, -e.max_effort, e.max_effort);
    data.element_value[static_cast<Eigen::Index>(i)] = effort;
    data.element_effort[joint.v_index] += effort;
  }

  // The per-body sums E_l (read by the reactions), then Q_f = the joint efforts + Σ_l J_lᵀ E_l
  // by one backward pass over the subtree sums (O(n + elements), not O(elements · depth)):
  // Q_k = s_kᵀ Σ_{l ∈ subtree of k's body} E_l. data.cut_subtree_wrench is the scratch.
  bool any_wrench = false;
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    if (is_joint_element(e.type)) continue;
    any_wrench = true;
    if (e.a.body != kGround) data.external_wrench[static_cast<std::size_t>(e.a.body)] += data.element_wrench_a[i];
    if (e.type != ForceElementType::Applied && e.b.body != kGround)
      data.external_wrench[static_cast<std::size_t>(e.b.body)] += data.element_wrench_b[i];
  }
  data.applied_force = data.element_effort;
  if (!any_wrench) return;
  const int n = model.num_bodies();
  for (int l = 0; l < n; ++l) data.cut_subtree_wrench[static_cast<std::size_t>(l)] = data.external_wrench[static_cast<std::size_t>(l)];
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[static_cast<std::size_t>(l)].parent;
    const Vec6& w = data.cut_subtree_wrench[static_cast<std::size_t>(l)];
    const Joint& joint = model.joints[static_cast<std::size_t>(l)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      data.applied_force[k] += data.motion_axis[static_cast<std::size_t>(k)].dot(w);
    if (parent != kGround) data.cut_subtree_wrench[static_cast<std::size_t>(parent)] += w;
  }
}

void force_elements(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                    double t) {
  check_data(model, data, "force_elements");
  check_state(model, q, &v);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
  force_elements_from_kinematics(model, data, q, v, t);
}

void force_element_generalized_force(const Model& model, const Data& data, int index, Eigen::Ref<VecX> out) {
  if (index < 0 || index >= static_cast<int>(model.forces.size()))
    throw InvalidArgument("force_element_generalized_force: no force element " + std::to_string(index));
  if (out.size() != model.nv) throw InvalidArgument("force_element_generalized_force: out must have nv entries");
  out.setZero();
  const ForceElement& e = model.forces[static_cast<std::size_t>(index)];
  const auto i = static_cast<std::size_t>(index);
  if (is_joint_element(e.type)) {
    out[model.joints[static_cast<std::size_t>(e.joint)].v_index] = data.element_value[index];
    return;
  }
  if (e.a.body != kGround) add_chain(model, data, e.a.body, data.element_wrench_a[i], out);
  if (e.type != ForceElementType::Applied && e.b.body != kGround) add_chain(model, data, e.b.body, data.element_wrench_b[i], out);
}

double force_element_potential_energy(const Data& data) { return data.element_energy.sum(); }

void apply_external_wrenches_to_reactions(const Model& model, Data& data) {
  for (int l = 0; l < model.num_bodies(); ++l) data.cut_subtree_wrench[l] = data.external_wrench[l];
  detail::subtract_applied_wrenches(model, data);
}

// ∂Q_f/∂q, ∂Q_f/∂v: src/dynamics/force_element_derivatives.cpp.

}  // namespace mechdyn
