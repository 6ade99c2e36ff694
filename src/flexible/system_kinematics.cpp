// Kinematics of a mechanism with flexible bodies (flexible/flexible_system.hpp): poses,
// world spatial Jacobians J_i, the body velocity maps B_i, velocities and the accelerations
// at v̇ = 0, markers.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eq. (1) r_k = r_0 + R (ξ_0 + N q_f) for a
// point on a beam; the joint on a beam sits on the section at its origin: the frame it
// turns from ("mount") is R_v = R_p Λ at x = r_p + R_p p̄ (flexible/beam_point.hpp). Spatial
// vectors [ω; v_O] at the world origin (math/spatial.hpp), so velocities add along the tree:
//   V_mount = V_p + [R_p J_θ ė; R_p J_p ė + x × (R_p J_θ ė)],  V_i = V_mount + Σ s_k v_k.
// Accelerations at v̇ = 0: the time derivative of each term with ë = 0, q̈ = 0 (b_p, b_θ of
// beam_point_velocity_product; ṡ of each axis from its carrier, model/joint.hpp AxisCarrier).
// Body velocity (body components): ω_b = R_iᵀ ω, v_b = R_iᵀ (v_O + ω × r_i) — the rows of B_i;
// its derivative at v̇ = 0 is [R_iᵀ α; R_iᵀ (a_O + α × r_i)] (no extra terms: ṙ_i = v_O + ω × r_i).
// Cost O(bodies · nv). Reads q, v. Writes rotation, position, mount_rotation, jacobian,
// body_jacobian, velocity, bias_acceleration, marker_position, point. Allocates nothing.
#include <array>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/math/skew.hpp"
#include "system_section.hpp"

