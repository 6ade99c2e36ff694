// Force elements (model format 3) in a mechanism with rigid and flexible bodies
// (flexible/flexible_system.hpp flexible_force_elements, flexible_force_element_tangent).
//
// The laws are those of ../shared/spec/force-elements.md as docs/force-elements.md reads
// them (the rigid implementation, dynamics/force_elements.hpp, is this file's test
// reference: the two are written independently). What differs is where a point is:
//   on a rigid body i     x = r_i + R_i p,             ẋ = v_O + ω × x
//   on a beam (FFR)       x = r_i + R_i p̄(e),          ẋ = v_O + ω × x + R_i J_p ė      (FFR eq. 1)
//                         section rotation R_i Λ(θ),  ω_section = ω + R_i J_θ ė
// (flexible/beam_point.hpp: p̄ = s d + N(s) e + Λ o). A force F through x and a moment M
// on body i do the power F · ẋ + M · ω_section = g_iᵀ y_i with y_i = B_i v the body velocity
// (FFR eq. 10's generalized force of a point load, flexible/ffr_dynamics.hpp
// ffr_point_wrench), so
//   Q_f += B_iᵀ g_i,  g_i = [R_iᵀ (M + (x − r_i) × F); R_iᵀ F; J_pᵀ R_iᵀ F + J_θᵀ R_iᵀ M].
// Joint elements add their effort on their coordinate.
//
// Tangent (for the Newmark iteration matrix): with the point-velocity Jacobians P_a, P_b
// (ẋ = P v) and the section angular-velocity Jacobians Ω_a, Ω_b (3 x nv, columns of the
// beams included), D = P_b − P_a, G = Ω_b − Ω_a:
//   spring-damper  −∂Q/∂v = c Dᵀ u uᵀ D;  −∂Q/∂q ≈ Dᵀ (u (k uᵀ + c (Π ḋ)ᵀ) + T Π) D,  Π = (1 − u uᵀ)/L
//   bushing        T_v = D + d̃ Ω_a (= ∂(R_a δ̇_t)/∂v): −∂Q/∂v = T_vᵀ R_a C_t R_aᵀ T_v + Gᵀ R_a C_r J⁻¹ R_aᵀ G,
//                  −∂Q/∂q ≈ the same with K_t, K_r
//   joint elements  k, c on the diagonal (a stop in contact, a servo not clamped)
// The v-derivative is exact; the q-derivative leaves out the change of the Jacobians (the
// terms F · ∂P/∂q), exact where the element's force is zero. Cost O(elements · nv) for
// Q_f, O(elements · nv²) for the tangent. Allocates nothing.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {
namespace {

// The world state of one element point: its position, velocity, and the rotation and
// angular velocity of the frame that carries it (a rigid body's, a beam section's).
struct PointState {
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
  Vec3 omega = Vec3::Zero();
};

PointState point_state(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                       const BodyPoint& at, int point_index, const Eigen::Ref<const VecX>& q, const double* v) {
  PointState s;
  if (at.body == kGround) {
    s.position = at.point;
    return s;
  }
  const std::size_t b = static_cast<std::size_t>(at.body);
  const Mat3& rotation = data.rotation[b];
  Vec3 relative_velocity = Vec3::Zero(), relative_omega = Vec3::Zero();
  if (point_index < 0) {
    s.position = data.position[b] + rotation * at.point;
    s.rotation = rotation;
  } else {
    const FlexibleBody& body = system.bodies[static_cast<std::size_t>(system.flexible_of[b])];
    BeamPointKinematics& k = data.point[static_cast<std::size_t>(point_index)];
    const int ne = body.num_elastic;
    beam_point_kinematics(body, system.points[static_cast<std::size_t>(point_index)],
                          q.segment(system.elastic_configuration_index(model, at.body), ne), k);
    s.position = data.position[b] + rotation * k.position;  // FFR eq. (1)
    s.rotation.noalias() = rotation * k.rotation;           // R Λ
    if (v != nullptr) {
      const Eigen::Map<const VecX> rate(v + system.elastic_velocity_index(model, at.body), ne);
      relative_velocity.noalias() = rotation * (k.position_jacobian * rate);  // R J_p ė
      relative_omega.noalias() = rotation * (k.rotation_jacobian * rate);     // R J_θ ė
    }
  }
  if (v != nullptr) {
    const Vec6& V = data.velocity[b];
    s.omega = V.head<3>() + relative_omega;
    s.velocity = V.tail<3>() + V.head<3>().cross(s.position) + relative_velocity;
  }
  return s;
}

// Q_f += B_iᵀ g_i for a force F through x and a moment M (about x) on body `body` (header).
void add_wrench(FlexibleSystemData& data, int body, int point_index, const Vec3& x, const Vec3& force,
                const Vec3& moment) {
  if (body == kGround) return;
  const std::size_t b = static_cast<std::size_t>(body);
  const Mat3& rotation = data.rotation[b];
  const MatX& jacobian = data.body_jacobian[b];
  const Eigen::Index rows = jacobian.rows();
  auto g = data.body_vector.head(rows);
  const Vec3 local_force = rotation.transpose() * force, local_moment = rotation.transpose() * moment;
  g.head<3>() = rotation.transpose() * (moment + (x - data.position[b]).cross(force));
  g.segment<3>(3) = local_force;
  if (rows > 6) {
    g.tail(rows - 6).setZero();
    if (point_index >= 0) {
      const BeamPointKinematics& k = data.point[static_cast<std::size_t>(point_index)];
      g.tail(rows - 6).noalias() += k.position_jacobian.transpose() * local_force;
      g.tail(rows - 6).noalias() += k.rotation_jacobian.transpose() * local_moment;
    }
  }
  data.element_force.noalias() += jacobian.transpose() * g;
}

// The world points at q = 0 (every frame parallel to the world, origins the sums of the
// joint origins, the beams undeformed): a bushing's d⁰.
Vec3 point_at_zero(const Model& model, const BodyPoint& at) {
  Vec3 p = at.point;
  for (int b = at.body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent)
    p += model.joints[static_cast<std::size_t>(b)].origin;
  return p;
}

Vec3 rotation_log(const Mat3& rotation) {
  const Eigen::AngleAxisd aa(rotation);
  return aa.angle() * aa.axis();
}

}  // namespace

