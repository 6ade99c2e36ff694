// Analytical derivatives of inverse dynamics, ∂τ/∂q (tangent space) and ∂τ/∂v.
//
// Source: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
// algorithms", RSS 2018, §III–IV: differentiate the world-frame RNEA (Featherstone 2008
// §5.3, absolute coordinates) and split every variation into the part a rigid motion of
// the moved subtree explains and the rest. The equations and the derivation for mechdyn's
// axis conventions (spherical and free joints turn about WORLD-fixed directions, which
// Pinocchio's joints do not): docs/derivatives.md. In world coordinates at the world origin:
//   V_i = V_λ + Σ_k s_k v_k,  A^g_i = A^g_λ + Σ_k (s_k a_k + ṡ_k v_k),  A^g_0 = [0; −g]
//   f_i = I_i A^g_i + V_i ×* I_i V_i,  F_i = f_i + Σ_children F_c,  τ_k = s_kᵀ F_{body(k)}
// A tangent perturbation q ⊕ ε e_j moves the subtree of j's body b rigidly by the twist
// s_j (every joint's configuration is relative to its parent), so every body quantity
// there varies as s_j × (motion) or s_j ×* (force) plus a remainder Δ (derivatives.md
// eqs. D3–D8):
//   ΔV_b = −s_j × V_λ(b) + Σ Δs_k v_k,         ΔV_i = ΔV_λ + Σ Δs_k v_k
//   ΔA_b = −s_j × A^g_λ(b) + Σ (Δs_k a_k + Δṡ_k v_k),  ΔA_i = ΔA_λ + Σ (…)
//   Δf_i = I_i ΔA_i + ΔV_i ×* I_i V_i + V_i ×* I_i ΔV_i,   ΔF_i = Σ_subtree Δf
//   ∂τ_k/∂q_j = s_kᵀ ΔF_{body(k)} + Δs_kᵀ F_{body(k)}     k in the subtree of b
//   ∂τ_k/∂q_j = s_kᵀ (s_j ×* F_b + ΔF_b)                  k above b
// with Δs_k = ∂s_k/∂q_j − s_j × s_k, zero for an axis carried by a body of the subtree;
// per carrier (model/joint.hpp, AxisCarrier) in eq. (D5). ∂/∂v_j: V varies by s_j on the
// subtree, A by the ∂ṡ_k/∂v_j v_k and ṡ_j, and ∂τ/∂v follows the same backward sums (D9).
// Two forms per coordinate j (docs/derivatives.md): the general one propagates ΔV, ΔA
// body by body over the subtree (any joints); the fast one (eqs. D11–D12, the RSS 2018
// composite structure) applies when every axis strictly below b is carried rigidly by a
// body (no spherical or free joint deeper in the subtree): ΔV is then one β and ΔA one
// α + β × (V_i − V_b) on the whole subtree, so ΔF_k = I^c_k α + B^c_k β + β ×* H^c_k with
// subtree composites formed once, and each entry of the column is two 6-vector dot
// products. With DerivativeData::with_reactions, also the joint reactions' columns (eq.
// D13, src/dynamics/joint_reaction_derivatives.cpp).
// Cost: O(n) for the forces and composites, then per coordinate j O(size of its subtree +
// depth): O(nv · depth) like the RSS 2018 algorithm. Longer than the house's ~300 lines:
// the two forms share body_step, and splitting them would put one recursion in two files.
// Reads: Model; the kinematics stage at (q, v, a) (data.motion_axis, velocity,
// acceleration, position, com_position, inertia_world). Writes: work.dtau_dq,
// work.dtau_dv, work.tau and the scratch of the DerivativeData (the kinematics stage only
// through rnea_derivatives, which runs it). Allocates nothing.
#include "mechdyn/dynamics/rnea_derivatives.hpp"

#include <string>

#include "../kinematics/kinematics_stage.hpp"
#include "derivative_stages.hpp"

#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void check_derivative_data(const Model& model, const DerivativeData& work, const char* function) {
  if (work.num_bodies != model.num_bodies() || work.nv != model.nv)
    throw InvalidArgument(std::string(function) + ": the DerivativeData was made for another model (" +
                          std::to_string(work.num_bodies) + " bodies, nv = " + std::to_string(work.nv) +
                          "; this model has " + std::to_string(model.num_bodies()) + " and " +
                          std::to_string(model.nv) + ")");
}

