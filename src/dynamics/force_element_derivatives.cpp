// ∂Q_f/∂q, ∂Q_f/∂v of the force elements (dynamics/force_elements.hpp) and the rates of
// their body wrenches (force_element_rates.hpp). Exact: no finite differences.
//
// Source: docs/derivatives.md, "Force elements" (eqs. D26–D30); the axis rates are those of
// Carpentier & Mansard's RSS 2018 derivatives adapted to mechdyn's carriers (D5).
//
// An element side on body β has the world wrench W = [M + p × F; F] (about the world
// origin) and contributes Q_k = s_kᵀ W for the coordinates k on the chain C_β. A tangent
// step of q_m turns the axes of the joints below m and moves the point p by j_m(p), so
//   ∂Q_k/∂q_m = s_kᵀ ∂W/∂q_m + (∂s_k/∂q_m)ᵀ W,   ∂Q_k/∂v_m = s_kᵀ ∂W/∂v_m           (D26)
// with ∂s_k/∂q_m = axis_rate(k, m) (D5's δs: s_m × s_k for an axis carried by the parent
// below m or by the child, [0; j_m(o) × e] for a world direction, 0 for a world axis). The
// wrenches' columns ∂W/∂q_m, ∂W/∂v_m (element_wrench_column):
//   point       ∂p/∂q_m = j_m(p) [m ∈ C_β],  ∂ṗ/∂q_m = Σ_{k ∈ C_β} v_k ∂j_k(p)/∂q_m,
//               ∂j_k(p)/∂q_m = ∂v_k + ∂ω_k × p + ω_k × j_m(p),  ∂ṗ/∂v_m = j_m(p)      (D27)
//   applied     ∂W/∂q_m = [j_m(p) × F; 0], ∂W/∂v = 0 (F, M functions of t only)
//   spring      D = ∂d/∂q_m, H = ∂ḋ/∂q_m; ∂L = u·D, ∂L̇ = (P ḋ)·D + u·H, P = (1 − u uᵀ)/L;
//               ∂T = k ∂L + c ∂L̇, ∂F = u ∂T + T P D; ∂L̇/∂v_m = u·D                    (D28)
//   bushing     α_a = ω_m [m ∈ C_a] (∂R_a = α_a~ R_a), α_b likewise, e = ḋ − ω_a × d:
//               ∂δ_t = R_aᵀ (D − α_a × d),   ∂δ̇_t = R_aᵀ (∂e − α_a × e),
//               ∂e = H − ∂ω_a × d − ω_a × D  (q),  ∂e/∂v_m = D − α_a × d  (v),
//               ∂δ_r = J⁻¹ ξ, ξ = R_aᵀ (α_b − α_a)  (the relative rotation turns by ξ on the left),
//               ∂δ̇_r = J⁻¹ (∂w − (∂J/∂δ_r · ∂δ_r) δ̇_r),  w = R_aᵀ (ω_b − ω_a),
//               ∂w = R_aᵀ (∂ω_b − ∂ω_a − α_a × (ω_b − ω_a)),  ∂δ̇_r/∂v_m = J⁻¹ ξ,
//               ∂F = α_a × F − R_a (K_t ∂δ_t + C_t ∂δ̇_t),  ∂M = α_a × M − R_a (K_r ∂δ_r + C_r ∂δ̇_r)   (D29)
//               on b ∂W_b = [∂M + ∂p_b × F + p_b × ∂F; ∂F], on a ∂W_a = −∂W_b
// (the contract's moment −R_a K_r δ_r differentiated as computed, not the gradient of the
// energy; docs/force-elements.md). ∂ω_β/∂q_m = Σ_{k ∈ C_β} v_k ∂ω_k/∂q_m.
// Cost: O(nv · depth) per element. Allocates nothing.
#include <cmath>
#include <string>

#include "force_element_rates.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/model/checks.hpp"

#include <Eigen/Geometry>