void flexible_force_elements(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                             const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, double time) {
  data.element_force.setZero();
  if (model.forces.empty()) return;
  const bool with_velocity = v.size() > 0;
  if (data.kinematics_level < (with_velocity ? 1 : 0))
    throw InvalidArgument(std::string("flexible_force_elements: run flexible_kinematics first") +
                          (with_velocity ? " with v" : ""));
  if (!std::isfinite(time)) throw InvalidArgument("force elements: the time t is not finite");
  const double* rates = with_velocity ? v.data() : nullptr;
  auto rate_of = [&](int index) { return with_velocity ? v[index] : 0.0; };
  const double h = 1e-6 * std::max(1.0, std::abs(time));  // a servo's numerical target rate (docs)

  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    const Eigen::Index index = static_cast<Eigen::Index>(i);
    double value = 0.0, energy = 0.0, length = 0.0;
    Vec6 on_a = Vec6::Zero(), on_b = Vec6::Zero();
    Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();
    switch (e.type) {
      case ForceElementType::SpringDamper: {
        const PointState a = point_state(model, system, data, e.a, system.force_point_a[i], q, rates);
        const PointState b = point_state(model, system, data, e.b, system.force_point_b[i], q, rates);
        pa = a.position, pb = b.position;
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
        const double stretch = length - e.free_length;
        value = e.stiffness * stretch + e.damping * u.dot(b.velocity - a.velocity) + e.preload;  // T
        energy = 0.5 * e.stiffness * stretch * stretch + e.preload * stretch;
        add_wrench(data, e.a.body, system.force_point_a[i], pa, value * u, Vec3::Zero());
        add_wrench(data, e.b.body, system.force_point_b[i], pb, -value * u, Vec3::Zero());
        on_a = make_vec6(pa.cross(value * u), value * u);
        on_b = make_vec6(-pb.cross(value * u), -value * u);
        break;
      }
      case ForceElementType::Bushing: {
        const PointState a = point_state(model, system, data, e.a, system.force_point_a[i], q, rates);
        const PointState b = point_state(model, system, data, e.b, system.force_point_b[i], q, rates);
        pa = a.position, pb = b.position;
        const Vec3 d = pb - pa;
        length = d.norm();
        const Vec3 translation = a.rotation.transpose() * d - (point_at_zero(model, e.b) - point_at_zero(model, e.a));  // δ_t
        const Vec3 turn = rotation_log(a.rotation.transpose() * b.rotation);                                         // δ_r
        const Vec3 translation_rate = a.rotation.transpose() * (b.velocity - a.velocity - a.omega.cross(d));       // δ̇_t
        const Vec3 turn_rate =
            rotation_vector_jacobian(turn).partialPivLu().solve(a.rotation.transpose() * (b.omega - a.omega));  // δ̇_r
        const Vec3 force = -a.rotation * (e.stiffness6.head<3>().cwiseProduct(translation) +
                                          e.damping6.head<3>().cwiseProduct(translation_rate));  // on b at p_b
        const Vec3 moment =
            -a.rotation * (e.stiffness6.tail<3>().cwiseProduct(turn) + e.damping6.tail<3>().cwiseProduct(turn_rate));
        // on b: F at p_b and M; on a: the opposite spatial wrench, −F at p_a and −M − d × F about p_a
        add_wrench(data, e.b.body, system.force_point_b[i], pb, force, moment);
        add_wrench(data, e.a.body, system.force_point_a[i], pa, -force, -moment - d.cross(force));
        on_b = make_vec6(moment + pb.cross(force), force);
        on_a = -on_b;
        value = force.norm();
        energy = 0.5 * (translation.dot(e.stiffness6.head<3>().cwiseProduct(translation)) +
                        turn.dot(e.stiffness6.tail<3>().cwiseProduct(turn)));
        break;
      }
      case ForceElementType::JointSpringDamper: {
        const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
        const double x = q[joint.q_index] - e.rest;
        value = -e.stiffness * x - e.damping * rate_of(joint.v_index);
        energy = 0.5 * e.stiffness * x * x;
        data.element_force[joint.v_index] += value;
        break;
      }
      case ForceElementType::JointStop: {
        const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
        const double x = q[joint.q_index], rate = rate_of(joint.v_index);
        if (x < e.lower) {
          const double depth = e.lower - x;
          value = std::max(0.0, e.stiffness * depth - e.damping * rate);
          energy = 0.5 * e.stiffness * depth * depth;
        } else if (x > e.upper) {
          const double depth = x - e.upper;
          value = std::min(0.0, -e.stiffness * depth - e.damping * rate);
          energy = 0.5 * e.stiffness * depth * depth;
        }
        data.element_force[joint.v_index] += value;
        break;
      }
      case ForceElementType::JointServo: {
        const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
        TimeExpressions& functions = *data.element_functions[i];
        const Eigen::Index n = functions.size();
        functions.evaluate(time, data.element_function_values.head(n));
        const double goal = data.element_function_values[0];
        double goal_rate = 0.0;
        if (n == 2) {
          goal_rate = data.element_function_values[1];
        } else {  // (target(t + h) − target(t − h)) / 2h
          functions.evaluate(time + h, data.element_function_ahead.head(1));
          functions.evaluate(time - h, data.element_function_behind.head(1));
          goal_rate = (data.element_function_ahead[0] - data.element_function_behind[0]) / (2.0 * h);
        }
        const double raw = e.stiffness * (goal - q[joint.q_index]) + e.damping * (goal_rate - rate_of(joint.v_index));
        value = std::clamp(raw, -e.max_effort, e.max_effort);
        data.element_force[joint.v_index] += value;
        break;
      }
      case ForceElementType::Applied: {
        TimeExpressions& functions = *data.element_functions[i];
        functions.evaluate(time, data.element_function_values.head(6));
        const Vec3 force = data.element_function_values.head<3>(), moment = data.element_function_values.segment<3>(3);
        const PointState a = point_state(model, system, data, e.a, system.force_point_a[i], q, rates);
        pa = a.position;
        add_wrench(data, e.a.body, system.force_point_a[i], pa, force, moment);
        on_a = make_vec6(moment + pa.cross(force), force);
        value = force.norm();
        break;
      }
    }
    data.element_value[index] = value;
    data.element_energy[index] = energy;
    data.element_length[index] = length;
    data.element_wrench_a[i] = on_a;
    data.element_wrench_b[i] = on_b;
    data.element_point_a[i] = pa;
    data.element_point_b[i] = pb;
  }
}

