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
/// rotation about e_k when k ≥ 0 (joint_inline.hpp, principal axes).
inline Vec6 motion_to_body(const Mat3& rotation, int k, const Vec3& translation, const Vec6& m) {
  const Vec3 w = m.head<3>();
  const Vec3 u = m.tail<3>() - translation.cross(w);
  Vec6 out;
  out.head<3>() = detail::rotate_transpose(rotation, k, w);
  out.tail<3>() = detail::rotate_transpose(rotation, k, u);
  return out;
}

}  // namespace

const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a) {
  detail::check_data_fits(model, data, "rnea");
  check_state(model, q, &v, &a);
  const double* qs = q.data();
  const double* vs = v.data();
  const double* as = a.data();

  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // a_0 = −a_g
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    const Joint& joint = model.joints[i];
    const int parent = body.parent;
    Mat3& rotation = data.joint_rotation[i];
    Vec3& translation = data.joint_translation[i];
    const int principal = detail::revolute_principal_axis(joint);  // about ±e_k: cheaper products
    detail::joint_relative_pose_inline(joint, principal, qs + joint.q_index, rotation, translation);  // Q, r (eqs. 2–3)
    if (model.needs_world_rotation[i]) {  // eq. (4)
      if (parent == kGround)
        data.rotation[i] = rotation;
      else
        detail::compose_rotation(data.rotation[parent], rotation, principal, data.rotation[i]);
    }

    // X v_λ and X a_λ; the ground is at rest with a_0 = −a_g (world = ground coordinates).
    Vec6 parent_velocity;
    Vec6& acceleration = data.local_acceleration[i];
    if (parent == kGround) {
      parent_velocity.setZero();
      acceleration << Vec3::Zero(), detail::rotate_transpose(rotation, principal, base_acceleration.tail<3>());
    } else {
      parent_velocity = motion_to_body(rotation, principal, translation, data.local_velocity[parent]);
      acceleration = motion_to_body(rotation, principal, translation, data.local_acceleration[parent]);
    }
    Vec6 relative, joint_acceleration;  // S q̇ and S q̈ + c_i
    detail::joint_local_motion(joint, qs + joint.q_index, vs + joint.v_index, as + joint.v_index, data.rotation[i],
                               parent_velocity, data.local_motion_axis.data() + joint.v_index, relative,
                               joint_acceleration);
    Vec6& velocity = data.local_velocity[i];
    velocity = parent_velocity + relative;  // v_i = X v_λ + S q̇
    acceleration += joint_acceleration;     // a_i = X a_λ + S q̈ + c_i

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
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = model.joints[i];
    const Vec6& f = data.body_force[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      data.tau[k] = data.local_motion_axis[k].dot(f);  // τ_i = S_iᵀ f_i
    const int parent = model.bodies[i].parent;
    if (parent == kGround) continue;
    // f_λ(i) += X_iᵀ f_i
    const Mat3& rotation = data.joint_rotation[i];
    const int principal = detail::revolute_principal_axis(joint);
    const Vec3 force = detail::rotate(rotation, principal, f.tail<3>());
    Vec6& parent_force = data.body_force[parent];
    parent_force.head<3>() += detail::rotate(rotation, principal, f.head<3>());
    parent_force.head<3>() += data.joint_translation[i].cross(force);
    parent_force.tail<3>() += force;
  }
  return data.tau;
}

}  // namespace mechdyn
