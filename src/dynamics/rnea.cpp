// Recursive Newton–Euler inverse dynamics, τ = M(q) a + h(q, q̇), in world coordinates.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §5.3, Table 5.1,
// written in his absolute (world) coordinates: every coordinate transform X of the
// table is the identity, and the motion axes S_i, their rates Ṡ_i q̇_i and the inertias
// I_i are world quantities referred to the world origin (math/spatial.hpp).
//   a_0 = −a_g = [0; −g]                         (gravity as a fictitious base acceleration;
//                                                  a uniform linear acceleration is [0; a] here)
//   v_i = v_λ(i) + S_i q̇_i                        } forward pass (forward_kinematics)
//   a_i = a_λ(i) + S_i q̈_i + Ṡ_i q̇_i              }
//   f_i = I_i a_i + v_i ×* I_i v_i                 forward pass
//   τ_i = S_iᵀ f_i,  f_λ(i) += f_i                 backward pass, i = N … 1
// Because a_0 enters every a_i additively, the gravity-free accelerations of
// forward_kinematics are used and a_0 is added when forming f_i.
// Cost: O(n) (one pass of kinematics, one of forces).
// Reads: model, q, v, a. Writes: Data's kinematics block (data.acceleration without
// gravity), data.body_force (f_i: force transmitted by joint i, about the world origin),
// data.tau. Allocates nothing.
#include "mechdyn/dynamics/rnea.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "recursive_checks.hpp"

namespace mechdyn {

const VecX& rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                 const Eigen::Ref<const VecX>& a) {
  detail::check_data_fits(model, data, "rnea");
  check_state(model, q, &v, &a);
  forward_kinematics(model, data, q, v, a);  // v_i, a_i (without gravity), S_i, Ṡ_i q̇_i

  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // a_0 = −a_g
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    const SpatialInertia inertia = SpatialInertia::from_com(body.mass, data.com_position[i], data.inertia_world[i]);
    const Vec6& velocity = data.velocity[i];
    const Vec6 acceleration = data.acceleration[i] + base_acceleration;
    // f_i = I_i a_i + v_i ×* I_i v_i, written out on 3-vector blocks (SpatialInertia::apply
    // and cross_force, math/spatial.hpp) so that nothing is passed through memory:
    //   I [w; u] = [I_O w + h × u; m u − h × w],  [w; u] ×* [n; f] = [w × n + u × f; w × f]
    const Vec3& h = inertia.first_moment;
    const Vec3 w = velocity.head<3>(), u = velocity.tail<3>();
    const Vec3 momentum_angular = inertia.rotational * w + h.cross(u);
    const Vec3 momentum_linear = inertia.mass * u - h.cross(w);
    const Vec3 dw = acceleration.head<3>(), du = acceleration.tail<3>();
    Vec6& force = data.body_force[i];
    force.head<3>() = inertia.rotational * dw + h.cross(du) + w.cross(momentum_angular) + u.cross(momentum_linear);
    force.tail<3>() = inertia.mass * du - h.cross(dw) + w.cross(momentum_linear);  // f_i
  }
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      data.tau[k] = data.motion_axis[k].dot(data.body_force[i]);  // τ_i = S_iᵀ f_i
    const int parent = model.bodies[i].parent;
    if (parent != kGround) data.body_force[parent] += data.body_force[i];  // f_λ(i) += f_i
  }
  return data.tau;
}

}  // namespace mechdyn
