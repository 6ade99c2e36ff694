// Inverse dynamics by the explicit method: the resultant-force iteration of EC §3.1–3.2.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.1 eqs. (1)–(10) (forward
// kinematics in natural frames) and §2.2 eq. (17) with §3.2.2 (the force backward
// iteration): joint u carries the resultant force f_{uL} and torque τ_{uL} that balance the
// inertial wrenches and gravity of the closed subtree uL; its driving effort is their
// projection on the axis-invariant (eq. 17), n_uᵀ τ_{uL} (revolute) or n_uᵀ f_{uL}
// (prismatic), and the rest of the wrench is the constraint part (eqs. 37–38). So τ and
// every joint's whole reaction wrench come out of one forward and one backward pass.
//
// Everything is in world components (natural frames are parallel to the world at q = 0,
// EC §2.1), each body's quantities at its own frame origin o_l, a point of its joint axis:
//   Q^i_l = Q^i_{l̄} Q^{l̄}_l,  r^i_{l|l̄} = Q^i_{l̄} r^{l̄}_l           eqs. (4), (6)
//   revolute:  ϕ̇_l = ϕ̇_{l̄} + n φ̇,  ϕ̈_l = ϕ̈_{l̄} + ϕ̇_{l̄} × n φ̇ + n φ̈     eqs. (7), (8)
//              ṙ_l = ṙ_{l̄} + ϕ̇_{l̄} × r,  r̈_l = r̈_{l̄} + ϕ̈_{l̄} × r + ϕ̇_{l̄} × (ϕ̇_{l̄} × r)
//   prismatic: ϕ̇, ϕ̈ unchanged; ṙ_l += n ṙ,  r̈_l += 2 ϕ̇_{l̄} × n ṙ + n r̈     eqs. (9), (10)
// with r̈ carrying −g (gravity as an acceleration of the ground: the gravity terms
// −m_k g of eqs. (19)–(22) come with the inertial ones). The other joint kinds take the
// same step through their spatial form (J::world_motion at o_l; docs/joints.md §5).
// Per body, with c = Q^i_l c̄ the centre of mass from o_l and J_l in body axes:
//   a_c = r̈_l + ϕ̈ × c + ϕ̇ × (ϕ̇ × c)                                          eq. (10)
//   f_l = m a_c,  τ_l = c × f_l + Q (J ω̄̇ + ω̄ × J ω̄),  ω̄ = Qᵀ ϕ̇, ω̄̇ = Qᵀ ϕ̈
// (the world inertia Q J Qᵀ is never formed: rotating the two vectors costs less).
// Backward, u = N … 1 (eq. 17 summed over uL, §3.2.2):
//   f_{uL} = f_u + Σ_c f_{cL},  τ_{uL} = τ_u + Σ_c (τ_{cL} + r^i_{c|u} × f_{cL})
//   τ_i = n_uᵀ τ_{uL} (revolute), n_uᵀ f_{uL} (prismatic); s_iᵀ [τ_{uL}; f_{uL}] in general.
// Revolute joints about ±e_K (RevoluteX/Y/Z, most robots) take a written-out step: Q^i_l
// composed on two columns, n_l = ±Q^i_{l̄} e_K (a column, no product), ω̄, ω̄̇ from the
// parent's through the relative rotation (ω̄ = Q_rᵀ ω̄_{l̄} + φ̇ e_K: 4 multiplications
// where Qᵀ ϕ̇ takes 9), and the backward projection n_uᵀ τ_{uL} = ±(Q^i_u e_K)ᵀ τ_{uL} (no
// axis stored). The forward step carries its vectors in pairs (math/vector_pairs.hpp, one
// SSE2 register per row): (ϕ̇, ϕ̈), (ṙ, r̈), (ω̄, ω̄̇) move together; (ϕ̇ × r, ϕ̈ × r),
// (ϕ̇ × n, ϕ̇ × (ϕ̇ × r)) and (ϕ̇ × c, ϕ̈ × c) are one cross product each.
// In time (docs/benchmarks.md, "Explicit inverse dynamics in time") the step is bound by
// its dependency chains, not by its instruction count: (i) the sine and cosine of body
// l + 1 are taken before body l's step, so the libm call runs beside body l's arithmetic
// and heads no chain (nothing of the step is live across it); (ii) c = Q c̄ is formed
// alone, as soon as Q is, so that the force chain (ϕ̈ × c, ϕ̇ × (ϕ̇ × c), m a_c, c × f)
// runs beside J ω̄, J ω̄̇ instead of after them; (iii) whatever the next step reads with
// 16-byte loads is written by 16-byte stores (a root's Q by columns, (0, −g) and (0, φ̇)
// as masked broadcasts), as a load spanning two stores waits for them to reach the cache.
// Cost O(n): per body about ±e_K one sine and cosine and ~150 multiplications, most in
// packed pairs (RNEA: ~100; the world frames cost the composition of Q^i_l and the
// rotations of r, c̄ and the body-axis torque, which body coordinates avoid); the backward
// pass has no rotation (one cross product per body). 1.03–1.05× RNEA's instructions and
// 0.82–0.97× its time on the benchmark models (docs/benchmarks.md, "Explicit inverse
// dynamics in time").
//
// explicit_inverse_dynamics_from_kinematics — the same iteration on the kinematics stage
// (world origin, joint_reactions): the acceleration level at a, then EC eq. (17).
//
// Reads: Model, q, v, a (or the velocity stage and a). Writes: data.tau,
// data.reaction_force (f_{uL}), data.reaction_torque (τ_{uL} about o_u), data.natural_*:
// natural_rotation (Q^i_l), natural_offset (r^i_{l|l̄}), the pairs (rows (x_k, y_k))
// natural_velocity = (ϕ̇, ϕ̈), natural_acceleration = (ṙ, r̈ − g) of o_l and
// natural_body_rates = (ω̄, ω̄̇), and natural_motion_axis for the kinds other than
// RevoluteX/Y/Z. The kinematics stage and data.mass_matrix are not touched. The
// _from_kinematics form writes the acceleration level and what
// joint_reactions_from_kinematics writes. Allocates nothing.
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"

