// Joint load decomposition and equivalent normal load (EC §3.1–3.3, eqs. 36–39, 43–47
// in the form of model-format.md). See friction/joint_load_decomposition.hpp.
//
// Reads: data.reaction_force, data.reaction_torque, data.motion_axis. Writes:
// data.constraint_torque, data.constraint_force, data.axial_load, data.normal_load.
// Cost O(n). Allocates nothing.
#include "mechdyn/friction/joint_load_decomposition.hpp"

#include <cmath>

namespace mechdyn {

double joint_normal_load(const Joint& joint, double constraint_torque, double constraint_force, double axial_load) {
  if (!joint.friction || !joint.friction->load) return 1.0;
  const FrictionLoad& arms = *joint.friction->load;
  if (joint.type == JointType::Revolute)  // τ_n = R_p (f_r + τ_r / R_b) + R_n f_m
    return arms.pin_radius * (constraint_force + constraint_torque / arms.bending_arm) + arms.friction_arm * axial_load;
  // prismatic: f_n = f_p + τ_p / R_b + τ_m / R_n
  return constraint_force + constraint_torque / arms.bending_arm + axial_load / arms.friction_arm;
}

namespace {
// |x| without overflow or underflow in the squares (std::hypot scales): a reaction of
// 1e160 N has a finite magnitude, which x.norm() (sqrt of a sum of squares) turns into inf.
double magnitude(const Vec3& x) { return std::hypot(x[0], x[1], x[2]); }
}  // namespace

void joint_load_decomposition(const Model& model, Data& data) {
  for (int u = 0; u < model.num_bodies(); ++u) {
    const Joint& joint = model.joints[u];
    const Vec3& f = data.reaction_force[u];
    const Vec3& tau = data.reaction_torque[u];
    double torque = 0.0, force = 0.0, axial = 0.0;
    switch (joint.type) {
      case JointType::Revolute: {
        const Vec3 n = data.motion_axis[joint.v_index].head<3>();
        torque = magnitude(tau - n * n.dot(tau));  // τ_r = |n̄² τ_uL|, eqs. (38)–(39)
        force = magnitude(f - n * n.dot(f));       // f_r = |n̄² f_uL|, eqs. (43)–(44)
        axial = std::abs(n.dot(f));              // f_m = |n nᵀ f_uL|, eqs. (45)–(46)
        break;
      }
      case JointType::Prismatic: {
        const Vec3 n = data.motion_axis[joint.v_index].tail<3>();
        force = magnitude(f - n * n.dot(f));       // f_p = |n̄² f_uL|, eqs. (38)–(39)
        torque = magnitude(tau - n * n.dot(tau));  // τ_p = |n̄² τ_uL|, eqs. (43)–(44)
        axial = std::abs(n.dot(tau));            // τ_m = |n nᵀ τ_uL|, eqs. (45)–(46)
        break;
      }
      case JointType::Universal: {
        const Vec3 n1 = data.motion_axis[joint.v_index].head<3>();
        const Vec3 n2 = data.motion_axis[joint.v_index + 1].head<3>();
        const Vec3 normal = n1.cross(n2);
        const double length = magnitude(normal);
        torque = length > 0.0 ? std::abs(normal.dot(tau)) / length : 0.0;  // the cross's bending torque
        force = magnitude(f);
        break;
      }
      case JointType::Spherical: force = magnitude(f); break;
      case JointType::Free: break;
      case JointType::Fixed:
        torque = magnitude(tau);
        force = magnitude(f);
        break;
    }
    data.constraint_torque[u] = torque;
    data.constraint_force[u] = force;
    data.axial_load[u] = axial;
    data.normal_load[u] = (joint.friction && joint.friction->load) ? joint_normal_load(joint, torque, force, axial) : 0.0;
  }
}

}  // namespace mechdyn
