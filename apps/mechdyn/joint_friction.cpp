// Joint friction efforts at one state. See joint_friction.hpp for the formulas.
#include "joint_friction.hpp"

#include <cmath>

namespace mechdyn::cli {

bool has_friction(const Model& model) {
  for (const Joint& j : model.joints)
    if (j.friction) return true;
  return false;
}

JointFrictionResult joint_friction(const Model& model, const Data& data, const VecX& v, const VecX& a) {
  JointFrictionResult out;
  out.effort = VecX::Zero(model.nv);
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    if (!joint.friction || joint.nv != 1) continue;  // revolute and prismatic only (docs/model-file.md)
    const JointFriction& fr = *joint.friction;
    const int k = joint.v_index;
    const bool revolute = joint.type == JointType::Revolute;
    const Vec6& axis = data.motion_axis[k];
    const Vec3 n = revolute ? Vec3(axis.head<3>()) : Vec3(axis.tail<3>());
    double normal = 1.0;
    if (fr.load) {
      const Vec3& f = data.reaction_force[l];
      const Vec3& tau = data.reaction_torque[l];
      const double f_axial = std::abs(n.dot(f)), f_radial = (f - n * n.dot(f)).norm();
      const double t_axial = std::abs(n.dot(tau)), t_radial = (tau - n * n.dot(tau)).norm();
      normal = revolute ? fr.load->pin_radius * (f_radial + t_radial / fr.load->bending_arm) +
                              fr.load->friction_arm * f_axial
                        : f_radial + t_radial / fr.load->bending_arm + t_axial / fr.load->friction_arm;
      out.loaded.push_back(l);
      out.normal.push_back(normal);
    }
    const double velocity = v[k];
    const double direction = velocity != 0.0 ? velocity : a[k];
    const double sign = direction > 0.0 ? 1.0 : (direction < 0.0 ? -1.0 : 0.0);
    const double kc = fr.coulomb * normal, ks = fr.static_coefficient * normal;
    double effort = fr.viscous * velocity;
    switch (fr.model) {
      case FrictionModel::CoulombViscous: effort += kc * sign; break;  // eq. (42)
      case FrictionModel::Stribeck:
      case FrictionModel::LuGre: {  // eq. (52); LuGre at its steady state
        const double ratio = velocity / fr.stribeck_velocity;
        effort += (kc + (ks - kc) * std::exp(-ratio * ratio)) * sign;
        break;
      }
      case FrictionModel::BrownMcPhee: {
        const double ratio = velocity / fr.stribeck_velocity;
        const double denominator = 0.25 * ratio * ratio + 0.75;
        effort += kc * std::tanh(4.0 * ratio) + (ks - kc) * ratio / (denominator * denominator);
        break;
      }
    }
    out.effort[k] = effort;
  }
  return out;
}

}  // namespace mechdyn::cli