namespace mechdyn {

namespace detail {

namespace {

Vec3 omega_of(const Data& data, int k) { return data.motion_axis[static_cast<std::size_t>(k)].head<3>(); }

int parent_of(const Model& model, int body) { return model.bodies[static_cast<std::size_t>(body)].parent; }

// ∂ṗ/∂q_m = Σ_{k ∈ C_β} v_k ∂j_k(p)/∂q_m for m ∈ C_β (D27).
Vec3 point_velocity_rate(const Model& model, const Data& data, const Eigen::Ref<const VecX>& v, int body, const Vec3& p,
                         int m) {
  Vec3 sum = Vec3::Zero();
  const Vec3 moved = point_axis(data, m, p);  // j_m(p)
  for (int b = body; b != kGround; b = parent_of(model, b)) {
    const Joint& joint = model.joints[static_cast<std::size_t>(b)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6 ds = axis_rate(model, data, k, m);
      sum += v[k] * (Vec3(ds.tail<3>()) + Vec3(ds.head<3>()).cross(p) + omega_of(data, k).cross(moved));
    }
  }
  return sum;
}

// ∂ω_β/∂q_m = Σ_{k ∈ C_β} v_k ∂ω_k/∂q_m for m ∈ C_β.
Vec3 angular_velocity_rate(const Model& model, const Data& data, const Eigen::Ref<const VecX>& v, int body, int m) {
  Vec3 sum = Vec3::Zero();
  for (int b = body; b != kGround; b = parent_of(model, b)) {
    const Joint& joint = model.joints[static_cast<std::size_t>(b)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) sum += v[k] * Vec3(axis_rate(model, data, k, m).head<3>());
  }
  return sum;
}

Vec3 world_point_velocity(const Data& data, int body, const Vec3& p) {
  if (body == kGround) return Vec3::Zero();
  const Vec6& V = data.velocity[static_cast<std::size_t>(body)];
  return V.tail<3>() + V.head<3>().cross(p);
}

Vec3 angular_velocity(const Data& data, int body) {
  return body == kGround ? Vec3::Zero() : Vec3(data.velocity[static_cast<std::size_t>(body)].head<3>());
}

}  // namespace

bool moves_body(const Model& model, int dof, int body) {
  const int owner = model.dof_body[static_cast<std::size_t>(dof)];
  for (int b = body; b != kGround; b = parent_of(model, b))
    if (b == owner) return true;
  return false;
}

// ∂s_k/∂q_m for two coordinates on one chain: zero when m is below k's joint; for an
// axis carried by the parent (or the child) and m in a joint above (or, for a child-carried
// axis, an earlier axis of the same joint) the twist's cross product s_m × s_k; a world
// direction [e; o × e] (spherical, free rotations) moves only with its origin o:
// [0; j_m(o) × e], j_m(o) the velocity of o under q_m (m above, or a free joint's
// translation); a world axis (free translations) never changes (D5).
Vec6 axis_rate(const Model& model, const Data& data, int k, int m) {
  const int body_k = model.dof_body[static_cast<std::size_t>(k)], body_m = model.dof_body[static_cast<std::size_t>(m)];
  const bool same = body_k == body_m;
  if (!same && m > k) return Vec6::Zero();  // m below k's joint
  const Joint& joint = model.joints[static_cast<std::size_t>(body_k)];
  const Vec6& sk = data.motion_axis[static_cast<std::size_t>(k)];
  const Vec6& sm = data.motion_axis[static_cast<std::size_t>(m)];
  const auto cross = [&] {
    return make_vec6(sm.head<3>().cross(sk.head<3>()), sm.head<3>().cross(sk.tail<3>()) + sm.tail<3>().cross(sk.head<3>()));
  };
  switch (joint_axis_carrier(joint, k - joint.v_index)) {
    case AxisCarrier::World:
      return Vec6::Zero();
    case AxisCarrier::Parent:
      return same ? Vec6::Zero() : cross();
    case AxisCarrier::Child:
      return (!same || m < k) ? cross() : Vec6::Zero();
    case AxisCarrier::WorldDirection: {
      const bool moves_origin =
          !same || joint_axis_carrier(joint, m - joint.v_index) == AxisCarrier::World;  // above, or the free translation
      if (!moves_origin) return Vec6::Zero();
      const Vec3 e = sk.head<3>(), o = data.position[static_cast<std::size_t>(body_k)];
      return make_vec6(Vec3::Zero(), point_axis(data, m, o).cross(e));
    }
  }
  return Vec6::Zero();
}

void element_wrench_state(const Model& model, const Data& data, int index, ElementWrenchState& out) {
  const ForceElement& e = model.forces[static_cast<std::size_t>(index)];
  const auto i = static_cast<std::size_t>(index);
  out = ElementWrenchState{};
  out.index = index;
  out.type = e.type;
  if (is_joint_element(e.type)) return;
  out.body_a = e.a.body;
  out.body_b = e.type == ForceElementType::Applied ? kGround : e.b.body;
  out.point_a = data.element_point_a[i];
  out.point_b = data.element_point_b[i];
  out.wrench_a = data.element_wrench_a[i];
  out.wrench_b = data.element_wrench_b[i];
  out.active = true;
  switch (e.type) {
    case ForceElementType::Applied:
      out.force = out.wrench_a.tail<3>();
      break;
    case ForceElementType::SpringDamper: {
      const double length = data.element_length[index];
      if (length < 1e-12) {  // exerts nothing (force_elements threw otherwise)
        out.active = false;
        break;
      }
      out.direction = (out.point_b - out.point_a) / length;
      out.tension = data.element_value[index];
      out.force = out.tension * out.direction;
      out.distance_rate =
          world_point_velocity(data, e.b.body, out.point_b) - world_point_velocity(data, e.a.body, out.point_a);
      out.direction_rate = (Mat3::Identity() - out.direction * out.direction.transpose()) / length;
      break;
    }
    case ForceElementType::Bushing: {
      // The law as force_elements.cpp computes it (its header): δ_r, δ̇_r, J⁻¹.
      out.rotation_a = e.a.body == kGround ? Mat3::Identity() : data.rotation[static_cast<std::size_t>(e.a.body)];
      const Mat3 rotation_b = e.b.body == kGround ? Mat3::Identity() : data.rotation[static_cast<std::size_t>(e.b.body)];
      out.omega_a = angular_velocity(data, e.a.body);
      out.omega_b = angular_velocity(data, e.b.body);
      out.distance = out.point_b - out.point_a;
      out.distance_rate =
          world_point_velocity(data, e.b.body, out.point_b) - world_point_velocity(data, e.a.body, out.point_a);
      out.relative_rate = out.distance_rate - out.omega_a.cross(out.distance);
      const Eigen::AngleAxisd relative(Mat3(out.rotation_a.transpose() * rotation_b));
      out.rotation_vector = relative.angle() * relative.axis();
      out.jacobian_inverse = rotation_vector_jacobian(out.rotation_vector).inverse();
      out.rotation_rate = out.jacobian_inverse * (out.rotation_a.transpose() * (out.omega_b - out.omega_a));
      out.force = out.wrench_b.tail<3>();                                  // F on b
      out.moment = out.wrench_b.head<3>() - out.point_b.cross(out.force);  // M on b
      break;
    }
    default:
      break;
  }
}

void element_wrench_column(const Model& model, const Data& data, const Eigen::Ref<const VecX>& v,
                           const ElementWrenchState& s, int m, WrenchColumn& out) {
  out.a_dq.setZero();
  out.b_dq.setZero();
  out.a_dv.setZero();
  out.b_dv.setZero();
  if (!s.active) return;
  const bool in_a = moves_body(model, m, s.body_a), in_b = moves_body(model, m, s.body_b);
  if (!in_a && !in_b) return;
  const Vec3 moved_a = in_a ? point_axis(data, m, s.point_a) : Vec3::Zero();  // ∂p_a/∂q_m (D27)
  const Vec3 moved_b = in_b ? point_axis(data, m, s.point_b) : Vec3::Zero();
  const ForceElement& e = model.forces[static_cast<std::size_t>(s.index)];
  switch (s.type) {
    case ForceElementType::Applied:
      out.a_dq.head<3>() = moved_a.cross(s.force);
      return;
    case ForceElementType::SpringDamper: {  // (D28)
      const Vec3 D = moved_b - moved_a;
      Vec3 H = Vec3::Zero();  // ∂ḋ/∂q_m
      if (in_b) H += point_velocity_rate(model, data, v, s.body_b, s.point_b, m);
      if (in_a) H -= point_velocity_rate(model, data, v, s.body_a, s.point_a, m);
      const Vec3& u = s.direction;
      const double length_rate = u.dot(D);
      const double rate_rate = (s.direction_rate * s.distance_rate).dot(D) + u.dot(H);
      const double tension_q = e.stiffness * length_rate + e.damping * rate_rate;
      const double tension_v = e.damping * length_rate;
      const Vec3 force_q = tension_q * u + s.tension * (s.direction_rate * D);
      const Vec3 force_v = tension_v * u;
      out.a_dq = make_vec6(moved_a.cross(s.force) + s.point_a.cross(force_q), force_q);
      out.a_dv = make_vec6(s.point_a.cross(force_v), force_v);
      out.b_dq = -make_vec6(moved_b.cross(s.force) + s.point_b.cross(force_q), force_q);
      out.b_dv = -make_vec6(s.point_b.cross(force_v), force_v);
      return;
    }
    case ForceElementType::Bushing: {  // (D29)
      const Mat3& Ra = s.rotation_a;
      const Vec3 alpha_a = in_a ? omega_of(data, m) : Vec3::Zero();
      const Vec3 alpha_b = in_b ? omega_of(data, m) : Vec3::Zero();
      const Vec3 D = moved_b - moved_a;
      Vec3 H = Vec3::Zero(), spin_a = Vec3::Zero(), spin_b = Vec3::Zero();  // ∂ḋ, ∂ω_a, ∂ω_b along q_m
      if (in_b) {
        H += point_velocity_rate(model, data, v, s.body_b, s.point_b, m);
        spin_b = angular_velocity_rate(model, data, v, s.body_b, m);
      }
      if (in_a) {
        H -= point_velocity_rate(model, data, v, s.body_a, s.point_a, m);
        spin_a = angular_velocity_rate(model, data, v, s.body_a, m);
      }
      const Vec3 translation_q = Ra.transpose() * (D - alpha_a.cross(s.distance));  // ∂δ_t/∂q_m = ∂δ̇_t/∂v_m
      const Vec3 relative_rate_q = H - spin_a.cross(s.distance) - s.omega_a.cross(D);  // ∂e/∂q_m
      const Vec3 translation_rate_q = Ra.transpose() * (relative_rate_q - alpha_a.cross(s.relative_rate));
      const Vec3 turn = Ra.transpose() * (alpha_b - alpha_a);                   // ξ
      const Vec3 rotation_q = s.jacobian_inverse * turn;                        // ∂δ_r/∂q_m = ∂δ̇_r/∂v_m
      const Vec3 spin_q = Ra.transpose() * (spin_b - spin_a - alpha_a.cross(s.omega_b - s.omega_a));  // ∂w
      const Vec3 rotation_rate_q =
          s.jacobian_inverse * (spin_q - rotation_vector_jacobian_derivative(s.rotation_vector, rotation_q, s.rotation_rate));
      const Vec3 stiff_t = e.stiffness6.head<3>(), stiff_r = e.stiffness6.tail<3>();
      const Vec3 damp_t = e.damping6.head<3>(), damp_r = e.damping6.tail<3>();
      const Vec3 force_q =
          alpha_a.cross(s.force) - Ra * (stiff_t.cwiseProduct(translation_q) + damp_t.cwiseProduct(translation_rate_q));
      const Vec3 moment_q =
          alpha_a.cross(s.moment) - Ra * (stiff_r.cwiseProduct(rotation_q) + damp_r.cwiseProduct(rotation_rate_q));
      const Vec3 force_v = -(Ra * damp_t.cwiseProduct(translation_q));
      const Vec3 moment_v = -(Ra * damp_r.cwiseProduct(rotation_q));
      out.b_dq = make_vec6(moment_q + moved_b.cross(s.force) + s.point_b.cross(force_q), force_q);
      out.b_dv = make_vec6(moment_v + s.point_b.cross(force_v), force_v);
      out.a_dq = -out.b_dq;
      out.a_dv = -out.b_dv;
      return;
    }
    default:
      return;
  }
}

}  // namespace detail

namespace {

// dq, dv rows of the chain C_β += s_kᵀ (column m of ∂W/∂q, ∂W/∂v)   (D26, first term)
void add_wrench_column(const Model& model, const Data& data, int body, int m, const Vec6& w_dq, const Vec6& w_dv,
                       Eigen::Ref<MatX> dq, Eigen::Ref<MatX> dv) {
  for (int b = body; b != kGround; b = model.bodies[static_cast<std::size_t>(b)].parent) {
    const Joint& joint = model.joints[static_cast<std::size_t>(b)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& s = data.motion_axis[static_cast<std::size_t>(k)];
      dq(k, m) += s.dot(w_dq);
      dv(k, m) += s.dot(w_dv);
    }
  }
}

// dq(k, m) += (∂s_k/∂q_m)ᵀ W for k, m on the chain C_β   (D26, second term)
void add_axis_rates(const Model& model, const Data& data, int body, const Vec6& wrench, Eigen::Ref<MatX> dq) {
  for (int bk = body; bk != kGround; bk = model.bodies[static_cast<std::size_t>(bk)].parent) {
    const Joint& jk = model.joints[static_cast<std::size_t>(bk)];
    for (int k = jk.v_index; k < jk.v_index + jk.nv; ++k)
      for (int bm = bk; bm != kGround; bm = model.bodies[static_cast<std::size_t>(bm)].parent) {
        const Joint& jm = model.joints[static_cast<std::size_t>(bm)];
        for (int m = jm.v_index; m < jm.v_index + jm.nv; ++m) dq(k, m) += detail::axis_rate(model, data, k, m).dot(wrench);
      }
  }
}

}  // namespace

void force_element_derivatives(const Model& model, const Data& data, const Eigen::Ref<const VecX>& q,
                               const Eigen::Ref<const VecX>& v, Eigen::Ref<MatX> dq, Eigen::Ref<MatX> dv) {
  if (dq.rows() != model.nv || dq.cols() != model.nv || dv.rows() != model.nv || dv.cols() != model.nv)
    throw InvalidArgument("force_element_derivatives: dq and dv must be nv × nv");
  if (q.size() != model.nq || v.size() != model.nv)
    throw InvalidArgument("force_element_derivatives: q must have nq and v nv numbers (the state of the last force_elements)");
  check_kinematics(data, 1, "force_element_derivatives");
  detail::ElementWrenchState state;
  detail::WrenchColumn column;
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    const auto index = static_cast<Eigen::Index>(i);
    if (is_joint_element(e.type)) {
      const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
      const int k = joint.v_index;
      double kq = 0.0, kv = 0.0;  // ∂effort/∂q, ∂effort/∂v
      switch (e.type) {
        case ForceElementType::JointSpringDamper:
          kq = -e.stiffness, kv = -e.damping;
          break;
        case ForceElementType::JointStop: {
          const double value = data.element_value[index];
          if (value != 0.0) kq = -e.stiffness, kv = -e.damping;  // in contact and pushing (the max/min not active)
          break;
        }
        case ForceElementType::JointServo: {
          const double value = data.element_value[index];
          if (std::abs(value) < e.max_effort) kq = -e.stiffness, kv = -e.damping;  // not clamped
          break;
        }
        default:
          break;
      }
      dq(k, k) += kq;
      dv(k, k) += kv;
      continue;
    }
    detail::element_wrench_state(model, data, static_cast<int>(i), state);
    if (!state.active) continue;
    for (int m = 0; m < model.nv; ++m) {
      detail::element_wrench_column(model, data, v, state, m, column);
      add_wrench_column(model, data, state.body_a, m, column.a_dq, column.a_dv, dq, dv);
      add_wrench_column(model, data, state.body_b, m, column.b_dq, column.b_dv, dq, dv);
    }
    add_axis_rates(model, data, state.body_a, state.wrench_a, dq);
    add_axis_rates(model, data, state.body_b, state.wrench_b, dq);
  }
}

}  // namespace mechdyn
