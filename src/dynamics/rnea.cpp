// Recursive Newton–Euler inverse dynamics, τ = M(q) a + h(q, q̇), in body coordinates.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §5.3, Table 5.1, with
// every spatial vector of body i in its own natural frame (EC §2.1: parallel to the
// world at q = 0) at its frame origin. The transform from parent to body coordinates is
// the joint's relative pose alone, X_i = (E = Qᵀ, r) with Q, r from joint_relative_pose
// (EC eqs. 2–3): a natural frame has no fixed rotation from its parent.
//   X [w; u]   = [Qᵀ w; Qᵀ (u − r × w)]          motion, parent → body coordinates
//   Xᵀ [n; f]  = [Q n + r × Q f; Q f]             force, body → parent coordinates
//   a_0 = −a_g = [0; −g]                          gravity as a fictitious base acceleration
//   v_i = X_i v_λ(i) + S_i q̇_i
//   a_i = X_i a_λ(i) + S_i q̈_i + c_i              c_i = Ṡ_i q̇_i (joint_local_bias_acceleration)
//   f_i = I_i a_i + v_i ×* I_i v_i                forward pass, I_i constant in body coordinates
//   τ_i = S_iᵀ f_i,  f_λ(i) += X_iᵀ f_i            backward pass, i = N … 1
// The body force is formed at the centre of mass c (body coordinates), which needs no
// spatial inertia about the origin: with ω, u the angular velocity and the velocity of
// the body point at the origin,
//   v_c = u + ω × c,  a_c = u̇ + ω̇ × c + ω × v_c   (a_c includes −g)
//   F = m a_c,  N_c = J ω̇ + ω × J ω,  f_i = [N_c + c × F; F].
// Unlike the world-frame form (absolute coordinates, Featherstone §5.3 last paragraph),
// nothing here rotates an inertia or composes world rotations: per body, one relative
// pose and three spatial transforms. Spherical and free joints, whose velocities are
// world components, need the body's world rotation Q^i_l; it is composed only on the
// paths from ground to such joints (model.needs_world_rotation).
// Revolute joints about ±e_k (most robots) run a written-out step with k a compile-time
// constant (forward_body<K>, backward_body<K>; the RX/RY/RZ joints of RBDL and
// Pinocchio): S = [±e_k; 0], so S q̇, Ṡ q̇, Sᵀ f and the rotations touch only the
// coordinates they change. Every other joint takes the general step (K = −1).
// Cost: O(n).
// Reads: model, q, v, a. Writes: data.joint_rotation, data.joint_translation,
// data.local_motion_axis, data.local_velocity, data.local_acceleration (with −g),
// data.body_force (f_i, body coordinates), data.tau; data.rotation only for bodies with
// model.needs_world_rotation. The world kinematics block is not touched.
// Allocates nothing.
#include "mechdyn/dynamics/rnea.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "../model/joint_inline.hpp"
#include "recursive_checks.hpp"

