// Body and point Jacobians, and world positions of points and markers.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.2, eqs. (13)–(15): the
// partial derivatives of a point's velocity with respect to the joint rates,
//   ∂ṙ_S/∂ϕ̇_k = ñ_k r^{k}_S   (revolute k on the chain to S),   ∂ṙ_S/∂ṙ_k = n_k (prismatic),
//   ∂ϕ̇/∂ϕ̇_k = n_k,           ∂ϕ̇/∂ṙ_k = 0,
// are the columns of the Jacobian. With world motion axes s_k = [ω_k; v_O,k] this is, for
// every coordinate k on the chain ground → body, column k = [ω_k; v_O,k + ω_k × p];
// all other columns are zero. Cost O(depth). Reads Data's kinematics (run
// forward_kinematics first); writes only the output. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// 6 × nv Jacobian of `body`: rows 0–2 its angular velocity, rows 3–5 the velocity of
/// its frame origin, both in world coordinates.
void body_jacobian(const Model& model, const Data& data, int body, Eigen::Ref<MatX> jacobian);

/// 3 × nv Jacobian of the velocity of a point fixed on `body` (`point` from the body
/// frame origin, body frame), world coordinates. body = kGround gives zeros.
void point_jacobian(const Model& model, const Data& data, int body, const Vec3& point,
                    Eigen::Ref<MatX> jacobian);

/// World position of a point fixed on a body (or in the world for kGround).
Vec3 point_position(const Data& data, const BodyPoint& point);

/// World positions of every marker of the model, in model order, into `positions`.
void marker_positions(const Model& model, const Data& data, std::vector<Vec3>& positions);

}  // namespace mechdyn