#include <type_traits>

#include "../kinematics/joint_trigonometry.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "../math/vector_pairs.hpp"
#include "../model/joint_dispatch.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

/// K for a revolute joint about ±e_K (RevoluteX/Y/Z), −1 for every other kind.
template <class J>
struct PrincipalRevolute : std::integral_constant<int, -1> {};
template <int K>
struct PrincipalRevolute<joint_kinds::Revolute<K>> : std::integral_constant<int, K> {};

/// The kinds whose step here reads the caller's cos q, sin q: the revolute kinds about ±e_K.
/// (A revolute joint about another axis takes its own from relative_pose: given the
/// caller's, the principal kinds' step ran 17 % slower in mechdyn_bench, a code-layout
/// effect; and taking them ahead for nothing cost 3 % on branched_tree_30.)
constexpr unsigned kPrincipalRevoluteKinds = joint_kind_mask([](auto kind) {
  return decltype(kind)::caller_cosine_sine && PrincipalRevolute<decltype(kind)>::value >= 0;
});

/// The joint's world axes at o_l (EC eq. 1) for the kinds other than RevoluteX/Y/Z: [n; 0]
/// (revolute), [0; n] (prismatic) with n = Q^i_{l̄} n̄, written out — the kinds' world_axes
/// at the origin o_l would multiply o × n by zeros — and every other kind's world_axes.
template <class J>
inline void world_axes_at_origin(const Joint& joint, const Mat3& parent_rotation, const Mat3& rotation,
                                 Vec6* axes) {
  if constexpr (J::type == JointType::Revolute) {
    axes[0].template head<3>().noalias() = parent_rotation * joint.axis;
    axes[0].template tail<3>().setZero();
  } else if constexpr (J::type == JointType::Prismatic) {
    axes[0].template head<3>().setZero();
    axes[0].template tail<3>().noalias() = parent_rotation * joint.axis;
  } else {
    J::world_axes(joint, parent_rotation, rotation, Vec3::Zero(), axes);
  }
}

/// The body's inertial wrench minus gravity about o_l (the summand of eq. 17), from the
/// world pairs (ϕ̇, ϕ̈), (ṙ, r̈) and the body-axis pair (ω̄, ω̄̇).
template <class AngularPair, class PointPair, class RatesPair>
inline void body_wrench(const Body& body, const Mat3& rotation, const AngularPair& angular, const PointPair& point,
                        const RatesPair& body_rates, Vec3& force, Vec3& torque) {
  const Vec3 com = rotation * body.com;  // c = Q c̄: needs Q only, so the force chain starts early
  const VectorPair spin = product_pair(body.inertia, body_rates);  // (J ω̄, J ω̄̇)
  const Vec3 local = spin.col(1) + body_rates.col(0).cross(spin.col(0));  // J ω̄̇ + ω̄ × J ω̄
  const VectorPair arm = cross_pair(angular, com);                 // (ϕ̇ × c, ϕ̈ × c)
  const Vec3 omega = angular.col(0);
  VectorPair swapped;                                              // (ϕ̈ × c, ϕ̇ × c)
  for (int k = 0; k < 3; ++k) swapped.row(k) = arm.row(k).reverse();
  const VectorPair centre = point + arm + cross_left_pair(omega, swapped);  // (·, r̈ + ϕ̈ × c + ϕ̇ × (ϕ̇ × c))
  force = body.mass * centre.col(1);
  torque = rotation * local + com.cross(force);
}