namespace mechdyn {

namespace {

/// X v: a motion vector of the parent (parent coordinates) in body coordinates; Q a
/// rotation about e_K when K ≥ 0 (joint_inline.hpp, principal axes).
template <int K>
inline Vec6 motion_to_body(const Mat3& rotation, const Vec3& translation, const Vec6& m) {
  const Vec3 w = m.head<3>();
  const Vec3 u = m.tail<3>() - translation.cross(w);
  Vec6 out;
  out.head<3>() = detail::rotate_transpose(rotation, K, w);
  out.tail<3>() = detail::rotate_transpose(rotation, K, u);
  return out;
}

/// Forward pass for body i: v_i, a_i, f_i. K ≥ 0: a revolute joint about ±e_K, written
/// out with K a compile-time constant (S = [±e_K; 0], so S q̇, Ṡ q̇ and the transforms
/// touch only the coordinates the rotation mixes); K = −1: every other joint.
template <int K>
void forward_body(const Model& model, Data& data, int i, const double* qs, const double* vs, const double* as,
                  const Vec3& gravity_acceleration) {
  const Body& body = model.bodies[i];
  const Joint& joint = model.joints[i];
  const int parent = body.parent;
  Mat3& rotation = data.joint_rotation[i];
  Vec3& translation = data.joint_translation[i];
  detail::joint_relative_pose_inline(joint, K, qs + joint.q_index, rotation, translation);  // Q, r (EC eqs. 2–3)
  if (model.needs_world_rotation[i]) {  // eq. (4)
    if (parent == kGround)
      data.rotation[i] = rotation;
    else
      detail::compose_rotation(data.rotation[parent], rotation, K, data.rotation[i]);
  }

  // X v_λ and X a_λ; the ground is at rest with a_0 = −a_g (world = ground coordinates).
  Vec6 parent_velocity;
  Vec6& acceleration = data.local_acceleration[i];
  if (parent == kGround) {
    parent_velocity.setZero();
    acceleration << Vec3::Zero(), detail::rotate_transpose(rotation, K, gravity_acceleration);
  } else {
    parent_velocity = motion_to_body<K>(rotation, translation, data.local_velocity[parent]);
    acceleration = motion_to_body<K>(rotation, translation, data.local_acceleration[parent]);
  }
  Vec6& velocity = data.local_velocity[i];
  if constexpr (K >= 0) {
    // S = [n; 0], n = ±e_K: S q̇ = rate e_K; S q̈ + X v_λ × S q̇ = [n q̈ + ω × e_K rate; u × e_K rate]
    // with x × e_K = x_J e_I − x_I e_J, (I, J, K) cyclic.
    constexpr int I = (K + 1) % 3, J = (K + 2) % 3;
    const double sign = joint.axis[K];
    const double rate = sign * vs[joint.v_index];
    Vec6& axis = data.local_motion_axis[joint.v_index];
    axis.setZero();
    axis[K] = sign;
    velocity = parent_velocity;  // v_i = X v_λ + S q̇
    velocity[K] += rate;
    acceleration[I] += parent_velocity[J] * rate;  // a_i = X a_λ + S q̈ + c_i
    acceleration[J] -= parent_velocity[I] * rate;
    acceleration[K] += sign * as[joint.v_index];
    acceleration[3 + I] += parent_velocity[3 + J] * rate;
    acceleration[3 + J] -= parent_velocity[3 + I] * rate;
  } else {
    Vec6 relative, joint_acceleration;  // S q̇ and S q̈ + c_i
    detail::joint_local_motion(joint, qs + joint.q_index, vs + joint.v_index, as + joint.v_index, data.rotation[i],
                               parent_velocity, data.local_motion_axis.data() + joint.v_index, relative,
                               joint_acceleration);
    velocity = parent_velocity + relative;  // v_i = X v_λ + S q̇
    acceleration += joint_acceleration;     // a_i = X a_λ + S q̈ + c_i
  }

  // f_i = I_i a_i + v_i ×* I_i v_i, at the centre of mass.
  const Vec3& c = body.com;
  const Vec3 w = velocity.head<3>();
  const Vec3 dw = acceleration.head<3>();
  const Vec3 com_velocity = velocity.tail<3>() + w.cross(c);
  const Vec3 force = body.mass * (acceleration.tail<3>() + dw.cross(c) + w.cross(com_velocity));  // F = m a_c
  const Vec3 spin = body.inertia * w;                                                           // J ω
  Vec6& f = data.body_force[i];
  f.head<3>().noalias() = body.inertia * dw;
  f.head<3>() += w.cross(spin) + c.cross(force);  // N_c + c × F
  f.tail<3>() = force;
}

/// Backward pass for body i: τ_i = S_iᵀ f_i, f_λ(i) += X_iᵀ f_i (K as in forward_body).
template <int K>
void backward_body(const Model& model, Data& data, int i) {
  const Joint& joint = model.joints[i];
  const Vec6& f = data.body_force[i];
  if constexpr (K >= 0) {
    data.tau[joint.v_index] = joint.axis[K] * f[K];  // S = [±e_K; 0]
  } else {
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      data.tau[k] = data.local_motion_axis[k].dot(f);  // τ_i = S_iᵀ f_i
  }
  const int parent = model.bodies[i].parent;
  if (parent == kGround) return;
  const Mat3& rotation = data.joint_rotation[i];
  const Vec3 force = detail::rotate(rotation, K, f.tail<3>());
  Vec6& parent_force = data.body_force[parent];
  parent_force.head<3>() += detail::rotate(rotation, K, f.head<3>());
  parent_force.head<3>() += data.joint_translation[i].cross(force);
  parent_force.tail<3>() += force;
}

}  // namespace

const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a) {
  detail::check_data_fits(model, data, "rnea");
  check_state(model, q, &v, &a);
  const double* qs = q.data();
  const double* vs = v.data();
  const double* as = a.data();

  const Vec3 gravity_acceleration = -model.gravity;  // a_0 = −a_g = [0; −g]
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    switch (detail::revolute_principal_axis(model.joints[i])) {  // about ±e_k: the written-out step
      case 0: forward_body<0>(model, data, i, qs, vs, as, gravity_acceleration); break;
      case 1: forward_body<1>(model, data, i, qs, vs, as, gravity_acceleration); break;
      case 2: forward_body<2>(model, data, i, qs, vs, as, gravity_acceleration); break;
      default: forward_body<-1>(model, data, i, qs, vs, as, gravity_acceleration); break;
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    switch (detail::revolute_principal_axis(model.joints[i])) {
      case 0: backward_body<0>(model, data, i); break;
      case 1: backward_body<1>(model, data, i); break;
      case 2: backward_body<2>(model, data, i); break;
      default: backward_body<-1>(model, data, i); break;
    }
  }
  return data.tau;
}

}  // namespace mechdyn