namespace {

/// Velocity of the point x of a rigid motion m = [ω; v_O]: v_O + ω × x.
Vec3 point_velocity(const Vec6& motion, const Vec3& x) { return motion.tail<3>() + motion.head<3>().cross(x); }

/// The subtree composites of the fast form (eqs. D11–D12): I^c_i, H^c_i = Σ I_l V_l and
/// B^c_i = Σ [(V_l ×*) I_l − I_l (V_l ×)], then per coordinate k of body i the rows
/// f_k = I^c_i s_k and u_k = B^c_i s_k − s_k ×* H^c_i. With V = [ω; u], I = [[J, h̃], [−h̃, m]],
/// B = [[P, c̃], [−c̃, 0]] with P = ω̃J + (ω̃J)ᵀ − (h uᵀ + u hᵀ) + 2 (u·h) 1 and c = ω × h + m u.
void composites(const Model& model, const Data& data, DerivativeData& work) {
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const SpatialInertia& inertia = work.body_inertia[i];
    const Vec3 omega = data.velocity[i].head<3>(), u = data.velocity[i].tail<3>();
    const Vec3& h = inertia.first_moment;
    Mat3 spin;  // ω̃ J
    for (int c = 0; c < 3; ++c) spin.col(c) = omega.cross(Vec3(inertia.rotational.col(c)));
    Mat3 block = spin + spin.transpose() - h * u.transpose() - u * h.transpose();
    block.diagonal().array() += 2.0 * u.dot(h);
    work.composite_inertia[i] = inertia;
    work.composite_momentum[i] = work.body_momentum[i];
    work.composite_coriolis_block[i] = block;
    work.composite_coriolis_vector[i] = omega.cross(h) + inertia.mass * u;
  }
  for (int i = n - 1; i >= 0; --i) {
    const int parent = model.bodies[i].parent;
    if (parent == kGround) continue;
    work.composite_inertia[parent] += work.composite_inertia[i];
    work.composite_momentum[parent] += work.composite_momentum[i];
    work.composite_coriolis_block[parent] += work.composite_coriolis_block[i];
    work.composite_coriolis_vector[parent] += work.composite_coriolis_vector[i];
  }
  for (int i = 0; i < n; ++i) {
    const Joint& joint = model.joints[i];
    const Vec3& c = work.composite_coriolis_vector[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& s = data.motion_axis[k];
      work.composite_axis_force[k] = work.composite_inertia[i].apply(s);  // f_k = I^c s_k
      Vec6 coriolis;
      coriolis << work.composite_coriolis_block[i] * Vec3(s.head<3>()) + c.cross(Vec3(s.tail<3>())),
          -c.cross(Vec3(s.head<3>()));
      work.composite_axis_coriolis[k] = coriolis - cross_force(s, work.composite_momentum[i]);  // u_k
    }
  }
}

/// F_i, I_i, I_i V_i and τ: the world-frame RNEA on the stage (eqs. D1–D2).
void transmitted_forces(const Model& model, const Data& data, DerivativeData& work, const Vec6& base_acceleration) {
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const SpatialInertia inertia =
        SpatialInertia::from_com(model.bodies[i].mass, data.com_position[i], data.inertia_world[i]);
    work.body_inertia[i] = inertia;
    const Vec6& velocity = data.velocity[i];
    work.body_momentum[i] = inertia.apply(velocity);                                     // I_i V_i
    work.transmitted_force[i] = inertia.apply(data.acceleration[i] + base_acceleration)  // I_i A^g_i
                                + cross_force(velocity, work.body_momentum[i]);           // + V_i ×* I_i V_i
  }
  for (int i = n - 1; i >= 0; --i) {
    const int parent = model.bodies[i].parent;
    if (parent != kGround) work.transmitted_force[parent] += work.transmitted_force[i];  // F_λ += F_i
  }
  composites(model, data, work);
  for (int i = 0; i < n; ++i) {
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
      work.tau[k] = data.motion_axis[k].dot(work.transmitted_force[i]);  // τ_k = s_kᵀ F_i
  }
}

