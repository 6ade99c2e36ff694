// Closed-form platform wrenches of a straight leg (momentum-screw §3.3, eqs. 30–36). See
// parallel/straight_leg.hpp.
#include "mechdyn/parallel/straight_leg.hpp"

namespace mechdyn {

namespace {

// Slender parts: c = A + σ e, so a_c = σ (ω̇ × e + ω × (ω × e)) (+ 2ṡ ω × e + s̈ e for the upper
// part, σ = σ_u + q_P), and J ω̇ + ω × J ω = a ω̇ + (b − a)((e·ω̇) e + (e·ω) ω × e).
void slender_leg_loads(const Model& model, const StraightLeg& leg, const StraightLegState& g, const Data& data,
                       const AlignedVector<Vec6>& external, Vec6& lower_load, Vec6& upper_load) {
  const Vec3& e = g.direction;
  const Vec3& omega = g.angular_velocity;
  const Vec3& alpha = g.angular_acceleration;
  const Vec3 turn = omega.cross(e);                           // ω × e = ė
  const Vec3 bend = alpha.cross(e) + omega.cross(turn);       // ë without the sliding terms, per unit σ
  const double spin_along = e.dot(alpha), spin_rate = e.dot(omega);
  const Vec3 axial = spin_along * e + spin_rate * turn;       // (e·ω̇) e + (e·ω) ω × e
  auto load = [&](int b, const Vec3& com_acceleration, double across, double along, Vec6& out) {
    const Vec3& com = data.com_position[b];
    const Vec3 force = model.bodies[b].mass * (com_acceleration - model.gravity);
    out.head<3>() = com.cross(force) + across * alpha + (along - across) * axial;
    out.tail<3>() = force;
    out -= external[b];
  };
  const double slide = g.length - leg.offset;  // q_P
  load(leg.lower, leg.lower_com_along * bend, leg.lower_inertia_across, leg.lower_inertia_along, lower_load);
  load(leg.upper, (leg.upper_com_along + slide) * bend + (2.0 * g.rate) * turn + g.acceleration * e,
       leg.upper_inertia_across, leg.upper_inertia_along, upper_load);
}

}  // namespace

void straight_leg_loads(const Model& model, const Limb& limb, const LimbState& state, const Data& data,
                        const AlignedVector<Vec6>& external, Vec6& lower_load, Vec6& upper_load) {
  const StraightLeg& leg = limb.leg;
  const StraightLegState& g = state.leg;
  if (leg.slender) {
    slender_leg_loads(model, leg, g, data, external, lower_load, upper_load);
    return;
  }
  const Mat3& rotation = data.rotation[leg.lower];  // both bodies: R_leg
  const Vec3& omega = g.angular_velocity;
  const Vec3& alpha = g.angular_acceleration;
  const Vec3 omega_body = rotation.transpose() * omega, alpha_body = rotation.transpose() * alpha;
  const Vec3 slide_terms = (2.0 * g.rate) * omega.cross(g.direction) + g.acceleration * g.direction;
  auto load = [&](int b, bool upper, Vec6& out) {
    const Body& body = model.bodies[b];
    const Vec3& com = data.com_position[b];
    const Vec3 arm = com - leg.base_point;  // ρ
    Vec3 com_acceleration = alpha.cross(arm) + omega.cross(omega.cross(arm));
    if (upper) com_acceleration += slide_terms;
    const Vec3 force = body.mass * (com_acceleration - model.gravity);
    const Vec3 spin = body.inertia * alpha_body + omega_body.cross(body.inertia * omega_body);
    out.head<3>() = com.cross(force) + rotation * spin;
    out.tail<3>() = force;
    out -= external[b];
  };
  load(leg.lower, false, lower_load);
  load(leg.upper, true, upper_load);
}

void straight_leg_wrenches(const Limb& limb, const LimbState& state, const Vec6& lower_load, const Vec6& upper_load,
                           Vec6* distal, Vec6& known, Vec6& effort) {
  const StraightLegState& g = state.leg;
  const Vec3& e = g.direction;
  distal[0] = lower_load + upper_load;  // D_U: the bodies beyond the universal joint
  distal[1] = upper_load;               // D_P
  distal[2].setZero();                  // the platform joint: no leg body beyond it
  // The universal joint at A passes no moment about n₁, n₂': s e × F + M = T w (eq. 30),
  // its constraint torque T w eliminated by the product with e (eqs. 31, 33).
  const Vec3 moment = distal[0].head<3>() - limb.leg.base_point.cross(distal[0].tail<3>());  // M = m_A(D_U)
  const double torque = moment.dot(e) / g.cross_along;                                    // T
  const Vec3 force = (torque * g.cross_axis - moment).cross(e) / g.length - e.dot(upper_load.tail<3>()) * e;  // F⁰
  known.head<3>() = g.end.cross(force);  // W⁰ = [C × F⁰; F⁰]
  known.tail<3>() = force;
  effort.head<3>() = g.end.cross(e);     // a unit force along the leg through C
  effort.tail<3>() = e;
  if (limb.leg.end == LegEnd::Universal) {  // into span S_i: orthogonal to N_i
    const auto n = state.constraint.col(0);
    known -= n * n.dot(known);
    effort -= n * n.dot(effort);
  }
}

}  // namespace mechdyn
