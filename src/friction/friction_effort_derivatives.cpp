// Derivatives of the joint friction efforts with respect to q (tangent space) and v.
//
// Source: the friction laws of friction/friction_models.hpp (EC eqs. 42, 52; LuGre at its
// steady state; Brown–McPhee), the normal load of friction/joint_load_decomposition.hpp
// (EC §3.1–3.3 with model-format.md's N), and the reaction derivatives (eq. D13,
// dynamics/joint_reaction_derivatives.hpp). Every law is linear in N:
//   τ_f = N φ(v) + k_v v,  so  ∂τ_f = φ(v) ∂N + [∂v] (N φ'(v) + k_v)                   (D14)
// and N is a sum of constraint loads |P x| (P = 1 − n nᵀ, x the reaction force or torque)
// and |nᵀ x|, with n the joint's world axis, which turns with the parent:
//   ∂|P x| = (P x)·(∂x − ∂n (n·x) − n (∂n·x + n·∂x)) / |P x|,  ∂|n·x| = sgn(n·x)(∂n·x + n·∂x)
//   ∂n/∂q_j = ω_j × n for a coordinate j above the joint (s_j = [ω_j; ·]), 0 otherwise.   (D15)
// With force elements (format 3) the reaction x is the joint's wrench with the elements'
// body wrenches on the subtree subtracted and ∂x includes theirs (eq. D30), so N is the
// normal load compute_all_terms' friction reads.
// Cost: joint_reaction_derivatives plus O(nv) per joint with friction. Allocates nothing.
#include "mechdyn/friction/friction_effort_derivatives.hpp"

#include <cmath>

#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"
#include "mechdyn/friction/friction_models.hpp"

namespace mechdyn {
namespace {

double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

/// |P x| and its derivative for ∂x, ∂n (eq. D15); 0 where |P x| = 0.
double off_axis_change(const Vec3& n, const Vec3& x, const Vec3& dx, const Vec3& dn, double& value) {
  const Vec3 px = x - n * n.dot(x);
  value = px.norm();
  if (value == 0.0) return 0.0;
  return px.dot(dx - dn * n.dot(x) - n * (dn.dot(x) + n.dot(dx))) / value;
}

double on_axis_change(const Vec3& n, const Vec3& x, const Vec3& dx, const Vec3& dn, double& value) {
  value = std::abs(n.dot(x));
  return sign_of(n.dot(x)) * (dn.dot(x) + n.dot(dx));
}

/// N and ∂N for one column (reaction change df, dτ; axis change dn).
double normal_load_change(const Joint& joint, const Vec3& n, const Vec3& force, const Vec3& torque, const Vec3& dforce,
                          const Vec3& dtorque, const Vec3& dn, double& normal) {
  const FrictionLoad& arms = *joint.friction->load;
  double off_torque = 0, off_force = 0, axial = 0;
  const double d_off_torque = off_axis_change(n, torque, dtorque, dn, off_torque);
  const double d_off_force = off_axis_change(n, force, dforce, dn, off_force);
  if (joint.type == JointType::Revolute) {  // τ_n = R_p (f_r + τ_r / R_b) + R_n f_m
    const double d_axial = on_axis_change(n, force, dforce, dn, axial);
    normal = arms.pin_radius * (off_force + off_torque / arms.bending_arm) + arms.friction_arm * axial;
    return arms.pin_radius * (d_off_force + d_off_torque / arms.bending_arm) + arms.friction_arm * d_axial;
  }
  const double d_axial = on_axis_change(n, torque, dtorque, dn, axial);  // f_n = f_p + τ_p / R_b + τ_m / R_n
  normal = off_force + off_torque / arms.bending_arm + axial / arms.friction_arm;
  return d_off_force + d_off_torque / arms.bending_arm + d_axial / arms.friction_arm;
}

}  // namespace

double friction_effort_slope(const JointFriction& f, double normal_load, double velocity) {
  const double ratio = velocity / (f.stribeck_velocity > 0.0 ? f.stribeck_velocity : 1.0);
  switch (f.model) {
    case FrictionModel::CoulombViscous:
      return f.viscous;
    case FrictionModel::Stribeck:
    case FrictionModel::LuGre:  // g(v) sgn(v): sgn is constant on the evaluated branch
      return sign_of(velocity) * (f.static_coefficient - f.coulomb) * normal_load * std::exp(-ratio * ratio) *
                 (-2.0 * ratio / f.stribeck_velocity) +
             f.viscous;
    case FrictionModel::BrownMcPhee: {
      const double t = std::tanh(4.0 * ratio), d = 0.25 * ratio * ratio + 0.75;
      return (f.coulomb * normal_load * 4.0 * (1.0 - t * t) +
              (f.static_coefficient - f.coulomb) * normal_load * (d - ratio * ratio) / (d * d * d)) /
                 f.stribeck_velocity +
             f.viscous;
    }
  }
  return f.viscous;
}

void friction_effort_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                 const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  friction_effort_derivatives(model, data, work, q, v, a, 0.0);
}

void friction_effort_derivatives(const Model& model, Data& data, DerivativeData& work, const Eigen::Ref<const VecX>& q,
                                 const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a, double t) {
  // Checks the arguments; the stage at (q, v, a); with force elements the reactions and
  // work.transmitted_force carry their body wrenches (eq. D30).
  joint_reaction_derivatives(model, data, work, q, v, a, t);
  work.dfriction_dq.setZero();
  work.dfriction_dv.setZero();
  for (int u = 0; u < model.num_bodies(); ++u) {
    const Joint& joint = model.joints[u];
    if (!joint.friction) continue;
    const JointFriction& friction = *joint.friction;
    const int k = joint.v_index;  // revolute or prismatic (check_joint_friction): one coordinate
    const Vec6& axis = data.motion_axis[k];
    const Vec3 n = joint.type == JointType::Revolute ? Vec3(axis.head<3>()) : Vec3(axis.tail<3>());
    const Vec6& wrench = work.transmitted_force[u];
    const Vec3 force = wrench.tail<3>();
    const Vec3 torque = moment_about(wrench, data.position[u]);  // about o_u, as the reaction
    const Eigen::Index row = 6 * static_cast<Eigen::Index>(u);
    double normal = 1.0;  // N = 1 without a load block (k_c, k_s are efforts)
    const double shape = friction_effort(friction, 1.0, v[k], a[k]) - friction.viscous * v[k];  // φ(v), eq. (D14)
    for (int j = 0; j < model.nv; ++j) {
      if (!friction.load) break;
      const int moved = model.dof_body[static_cast<std::size_t>(j)];
      const bool above = moved != u && model.is_ancestor_or_self(moved, u);
      const Vec3 dn = above ? Vec3(Vec3(data.motion_axis[j].head<3>()).cross(n)) : Vec3::Zero();  // eq. (D15)
      const double dq = normal_load_change(joint, n, force, torque, work.dreaction_dq.block<3, 1>(row, j),
                                           work.dreaction_dq.block<3, 1>(row + 3, j), dn, normal);
      const double dv = normal_load_change(joint, n, force, torque, work.dreaction_dv.block<3, 1>(row, j),
                                           work.dreaction_dv.block<3, 1>(row + 3, j), Vec3::Zero(), normal);
      work.dfriction_dq(k, j) = shape * dq;  // eq. (D14)
      work.dfriction_dv(k, j) = shape * dv;
    }
    work.dfriction_dv(k, k) += friction_effort_slope(friction, normal, v[k]);  // N φ'(v) + k_v
  }
}

}  // namespace mechdyn
