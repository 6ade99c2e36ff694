// Column j of ∂τ/∂q and ∂τ/∂v for a one-axis joint carried by its parent (revolute,
// prismatic, every kind: all the joints of a robot arm) in the fast form of
// rnea_derivatives (docs/derivatives.md eqs. D12, D12', D16).
//
// Source: Carpentier & Mansard, RSS 2018, §III–IV (the composite form), with the closed form
// of the remainders for such a joint (eq. D16): Δs_j = −s_j × s_j = 0 and ṡ_j = V_λ × s_j, so
//   β = V_λ × s_j,  α = A^g_λ × s_j + V_λ × β,   and for ∂/∂v_j:  α_v = 2 β,  β_v = s_j.
// Then, with the composites of the moved body b (I^c, B^c, H^c) and the rows f_k, u_k of
// every coordinate k below (rnea_derivatives.cpp):
//   ∂τ_k/∂q_j = f_k·α + u_k·β,  ∂τ_k/∂v_j = f_k·α_v + u_k·s_j             k in b's subtree (D12')
//   ∂F_b/∂q_j = s_j ×* F_b + I^c α + B^c β + β ×* H^c,
//   ∂F_b/∂v_j = I^c α_v + B^c s_j + s_j ×* H^c,    ∂τ_k/∂(q_j, v_j) = s_kᵀ ∂F_b    k above b (D8, D12)
// The ∂/∂q_j and ∂/∂v_j quantities travel side by side as pairs (math/vector_pairs.hpp, one
// SSE2 register per row): A = (α, α_v) and B = (β, s_j), so each operator both columns share
// — I^c on A, B^c and ×* H^c on B, the rows f_k on A and u_k on B, s_k above — costs one
// packed product instead of two. Since B^c's vector c^c is the linear momentum H^c_f
// (eq. D11), B^c B + B ×* H^c = [P B_ω + B_ω × H_n; 2 B_ω × H_f] and u_k = [·; 0]: only the
// angular part of B is read.
// On one path from the root (DerivativeData::single_path) the rows above b are 0 … j − 1,
// written here in one loop with the ∂F_b pair in registers (columns_above, which also serves
// trees and the reactions, reloaded it for every entry); the same products in the same order,
// so the same bits either way.
// Cost per coordinate: ~60 packed multiplications for ∂F_b and ~55 scalar ones for (α, β),
// then 9 packed per row of the subtree and 6 per coordinate above (callgrind counts:
// docs/benchmarks.md).
// Reads: the kinematics stage (velocity, acceleration, motion_axis, position) and the
// composites, rows and transmitted forces of rnea_derivatives' pass in `work`. Writes column j
// of work.dtau_dq, work.dtau_dv (and of the reactions with work.with_reactions). Allocates
// nothing.
#include "derivative_stages.hpp"

namespace mechdyn::detail {

namespace {

/// Two numbers side by side (of ∂/∂q_j, of ∂/∂v_j), one SSE2 register (GCC's vector
/// extension: + − × act on both lanes), for the loop over the rows above b.
typedef double Two __attribute__((vector_size(16)));

inline Two pair_row(const VectorPair& p, int c) { return Two{p(c, 0), p(c, 1)}; }

/// I x for the pair x = (x₁, x₂) and I = [[J, h̃], [−h̃, m]] (a spatial inertia about the
/// world origin), added to `out`.
inline void add_inertia_times(const SpatialInertia& inertia, const SpatialPair& x, SpatialPair& out) {
  out.angular += product_pair(inertia.rotational, x.angular) + cross_left_pair(inertia.first_moment, x.linear);
  out.linear += inertia.mass * x.linear - cross_left_pair(inertia.first_moment, x.angular);
}

}  // namespace

__attribute__((flatten)) void differentiate_single_axis(const Model& model, const Data& data, DerivativeData& work,
                                                        int moved, int j, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];
  const Vec3 w = twist.head<3>(), t = twist.tail<3>();  // s_j = [w; t]
  const int parent = model.bodies[moved].parent;
  Vec3 beta_w, beta_t, alpha_w, alpha_t;  // β = V_λ × s_j, α = A^g_λ × s_j + V_λ × β (eq. D16)
  if (parent == kGround) {                // V_λ = 0, A^g_λ = [0; −g]
    beta_w.setZero();
    beta_t.setZero();
    alpha_w.setZero();
    alpha_t = Vec3(base_acceleration.tail<3>()).cross(w);
  } else {
    const Vec3 omega = data.velocity[parent].head<3>(), velocity = data.velocity[parent].tail<3>();
    const Vec6 acceleration = data.acceleration[parent] + base_acceleration;
    const Vec3 spin = acceleration.head<3>(), linear = acceleration.tail<3>();
    beta_w = omega.cross(w);
    beta_t = omega.cross(t) + velocity.cross(w);
    alpha_w = spin.cross(w) + omega.cross(beta_w);
    alpha_t = spin.cross(t) + linear.cross(w) + omega.cross(beta_t) + velocity.cross(beta_w);
  }
  SpatialPair first;  // A = (α, α_v = 2β)
  VectorPair second;  // the angular part of B = (β, s_j): all that the rows, B^c and ×* H^c read of it (eq. D11)
  first.angular.col(0) = alpha_w;
  first.angular.col(1) = 2.0 * beta_w;
  first.linear.col(0) = alpha_t;
  first.linear.col(1) = 2.0 * beta_t;
  second.col(0) = beta_w;
  second.col(1) = w;

