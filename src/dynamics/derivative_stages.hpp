// Private to src/dynamics: the steps rnea_derivatives (src/dynamics/rnea_derivatives.cpp)
// shares with its general form (src/dynamics/rnea_derivatives_general.cpp) and with
// joint_reaction_derivatives (src/dynamics/joint_reaction_derivatives.cpp). Not installed.
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

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
