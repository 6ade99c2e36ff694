// Closed-form rates and accelerations of a straight leg (momentum-screw §3.2, eqs. 20–24,
// differentiated). See parallel/straight_leg.hpp.
#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/parallel/straight_leg.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

void set_screw(Vec6& out, const Vec3& angular, const Vec3& linear) {
  out.head<3>() = angular;
  out.tail<3>() = linear;
}

}  // namespace

bool straight_leg_motion(const Model& model, const Limb& limb, const Data& data, const Vec6& platform_velocity,
                         const Vec6& platform_acceleration, double compatibility_tolerance, double margin, LimbState& state,
                         AlignedVector<Vec6>& body_velocity, AlignedVector<Vec6>& body_acceleration,
                         Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
  const StraightLeg& leg = limb.leg;
  const Joint& universal = model.joints[leg.lower];
  const Joint& prismatic = model.joints[leg.upper];
  const Vec3& base = leg.base_point;  // A_i
  const Vec3& n1 = leg.first_axis;
  // Geometry from the poses: e, n₂', s (eqs. 16–19).
  const Vec3 e = data.motion_axis[prismatic.v_index].tail<3>();
  const Vec3 second = data.motion_axis[universal.v_index + 1].head<3>();
  const Vec3 cross = n1.cross(second);  // w
  const double along = cross.dot(e);    // w·e
  if (!(along * along >= margin * margin * cross.squaredNorm())) return false;
  StraightLegState& g = state.leg;
  const double s = e.dot(data.position[leg.upper] - base) + leg.end_along;
  const Vec3 end = base + s * e;  // C_i
  g.end = end, g.direction = e, g.length = s, g.second_axis = second, g.cross_axis = cross, g.cross_along = along;
  const Vec3 first_dual = second.cross(e) / along, second_dual = e.cross(n1) / along;  // ω_⊥ → θ̇₁, θ̇₂

  // Velocities (eqs. 21–23).
  const Vec3 omega_p = platform_velocity.head<3>(), alpha_p = platform_acceleration.head<3>();
  const Vec3 end_velocity = platform_velocity.tail<3>() + omega_p.cross(end);  // ċ
  const double rate = e.dot(end_velocity);                                     // ṡ
  const Vec3 omega_across = e.cross(end_velocity) / s;                         // ω_⊥
  const double rate1 = omega_across.dot(first_dual), rate2 = omega_across.dot(second_dual);
  const Vec3 omega = rate1 * n1 + rate2 * second;
  // Accelerations.
  const Vec3 end_acceleration = platform_acceleration.tail<3>() + alpha_p.cross(end) + omega_p.cross(end_velocity);
  const double acceleration = e.dot(end_acceleration) + s * omega_across.squaredNorm();  // s̈
  const Vec3 alpha_across =
      (e.cross(end_acceleration) - 2.0 * rate * omega_across) / s - omega.dot(e) * e.cross(omega);
  const double product = rate1 * rate2;
  const Vec3 rest = alpha_across - product * cross;
  const double acceleration1 = rest.dot(first_dual), acceleration2 = rest.dot(second_dual);
  const Vec3 alpha = acceleration1 * n1 + acceleration2 * second + product * cross;
  g.rate = rate, g.acceleration = acceleration, g.angular_velocity = omega, g.angular_acceleration = alpha;

  // The leg's bodies and joints.
  const Vec3 moment = base.cross(omega), moment_rate = base.cross(alpha);
  set_screw(body_velocity[leg.lower], omega, moment);
  set_screw(body_acceleration[leg.lower], alpha, moment_rate);
  set_screw(body_velocity[leg.upper], omega, moment + rate * e);
  set_screw(body_acceleration[leg.upper], alpha, moment_rate + acceleration * e + rate * omega.cross(e));
  v[universal.v_index] = rate1, v[universal.v_index + 1] = rate2, v[prismatic.v_index] = rate;
  a[universal.v_index] = acceleration1, a[universal.v_index + 1] = acceleration2, a[prismatic.v_index] = acceleration;
  state.rates[0] = rate1, state.rates[1] = rate2, state.rates[2] = rate;
  state.accelerations[0] = acceleration1, state.accelerations[1] = acceleration2, state.accelerations[2] = acceleration;

  // The platform joint: relative rates.
  const Vec3 relative = omega_p - omega, relative_rate = alpha_p - alpha;  // Δω, Δω̇
  const LimbJointScrews& last = limb.joints.back();
  double* end_rates = state.rates.data() + 3;
  double* end_accelerations = state.accelerations.data() + 3;
  if (leg.end == LegEnd::Spherical) {
    for (int k = 0; k < 3; ++k) end_rates[k] = relative[k], end_accelerations[k] = relative_rate[k];
  } else {
    const Vec3 on_leg = data.rotation[leg.upper] * leg.end_leg_axis;               // u₁'
    const Vec3 on_platform = data.rotation[leg.end_member] * leg.end_platform_axis;  // u₂'
    const Vec3 normal = on_leg.cross(on_platform);                                  // w_c
    const double normal_squared = normal.squaredNorm(), normal_norm = std::sqrt(normal_squared);
    const double misfit = relative.dot(normal) / normal_norm;
    if (std::abs(misfit) > compatibility_tolerance * (1.0 + platform_velocity.norm()))
      throw InvalidArgument("the platform twist leaves the span of limb '" + limb.name + "' (its universal joint would turn " +
                            number(misfit) + " rad/s about its cross axis): the motion violates the loop closure");
    end_rates[0] = relative.cross(on_platform).dot(normal) / normal_squared;
    end_rates[1] = on_leg.cross(relative).dot(normal) / normal_squared;
    const Vec3 rest_end =
        relative_rate - end_rates[0] * omega.cross(on_leg) - end_rates[1] * omega_p.cross(on_platform);
    const double misfit_rate = rest_end.dot(normal) / normal_norm;
    if (std::abs(misfit_rate) > compatibility_tolerance * (1.0 + platform_acceleration.norm()))
      throw InvalidArgument("the platform acceleration leaves the span of limb '" + limb.name +
                            "' (its universal joint would accelerate " + number(misfit_rate) +
                            " rad/s² about its cross axis): the motion violates the loop closure");
    end_accelerations[0] = rest_end.cross(on_platform).dot(normal) / normal_squared;
    end_accelerations[1] = on_leg.cross(rest_end).dot(normal) / normal_squared;
    // N: the wrench reciprocal to the five joint screws (the constraint couple of eq. 32 when
    // w ∥ w_c, as in the Schoenflies robot).
    const Vec3 h = normal.dot(e) * cross - along * normal;
    const Vec3 force = h.cross(e) / s;
    Vec6 constraint;
    set_screw(constraint, end.cross(force) + along * normal, force);
    state.constraint.col(0) = constraint / constraint.norm();
  }
  if (!last.cut) {  // the platform group's tree joint: its coordinates
    const Joint& root = model.joints[last.index];
    for (int k = 0; k < root.nv; ++k) v[root.v_index + k] = end_rates[k], a[root.v_index + k] = end_accelerations[k];
  }
  return true;
}

}  // namespace mechdyn