/// Step of one body i of the moved subtree (eqs. D3–D6, D9): ΔV_i, ΔA_i, ∂A_i/∂v_j into
/// the scratch, Δs_k of its coordinates into work.axis_variation. `own`: i is the body of
/// coordinate j, whose parent lies outside the moved subtree.
void body_step(const Model& model, const Data& data, DerivativeData& work, int i, bool own, int j, const double* v,
               const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];  // s_j
  const int parent = model.bodies[i].parent;
  const Vec6 parent_velocity = parent == kGround ? Vec6::Zero() : data.velocity[parent];
  Vec6 parent_variation, parent_acceleration_variation, parent_acceleration_derivative;
  if (own) {  // λ(b) lies outside the moved subtree: its V, A^g do not vary
    const Vec6 parent_acceleration = (parent == kGround ? Vec6::Zero() : data.acceleration[parent]) + base_acceleration;
    parent_variation = -cross_motion(twist, parent_velocity);                    // ΔV_λ = −s_j × V_λ
    parent_acceleration_variation = -cross_motion(twist, parent_acceleration);  // ΔA_λ = −s_j × A^g_λ
    parent_acceleration_derivative.setZero();                                    // ∂A_λ/∂v_j = 0
  } else {
    parent_variation = work.velocity_variation[parent];
    parent_acceleration_variation = work.acceleration_variation[parent];
    parent_acceleration_derivative = work.acceleration_velocity_derivative[parent];
  }
  const Joint& joint = model.joints[i];
  const Vec6& velocity = data.velocity[i];
  const Vec3& origin = data.position[i];
  const Vec3 origin_shift = point_velocity(twist, origin);  // δo: how the body origin moves (eq. D5)

  Vec6 velocity_variation = parent_variation;  // eq. (D3)
  for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
    const Vec6& axis = data.motion_axis[k];
    Vec6& axis_variation = work.axis_variation[k];  // Δs_k, eq. (D5)
    switch (work.dof_carrier[k]) {
      case AxisCarrier::Parent:  // fixed in λ(i): moves rigidly unless λ(i) is outside the subtree
        axis_variation = own ? Vec6(-cross_motion(twist, axis)) : Vec6::Zero();
        break;
      case AxisCarrier::Child:  // fixed in body i, which moves rigidly
        axis_variation.setZero();
        break;
      case AxisCarrier::WorldDirection:  // [e; o × e], e fixed in the world, o moves by δo
        axis_variation << Vec3::Zero(), origin_shift.cross(Vec3(axis.head<3>()));
        axis_variation -= cross_motion(twist, axis);
        break;
      case AxisCarrier::World:  // constant
        axis_variation = -cross_motion(twist, axis);
        break;
    }
    velocity_variation += axis_variation * v[k];
  }
  work.velocity_variation[i] = velocity_variation;

  // Acceleration level: Δṡ_k (eq. D6), ∂ṡ_k/∂v_j (eq. D9), and ṡ_j of coordinate j itself.
  Vec6 acceleration_variation = parent_acceleration_variation;
  Vec6 acceleration_derivative = parent_acceleration_derivative;
  const Vec3 origin_velocity = point_velocity(velocity, origin);  // ȯ (spherical, free)
  for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
    const Vec6& axis = data.motion_axis[k];
    const Vec6& axis_variation = work.axis_variation[k];
    Vec6 rate_variation, rate_derivative, rate;  // Δṡ_k, ∂ṡ_k/∂v_j, ṡ_k
    switch (work.dof_carrier[k]) {
      case AxisCarrier::Parent:  // ṡ = V_λ × s
        rate_variation = cross_motion(parent_variation, axis) + cross_motion(parent_velocity, axis_variation);
        rate_derivative = own ? Vec6(Vec6::Zero()) : cross_motion(twist, axis);
        rate = cross_motion(parent_velocity, axis);
        break;
      case AxisCarrier::Child:  // ṡ = V_i × s
        rate_variation = cross_motion(velocity_variation, axis);
        rate_derivative = cross_motion(twist, axis);
        rate = cross_motion(velocity, axis);
        break;
      case AxisCarrier::WorldDirection: {  // ṡ = [0; ȯ × e], ȯ = V_i at o
        const Vec3 direction = axis.head<3>();
        const Vec6 velocity_change = cross_motion(twist, velocity) + velocity_variation;  // ∂V_i/∂q_j
        const Vec3 origin_velocity_change =
            point_velocity(velocity_change, origin) + velocity.head<3>().cross(origin_shift);  // ∂ȯ/∂q_j
        rate << Vec3::Zero(), origin_velocity.cross(direction);
        rate_variation << Vec3::Zero(), origin_velocity_change.cross(direction);
        rate_variation -= cross_motion(twist, rate);
        rate_derivative << Vec3::Zero(), origin_shift.cross(direction);  // ∂ȯ/∂v_j = s_j at o
        break;
      }
      case AxisCarrier::World:
      default:
        rate_variation.setZero();
        rate_derivative.setZero();
        rate.setZero();
        break;
    }
    acceleration_variation += axis_variation * a[k] + rate_variation * v[k];  // eq. (D4)
    acceleration_derivative += rate_derivative * v[k];                        // eq. (D9)
    if (k == j) acceleration_derivative += rate;
  }
  work.acceleration_variation[i] = acceleration_variation;
  work.acceleration_velocity_derivative[i] = acceleration_derivative;
}

