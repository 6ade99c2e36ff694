// The rates of the force elements' body wrenches (not installed): for one element at the
// state of the last force_elements call (velocity stage at q, v), column m of
// ∂W_a/∂q, ∂W_b/∂q, ∂W_a/∂v, ∂W_b/∂v — the elements' world wrenches [moment about the
// world origin; force] (data.element_wrench_a/_b) differentiated along the tangent
// coordinate q_m (the convention of dynamics/rnea_derivatives.hpp) and the rate v_m.
// Exact (no finite differences): docs/derivatives.md "Force elements" (D26–D30).
//
// Read by force_element_derivatives (∂Q_f, src/dynamics/force_element_derivatives.cpp) and
// by the joint reactions' derivatives with elements (src/dynamics/joint_reaction_derivatives.cpp).
// Cost: element_wrench_state O(depth); element_wrench_column O(depth) (a spring-damper's
// and a bushing's point velocities' rates sum over the chain). Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// One body-wrench element at the state of the last force_elements call: what every column
/// needs, computed once (element_wrench_state).
struct ElementWrenchState {
  int index = -1;
  ForceElementType type = ForceElementType::SpringDamper;
  int body_a = kGround, body_b = kGround;  // body b = ground for an applied load (no b side)
  bool active = false;                     // a body-wrench element that exerts a wrench here
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();  // p_a, p_b (world)
  Vec3 force = Vec3::Zero();   // spring-damper: T u (on a); applied: F; bushing: F on b
  Vec3 moment = Vec3::Zero();  // bushing: M on b (about p_b)
  Vec6 wrench_a = Vec6::Zero(), wrench_b = Vec6::Zero();  // W_a, W_b (data.element_wrench_*)
  // spring-damper
  Vec3 direction = Vec3::Zero();  // u
  Vec3 distance_rate = Vec3::Zero();  // ḋ = ṗ_b − ṗ_a
  Mat3 direction_rate = Mat3::Zero();  // ∂u/∂d = (1 − u uᵀ) / L
  double tension = 0.0;               // T
  // bushing
  Mat3 rotation_a = Mat3::Identity();  // R_a
  Mat3 jacobian_inverse = Mat3::Identity();  // J(δ_r)⁻¹
  Vec3 distance = Vec3::Zero();        // d = p_b − p_a
  Vec3 omega_a = Vec3::Zero(), omega_b = Vec3::Zero();
  Vec3 relative_rate = Vec3::Zero();   // e = ḋ − ω_a × d (δ̇_t = R_aᵀ e)
  Vec3 rotation_vector = Vec3::Zero();  // δ_r
  Vec3 rotation_rate = Vec3::Zero();    // δ̇_r
};

/// Column m of the wrenches' derivatives.
struct WrenchColumn {
  Vec6 a_dq = Vec6::Zero(), b_dq = Vec6::Zero();  // ∂W_a/∂q_m, ∂W_b/∂q_m
  Vec6 a_dv = Vec6::Zero(), b_dv = Vec6::Zero();  // ∂W_a/∂v_m, ∂W_b/∂v_m
};

/// Element `index` at the state of the last force_elements call (velocity stage at q, v).
void element_wrench_state(const Model& model, const Data& data, int index, ElementWrenchState& out);

/// Column m of its wrenches' derivatives (zero unless q_m moves body a or body b).
void element_wrench_column(const Model& model, const Data& data, const Eigen::Ref<const VecX>& v,
                           const ElementWrenchState& state, int m, WrenchColumn& out);

/// True when velocity coordinate `dof` is on the chain ground → body (moves the body).
bool moves_body(const Model& model, int dof, int body);

/// ∂s_k/∂q_m for two coordinates on one chain (force_element_derivatives' axis rate: by how
/// the axis is carried, model/joint.hpp AxisCarrier); zero when m is below k's joint.
Vec6 axis_rate(const Model& model, const Data& data, int k, int m);

/// j_m(p) = v_m + ω_m × p: the velocity of the world point p under a unit rate of q_m.
inline Vec3 point_axis(const Data& data, int m, const Vec3& p) {
  const Vec6& s = data.motion_axis[static_cast<std::size_t>(m)];
  return s.tail<3>() + s.head<3>().cross(p);
}

}  // namespace mechdyn::detail
