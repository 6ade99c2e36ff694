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
// explicit_mass_matrix — the aggregated form: the subtree sums need only the composite
// inertias I^c_u, and M[i][j] = s_iᵀ (I^c_u s_j); that is the world-frame CRBA
// (dynamics/crba.hpp, docs/dynamics.md), which it calls.
//
// explicit_mass_matrix_direct — the literal sums of eqs. (30), (31), (34), (35): for
// every lower-triangle element a loop over l ∈ uL. A coordinate whose motion axis has
// no angular part is translational (n = linear part); any other is rotational about
// its angular part n through its body's frame origin (every joint model puts the body
// frame origin on its rotation axes, model/joint.hpp). Cost O(nv²·n); the reference.
//
// Reads: Model (bodies, subtree, dof_body, dof_parent); runs forward_kinematics(q).
// Writes: data.mass_matrix (both triangles); the aggregated form also
// data.composite_inertia. Allocates nothing, except data.mass_matrix itself on the first
// call with a Data made without DenseWorkspace::MassMatrix (model/data.hpp).
#include "mechdyn/dynamics/explicit_jsim.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

const MatX& explicit_mass_matrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "explicit_mass_matrix");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
  return detail::composite_rigid_body(model, data);  // the aggregated eqs. (30)–(37) are the world-frame CRBA
}

const MatX& explicit_mass_matrix_direct(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "explicit_mass_matrix_direct");
  check_state(model, q);
  data.reserve(model, DenseWorkspace::MassMatrix);  // allocates only in a Data made without it
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);

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
  if (model.has_armature) mass_matrix.diagonal() += model.armature;  // drives' reflected inertia (force-elements.md)
  return mass_matrix;
}

}  // namespace mechdyn
