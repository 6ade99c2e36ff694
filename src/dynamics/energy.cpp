// Kinetic and potential energy of a tree.
//
// Source: explicit-canonical-dynamics-joint-friction eq. (12); Featherstone, "Rigid Body
// Dynamics Algorithms" (2008), §2.13 (kinetic energy of a rigid body):
//   T = ½ Σ_l ( m_l v_{lI}ᵀ v_{lI} + ω_lᵀ J_l ω_l )     v_{lI}: velocity of the centre of mass
//   V = −Σ_l m_l gᵀ r_{lI}                               r_{lI}: centre of mass (world)
// with ω_l = angular(v_l) and v_{lI} = v_O + ω_l × r_{lI} from the spatial velocity
// v_l = [ω; v_O] of forward_kinematics; J_l is the world inertia about the com.
// Cost: O(n). Reads: model, q (and v). Writes: Data's kinematics block. Allocates nothing.
#include "mechdyn/dynamics/energy.hpp"

#include "../kinematics/kinematics_stage.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// T and V from the stage, unchecked (a model without velocities leaves the stage at level
// 0 after a (q, v) pass, v.data() being null: T = 0 there, as the sums give).
double kinetic_sum(const Model& model, const Data& data) {
  double twice_energy = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Vec3 omega = data.velocity[l].head<3>();
    const Vec3 com_velocity = data.velocity[l].tail<3>() + omega.cross(data.com_position[l]);  // v_O + ω × r_{lI}
    twice_energy += model.bodies[l].mass * com_velocity.squaredNorm() + omega.dot(data.inertia_world[l] * omega);
    const double armature = model.joints[l].armature;  // ½ armature v² of a drive (force-elements.md)
    if (armature != 0.0) {
      const Vec6& relative = data.joint_velocity[l];  // S v: [n v; o × n v] (revolute), [0; n v] (prismatic)
      twice_energy += armature * (model.joints[l].type == JointType::Revolute ? relative.head<3>().squaredNorm()
                                                                              : relative.tail<3>().squaredNorm());
    }
  }
  return 0.5 * twice_energy;
}

double potential_sum(const Model& model, const Data& data) {
  double energy = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l)
    energy -= model.bodies[l].mass * model.gravity.dot(data.com_position[l]);  // −m gᵀ r_{lI}
  return energy;
}

}  // namespace

double kinetic_energy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& v) {
  check_data(model, data, "kinetic_energy");
  check_state(model, q, &v);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
  return kinetic_sum(model, data);
}

double kinetic_energy_from_kinematics(const Model& model, const Data& data) {
  check_data(model, data, "kinetic_energy_from_kinematics");
  check_kinematics(data, model.nv > 0 ? 1 : 0, "kinetic_energy_from_kinematics");
  return kinetic_sum(model, data);
}

double potential_energy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "potential_energy");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
  return potential_sum(model, data);
}

double potential_energy_from_kinematics(const Model& model, const Data& data) {
  check_data(model, data, "potential_energy_from_kinematics");
  check_kinematics(data, 0, "potential_energy_from_kinematics");
  return potential_sum(model, data);
}

}  // namespace mechdyn
