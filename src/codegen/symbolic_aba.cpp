// Symbolic articulated-body forward dynamics in body coordinates, for `mechdyn codegen`
// (symbolic_dynamics.hpp): the O(n) alternative to the Lᵀ D L of M, whose unrolled factor
// grows as O(Σ_k depth_k²) — O(n³) operations on a chain. generated_functions.cpp prints
// whichever of the two costs fewer operations.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §7.3, Table 7.1, as
// dynamics/aba.cpp runs it (which derives it), here in each body's natural frame at its
// frame origin, with gravity as the base acceleration a_0 = [0; −g] (as symbolic_rnea.cpp):
//   pass 1 (i = 1 … N):  v_i = X_i v_λ + S_i q̇_i,  c_i = velocity product,
//                        I^A_i = I_i,  p^A_i = v_i ×* I_i v_i − w_i (w_i: the force
//                        elements' wrench on the body, format 3)
//   pass 2 (i = N … 1):  U_i = I^A_i S_i,  D_i = S_iᵀ U_i + armature_i,  u_i = τ_i − S_iᵀ p^A_i
//                        I^a = I^A_i − U_i D_i⁻¹ U_iᵀ,  p^a = p^A_i + I^a c_i + U_i D_i⁻¹ u_i
//                        I^A_λ += X_iᵀ I^a X_i,  p^A_λ += X_iᵀ p^a
//   pass 3 (i = 1 … N):  a'_i = X_i a_λ + c_i,  q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i),  a_i = a'_i + S_i q̈_i
// Joints of one coordinate (revolute, prismatic) and fixed joints only: D_i is then a
// scalar (joints of more coordinates would need a symbolic k × k inverse; the caller
// keeps the Lᵀ D L for them). X_iᵀ I^a X_i is formed column by column, X_iᵀ (I^a (X_i e_j)),
// so that the structural zeros of X_i (natural frames) fold away.
// Cost: O(n) graph nodes. Reads: the model, the symbolic tree. Writes: graph nodes.
#include <string>

#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

/// A symmetric spatial matrix (6 × 6) over expressions, motion → force, [top; bottom] order.
struct SMat6 {
  Expr m[6][6];
};

Expr& entry(SSpatial& x, int k) { return k < 3 ? x.top[k] : x.bottom[k - 3]; }
const Expr& entry(const SSpatial& x, int k) { return k < 3 ? x.top[k] : x.bottom[k - 3]; }

SSpatial times(const SMat6& a, const SSpatial& x) {
  SSpatial r;
  for (int i = 0; i < 6; ++i) {
    Expr sum;
    for (int j = 0; j < 6; ++j) sum = sum + a.m[i][j] * entry(x, j);
    entry(r, i) = sum;
  }
  return r;
}

/// The rigid body's spatial inertia about its frame origin (body coordinates), a 6 × 6.
SMat6 body_inertia(const Body& body) {
  SMat6 r;
  for (int j = 0; j < 6; ++j) {  // column j = I e_j (symbolic_spatial.hpp apply, all constants)
    SSpatial unit;
    entry(unit, j) = Expr(1.0);
    const SVec3 c = SVec3::constant(body.com);
    const SVec3 first_moment = body.mass * c;
    const SMat3 inertia = SMat3::constant(body.inertia);  // about the centre of mass
    // Ī = J + m (|c|² 1 − c cᵀ): the rotational inertia about the origin
    const SVec3 n = inertia * unit.top + body.mass * cross(c, cross(unit.top, c)) + cross(first_moment, unit.bottom);
    const SVec3 f = body.mass * unit.bottom - cross(first_moment, unit.top);
    const SSpatial column{n, f};
    for (int i = 0; i < 6; ++i) r.m[i][j] = entry(column, i);
  }
  return r;
}

/// Force cross product v ×* f = [ω × n + u × f; ω × f].
SSpatial cross_force(const SSpatial& v, const SSpatial& f) {
  return {cross(v.top, f.top) + cross(v.bottom, f.bottom), cross(v.top, f.bottom)};
}

Expr magnitude(const Expr& x) { return max(x, -x); }

}  // namespace

bool symbolic_aba_applies(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.nv > 1) return false;
  return true;
}

