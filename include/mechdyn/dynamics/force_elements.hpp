// The generalized force of a model's force elements (format 3,
// ../shared/spec/force-elements.md; docs/force-elements.md).
//
// Every element is reduced to what the dynamics needs:
//   a body wrench pair W_a, W_b (spring-damper, bushing, applied), spatial forces
//     [moment about the world origin; force] in world components, whose generalized
//     force is Σ_{k ∈ chain(a)} s_kᵀ W_a + Σ_{k ∈ chain(b)} s_kᵀ W_b (s_k the world motion
//     axes, the power pairing of kinematics/forward_kinematics.hpp);
//   an effort on its joint's coordinate (joint-spring-damper, joint-stop, joint-servo).
// Q_f (data.applied_force) is their sum; the equations of motion are
//   M(q) a + h(q, v) = τ + Q_f(q, v, t) (+ Jᵀ λ with loops or couplings),
// so that `eval`'s tau = M a + h − Q_f is what the actuators must add.
//
// The element laws (force-elements.md), with p_a, p_b the two points in the world,
// d = p_b − p_a, L = |d|, u = d / L:
//   spring-damper   T = k (L − L0) + c L̇ + T0;  T u on a at p_a, −T u on b at p_b;
//                   V = ½ k (L − L0)² + T0 (L − L0)
//   bushing         δ_t = R_aᵀ d − d⁰, δ_r = log(R_aᵀ R_b) (rotation vector), δ̇ their exact
//                   rates (δ̇_r = J(δ_r)⁻¹ R_aᵀ (ω_b − ω_a), J the left Jacobian,
//                   math/rotation_vector.hpp); on b the force F = −R_a (K_t δ_t + C_t δ̇_t)
//                   at p_b and the moment −R_a (K_r δ_r + C_r δ̇_r); on a the opposite wrench
//                   (−W_b as a spatial force, i.e. also the moment of F's offset d × F:
//                   action and reaction, so that the pair does no work in a rigid motion);
//                   V = ½ δᵀ K δ
//   joint-spring-damper  −k (q − rest) − c v;  V = ½ k (q − rest)²
//   joint-stop      lower: δ = lower − q > 0: max(0, k δ − c v); upper: δ = q − upper > 0:
//                   min(0, −k δ − c v); V = ½ k δ² in contact (a penalty contact law: the
//                   integrators see a stiff spring, no events; docs/force-elements.md)
//   joint-servo     clamp(kp (target(t) − q) + kd (target_rate(t) − v), ±max_effort); without
//                   target_rate the central difference (target(t + h) − target(t − h)) / 2h,
//                   h = 1e-6 max(1, |t|)
//   applied         force F(t) through the body point, moment M(t), world components.
// Models with flexible bodies: flexible/flexible_system.hpp flexible_force_elements (the
// rigid algorithms on Data refuse such models).
//
// Cost: O(n + elements) plus the time functions (the body wrenches are summed per body,
// Q_f = Σ s_kᵀ of the subtree sums in one backward pass); allocates nothing. Measured with
// bench/bench_force_elements.cpp: docs/force-elements.md "Cost".
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Every element at (q, v, t) on the velocity stage in Data (forward_kinematics(q, v) or
/// any algorithm that leaves level ≥ 1 at this q, v). Writes data.applied_force (Q_f),
/// data.element_effort, data.element_value / _energy / _length / _wrench_a / _wrench_b /
/// _point_a / _point_b, and data.external_wrench (per body: the sum of the elements'
/// wrenches on it; read by the closed-chain reactions and apply_external_wrenches);
/// data.cut_subtree_wrench as scratch (Q_f by one backward pass over the subtree sums).
/// A model without force elements: Q_f = 0, external_wrench untouched. Throws SolverError
/// for a spring-damper of length < 1e-12 m that would exert a force (its direction is
/// undefined), InvalidArgument when a time function is not finite.
void force_elements_from_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                    const Eigen::Ref<const VecX>& v, double t);

/// The same after forward_kinematics(q, v).
void force_elements(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                    const Eigen::Ref<const VecX>& v, double t);

/// The generalized force of element `index` alone (its wrenches and effort as left by
/// force_elements) into `out` (nv). O(depth).
void force_element_generalized_force(const Model& model, const Data& data, int index, Eigen::Ref<VecX> out);

/// The total potential energy of the elements (Σ data.element_energy).
double force_element_potential_energy(const Data& data);

/// Tree joint reactions with the external body wrenches (data.external_wrench, e.g. the
/// force elements'): after joint_reactions_from_kinematics (data.subtree_force holds the
/// inertial wrench minus gravity of every subtree), subtracts Σ_{l ∈ uL} E_l from each
/// joint's transmitted wrench and rewrites data.reaction_force, data.reaction_torque and
/// data.tau (= Sᵀ W = M a + h − Jᵀ E). Uses data.cut_subtree_wrench as scratch. O(n).
void apply_external_wrenches_to_reactions(const Model& model, Data& data);

/// ∂Q_f/∂q and ∂Q_f/∂v (nv × nv each, added to `dq` and `dv`) at the state of the last
/// force_elements call (velocity stage at q, v): exact (no finite differences) for every
/// joint type (each axis's rate by how it is carried, model/joint.hpp AxisCarrier);
/// q-derivatives along the tangent (the convention of dynamics/rnea_derivatives.hpp);
/// every element type, the bushing's anisotropic moment as the contract's formula computes
/// it (docs/derivatives.md D26–D29; src/dynamics/force_element_derivatives.cpp).
/// O(elements · nv · depth); allocates nothing.
void force_element_derivatives(const Model& model, const Data& data, const Eigen::Ref<const VecX>& q,
                               const Eigen::Ref<const VecX>& v, Eigen::Ref<MatX> dq, Eigen::Ref<MatX> dv);

}  // namespace mechdyn
