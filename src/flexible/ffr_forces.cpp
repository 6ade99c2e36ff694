// Generalized forces of one flexible body in the FFR (flexible/ffr_dynamics.hpp): elastic
// and damping forces, gravity on the distributed mass, point forces and torques, and the
// geometric (axial-load) stiffness of the inertial loads.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (32)–(35) (elastic force K q_f from the
// strain energy), (36) (gravity ∂V_g/∂q), (37)–(38) (virtual work of applied forces).
// Geometric stiffness: the consistent K_G of the second-order axial strain
// (flexible/beam_element.hpp) for the axial force that the rigid motion's inertial and
// gravity loads cause (docs/flexible-bodies.md "Geometric stiffening"; the approach of the
// geometric stiffness from inertia loads, Wallrapp & Schwertassek 1991).
// Cost: O(n_e²) (matrix–vector products, the K_G sum); no allocation.
#include "mechdyn/flexible/ffr_dynamics.hpp"

namespace mechdyn {

void ffr_geometric_stiffness(const FlexibleBody& body, FlexibleBodyData& data, const Vec3& angular_velocity,
                             const Vec3& origin_acceleration, const Vec3& gravity, double tip_tension) {
  if (!body.beam.geometric_stiffening) {
    data.geometric_stiffness.setZero();
    return;
  }
  const FlexibleBeam& beam = body.beam;
  const double rho_a = beam.material.density * beam.section.area;
  // Axial force of the segment [s, L] (free body: N = ∫_s^L ρA d·(g − a(σ)) dσ with the
  // rigid acceleration a(σ) = a_0 + ω̇ × σd + ω × (ω × σd); d·(ω̇ × d) = 0 and
  // d·(ω × (ω × d)) = −|ω × d|²):
  //   N(s) = ρA d·(g − a_0) (L − s) + ρA |ω × d|² (L² − s²)/2 + P.
  const double linear = rho_a * beam.direction.dot(gravity - origin_acceleration);
  const double quadratic = rho_a * angular_velocity.cross(beam.direction).squaredNorm();
  data.geometric_stiffness = tip_tension * body.geometric_stiffness_constant;
  data.geometric_stiffness += linear * body.geometric_stiffness_linear;
  data.geometric_stiffness += quadratic * body.geometric_stiffness_quadratic;
}

void ffr_elastic_forces(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                        const Eigen::Ref<const VecX>& elastic_velocity) {
  data.elastic_force.setZero();
  data.elastic_force.noalias() -= body.stiffness * e;                 // eq. (35): −K q_f
  data.elastic_force.noalias() -= data.geometric_stiffness * e;        // −K_G q_f
  data.damping_force.setZero();
  data.damping_force.noalias() -= body.damping * elastic_velocity;    // Rayleigh: −(α M_ee + β K) ė
}

void ffr_gravity_force(const FlexibleBody& body, FlexibleBodyData& data, const Eigen::Ref<const VecX>& e,
                       const Vec3& gravity) {
  // eq. (36) with V_g = −g · (m r_0 + R S(e)): Q = ∫ [ū × g; g; Nᵀ g] ρA ds + welded part.
  const Vec3 first = body.first_moment + body.first_moment_shape * e + body.rigid_mass * body.rigid_com;
  data.gravity_force.head<3>() = first.cross(gravity);
  data.gravity_force.segment<3>(3) = body.total_mass() * gravity;
  data.gravity_force.tail(body.num_elastic).noalias() = body.first_moment_shape.transpose() * gravity;
}

void ffr_point_wrench(const BeamPointKinematics& point, const Vec3& force, const Vec3& torque,
                      Eigen::Ref<VecX> generalized) {
  // Virtual work f · δp + τ · δφ_section with δp = δr + δφ × p̄ + J_p δe, δφ_section = δφ + J_θ δe.
  generalized.head<3>() += point.position.cross(force) + torque;
  generalized.segment<3>(3) += force;
  const Eigen::Index ne = point.position_jacobian.cols();
  generalized.tail(ne).noalias() += point.position_jacobian.transpose() * force;
  generalized.tail(ne).noalias() += point.rotation_jacobian.transpose() * torque;
}

double ffr_strain_energy(const FlexibleBody& body, const Eigen::Ref<const VecX>& e) {
  double twice = 0.0;  // eᵀ K e column by column (no temporary)
  for (Eigen::Index j = 0; j < e.size(); ++j) twice += e(j) * body.stiffness.col(j).dot(e);
  return 0.5 * twice;
}

}  // namespace mechdyn