namespace mechdyn {

void detail::section_frame(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, int body,
                           int point_index, const Eigen::Ref<const VecX>& q, const double* v, Mat6X& jacobian,
                           SectionMotion& out) {
  const int f = system.flexible_of[body];
  const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
  const int ne = flexible.num_elastic;
  const int qi = system.elastic_configuration_index(model, body), vi = system.elastic_velocity_index(model, body);
  BeamPointKinematics& k = data.point[static_cast<std::size_t>(point_index)];
  const BeamPoint& point = system.points[static_cast<std::size_t>(point_index)];
  beam_point_kinematics(flexible, point, q.segment(qi, ne), k);
  const Mat3& rb = data.rotation[body];
  out.rotation.noalias() = rb * k.rotation;
  out.point = data.position[body] + rb * k.position;
  jacobian = data.jacobian[body];  // the frame's own elastic columns are zero there
  for (int c = 0; c < ne; ++c) {
    const Vec3 w = rb * k.rotation_jacobian.col(c);
    const Vec3 u = rb * k.position_jacobian.col(c);
    jacobian.col(vi + c).head<3>() += w;
    jacobian.col(vi + c).tail<3>() += u + out.point.cross(w);
  }
  if (v == nullptr) return;
  const Eigen::Map<const VecX> rate(v + vi, ne);
  beam_point_velocity_product(flexible, point, rate, k);
  const Vec3 spin = rb * (k.rotation_jacobian * rate);     // R_p J_θ ė
  const Vec3 slide = rb * (k.position_jacobian * rate);    // R_p J_p ė
  const Vec6& vb = data.velocity[body];
  const Vec3 omega = vb.head<3>();
  out.velocity = vb;
  out.velocity.head<3>() += spin;
  out.velocity.tail<3>() += slide + out.point.cross(spin);
  const Vec3 point_rate = vb.tail<3>() + omega.cross(out.point) + slide;  // ẋ
  const Vec3 spin_rate = omega.cross(spin) + rb * k.rotation_bias;
  const Vec3 slide_rate = omega.cross(slide) + rb * k.position_bias;
  out.acceleration = data.bias_acceleration[body];
  out.acceleration.head<3>() += spin_rate;
  out.acceleration.tail<3>() += slide_rate - spin_rate.cross(out.point) - spin.cross(point_rate);
}

namespace {

void kinematics(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                const Eigen::Ref<const VecX>& q, const double* v) {
  if (q.size() != model.nq || !q.allFinite())
    throw InvalidArgument("flexible_kinematics: q must hold nq = " + std::to_string(model.nq) + " finite numbers");
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Joint& joint = model.joints[i];
    const int parent = model.bodies[i].parent;
    Mat6X& jacobian = data.jacobian[i];
    detail::SectionMotion mount;
    Vec3 mount_origin = Vec3::Zero();
    if (parent == kGround) {
      jacobian.setZero();
    } else if (system.flexible_of[parent] < 0) {
      mount.rotation = data.rotation[parent];
      mount_origin = data.position[parent];
      jacobian = data.jacobian[parent];
      mount.velocity = data.velocity[parent];
      mount.acceleration = data.bias_acceleration[parent];
    } else {
      detail::section_frame(model, system, data, parent, system.joint_point[i], q, v, jacobian, mount);
      mount_origin = mount.point - mount.rotation * joint.origin;
    }
    Mat3 relative;
    Vec3 translation;
    joint_relative_pose(joint, q.data() + joint.q_index, relative, translation);
    data.mount_rotation[i] = mount.rotation;
    data.rotation[i].noalias() = mount.rotation * relative;
    data.position[i] = mount_origin + mount.rotation * translation;
    std::array<Vec6, 6> axes;
    joint_world_motion_axes(joint, mount.rotation, data.rotation[i], data.position[i], axes.data());
    for (int k = 0; k < joint.nv; ++k) jacobian.col(joint.v_index + k) = axes[static_cast<std::size_t>(k)];

    if (v != nullptr) {
      Vec6 velocity = mount.velocity;
      for (int k = 0; k < joint.nv; ++k) velocity += axes[static_cast<std::size_t>(k)] * v[joint.v_index + k];
      Vec6 acceleration = mount.acceleration;
      const Vec3 origin_rate = velocity.tail<3>() + velocity.head<3>().cross(data.position[i]);  // ȯ
      for (int k = 0; k < joint.nv; ++k) {
        const Vec6& s = axes[static_cast<std::size_t>(k)];
        const double rate = v[joint.v_index + k];
        switch (joint_axis_carrier(joint, k)) {  // ṡ (model/joint.hpp AxisCarrier)
          case AxisCarrier::Parent: acceleration += cross_motion(mount.velocity, s) * rate; break;
          case AxisCarrier::Child: acceleration += cross_motion(velocity, s) * rate; break;
          case AxisCarrier::WorldDirection: acceleration.tail<3>() += origin_rate.cross(s.head<3>()) * rate; break;
          case AxisCarrier::World: break;
        }
      }
      data.velocity[i] = velocity;
      data.bias_acceleration[i] = acceleration;
    }

    // B_i: [R_iᵀ J_ω; R_iᵀ (J_v − r̃_i J_ω)] and the elastic selector.
    MatX& b = data.body_jacobian[i];
    const Mat3 rt = data.rotation[i].transpose();
    const Mat3 shift = rt * skew(data.position[i]);
    b.topRows<3>().noalias() = rt * jacobian.topRows<3>();
    b.middleRows<3>(3).noalias() = rt * jacobian.bottomRows<3>();
    b.middleRows<3>(3).noalias() -= shift * jacobian.topRows<3>();
    if (system.flexible_of[i] >= 0) {
      const int ne = static_cast<int>(b.rows()) - 6;
      b.bottomRows(ne).setZero();
      const int vi = system.elastic_velocity_index(model, i);
      for (int c = 0; c < ne; ++c) b(6 + c, vi + c) = 1.0;
    }
  }
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    const BodyPoint& at = model.markers[m].at;
    if (at.body == kGround) {
      data.marker_position[m] = at.point;
    } else if (system.marker_point[m] < 0) {
      data.marker_position[m] = data.position[at.body] + data.rotation[at.body] * at.point;
    } else {
      const int k = system.marker_point[m];
      const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(system.point_body[static_cast<std::size_t>(k)])];
      BeamPointKinematics& point = data.point[static_cast<std::size_t>(k)];
      beam_point_kinematics(flexible, system.points[static_cast<std::size_t>(k)],
                            q.segment(system.elastic_configuration_index(model, at.body), flexible.num_elastic), point);
      data.marker_position[m] = data.position[at.body] + data.rotation[at.body] * point.position;
    }
  }
  data.kinematics_level = v == nullptr ? 0 : 1;
}

}  // namespace

void flexible_kinematics(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q) {
  kinematics(model, system, data, q, nullptr);
}

void flexible_kinematics(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v) {
  if (v.size() != model.nv || !v.allFinite())
    throw InvalidArgument("flexible_kinematics: v must hold nv = " + std::to_string(model.nv) + " finite numbers");
  kinematics(model, system, data, q, v.data());
}

void flexible_integrate(const Model& model, const FlexibleSystemData& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& dv, Eigen::Ref<VecX> out) {
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Joint& joint = model.joints[i];
    joint_integrate(joint, data.mount_rotation[i], q.data() + joint.q_index, dv.data() + joint.v_index,
                    out.data() + joint.q_index);
  }
  const int ne = model.nq - model.rigid_nq;
  out.tail(ne) = q.tail(ne) + dv.tail(ne);
}

}  // namespace mechdyn
