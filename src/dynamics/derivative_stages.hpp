// Private to src/dynamics: the steps rnea_derivatives (src/dynamics/rnea_derivatives.cpp)
// shares with its general form (src/dynamics/rnea_derivatives_general.cpp) and with
// joint_reaction_derivatives (src/dynamics/joint_reaction_derivatives.cpp). Not installed.
#pragma once

#include "../math/vector_pairs.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// Two spatial vectors (x, y) side by side — of one column j, x for ∂/∂q_j and y for ∂/∂v_j —
/// as the pairs of their angular and linear parts (math/vector_pairs.hpp: row k = (x_k, y_k),
/// one SSE2 register), so that an operator shared by both costs one packed product.
struct SpatialPair {
  VectorPair angular;
  VectorPair linear;
};

inline SpatialPair spatial_pair(const Vec6& x, const Vec6& y) {
  SpatialPair out;
  out.angular.col(0) = x.head<3>();
  out.angular.col(1) = y.head<3>();
  out.linear.col(0) = x.tail<3>();
  out.linear.col(1) = y.tail<3>();
  return out;
}

/// Lane 0 (x) or 1 (y) of a pair.
inline Vec6 lane(const SpatialPair& p, int which) { return make_vec6(p.angular.col(which), p.linear.col(which)); }

/// (f_k·x₁ + u_k·x₂, f_k·y₁ + u_k·y₂) for the rows of coordinate k (eq. D12') and the pairs
/// (x₁, y₁), (x₂, y₂): 9 packed products (the rows hold each number in both lanes; u_k has no
/// linear part, so only the angular parts of x₂, y₂ are read).
inline Eigen::RowVector2d rows_times(const DerivativeData::AxisRows& rows, const SpatialPair& first,
                                     const VectorPair& second_angular) {
  Eigen::RowVector2d even = rows.row(0).cwiseProduct(first.angular.row(0));
  Eigen::RowVector2d odd = rows.row(3).cwiseProduct(first.linear.row(0));
  for (int c = 1; c < 3; ++c) {
    even += rows.row(c).cwiseProduct(first.angular.row(c));
    odd += rows.row(3 + c).cwiseProduct(first.linear.row(c));
  }
  for (int c = 0; c < 3; ++c) even += rows.row(6 + c).cwiseProduct(second_angular.row(c));
  return even + odd;
}

/// (s_k·x, s_k·y) for the axis rows of coordinate k.
inline Eigen::RowVector2d axis_times(const DerivativeData::AxisRows& rows, const SpatialPair& p) {
  Eigen::RowVector2d even = rows.row(9).cwiseProduct(p.angular.row(0));
  Eigen::RowVector2d odd = rows.row(12).cwiseProduct(p.linear.row(0));
  for (int c = 1; c < 3; ++c) {
    even += rows.row(9 + c).cwiseProduct(p.angular.row(c));
    odd += rows.row(12 + c).cwiseProduct(p.linear.row(c));
  }
  return even + odd;
}

/// Velocity of the point x of a rigid motion m = [ω; v_O]: v_O + ω × x.
inline Vec3 point_velocity(const Vec6& motion, const Vec3& x) {
  return motion.tail<3>() + motion.head<3>().cross(x);
}

/// Column j of ∂(reaction force, torque)/∂q and ∂/∂v for joint u (rows 6u … 6u + 5 of
/// work.dreaction_dq, work.dreaction_dv), from the variation of the wrench u transmits,
/// `force_change` = ∂F_u/∂q_j, `force_derivative` = ∂F_u/∂v_j (world origin), and the
/// motion of u's origin, `origin_shift` = ∂o_u/∂q_j (eq. D13).
void reaction_column(const Data& data, DerivativeData& work, int u, int j, const Vec6& force_change,
                     const Vec6& force_derivative, const Vec3& origin_shift);

/// Column j of ∂τ/∂q and ∂τ/∂v for the coordinates above the moved body b (eq. D8, second
/// line), which see the subtree only through F_b: `force_change` = ∂F_b/∂q_j = s_j ×* F_b +
/// ΔF_b, `force_derivative` = ∂F_b/∂v_j. With reactions, also the reaction columns of b and
/// of the joints above it.
void columns_above(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                   const Vec6& force_change, const Vec6& force_derivative);

/// The same with (∂F_b/∂q_j, ∂F_b/∂v_j) as one pair (one packed dot product per row).
void columns_above(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                   const SpatialPair& force_variations);

/// ΔF = I^c α + B^c β + β ×* H^c (eq. D12) with the composites of body u. With
/// B^c = [[P, H̃_f], [−H̃_f, 0]] (eq. D11) the linear part β_u of β cancels:
/// B^c β + β ×* H^c = [P β_ω + β_ω × H_n; 2 β_ω × H_f].
inline Vec6 composite_variation(const DerivativeData& work, int u, const Vec6& alpha, const Vec6& beta) {
  const Vec6& momentum = work.composite_momentum[u];
  const Vec3 w = beta.head<3>();
  Vec6 out = work.composite_inertia[u].apply(alpha);
  out.head<3>().noalias() += work.composite_coriolis_block[u].transpose() * w;  // Qᵀ β_ω = P β_ω + β_ω × H_n (D11'')
  out.tail<3>() += 2.0 * w.cross(Vec3(momentum.tail<3>()));
  return out;
}

/// The world-frame RNEA on the stage and the fast form's composites and rows (eqs. D1–D2,
/// D11–D12'): work.transmitted_force (F_i at the stage's accelerations), work.tau = s_kᵀ F,
/// the composites and work.composite_axis_rows. (derivative_forces.cpp)
void forces_and_composites(const Model& model, const Data& data, DerivativeData& work, const Vec6& base_acceleration);

/// Every column of ∂τ/∂q, ∂τ/∂v (and of the reactions) after forces_and_composites, with
/// the stage's accelerations those of `a`. (rnea_derivatives.cpp)
void derivative_columns(const Model& model, const Data& data, DerivativeData& work, const double* v, const double* a,
                        const Vec6& base_acceleration);

/// Column j in the fast form for a one-axis joint carried by its parent (eq. D16), the
/// ∂/∂q_j and ∂/∂v_j quantities in pairs. (rnea_derivatives_single_axis.cpp)
void differentiate_single_axis(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                               const Vec6& base_acceleration);

/// Every column when every joint is one-axis and carried by its parent, or fixed
/// (DerivativeData::every_single_axis: every robot arm): the column above for each body in
/// one loop, without a call and a dispatch per body. (rnea_derivatives_single_axis.cpp)
void differentiate_every_single_axis(const Model& model, const Data& data, DerivativeData& work,
                                     const Vec6& base_acceleration);

/// Step of one body i of the subtree moved by coordinate j (eqs. D3–D6, D9): ΔV_i, ΔA_i,
/// ∂A_i/∂v_j into the scratch, Δs_k of its coordinates into work.axis_variation. `own`: i is
/// the body of coordinate j, whose parent lies outside the moved subtree.
/// (rnea_derivatives_general.cpp)
void body_step(const Model& model, const Data& data, DerivativeData& work, int i, bool own, int j, const double* v,
               const double* a, const Vec6& base_acceleration);

/// Column j by the general form (any joints in the subtree of b; eqs. D3–D9).
/// (rnea_derivatives_general.cpp)
void differentiate_coordinate(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                              const double* v, const double* a, const Vec6& base_acceleration);

}  // namespace mechdyn::detail
