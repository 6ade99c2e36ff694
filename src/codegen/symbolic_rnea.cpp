// Symbolic recursive Newton–Euler inverse dynamics in body coordinates, for `mechdyn
// codegen` (symbolic_dynamics.hpp).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §5.3, Table 5.1, in each
// body's natural frame at its frame origin, exactly as dynamics/rnea.cpp (which derives
// it); here over expressions, so that the model's constants fold in:
//   a_0 = [0; −g]                                  gravity as a base acceleration
//   v_i = X_i v_λ + S_i q̇_i,  a_i = X_i a_λ + S_i q̈_i + c_i
//   F = m a_c,  a_c = u̇ + ω̇ × c + ω × (u + ω × c)  (centre of mass c, body coordinates)
//   f_i = [J ω̇ + ω × J ω + c × F; F]
//   f_i −= w_i                                     the force elements' wrench (format 3), if any
//   τ_i = S_iᵀ f_i,  f_λ += X_iᵀ f_i                i = N … 1
// f_i is the wrench the parent exerts on body i's subtree through joint i, moment about
// body i's origin: the joint reaction of EC §3.1 (eval-json.md `reactions`, in body
// coordinates; Q_i f_i in the world).
// Cost: O(n) graph nodes. Reads: the model, the symbolic tree. Writes: graph nodes.
#include <string>

#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

SymbolicForces symbolic_rnea(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& velocity,
                             const std::vector<Expr>& acceleration, const std::vector<SSpatial>* external) {
  const int n = model.num_bodies();
  std::vector<SSpatial> body_velocity(static_cast<std::size_t>(n)), body_acceleration(static_cast<std::size_t>(n));
  SymbolicForces out;
  out.body_force.resize(static_cast<std::size_t>(n));
  out.tau.assign(static_cast<std::size_t>(model.nv), Expr());
  const SVec3 gravity_acceleration = SVec3::constant(-model.gravity);  // a_0 = −a_g
  for (int i = 0; i < n; ++i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const Body& body = model.bodies[b];
    const Joint& joint = model.joints[b];
    const SymbolicJoint& state = tree.joints[b];
    const std::string name = c_identifier(body.name);
    SSpatial parent_velocity, parent_acceleration;  // X v_λ, X a_λ
    if (body.parent == kGround) {
      parent_acceleration.bottom = transpose_times(state.rotation, gravity_acceleration);
    } else {
      parent_velocity = motion_to_body(state, body_velocity[static_cast<std::size_t>(body.parent)]);
      parent_acceleration = motion_to_body(state, body_acceleration[static_cast<std::size_t>(body.parent)]);
    }
    SSpatial v = parent_velocity, a = parent_acceleration;
    for (int k = 0; k < joint.nv; ++k) {
      v = v + velocity[static_cast<std::size_t>(joint.v_index + k)] * state.axes[k];      // S q̇
      a = a + acceleration[static_cast<std::size_t>(joint.v_index + k)] * state.axes[k];  // S q̈
    }
    a = a + velocity_product(joint, state, parent_velocity, velocity.data() + joint.v_index);  // c_i
    v = {named(v.top, "omega_" + name), named(v.bottom, "u_" + name)};
    a = {named(a.top, "domega_" + name), named(a.bottom, "du_" + name)};
    body_velocity[b] = v;
    body_acceleration[b] = a;

    // f_i at the centre of mass c (body coordinates)
    const SVec3 c = SVec3::constant(body.com);
    const SMat3 inertia = SMat3::constant(body.inertia);
    const SVec3 com_velocity = v.bottom + cross(v.top, c);
    const SVec3 force = named(body.mass * (a.bottom + cross(a.top, c) + cross(v.top, com_velocity)), "F_" + name);
    const SVec3 moment = inertia * a.top + cross(v.top, inertia * v.top) + cross(c, force);
    out.body_force[b] = {moment, force};
    if (external != nullptr) {  // − w_i: the force elements' wrench on the body
      const SSpatial& w = (*external)[b];
      out.body_force[b] = {moment - w.top, force - w.bottom};
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const Joint& joint = model.joints[b];
    const std::string name = c_identifier(model.bodies[b].name);
    SSpatial& f = out.body_force[b];
    f = {named(f.top, "n_" + name), named(f.bottom, "f_" + name)};  // complete: every child added
    for (int k = 0; k < joint.nv; ++k) out.tau[static_cast<std::size_t>(joint.v_index + k)] = dot(tree.joints[b].axes[k], f);
    const int parent = model.bodies[b].parent;
    if (parent != kGround) {
      SSpatial& target = out.body_force[static_cast<std::size_t>(parent)];
      target = target + force_to_parent(tree.joints[b], f);  // f_λ += X_iᵀ f_i
    }
  }
  return out;
}

}  // namespace mechdyn::codegen
