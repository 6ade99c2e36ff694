// Column j of ∂τ/∂q and ∂τ/∂v for a one-axis joint carried by its parent (revolute,
// prismatic, every kind: all the joints of a robot arm) in the fast form of
// rnea_derivatives (docs/derivatives.md eqs. D12, D12', D16, D16'); and every column of a model
// whose joints are all such joints or fixed, in one loop (DerivativeData::every_single_axis).
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
// (eq. D11), B^c B + B ×* H^c = [P B_ω + B_ω × H_n; 2 B_ω × H_f] = [Qᵀ B_ω; 2 B_ω × H_f]
// with the stored Q = P + H̃_n (eq. D11'') and u_k = [·; 0]: only the angular part of B is
// read. (α, β) are formed as these pairs directly (eq. D16': packed cross products of the
// pairs (A^g_λ, V_λ) with w and t; SSE2 intrinsics, as GCC spent a register copy on every
// number it put in both lanes, where pshufd takes one instruction), and s_j ×* F_b comes from
// the rows (15–20, lane 0) the force pass stored for coordinate j.
// On one path from the root (DerivativeData::single_path) the rows above b are 0 … j − 1,
// written here in one loop with the ∂F_b pair in registers (columns_above, which also serves
// trees and the reactions, reloaded it for every entry); the same products in the same order,
// so the same bits either way.
// Cost per coordinate: ~36 packed multiplications for (α, β) and ~45 for ∂F_b (on the 7-DoF
// arm ~180 and ~240 instructions per non-root column), then 9 packed per row of the subtree
// and 6 per coordinate above (callgrind counts: docs/benchmarks.md).
// Reads: the kinematics stage (velocity, acceleration, motion_axis, position) and the
// composites, rows and transmitted forces of rnea_derivatives' pass in `work`. Writes column j
// of work.dtau_dq, work.dtau_dv (and of the reactions with work.with_reactions). Allocates
// nothing.
#if defined(__SSE2__)
#include <emmintrin.h>  // SSE2, the x86-64 baseline
#endif

#include "derivative_stages.hpp"