/// Column j of ∂τ/∂q and ∂τ/∂v for the coordinates above the moved body b (eq. D8, second
/// line): they see the subtree only through F_b.
void columns_above(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                   const Vec6& force_variation, const Vec6& force_derivative) {
  const Vec6 force_change = cross_force(data.motion_axis[j], work.transmitted_force[moved]) + force_variation;
  if (work.with_reactions) {  // b and the joints above it: ∂F_u = ∂F_b; o_b moves with s_j, o_u above does not (D13)
    detail::reaction_column(data, work, moved, j, force_change, force_derivative,
                            point_velocity(data.motion_axis[j], data.position[moved]));
    for (int u = model.bodies[moved].parent; u != kGround; u = model.bodies[u].parent)
      detail::reaction_column(data, work, u, j, force_change, force_derivative, Vec3::Zero());
  }
  for (int u = model.bodies[moved].parent; u != kGround; u = model.bodies[u].parent) {
    const Joint& joint = model.joints[u];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      work.dtau_dq(k, j) = data.motion_axis[k].dot(force_change);
      work.dtau_dv(k, j) = data.motion_axis[k].dot(force_derivative);
    }
  }
}

/// General form, any joints in the subtree: the variations propagated body by body over the
/// subtree of b, the body forces (eq. D7), their subtree sums, column j (eq. D8, D9).
void differentiate_coordinate(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                              const double* v, const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];  // s_j
  const SubtreeIndex::Range subtree = model.subtree[moved];
  for (const int i : subtree) {  // forward: parents before children
    body_step(model, data, work, i, i == moved, j, v, a, base_acceleration);
    const SpatialInertia& inertia = work.body_inertia[i];
    const Vec6& momentum = work.body_momentum[i];
    const Vec6& velocity = data.velocity[i];
    const Vec6& velocity_variation = work.velocity_variation[i];
    work.force_variation[i] = inertia.apply(work.acceleration_variation[i]) + cross_force(velocity_variation, momentum) +
                              cross_force(velocity, inertia.apply(velocity_variation));  // Δf_i, eq. (D7)
    work.force_velocity_derivative[i] = inertia.apply(work.acceleration_velocity_derivative[i]) +
                                        cross_force(twist, momentum) +
                                        cross_force(velocity, inertia.apply(twist));  // ∂f_i/∂v_j, eq. (D9)
  }
  for (std::size_t r = subtree.size(); r-- > 1;) {  // backward: children before parents, b last
    const int i = subtree[r];
    const int parent = model.bodies[i].parent;
    work.force_variation[parent] += work.force_variation[i];
    work.force_velocity_derivative[parent] += work.force_velocity_derivative[i];
  }
  for (const int i : subtree) {  // coordinates in the moved subtree, eq. (D8) first line
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      work.dtau_dq(k, j) =
          data.motion_axis[k].dot(work.force_variation[i]) + work.axis_variation[k].dot(work.transmitted_force[i]);
      work.dtau_dv(k, j) = data.motion_axis[k].dot(work.force_velocity_derivative[i]);
    }
  }
  if (work.with_reactions)
    for (std::size_t r = 1; r < subtree.size(); ++r) {  // eq. (D13), joints below b (b itself: columns_above)
      const int i = subtree[r];
      detail::reaction_column(data, work, i, j, cross_force(twist, work.transmitted_force[i]) + work.force_variation[i],
                              work.force_velocity_derivative[i], point_velocity(twist, data.position[i]));
    }
  columns_above(model, data, work, moved, j, work.force_variation[moved], work.force_velocity_derivative[moved]);
}

