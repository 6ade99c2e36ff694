// Symbolic composite-rigid-body algorithm in body coordinates, for `mechdyn codegen`
// (symbolic_dynamics.hpp).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §6.2, Table 6.2, with
// every composite inertia in its body's natural frame about the frame origin (the EJ
// eqs. (30)–(37) element M[u][k] = n_uᵀ(Σ_{l∈uL} …)n_k is this contraction with the
// subtree aggregates, docs/dynamics.md "The explicit inertia matrix in O(n·depth)"):
//   I^c_i = I_i + Σ_children X_jᵀ I^c_j X_j          (subtree inertia, body i coordinates)
//   F = I^c_i S_k,   M_kk' = S_k'ᵀ F (k' of the same joint)
//   F ← X_jᵀ F up the path, M_kk' = M_k'k = S_k'ᵀ F for every coordinate k' above
// The body inertias are constants (folded at generation); a child's inertia moved to its
// parent (rotation E, offset r) is, with g = E h:
//   m' = m,  h' = g + m r,  Ī' = E Ī Eᵀ + m(|r|² 1 − r rᵀ) + 2(r·g) 1 − r gᵀ − g rᵀ
// (the parallel-axis theorem about the parent origin, expanded so that the constant
// m(|r|²1 − r rᵀ) folds). With S = [±e_k; 0], F and S_k'ᵀ F are entries: no products.
// Entries of coordinates on different branches stay the constant 0. A joint's armature
// (model format 3) is added to its diagonal entry, as dynamics/crba.cpp does.
// Cost: O(Σ_k depth_k) graph nodes. Reads: the model, the symbolic tree. Writes: graph nodes.
#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

/// The body's spatial inertia about its frame origin, body coordinates, as constants.
SInertia body_inertia(const Body& body) {
  const Vec3 h = body.mass * body.com;
  const Mat3 rotational = body.inertia + body.mass * (body.com.squaredNorm() * Mat3::Identity() - body.com * body.com.transpose());
  SInertia out;
  out.mass = body.mass;
  out.first_moment = SVec3::constant(h);
  out.xx = rotational(0, 0), out.yy = rotational(1, 1), out.zz = rotational(2, 2);
  out.xy = rotational(0, 1), out.xz = rotational(0, 2), out.yz = rotational(1, 2);
  return out;
}

/// X_jᵀ I X_j: the inertia of body j's subtree about the parent origin, parent coordinates.
SInertia inertia_to_parent(const SymbolicJoint& joint, const SInertia& inertia) {
  const SMat3& e = joint.rotation;
  const SVec3& r = joint.translation;
  const SVec3 g = e * inertia.first_moment;  // E h
  const SMat3 a = e * inertia.rotational();  // E Ī
  auto rotated = [&](int i, int j) { return a(i, 0) * e(j, 0) + a(i, 1) * e(j, 1) + a(i, 2) * e(j, 2); };  // (E Ī Eᵀ)_ij
  const Expr m = inertia.mass;
  const Expr r_squared = dot(r, r), r_dot_g = dot(r, g);
  auto shift = [&](int i, int j) {  // m(|r|²δ_ij − r_i r_j) + 2(r·g)δ_ij − r_i g_j − g_i r_j
    Expr s = -(m * (r[i] * r[j])) - r[i] * g[j] - g[i] * r[j];
    if (i == j) s = s + m * r_squared + 2.0 * r_dot_g;
    return s;
  };
  SInertia out;
  out.mass = m;
  out.first_moment = g + m * r;
  out.xx = rotated(0, 0) + shift(0, 0), out.yy = rotated(1, 1) + shift(1, 1), out.zz = rotated(2, 2) + shift(2, 2);
  out.xy = rotated(0, 1) + shift(0, 1), out.xz = rotated(0, 2) + shift(0, 2), out.yz = rotated(1, 2) + shift(1, 2);
  return out;
}

SInertia operator+(const SInertia& a, const SInertia& b) {
  SInertia out;
  out.mass = a.mass + b.mass;
  out.first_moment = a.first_moment + b.first_moment;
  out.xx = a.xx + b.xx, out.yy = a.yy + b.yy, out.zz = a.zz + b.zz;
  out.xy = a.xy + b.xy, out.xz = a.xz + b.xz, out.yz = a.yz + b.yz;
  return out;
}

SInertia named(const SInertia& in, const std::string& name) {
  SInertia out = in;
  out.first_moment = codegen::named(in.first_moment, "h_" + name);
  out.xx = codegen::named(in.xx, "I_" + name + "_xx"), out.yy = codegen::named(in.yy, "I_" + name + "_yy");
  out.zz = codegen::named(in.zz, "I_" + name + "_zz"), out.xy = codegen::named(in.xy, "I_" + name + "_xy");
  out.xz = codegen::named(in.xz, "I_" + name + "_xz"), out.yz = codegen::named(in.yz, "I_" + name + "_yz");
  return out;
}

}  // namespace

std::vector<Expr> symbolic_mass_matrix(const Model& model, const SymbolicTree& tree) {
  const int n = model.num_bodies(), nv = model.nv;
  std::vector<SInertia> composite(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) composite[static_cast<std::size_t>(i)] = body_inertia(model.bodies[static_cast<std::size_t>(i)]);
  for (int i = n - 1; i >= 0; --i) {  // I^c_λ += X_iᵀ I^c_i X_i, children first
    const std::size_t b = static_cast<std::size_t>(i);
    composite[b] = named(composite[b], c_identifier(model.bodies[b].name));
    const int parent = model.bodies[b].parent;
    if (parent != kGround)
      composite[static_cast<std::size_t>(parent)] =
          composite[static_cast<std::size_t>(parent)] + inertia_to_parent(tree.joints[b], composite[b]);
  }
  std::vector<Expr> mass_matrix(static_cast<std::size_t>(nv) * static_cast<std::size_t>(nv));
  auto entry = [&](int row, int column) -> Expr& {
    return mass_matrix[static_cast<std::size_t>(row) * static_cast<std::size_t>(nv) + static_cast<std::size_t>(column)];
  };
  for (int i = 0; i < n; ++i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const Joint& joint = model.joints[b];
    for (int k = 0; k < joint.nv; ++k) {
      const int row = joint.v_index + k;
      SSpatial force = apply(composite[b], tree.joints[b].axes[k]);  // F = I^c_i S_k
      for (int c = 0; c <= k; ++c) entry(row, joint.v_index + c) = entry(joint.v_index + c, row) =
                                       dot(tree.joints[b].axes[c], force);
      for (int j = i; model.bodies[static_cast<std::size_t>(j)].parent != kGround;) {
        force = force_to_parent(tree.joints[static_cast<std::size_t>(j)], force);  // F ← X_jᵀ F
        j = model.bodies[static_cast<std::size_t>(j)].parent;
        const Joint& above = model.joints[static_cast<std::size_t>(j)];
        for (int c = 0; c < above.nv; ++c)
          entry(row, above.v_index + c) = entry(above.v_index + c, row) =
              dot(tree.joints[static_cast<std::size_t>(j)].axes[c], force);
      }
    }
  }
  for (int k = 0; k < nv; ++k)  // the drives' reflected inertia (format 3, force-elements.md `armature`)
    if (model.has_armature && model.armature[k] != 0.0) entry(k, k) = entry(k, k) + model.armature[k];
  return mass_matrix;
}

}  // namespace mechdyn::codegen