namespace mechdyn::detail {

namespace {

/// Two numbers side by side (of ∂/∂q_j, of ∂/∂v_j), one SSE2 register (GCC's vector
/// extension: + − × act on both lanes), for the loop over the rows above b.
typedef double Two __attribute__((vector_size(16)));

inline Two pair_row(const VectorPair& p, int c) { return Two{p(c, 0), p(c, 1)}; }

/// The three rows of a pair, one register each.
struct Rows {
  Two x, y, z;
};
inline Rows operator+(const Rows& a, const Rows& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

/// The 16-aligned numbers of a Vec6 as three pairs.
inline const Two* as_pairs(const Vec6& x) { return reinterpret_cast<const Two*>(x.data()); }

/// Each number of a Vec6 in both lanes: pshufd, one non-destructive instruction each (GCC
/// picks a copy and an unpack); (a_0, b_0) and (a_1, b_1) of two pairs; a pair stored.
#if defined(__SSE2__)
inline void both_lanes(const Vec6& x, Two out[6]) {
  for (int h = 0; h < 3; ++h) {
    const __m128i two = _mm_load_si128(reinterpret_cast<const __m128i*>(x.data() + 2 * h));
    out[2 * h] = _mm_castsi128_pd(_mm_shuffle_epi32(two, 0x44));
    out[2 * h + 1] = _mm_castsi128_pd(_mm_shuffle_epi32(two, 0xEE));
  }
}
inline Two first_lanes(Two a, Two b) { return _mm_unpacklo_pd(a, b); }
inline Two second_lanes(Two a, Two b) { return _mm_unpackhi_pd(a, b); }
inline void store_pair(Two a, double* out) { _mm_store_pd(out, a); }
#else  // the same with GCC's generic vectors
inline void both_lanes(const Vec6& x, Two out[6]) {
  for (int k = 0; k < 6; ++k) out[k] = Two{x[k], x[k]};
}
inline Two first_lanes(Two a, Two b) { return Two{a[0], b[0]}; }
inline Two second_lanes(Two a, Two b) { return Two{a[1], b[1]}; }
inline void store_pair(Two a, double* out) { out[0] = a[0], out[1] = a[1]; }
#endif

/// p × r for the rows of p and r's numbers in both lanes.
inline Rows cross_rows(const Rows& p, const Two* r) {
  return {p.y * r[2] - p.z * r[1], p.z * r[0] - p.x * r[2], p.x * r[1] - p.y * r[0]};
}

/// w × p for w's numbers in both lanes.
inline Rows cross_left_rows(const Two* w, const Rows& p) {
  return {w[1] * p.z - w[2] * p.y, w[2] * p.x - w[0] * p.z, w[0] * p.y - w[1] * p.x};
}

inline void store(const Rows& p, VectorPair& out) {
  store_pair(p.x, out.data());
  store_pair(p.y, out.data() + 2);
  store_pair(p.z, out.data() + 4);
}

/// I x for the pair x = (x₁, x₂) and I = [[J, h̃], [−h̃, m]] (a spatial inertia about the
/// world origin), added to `out`.
inline void add_inertia_times(const SpatialInertia& inertia, const SpatialPair& x, SpatialPair& out) {
  out.angular += product_pair(inertia.rotational, x.angular) + cross_left_pair(inertia.first_moment, x.linear);
  out.linear += inertia.mass * x.linear - cross_left_pair(inertia.first_moment, x.angular);
}

/// Column j of the one-axis joint of body `moved` (the equations above).
inline __attribute__((always_inline)) void single_axis_column(const Model& model, const Data& data,
                                                              DerivativeData& work, int moved, int j,
                                                              const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];
  const Vec3 w = twist.head<3>(), t = twist.tail<3>();  // s_j = [w; t]
  const int parent = model.bodies[moved].parent;
  SpatialPair first;  // A = (α, α_v = 2β)
  VectorPair second;  // the angular part of B = (β, s_j): all that the rows, B^c and ×* H^c read of it (eq. D11)
  VectorPair beta_t;  // its linear part (β_u, t), read with reactions only
  if (parent == kGround) {  // V_λ = 0, A^g_λ = [0; −g]: β = 0, α = [0; −g × w] (eq. D16)
    first.angular.setZero();
    first.linear.setZero();
    first.linear.col(0) = Vec3(base_acceleration.tail<3>()).cross(w);
    second.col(0).setZero();
    second.col(1) = w;
    beta_t.col(0).setZero();
    beta_t.col(1) = t;
  } else {
    // β = V_λ × s_j, α = A^g_λ × s_j + V_λ × β (eq. D16) in pairs, with V_λ = [ω; u],
    // A^g_λ = [ω̇; a]: (ω̇ × w, ω × w = β_ω) and (ω̇ × t + a × w, ω × t + u × w = β_u) first, then
    // A = (α, 2β) = those + (ω × β_ω, ω × w) and + (ω × β_u + u × β_ω, ω × t + u × w).
    const Two* velocity = as_pairs(data.velocity[parent]);  // (ω_0, ω_1), (ω_2, u_0), (u_1, u_2)
    const Two* acceleration = as_pairs(data.acceleration[parent]);
    const Two* base = as_pairs(base_acceleration);
    const Two spin_rows[3] = {acceleration[0] + base[0], acceleration[1] + base[1], acceleration[2] + base[2]};
    const Rows spin_omega{first_lanes(spin_rows[0], velocity[0]), second_lanes(spin_rows[0], velocity[0]),
                          first_lanes(spin_rows[1], velocity[1])};  // rows (ω̇_c, ω_c)
    const Rows linear_velocity{second_lanes(spin_rows[1], velocity[1]), first_lanes(spin_rows[2], velocity[2]),
                               second_lanes(spin_rows[2], velocity[2])};  // rows (a_c, u_c)
    Two axis[6], motion[6];  // s_j's and V_λ's numbers, each in both lanes
    both_lanes(twist, axis);
    both_lanes(data.velocity[parent], motion);
    const Rows spun_w = cross_rows(spin_omega, axis);                                          // (ω̇ × w, β_ω)
    const Rows spun_t = cross_rows(spin_omega, axis + 3) + cross_rows(linear_velocity, axis);  // (ω̇ × t + a × w, β_u)
    const Rows b_w{second_lanes(spun_w.x, axis[0]), second_lanes(spun_w.y, axis[1]),
                   second_lanes(spun_w.z, axis[2])};  // (β_ω, w)
    const Rows b_t{second_lanes(spun_t.x, axis[3]), second_lanes(spun_t.y, axis[4]),
                   second_lanes(spun_t.z, axis[5])};  // (β_u, t)
    store(b_w, second);
    store(b_t, beta_t);
    store(spun_w + cross_left_rows(motion, b_w), first.angular);
    store(spun_t + cross_left_rows(motion, b_t) + cross_left_rows(motion + 3, b_w), first.linear);
  }

  const auto row = [&](int k) {  // eq. (D12')
    const Eigen::RowVector2d entries =
        rows_times(work.composite_axis_rows[static_cast<std::size_t>(k)], first, second);
    work.dtau_dq(k, j) = entries[0];
    work.dtau_dv(k, j) = entries[1];
  };
  const int end = work.subtree_dof_end[static_cast<std::size_t>(moved)];
  if (end >= 0) {  // the subtree's coordinates are one range (depth-first numbering: every chain)
#pragma GCC unroll 2  // two rows a pass (loop overhead; callgrind: docs/benchmarks.md)
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
  const Vec3 momentum_f = work.composite_momentum[moved].tail<3>();
  SpatialPair variation;  // B^c B + B ×* H^c = [P B_ω + B_ω × H_n; 2 B_ω × H_f] (composite_variation)
  variation.angular = product_transpose_pair(block, second);  // Qᵀ B_ω = P B_ω + B_ω × H_n (D11'')
  variation.linear = cross_pair(2.0 * second, momentum_f);
  add_inertia_times(work.composite_inertia[moved], first, variation);
  const double* force_term = work.composite_axis_rows[static_cast<std::size_t>(j)].data() + 30;  // (s_j ×* F_b, 0)
  variation.angular += Eigen::Map<const VectorPair, Eigen::Aligned16>(force_term);
  variation.linear += Eigen::Map<const VectorPair, Eigen::Aligned16>(force_term + 6);
  if (work.with_reactions) {  // eq. (D13) with the composites of each joint below b
    const Vec6 alpha_q = lane(first, 0), beta_q = make_vec6(second.col(0), beta_t.col(0)), alpha_v = lane(first, 1);
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
#pragma GCC unroll 2  // as the rows below
  for (int k = j - 1; k >= 0; --k) {
    const Two* r = reinterpret_cast<const Two*>(rows[k].data()) + 9;  // s_k, each number twice
    const Two entries = ((r[0] * d0 + r[1] * d1) + r[2] * d2) + ((r[3] * d3 + r[4] * d4) + r[5] * d5);
    column_q[k] = entries[0];
    column_v[k] = entries[1];
  }
}

}  // namespace

__attribute__((flatten)) void differentiate_single_axis(const Model& model, const Data& data, DerivativeData& work,
                                                        int moved, int j, const Vec6& base_acceleration) {
  single_axis_column(model, data, work, moved, j, base_acceleration);
}

__attribute__((flatten)) void differentiate_every_single_axis(const Model& model, const Data& data,
                                                              DerivativeData& work, const Vec6& base_acceleration) {
  const int n = model.num_bodies();
  for (int b = 0; b < n; ++b) {
    const Joint& joint = model.joints[b];
    if (joint.nv != 0) single_axis_column(model, data, work, b, joint.v_index, base_acceleration);
  }
}

}  // namespace mechdyn::detail