/// The forward step of body l (EC eqs. 1–10) and its own inertial wrench minus gravity,
/// for joint kind J; `cosine`, `sine` of the joint angle for RevoluteX/Y/Z (computed by the
/// caller one body ahead, joint_trigonometry.hpp; kPrincipalRevoluteKinds), unused by the
/// other kinds.
template <class J>
MECHDYN_NOINLINE void forward_body(const Model& model, Data& data, int l, const double* q, const double* v,
                                   const double* a, double cosine, double sine) {
  constexpr int K = PrincipalRevolute<J>::value;
  const Joint& joint = model.joints[l];
  const Body& body = model.bodies[l];
  const int parent = body.parent;
  Mat3& rotation = data.natural_rotation[l];
  Vec3& offset = data.natural_offset[l];
  Vec6* axes = data.natural_motion_axis.data() + joint.v_index;
  const double* rate = v + joint.v_index;
  const double* second = a + joint.v_index;
  Eigen::Map<VectorPair, Eigen::Aligned16> angular = pair_at(data.natural_velocity[l]);  // (ϕ̇, ϕ̈)
  Eigen::Map<VectorPair, Eigen::Aligned16> point = pair_at(data.natural_acceleration[l]);  // (ṙ, r̈) of o_l
  Eigen::Map<VectorPair, Eigen::Aligned16> rates = pair_at(data.natural_body_rates[l]);    // (ω̄, ω̄̇)
  if constexpr (K >= 0) {
    constexpr int I = (K + 1) % 3, L = (K + 2) % 3;
    const double sign = joint.axis[K];
    const double c = cosine, s = sign * sine;
    const Eigen::RowVector2d joint_rates(sign * rate[0], sign * second[0]);  // (φ̇, φ̈) on e_K
    if (parent == kGround) {
      // eq. (4) with Q^i_{l̄} = 1, written column by column as the child step writes it, so
      // that the child's 16-byte reads of a column are forwarded from single stores
      // (setZero then single entries made the child wait for the stores to reach the cache).
      rotation.col(I) = c * Vec3::Unit(I) + s * Vec3::Unit(L);
      rotation.col(L) = c * Vec3::Unit(L) - s * Vec3::Unit(I);
      rotation.col(K) = Vec3::Unit(K);
      offset = joint.origin;
      VectorPair spin = VectorPair::Zero();  // (ϕ̇, ϕ̈) = e_K (φ̇, φ̈) from rest (eqs. 7–8), = (ω̄, ω̄̇) as Q e_K = e_K
      spin.row(K) = joint_rates;
      // (ṙ_0, r̈_0) = (0, −g), each row a broadcast masked to its second lane: built from
      // two scalars, GCC would pass the row through the stack (a 16-byte load of two 8-byte
      // stores, which the store buffer cannot forward: docs/benchmarks.md, "Explicit inverse
      // dynamics in time").
      const Eigen::RowVector2d second_lane(0.0, 1.0);
      VectorPair root_point;
      for (int k = 0; k < 3; ++k)
        root_point.row(k) = Eigen::RowVector2d::Constant(-model.gravity[k]).cwiseProduct(second_lane);
      angular = spin;
      point = root_point;
      rates = spin;
      body_wrench(body, rotation, spin, root_point, spin, data.reaction_force[l], data.reaction_torque[l]);
      return;
    } else {
      const Mat3& parent_rotation = data.natural_rotation[parent];
      rotation.col(I) = c * parent_rotation.col(I) + s * parent_rotation.col(L);  // eq. (4)
      rotation.col(L) = c * parent_rotation.col(L) - s * parent_rotation.col(I);
      rotation.col(K) = parent_rotation.col(K);
      offset.noalias() = parent_rotation * joint.origin;  // eq. (6)
      const Vec3 n = rotation.col(K);
      const VectorPair parent_angular = pair_at(data.natural_velocity[parent]);
      const VectorPair arm = cross_pair(parent_angular, offset);  // (ϕ̇ × r, ϕ̈ × r)
      const Vec3 omega = parent_angular.col(0);
      VectorPair lever;
      lever.col(0) = n;
      lever.col(1) = arm.col(0);
      const VectorPair turned = cross_left_pair(omega, lever);  // (ϕ̇ × n, ϕ̇ × (ϕ̇ × r))
      // (0, φ̇) as a masked broadcast, like (0, −g) above: not through the stack.
      const Eigen::RowVector2d second_lane(0.0, 1.0);
      const Eigen::RowVector2d coriolis = Eigen::RowVector2d::Constant(joint_rates[0]).cwiseProduct(second_lane);
      const VectorPair parent_point = pair_at(data.natural_acceleration[parent]);
      VectorPair world_point, world_angular;
      for (int k = 0; k < 3; ++k) {
        world_point.row(k) = parent_point.row(k) + arm.row(k) + turned.row(k).cwiseProduct(second_lane);  // eqs. (9)–(10)
        world_angular.row(k) = parent_angular.row(k) + n[k] * joint_rates + turned(k, 0) * coriolis;  // eqs. (7)–(8)
      }
      point = world_point;
      angular = world_angular;
      // (ω̄, ω̄̇) = Q_rᵀ (ω̄_λ, ω̄̇_λ) + e_K (φ̇, φ̈) + (0, Q_rᵀ ω̄_λ × e_K φ̇)
      VectorPair body_rates = rotate_transpose_pair<K>(c, s, pair_at(data.natural_body_rates[parent]));
      body_rates.row(I) += body_rates(L, 0) * coriolis;  // x × e_K = x_L e_I − x_I e_L
      body_rates.row(L) -= body_rates(I, 0) * coriolis;
      body_rates.row(K) += joint_rates;
      rates = body_rates;
      body_wrench(body, rotation, world_angular, world_point, body_rates, data.reaction_force[l],
                  data.reaction_torque[l]);
      return;
    }
  } else {
    Mat3 relative_rotation;
    Vec3 relative_translation;
    J::relative_pose(joint, q + joint.q_index, relative_rotation, relative_translation);  // eqs. (2)–(3)
    Vec3 omega, alpha, point_velocity, point_acceleration;  // of the parent, at o_l
    if (parent == kGround) {
      rotation = relative_rotation;
      offset = relative_translation;
      world_axes_at_origin<J>(joint, Mat3::Identity(), rotation, axes);  // eq. (1), at o_l
      omega.setZero();
      alpha.setZero();
      point_velocity.setZero();
      point_acceleration = -model.gravity;  // r̈_0 = −g
    } else {
      const Mat3& parent_rotation = data.natural_rotation[parent];
      J::compose(parent_rotation, relative_rotation, rotation);   // eq. (4)
      offset.noalias() = parent_rotation * relative_translation;  // eq. (6)
      world_axes_at_origin<J>(joint, parent_rotation, rotation, axes);
      const VectorPair parent_angular = pair_at(data.natural_velocity[parent]);
      const VectorPair parent_point = pair_at(data.natural_acceleration[parent]);
      omega = parent_angular.col(0);
      alpha = parent_angular.col(1);
      const Vec3 arm_velocity = omega.cross(offset);                           // ϕ̇ × r
      point_velocity = parent_point.col(0) + arm_velocity;                      // eq. (9), the parent's point at o_l
      point_acceleration = parent_point.col(1) + alpha.cross(offset) + omega.cross(arm_velocity);  // eq. (10)
    }
    if constexpr (J::type == JointType::Revolute) {
      const Vec3 n = axes[0].template head<3>();
      const Vec3 spin = n * rate[0];                                  // n φ̇
      alpha += omega.cross(spin) + n * second[0];                      // eq. (8)
      omega += spin;                                                   // eq. (7)
    } else if constexpr (J::type == JointType::Prismatic) {
      const Vec3 n = axes[0].template tail<3>();
      const Vec3 slide = n * rate[0];                                  // n ṙ
      point_acceleration += 2.0 * omega.cross(slide) + n * second[0];  // eq. (10)
      point_velocity += slide;                                         // eq. (9)
    } else if constexpr (J::nv > 0) {
      // Any other kind through its spatial form at o_l (Ṡ q̇ of J::world_motion): the
      // spatial linear part is the classical acceleration minus ϕ̇ × ṙ.
      const Vec6 parent_motion = make_vec6(omega, point_velocity);
      Vec6 joint_velocity, joint_bias;
      J::world_motion(joint, axes, rate, parent_motion, Vec3::Zero(), joint_velocity, joint_bias);
      Vec6 spatial = make_vec6(alpha, point_acceleration - omega.cross(point_velocity)) + joint_bias;
      for (int k = 0; k < J::nv; ++k) spatial.noalias() += axes[k] * second[k];
      omega += joint_velocity.template head<3>();
      point_velocity += joint_velocity.template tail<3>();
      alpha = spatial.template head<3>();
      point_acceleration = spatial.template tail<3>() + omega.cross(point_velocity);
    }
    angular << omega, alpha;
    point << point_velocity, point_acceleration;
    rates.col(0).noalias() = rotation.transpose() * omega;  // ω̄ = Qᵀ ϕ̇, ω̄̇ = Qᵀ ϕ̈
    rates.col(1).noalias() = rotation.transpose() * alpha;
  }
  body_wrench(body, rotation, angular, point, rates, data.reaction_force[l], data.reaction_torque[l]);
}

