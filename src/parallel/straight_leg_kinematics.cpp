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
  // The products of the section's vectors (n₁·n₂' and n₂'·e are constants, here as computed).
  const double k = n1.dot(e), c12 = n1.dot(second), c2e = second.dot(e);
  const double inverse_s = 1.0 / s, inverse_along = 1.0 / along;

  // Velocities (eqs. 21–23): θ̇₁ = ω_⊥·(n₂' × e)/(w·e), θ̇₂ = ω_⊥·(e × n₁)/(w·e) with
  // ω_⊥ = e × ċ/s, written with (a × b)·(c × d) = (a·c)(b·d) − (a·d)(b·c).
  const Vec3 omega_p = platform_velocity.head<3>(), alpha_p = platform_acceleration.head<3>();
  const Vec3 end_velocity = platform_velocity.tail<3>() + omega_p.cross(end);  // ċ
  const double rate = e.dot(end_velocity);                                     // ṡ
  const double scale = inverse_s * inverse_along;
  const double rate1 = (c2e * rate - end_velocity.dot(second)) * scale;
  const double rate2 = (end_velocity.dot(n1) - k * rate) * scale;
  const Vec3 omega = rate1 * n1 + rate2 * second;
  // Accelerations: s̈ = e·c̈ + s|ω_⊥|², |ω_⊥|² = (|ċ|² − ṡ²)/s²; θ̈ from
  // ω̇_⊥ − θ̇₁θ̇₂ w, ω̇_⊥ = (e × c̈ − 2ṡ ω_⊥)/s − (ω·e) e × ω, by the same products.
  const Vec3 end_acceleration = platform_acceleration.tail<3>() + alpha_p.cross(end) + omega_p.cross(end_velocity);
  const double end_along = e.dot(end_acceleration);
  const double acceleration = end_along + (end_velocity.squaredNorm() - rate * rate) * inverse_s;  // s̈
  const double omega_e = rate1 * k + rate2 * c2e, omega_1 = rate1 + rate2 * c12, omega_2 = rate1 * c12 + rate2;
  const double product = rate1 * rate2;
  const double acceleration1 =
      ((c2e * end_along - end_acceleration.dot(second)) * inverse_s - 2.0 * rate * rate1 * along * inverse_s -
       omega_e * (c2e * omega_e - omega_2) - product * (c12 * c2e - k)) * inverse_along;
  const double acceleration2 =
      ((end_acceleration.dot(n1) - k * end_along) * inverse_s - 2.0 * rate * rate2 * along * inverse_s -
       omega_e * (omega_1 - k * omega_e) - product * (k * c12 - c2e)) * inverse_along;
  const Vec3 alpha = acceleration1 * n1 + acceleration2 * second + product * cross;  // ṅ₂' = θ̇₁ w
  g.rate = rate, g.acceleration = acceleration, g.angular_velocity = omega, g.angular_acceleration = alpha;

  // The leg's bodies and joints.
  const Vec3 moment = base.cross(omega), moment_rate = base.cross(alpha);
  set_screw(body_velocity[leg.lower], omega, moment);
  set_screw(body_acceleration[leg.lower], alpha, moment_rate);
  set_screw(body_velocity[leg.upper], omega, moment + rate * e);
  set_screw(body_acceleration[leg.upper], alpha, moment_rate + acceleration * e + rate * omega.cross(e));
  v[universal.v_index] = rate1, v[universal.v_index + 1] = rate2, v[prismatic.v_index] = rate;
  a[universal.v_index] = acceleration1, a[universal.v_index + 1] = acceleration2, a[prismatic.v_index] = acceleration;
  double* rates = state.rates.data();
  double* accelerations = state.accelerations.data();
  rates[0] = rate1, rates[1] = rate2, rates[2] = rate;
  accelerations[0] = acceleration1, accelerations[1] = acceleration2, accelerations[2] = acceleration;

  // The platform joint: relative rates.
  double* end_rates = rates + 3;
  double* end_accelerations = accelerations + 3;
  if (leg.end == LegEnd::Spherical) {
    for (int c = 0; c < 3; ++c) end_rates[c] = omega_p[c] - omega[c], end_accelerations[c] = alpha_p[c] - alpha[c];
  } else {
    // Δω = φ̇₁ u₁' + φ̇₂ u₂' and Δω̇ − φ̇₁ ω × u₁' − φ̇₂ ω_P × u₂' = φ̈₁ u₁' + φ̈₂ u₂', solved by the
    // products with u₁', u₂' (c = u₁'·u₂'); their components along w_c = u₁' × u₂' must vanish.
    const Vec3 on_leg = leg.end_axis_is_second ? second : Vec3(data.rotation[leg.upper] * leg.end_leg_axis);  // u₁'
    const Vec3 on_platform = data.rotation[leg.end_member] * leg.end_platform_axis;  // u₂'
    const Vec3 normal = on_leg.cross(on_platform);                                  // w_c
    const double c = on_leg.dot(on_platform), across = 1.0 - c * c, inverse_across = 1.0 / across;
    const double inverse_normal = 1.0 / std::sqrt(across);  // 1/|w_c|
    const double leg1 = omega.dot(on_leg), leg2 = omega.dot(on_platform), leg_n = omega.dot(normal);
    const double top1 = omega_p.dot(on_leg), top2 = omega_p.dot(on_platform), top_n = omega_p.dot(normal);
    const double misfit = (top_n - leg_n) * inverse_normal;
    if (std::abs(misfit) > compatibility_tolerance * (1.0 + platform_velocity.norm()))
      throw InvalidArgument("the platform twist leaves the span of limb '" + limb.name + "' (its universal joint would turn " +
                            number(misfit) + " rad/s about its cross axis): the motion violates the loop closure");
    const double d1 = top1 - leg1, d2 = top2 - leg2;  // Δω·u₁', Δω·u₂'
    end_rates[0] = (d1 - c * d2) * inverse_across;
    end_rates[1] = (d2 - c * d1) * inverse_across;
    const Vec3 relative_rate = alpha_p - alpha;  // Δω̇
    const double r1 = relative_rate.dot(on_leg) + end_rates[1] * top_n;
    const double r2 = relative_rate.dot(on_platform) - end_rates[0] * leg_n;
    const double misfit_rate = (relative_rate.dot(normal) - end_rates[0] * (c * leg1 - leg2) -
                                end_rates[1] * (top1 - c * top2)) * inverse_normal;
    if (std::abs(misfit_rate) > compatibility_tolerance * (1.0 + platform_acceleration.norm()))
      throw InvalidArgument("the platform acceleration leaves the span of limb '" + limb.name +
                            "' (its universal joint would accelerate " + number(misfit_rate) +
                            " rad/s² about its cross axis): the motion violates the loop closure");
    end_accelerations[0] = (r1 - c * r2) * inverse_across;
    end_accelerations[1] = (r2 - c * r1) * inverse_across;
    // N: the wrench reciprocal to the five joint screws (the constraint couple of eq. 32 when
    // w ∥ w_c, as in the Schoenflies robot).
    const Vec3 h = normal.dot(e) * cross - along * normal;
    const Vec3 force = h.cross(e) * inverse_s;
    Vec6 constraint;
    set_screw(constraint, end.cross(force) + along * normal, force);
    state.constraint.col(0) = constraint / constraint.norm();
  }
  const LimbJointScrews& last = limb.joints.back();
  if (!last.cut) {  // the platform group's tree joint: its coordinates
    const Joint& root = model.joints[last.index];
    for (int c = 0; c < root.nv; ++c) v[root.v_index + c] = end_rates[c], a[root.v_index + c] = end_accelerations[c];
  }
  return true;
}

}  // namespace mechdyn
