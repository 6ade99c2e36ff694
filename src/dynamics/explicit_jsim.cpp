// Explicit joint-space inertia matrix M(q) of a tree.
//
// Source: explicit-jsim-tree-chains (EJ) §4, eqs. (30)–(37) (the element formulas; EJ §6
// and Table 1 count their literal evaluation, O(n³)). Row u, column k, k an ancestor of u
// or u itself (lower triangle; the upper is mirrored, EJ §5):
//   R–R  M[u][k] =  n_uᵀ Σ_{l∈uL} (J_l − m_l r̃^{u}_{lI} r̃^{k}_{lI}) n_k      eq. (30)
//   R–P  M[u][k] =  n_uᵀ Σ_{l∈uL} m_l r̃^{u}_{lI} n_k                          eq. (31)
//   P–R  M[u][k] = −n_uᵀ Σ_{l∈uL} m_l r̃^{k}_{lI} n_k                          eq. (34)
//   P–P  M[u][k] =  n_uᵀ Σ_{l∈uL} m_l n_k                                      eq. (35)
// where r^{u}_{lI} = c_l − o_u runs from a point o_u on axis u to body l's centre of mass.
// (Eqs. (32), (33), (36), (37) are the same four for the mirrored upper triangle.)
//
// explicit_mass_matrix — the aggregated form (our rewriting, not in EJ). With o_u fixed,
// each sum is affine in the body quantities, so it only needs the subtree aggregates
//   S_u = Σ_{l∈uL} (m_l, m_l c_l, J_l − m_l c̃_l c̃_l)     (a spatial inertia about the world origin)
// accumulated once, backward. Writing every velocity coordinate's world motion axis
// as s = [n; o × n] (rotational) or [0; n] (translational), expanding c_l − o_u and
// c_l − o_k in eqs. (30)–(35) and collecting the subtree sums gives, for all four
// cases at once,
//   M[i][j] = s_iᵀ (S_u s_j)        i a coordinate of body u, j = i or above i,
// which is also how multi-DoF joints (universal, spherical, free) enter: per coordinate,
// with no joint-type branch. Cost O(n) for S plus O(nv·depth) elements of O(1).
//
// explicit_mass_matrix_direct — the literal sums of eqs. (30), (31), (34), (35): for
// every lower-triangle element a loop over l ∈ uL. A coordinate whose motion axis has
// no angular part is translational (n = linear part); any other is rotational about
// its angular part n through its body's frame origin (every joint model puts the body
// frame origin on its rotation axes, model/joint.hpp). Cost O(nv²·n); the reference.
//
// Reads: Model (bodies, subtree, dof_body, dof_parent); runs forward_kinematics(q).
// Writes: data.mass_matrix (both triangles), data.subtree_inertia (aggregated form).
// Allocates nothing.
#include "mechdyn/dynamics/explicit_jsim.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/math/skew.hpp"
#include "explicit_steps.hpp"

namespace mechdyn {

const MatX& explicit_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_state(model, q);
  forward_kinematics(model, data, q);
  detail::explicit_mass_matrix_from_kinematics(model, data);
  return data.mass_matrix;
}

void detail::explicit_mass_matrix_from_kinematics(const Model& model, Data& data) {
  data.reserve(model, DenseWorkspace::MassMatrix);  // allocates only in a Data made without it
  const int n = model.num_bodies();

  // S_u = Σ_{l∈uL} (m_l, m_l c_l, J_l − m_l c̃_l c̃_l), children before parents.
  for (int l = 0; l < n; ++l)
    data.subtree_inertia[l] =
        SpatialInertia::from_com(model.bodies[l].mass, data.com_position[l], data.inertia_world[l]);
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[l].parent;
    if (parent != kGround) data.subtree_inertia[parent] += data.subtree_inertia[l];
  }

  MatX& mass_matrix = data.mass_matrix;
  mass_matrix.setZero();
  for (int i = 0; i < model.nv; ++i) {
    const int u = model.dof_body[i];
    // S_u s_i: the subtree's momentum per unit rate of coordinate i.
    const Vec6 subtree_momentum = data.subtree_inertia[u].apply(data.motion_axis[i]);
    // Walk j = i, λ(i), λ(λ(i)), ...: the coordinates of u's own joint up to i and
    // those of every ancestor joint — exactly the non-zero lower-triangle entries.
    for (int j = i; j != -1; j = model.dof_parent[j]) {
      const double element = data.motion_axis[j].dot(subtree_momentum);  // eqs. (30), (31), (34), (35)
      mass_matrix(i, j) = element;
      mass_matrix(j, i) = element;  // symmetry, EJ §5 (eqs. (32), (33), (36), (37))
    }
  }
}

const MatX& explicit_mass_matrix_direct(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_state(model, q);
  data.reserve(model, DenseWorkspace::MassMatrix);
  forward_kinematics(model, data, q);

  MatX& mass_matrix = data.mass_matrix;
  mass_matrix.setZero();
  for (int i = 0; i < model.nv; ++i) {
    const int u = model.dof_body[i];
    const Vec6& axis_u = data.motion_axis[i];
    const bool u_rotational = !axis_u.head<3>().isZero(0.0);
    const Vec3 n_u = u_rotational ? Vec3(axis_u.head<3>()) : Vec3(axis_u.tail<3>());
    const Vec3& o_u = data.position[u];  // a point on axis u (rotational case)

    for (int j = i; j != -1; j = model.dof_parent[j]) {
      const int k = model.dof_body[j];
      const Vec6& axis_k = data.motion_axis[j];
      const bool k_rotational = !axis_k.head<3>().isZero(0.0);
      const Vec3 n_k = k_rotational ? Vec3(axis_k.head<3>()) : Vec3(axis_k.tail<3>());
      const Vec3& o_k = data.position[k];

      double element = 0.0;
      for (const int l : model.subtree[u]) {
        const double m_l = model.bodies[l].mass;
        const Vec3& c_l = data.com_position[l];
        const Vec3 r_u = c_l - o_u;  // r^{u}_{lI}
        const Vec3 r_k = c_l - o_k;  // r^{k}_{lI}
        if (u_rotational && k_rotational) {
          element += n_u.dot(data.inertia_world[l] * n_k - m_l * (skew(r_u) * (skew(r_k) * n_k)));  // eq. (30)
        } else if (u_rotational) {
          element += n_u.dot(m_l * (skew(r_u) * n_k));  // eq. (31)
        } else if (k_rotational) {
          element -= n_u.dot(m_l * (skew(r_k) * n_k));  // eq. (34)
        } else {
          element += n_u.dot(m_l * n_k);  // eq. (35)
        }
      }
      mass_matrix(i, j) = element;
      mass_matrix(j, i) = element;  // EJ §5: M[k][u] = M[u][k]
    }
  }
  return mass_matrix;
}

}  // namespace mechdyn