/// ΔF = I^c α + B^c β + β ×* H^c (eq. D12) with the composites of body u.
Vec6 composite_variation(const DerivativeData& work, int u, const Vec6& alpha, const Vec6& beta) {
  const Vec3 c = work.composite_coriolis_vector[u];
  Vec6 coriolis;  // B^c β, B^c = [[P, c̃], [−c̃, 0]] (eq. D11)
  coriolis << work.composite_coriolis_block[u] * Vec3(beta.head<3>()) + c.cross(Vec3(beta.tail<3>())),
      -c.cross(Vec3(beta.head<3>()));
  return work.composite_inertia[u].apply(alpha) + coriolis + cross_force(beta, work.composite_momentum[u]);
}

/// Fast form, when no joint strictly below b has a world-direction or world axis (every
/// axis there moves rigidly with its body): the remainder is then one pair (α, β) for the
/// whole subtree (eq. D12), ΔF_k = I^c_k α + B^c_k β + β ×* H^c_k, and each entry is two
/// dot products with the per-coordinate rows f_k = I^c s_k, u_k = B^c s_k − s_k ×* H^c.
void differentiate_coordinate_rigid(const Model& model, const Data& data, DerivativeData& work, int moved, int j,
                                    const double* v, const double* a, const Vec6& base_acceleration) {
  const Vec6& twist = data.motion_axis[j];
  body_step(model, data, work, moved, true, j, v, a, base_acceleration);  // ΔV_b, ΔA_b, ∂A_b/∂v_j, Δs of b's joint
  const Vec6& velocity = data.velocity[moved];
  const Vec6& beta_q = work.velocity_variation[moved];                                             // β = ΔV_b
  const Vec6 alpha_q = work.acceleration_variation[moved] - cross_motion(beta_q, velocity);         // α = ΔA_b − ΔV_b × V_b
  const Vec6 alpha_v = work.acceleration_velocity_derivative[moved] - cross_motion(twist, velocity);  // ∂A_b/∂v_j − s_j × V_b
  for (const int i : model.subtree[moved]) {
    const Joint& joint = model.joints[i];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& f = work.composite_axis_force[k];
      const Vec6& u = work.composite_axis_coriolis[k];
      work.dtau_dq(k, j) = f.dot(alpha_q) + u.dot(beta_q);
      work.dtau_dv(k, j) = f.dot(alpha_v) + u.dot(twist);
    }
  }
  const Joint& joint = model.joints[moved];
  for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)  // b's own axes: + Δs_kᵀ F_b (eq. D8)
    work.dtau_dq(k, j) += work.axis_variation[k].dot(work.transmitted_force[moved]);
  if (work.with_reactions) {  // eq. (D13) with the composites of each joint below b
    const SubtreeIndex::Range subtree = model.subtree[moved];
    for (std::size_t r = 1; r < subtree.size(); ++r) {
      const int i = subtree[r];
      detail::reaction_column(
          data, work, i, j, cross_force(twist, work.transmitted_force[i]) + composite_variation(work, i, alpha_q, beta_q),
          composite_variation(work, i, alpha_v, twist), point_velocity(twist, data.position[i]));
    }
  }
  columns_above(model, data, work, moved, j, composite_variation(work, moved, alpha_q, beta_q),
                composite_variation(work, moved, alpha_v, twist));
}

}  // namespace

void rnea_derivatives_from_kinematics(const Model& model, const Data& data, DerivativeData& work,
                                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "rnea_derivatives_from_kinematics");
  check_derivative_data(model, work, "rnea_derivatives_from_kinematics");
  check_kinematics(data, 2, "rnea_derivatives_from_kinematics");
  check_vector(v, model.nv, "v");
  check_vector(a, model.nv, "a");
  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // A^g_0 = [0; −g]
  transmitted_forces(model, data, work, base_acceleration);
  work.dtau_dq.setZero();  // entries of coordinates neither above nor below j stay 0
  work.dtau_dv.setZero();
  if (work.with_reactions) {
    work.dreaction_dq.setZero();  // joints neither above nor below j stay 0
    work.dreaction_dv.setZero();
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Joint& joint = model.joints[b];
    for (int j = joint.v_index; j < joint.v_index + joint.nv; ++j) {
      if (work.rigid_below[static_cast<std::size_t>(b)])
        differentiate_coordinate_rigid(model, data, work, b, j, v.data(), a.data(), base_acceleration);
      else
        differentiate_coordinate(model, data, work, b, j, v.data(), a.data(), base_acceleration);
    }
  }
}

}  // namespace mechdyn

namespace mechdyn {

void rnea_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "rnea_derivatives");
  check_derivative_data(model, work, "rnea_derivatives");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
  rnea_derivatives_from_kinematics(model, data, work, v, a);
}

}  // namespace mechdyn