SymbolicArticulated symbolic_aba(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& velocity,
                                 const std::vector<Expr>& tau, const std::vector<SSpatial>* external) {
  const int n = model.num_bodies();
  const std::size_t count = static_cast<std::size_t>(n);
  std::vector<SSpatial> body_velocity(count), bias_velocity(count), bias_force(count);
  std::vector<SMat6> articulated(count);
  for (int i = 0; i < n; ++i) {  // pass 1
    const std::size_t b = static_cast<std::size_t>(i);
    const Body& body = model.bodies[b];
    const Joint& joint = model.joints[b];
    const SymbolicJoint& state = tree.joints[b];
    const std::string name = c_identifier(body.name);
    SSpatial parent_velocity;
    if (body.parent != kGround) parent_velocity = motion_to_body(state, body_velocity[static_cast<std::size_t>(body.parent)]);
    SSpatial v = parent_velocity;
    for (int k = 0; k < joint.nv; ++k) v = v + velocity[static_cast<std::size_t>(joint.v_index + k)] * state.axes[k];
    body_velocity[b] = {named(v.top, "omega_" + name), named(v.bottom, "u_" + name)};
    bias_velocity[b] = velocity_product(joint, state, parent_velocity, velocity.data() + joint.v_index);  // c_i
    articulated[b] = body_inertia(body);
    bias_force[b] = cross_force(body_velocity[b], times(articulated[b], body_velocity[b]));  // p^A_i
    if (external != nullptr) {  // − w_i: the force elements' wrench on the body (format 3)
      const SSpatial& w = (*external)[b];
      bias_force[b] = {bias_force[b].top - w.top, bias_force[b].bottom - w.bottom};
    }
  }

  SymbolicArticulated out;
  out.acceleration.assign(static_cast<std::size_t>(model.nv), Expr());
  out.pivot.assign(static_cast<std::size_t>(model.nv), Expr());
  out.pivot_scale.assign(static_cast<std::size_t>(model.nv), Expr());
  std::vector<SSpatial> u_force(count);
  std::vector<Expr> u(count), inverse_d(count);
  for (int i = n - 1; i >= 0; --i) {  // pass 2
    const std::size_t b = static_cast<std::size_t>(i);
    const Joint& joint = model.joints[b];
    const SymbolicJoint& state = tree.joints[b];
    const std::string name = c_identifier(model.bodies[b].name);
    SMat6& inertia = articulated[b];
    for (int r = 0; r < 6; ++r)  // complete: every child added
      for (int c = 0; c <= r; ++c)
        inertia.m[r][c] = inertia.m[c][r] =
            named(inertia.m[r][c], "IA_" + name + "_" + std::to_string(r) + std::to_string(c));
    SSpatial& bias = bias_force[b];
    bias = {named(bias.top, "pA_n_" + name), named(bias.bottom, "pA_f_" + name)};
    SMat6 inertia_a = inertia;
    SSpatial bias_a = bias;
    if (joint.nv == 1) {
      const std::size_t k = static_cast<std::size_t>(joint.v_index);
      const SSpatial& axis = state.axes[0];
      const SSpatial force = times(inertia, axis);  // U_i = I^A_i S_i
      u_force[b] = {named(force.top, "U_n_" + name), named(force.bottom, "U_f_" + name)};
      const double armature = model.has_armature ? model.armature[static_cast<Eigen::Index>(k)] : 0.0;
      const Expr d = named(dot(axis, u_force[b]) + armature, "D_" + name);  // D_i = S_iᵀ U_i (+ armature)
      Expr scale;  // |S|ᵀ |I^A| |S|: the size of the terms summed into D (dynamics/aba.cpp)
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c)
          scale = scale + magnitude(entry(axis, r)) * magnitude(inertia.m[r][c]) * magnitude(entry(axis, c));
      scale = scale + armature;
      out.pivot[k] = d;
      out.pivot_scale[k] = scale;
      inverse_d[b] = named(1.0 / d, "inverse_D_" + name);
      u[b] = named(tau[k] - dot(axis, bias), "u_" + name);  // u_i = τ_i − S_iᵀ p^A_i
      const SSpatial scaled = inverse_d[b] * u_force[b];   // U D⁻¹
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) inertia_a.m[r][c] = inertia.m[r][c] - entry(scaled, r) * entry(u_force[b], c);
      bias_a = bias_a + u[b] * scaled;  // + U D⁻¹ u
    }
    const int parent = model.bodies[b].parent;
    if (parent == kGround) continue;
    bias_a = bias_a + times(inertia_a, bias_velocity[b]);  // + I^a c_i
    const std::size_t p = static_cast<std::size_t>(parent);
    bias_force[p] = bias_force[p] + force_to_parent(state, bias_a);  // p^A_λ += Xᵀ p^a
    for (int c = 0; c < 6; ++c) {  // I^A_λ += Xᵀ I^a X, column c = Xᵀ (I^a (X e_c))
      SSpatial unit;
      entry(unit, c) = Expr(1.0);
      const SSpatial column = force_to_parent(state, times(inertia_a, motion_to_body(state, unit)));
      for (int r = 0; r < 6; ++r) articulated[p].m[r][c] = articulated[p].m[r][c] + entry(column, r);
    }
  }

  std::vector<SSpatial> acceleration(count);
  const SVec3 gravity_acceleration = SVec3::constant(-model.gravity);  // a_0 = −a_g
  for (int i = 0; i < n; ++i) {  // pass 3
    const std::size_t b = static_cast<std::size_t>(i);
    const Body& body = model.bodies[b];
    const Joint& joint = model.joints[b];
    const SymbolicJoint& state = tree.joints[b];
    const std::string name = c_identifier(body.name);
    SSpatial a;  // a'_i = X a_λ + c_i
    if (body.parent == kGround) a.bottom = transpose_times(state.rotation, gravity_acceleration);
    else a = motion_to_body(state, acceleration[static_cast<std::size_t>(body.parent)]);
    a = a + bias_velocity[b];
    if (joint.nv == 1) {
      const std::size_t k = static_cast<std::size_t>(joint.v_index);
      const Expr ddq = named((u[b] - dot(u_force[b], a)) * inverse_d[b], "ddq_" + name);
      out.acceleration[k] = ddq;
      a = a + ddq * state.axes[0];
    }
    acceleration[b] = {named(a.top, "domega_" + name), named(a.bottom, "du_" + name)};
  }
  return out;
}

}  // namespace mechdyn::codegen