/// The backward step of body u (eq. 17, §3.2.2): project the subtree's resultant on the
/// joint's axes, then carry it to the parent's origin.
template <class J>
inline void backward_body(const Model& model, Data& data, int u) {
  const Joint& joint = model.joints[u];
  const Vec3& force = data.reaction_force[u];
  const Vec3& torque = data.reaction_torque[u];
  const Vec6* axes = data.natural_motion_axis.data() + joint.v_index;
  double* tau = data.tau.data() + joint.v_index;
  constexpr int K = PrincipalRevolute<J>::value;
  if constexpr (K >= 0)
    tau[0] = joint.axis[K] * data.natural_rotation[u].col(K).dot(torque);  // n_uᵀ τ_{uL}, n_u = ±Q e_K
  else if constexpr (J::type == JointType::Revolute)
    tau[0] = axes[0].template head<3>().dot(torque);  // n_uᵀ τ_{uL}
  else if constexpr (J::type == JointType::Prismatic)
    tau[0] = axes[0].template tail<3>().dot(force);  // n_uᵀ f_{uL}
  else
    for (int k = 0; k < J::nv; ++k) tau[k] = axes[k].template head<3>().dot(torque) + axes[k].template tail<3>().dot(force);
  const int parent = model.bodies[u].parent;
  if (parent == kGround) return;
  data.reaction_force[parent] += force;
  data.reaction_torque[parent] += torque + data.natural_offset[u].cross(force);
}

}  // namespace