namespace {

// [Ω; P] of one element point (3 + 3 rows, nv columns): the carrying frame's angular velocity
// and the point's velocity per unit v, with a beam section's elastic columns (header).
void point_jacobian(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const BodyPoint& at,
                    int point_index, const Vec3& x, Mat6X& out) {
  if (at.body == kGround) {
    out.setZero();
    return;
  }
  const std::size_t b = static_cast<std::size_t>(at.body);
  const Mat6X& frame = data.jacobian[b];
  out.topRows<3>() = frame.topRows<3>();
  out.bottomRows<3>() = frame.bottomRows<3>();
  out.bottomRows<3>().noalias() -= skew(x) * frame.topRows<3>();  // v_O + ω × x
  if (point_index < 0) return;
  const BeamPointKinematics& k = data.point[static_cast<std::size_t>(point_index)];
  const Mat3& rotation = data.rotation[b];
  const int first = system.elastic_velocity_index(model, at.body);
  for (Eigen::Index c = 0; c < k.position_jacobian.cols(); ++c) {
    out.col(first + c).head<3>() += rotation * k.rotation_jacobian.col(c);
    out.col(first + c).tail<3>() += rotation * k.position_jacobian.col(c);
  }
}

}  // namespace

void flexible_force_element_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                    const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v) {
  if (model.forces.empty()) return;
  if (data.kinematics_level < 1 || v.size() != model.nv)
    throw InvalidArgument("flexible_force_element_tangent: run flexible_kinematics with v and flexible_force_elements first");
  MatX& stiffness = data.element_stiffness;
  MatX& damping = data.element_damping;
  stiffness.setZero();
  damping.setZero();
  Mat6X& ja = data.element_jacobian_a;
  Mat6X& jb = data.element_jacobian_b;
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    const Eigen::Index index = static_cast<Eigen::Index>(i);
    if (is_joint_element(e.type)) {
      const int k = model.joints[static_cast<std::size_t>(e.joint)].v_index;
      const double value = data.element_value[index];
      const bool active = e.type == ForceElementType::JointSpringDamper ||
                          (e.type == ForceElementType::JointStop && value != 0.0) ||
                          (e.type == ForceElementType::JointServo && std::abs(value) < e.max_effort);
      if (active) {
        stiffness(k, k) += e.stiffness;
        damping(k, k) += e.damping;
      }
      continue;
    }
    if (e.type == ForceElementType::Applied) continue;  // F, M given: no material stiffness
    // The beam points' Jacobians at q (flexible_force_elements left data.point at this state).
    point_jacobian(model, system, data, e.a, system.force_point_a[i], data.element_point_a[i], ja);
    point_jacobian(model, system, data, e.b, system.force_point_b[i], data.element_point_b[i], jb);
    jb -= ja;  // [G; D]
    const Vec3 d = data.element_point_b[i] - data.element_point_a[i];
    if (e.type == ForceElementType::SpringDamper) {
      const double length = data.element_length[index];
      if (length < 1e-12) continue;
      const Vec3 u = d / length;
      const Mat3 projector = (Mat3::Identity() - u * u.transpose()) / length;  // Π = ∂u/∂d
      const Vec3 d_rate = jb.bottomRows<3>() * v;
      const Mat3 material = u * (e.stiffness * u + e.damping * (projector * d_rate)).transpose() +
                            data.element_value[index] * projector;
      ja.bottomRows<3>().noalias() = material * jb.bottomRows<3>();
      stiffness.noalias() += jb.bottomRows<3>().transpose() * ja.bottomRows<3>();
      ja.bottomRows<3>().noalias() = (e.damping * u * u.transpose()) * jb.bottomRows<3>();
      damping.noalias() += jb.bottomRows<3>().transpose() * ja.bottomRows<3>();
      continue;
    }
    // Bushing: T_v = D + d̃ Ω_a, G; the section rotation of a (its carrying frame).
    const PointState a = point_state(model, system, data, e.a, system.force_point_a[i], q, nullptr);
    const PointState b = point_state(model, system, data, e.b, system.force_point_b[i], q, nullptr);
    const Mat3& ra = a.rotation;
    const Vec3 turn = rotation_log(ra.transpose() * b.rotation);
    const Mat3 inverse = rotation_vector_jacobian(turn).inverse();  // J(δ_r)⁻¹
    jb.bottomRows<3>().noalias() += skew(d) * ja.topRows<3>();  // T_v (ja still holds [Ω_a; P_a])
    for (int pass = 0; pass < 2; ++pass) {
      const Vec6& coefficients = pass == 0 ? e.stiffness6 : e.damping6;
      MatX& out = pass == 0 ? stiffness : damping;
      const Mat3 translational = ra * coefficients.head<3>().asDiagonal() * ra.transpose();
      const Mat3 rotational = ra * coefficients.tail<3>().asDiagonal() * inverse * ra.transpose();
      ja.bottomRows<3>().noalias() = translational * jb.bottomRows<3>();
      out.noalias() += jb.bottomRows<3>().transpose() * ja.bottomRows<3>();
      ja.bottomRows<3>().noalias() = rotational * jb.topRows<3>();
      out.noalias() += jb.topRows<3>().transpose() * ja.bottomRows<3>();
    }
  }
}

}  // namespace mechdyn
