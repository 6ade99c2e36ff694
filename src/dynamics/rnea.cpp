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
// data.body_force (f_i, body coordinates), data.tau; data.rnea_world_rotation only for
// bodies with model.needs_world_rotation. The kinematics stage is not touched.
// Allocates nothing.
#include "mechdyn/dynamics/rnea.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "../model/joint_dispatch.hpp"
#include "body_wrench.hpp"

namespace mechdyn {

namespace {

/// X m: a motion vector of the parent (parent coordinates) in body coordinates,
/// [Qᵀ w; Qᵀ (u − r × w)], with joint kind J's rotation products.
template <class J>
inline Vec6 motion_to_body(const Mat3& rotation, const Vec3& translation, const Vec6& m) {
  const Vec3 w = m.head<3>();
  const Vec3 u = m.tail<3>() - translation.cross(w);
  Vec6 out;
  out.head<3>() = J::rotate_transpose(rotation, w);
  out.tail<3>() = J::rotate_transpose(rotation, u);
  return out;
}

/// Forward pass for body i (Table 5.1, first loop), joint kind J.
template <class J>
void forward_body(const Model& model, Data& data, int i, const double* q, const double* v, const double* a,
                  const Vec3& gravity_acceleration) {
  const Body& body = model.bodies[i];
  const Joint& joint = model.joints[i];
  const int parent = body.parent;
  Mat3& rotation = data.joint_rotation[i];
  Vec3& translation = data.joint_translation[i];
  J::relative_pose(joint, q + joint.q_index, rotation, translation);  // X_i = X_J X_T (EC eqs. 2–3)
  Mat3& world_rotation = data.rnea_world_rotation[i];
  if (model.needs_world_rotation[i]) {  // EC eq. (4), spherical/free paths only
    if (parent == kGround)
      world_rotation = rotation;
    else
      J::compose(data.rnea_world_rotation[parent], rotation, world_rotation);
  }
  Vec6 parent_velocity;                              // X v_λ
  Vec6& acceleration = data.local_acceleration[i];  // X a_λ, then a_i
  if (parent == kGround) {                           // v_0 = 0, a_0 = −a_g
    parent_velocity.setZero();
    acceleration << Vec3::Zero(), J::rotate_transpose(rotation, gravity_acceleration);
  } else {
    parent_velocity = motion_to_body<J>(rotation, translation, data.local_velocity[parent]);
    acceleration = motion_to_body<J>(rotation, translation, data.local_acceleration[parent]);
  }
  // v_i = X v_λ + S q̇;  a_i = X a_λ + S q̈ + c_J + v_i × S q̇
  J::body_motion(joint, q + joint.q_index, v + joint.v_index, a + joint.v_index, world_rotation, parent_velocity,
                 data.local_motion_axis.data() + joint.v_index, data.local_velocity[i], acceleration);

  // f_i = I_i a_i + v_i ×* I_i v_i, formed at the centre of mass (gravity is in a_0).
  detail::body_wrench(body.mass, body.com, body.inertia, data.local_velocity[i], acceleration, data.body_force[i]);
}

/// Backward pass for body i (Table 5.1, second loop): τ_i = S_iᵀ f_i, f_λ(i) += X_iᵀ f_i.
template <class J>
void backward_body(const Model& model, Data& data, int i) {
  const Joint& joint = model.joints[i];
  const Vec6& f = data.body_force[i];
  J::project(joint, data.local_motion_axis.data() + joint.v_index, f, data.tau.data() + joint.v_index);
  const int parent = model.bodies[i].parent;
  if (parent == kGround) return;
  const Mat3& rotation = data.joint_rotation[i];
  const Vec3 force = J::rotate(rotation, f.tail<3>());  // Xᵀ [n; f] = [Q n + r × Q f; Q f]
  Vec6& parent_force = data.body_force[parent];
  parent_force.head<3>() += J::rotate(rotation, f.head<3>());
  parent_force.head<3>() += data.joint_translation[i].cross(force);
  parent_force.tail<3>() += force;
}

}  // namespace

const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "rnea");
  check_state(model, q, &v, &a);
  const double* qs = q.data();
  const double* vs = v.data();
  const double* as = a.data();

  const Vec3 gravity_acceleration = -model.gravity;  // a_0 = −a_g = [0; −g]
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i)
    visit_joint_kind(model.joints[i].kind, [&](auto kind) {
      forward_body<decltype(kind)>(model, data, i, qs, vs, as, gravity_acceleration);
    });
  for (int i = n - 1; i >= 0; --i)
    visit_joint_kind(model.joints[i].kind, [&](auto kind) { backward_body<decltype(kind)>(model, data, i); });
  if (model.has_armature) data.tau += model.armature.cwiseProduct(a);  // the drives' inertial effort
  return data.tau;
}

}  // namespace mechdyn