  const auto row = [&](int k) {  // eq. (D12')
    const Eigen::RowVector2d entries =
        rows_times(work.composite_axis_rows[static_cast<std::size_t>(k)], first, second);
    work.dtau_dq(k, j) = entries[0];
    work.dtau_dv(k, j) = entries[1];
  };
  const int end = work.subtree_dof_end[static_cast<std::size_t>(moved)];
  if (end >= 0) {  // the subtree's coordinates are one range (depth-first numbering: every chain)
    for (int k = j; k < end; ++k) row(k);
  } else {
    for (const int i : model.subtree[moved]) {
      const Joint& joint = model.joints[i];
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) row(k);
    }
  }
  if (parent == kGround && !work.with_reactions) return;  // no rows above a root

  // (∂F_b/∂q_j, ∂F_b/∂v_j) = I^c A + B^c B + B ×* H^c + (s_j ×* F_b, 0) (eq. D12), with
  // B^c = [[P, c̃], [−c̃, 0]] (eq. D11) and x ×* H = [x_ω × H_n + x_u × H_f; x_ω × H_f]
  const Mat3& block = work.composite_coriolis_block[moved];
  const Vec3 momentum_n = work.composite_momentum[moved].head<3>(), momentum_f = work.composite_momentum[moved].tail<3>();
  const Vec3 force_n = work.transmitted_force[moved].head<3>(), force_f = work.transmitted_force[moved].tail<3>();
  SpatialPair variation;  // B^c B + B ×* H^c = [P B_ω + B_ω × H_n; 2 B_ω × H_f] (composite_variation)
  variation.angular = product_pair(block, second) + cross_pair(second, momentum_n);
  variation.linear = cross_pair(2.0 * second, momentum_f);
  add_inertia_times(work.composite_inertia[moved], first, variation);
  variation.angular.col(0) += w.cross(force_n) + t.cross(force_f);  // s_j ×* F_b
  variation.linear.col(0) += w.cross(force_f);
  if (work.with_reactions) {  // eq. (D13) with the composites of each joint below b
    const Vec6 alpha_q = lane(first, 0), beta_q = make_vec6(beta_w, beta_t), alpha_v = lane(first, 1);
    const SubtreeIndex::Range subtree = model.subtree[moved];
    for (std::size_t r = 1; r < subtree.size(); ++r) {
      const int i = subtree[r];
      reaction_column(data, work, i, j,
                      cross_force(twist, work.transmitted_force[i]) + composite_variation(work, i, alpha_q, beta_q),
                      composite_variation(work, i, alpha_v, twist), point_velocity(twist, data.position[i]));
    }
  }
  // eq. (D8), rows above b (and the reactions of b and above): the same numbers with or
  // without reactions, so that eval (with them) and the library (without) agree to the bit
  if (work.with_reactions || !work.single_path) {
    columns_above(model, data, work, moved, j, variation);
    return;
  }
  // one path (dof_parent[k] = k − 1): the rows 0 … j − 1, with (∂F_b/∂q_j, ∂F_b/∂v_j) held in
  // registers across them; the products and sums in axis_times' order (the same bits)
  const Two d0 = pair_row(variation.angular, 0), d1 = pair_row(variation.angular, 1), d2 = pair_row(variation.angular, 2);
  const Two d3 = pair_row(variation.linear, 0), d4 = pair_row(variation.linear, 1), d5 = pair_row(variation.linear, 2);
  double* column_q = &work.dtau_dq(0, j);
  double* column_v = &work.dtau_dv(0, j);
  const DerivativeData::AxisRows* rows = work.composite_axis_rows.data();
  for (int k = j - 1; k >= 0; --k) {
    const Two* r = reinterpret_cast<const Two*>(rows[k].data()) + 9;  // s_k, each number twice
    const Two entries = ((r[0] * d0 + r[1] * d1) + r[2] * d2) + ((r[3] * d3 + r[4] * d4) + r[5] * d5);
    column_q[k] = entries[0];
    column_v[k] = entries[1];
  }
}

}  // namespace mechdyn::detail