const VecX& explicit_inverse_dynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "explicit_inverse_dynamics");
  check_state(model, q, &v, &a);
  const double* qs = q.data();
  const double* vs = v.data();
  const double* as = a.data();
  const int n = model.num_bodies();
  // The sine and cosine of body l + 1 are taken before body l's step: the libm call then
  // runs beside body l's arithmetic instead of heading body l + 1's dependency chain.
  double cosine = 1.0, sine = 0.0;
  if (n > 0) joint_cosine_sine<kPrincipalRevoluteKinds>(model, 0, qs, cosine, sine);
  for (int l = 0; l < n; ++l) {
    double next_cosine = 1.0, next_sine = 0.0;
    if (l + 1 < n) joint_cosine_sine<kPrincipalRevoluteKinds>(model, l + 1, qs, next_cosine, next_sine);
    visit_joint_kind(model.joints[l].kind, [&](auto kind) {
      forward_body<decltype(kind)>(model, data, l, qs, vs, as, cosine, sine);
    });
    cosine = next_cosine;
    sine = next_sine;
  }
  for (int u = n - 1; u >= 0; --u)
    visit_joint_kind(model.joints[u].kind, [&](auto kind) { backward_body<decltype(kind)>(model, data, u); });
  if (model.has_armature) data.tau += model.armature.cwiseProduct(a);  // the drives' inertial effort (not a reaction)
  return data.tau;
}

const VecX& explicit_inverse_dynamics_from_kinematics(const Model& model, Data& data,
                                                      const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "explicit_inverse_dynamics_from_kinematics");
  check_kinematics(data, 1, "explicit_inverse_dynamics_from_kinematics");
  check_vector(a, model.nv, "a");
  detail::stage_accelerations(model, data, a.data());  // eqs. (8), (10) at a
  detail::reactions_from_stage(model, data);          // eq. (17); data.tau = Sᵀ W
  if (model.has_armature) data.tau += model.armature.cwiseProduct(a);  // the drives' inertial effort (not a reaction)
  return data.tau;
}

}  // namespace mechdyn
