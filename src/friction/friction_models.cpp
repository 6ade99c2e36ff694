// Joint friction models (EC §3.3, eqs. 42 and 52; LuGre; Brown–McPhee). See
// friction/friction_models.hpp for the formulas and the sign convention.
#include "mechdyn/friction/friction_models.hpp"

#include <cmath>

namespace mechdyn {

namespace {
double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
}  // namespace

double friction_level(const JointFriction& f, double normal_load, double velocity) {
  const double kc = f.coulomb * normal_load;
  if (f.model == FrictionModel::CoulombViscous) return kc;
  const double ratio = velocity / f.stribeck_velocity;
  return kc + (f.static_coefficient - f.coulomb) * normal_load * std::exp(-ratio * ratio);  // eq. (52)
}

double static_friction_limit(const JointFriction& f, double normal_load) {
  return (f.model == FrictionModel::CoulombViscous ? f.coulomb : f.static_coefficient) * normal_load;
}

double friction_effort(const JointFriction& f, double normal_load, double velocity, double direction) {
  const double viscous = f.viscous * velocity;
  switch (f.model) {
    case FrictionModel::CoulombViscous:
    case FrictionModel::Stribeck:
    case FrictionModel::LuGre: {  // eq. (42) / eq. (52); LuGre at steady state
      const double sign = sign_of(velocity != 0.0 ? velocity : direction);
      return friction_level(f, normal_load, velocity) * sign + viscous;
    }
    case FrictionModel::BrownMcPhee: {
      const double ratio = velocity / f.stribeck_velocity;
      const double denominator = 0.25 * ratio * ratio + 0.75;
      return f.coulomb * normal_load * std::tanh(4.0 * ratio) +
             (f.static_coefficient - f.coulomb) * normal_load * ratio / (denominator * denominator) + viscous;
    }
  }
  return viscous;
}

double lugre_state_rate(const JointFriction& f, double normal_load, double velocity, double state) {
  const double g = friction_level(f, normal_load, velocity);
  if (g <= 0.0) return velocity;  // no friction level (N = 0): the bristles follow freely, σ0 z → 0 is not forced
  return velocity - f.bristle_stiffness * std::abs(velocity) * state / g;  // LuGre eq. (2)–(3)
}

double lugre_effort(const JointFriction& f, double /*normal_load*/, double velocity, double state, double state_rate) {
  return f.bristle_stiffness * state + f.bristle_damping * state_rate + f.viscous * velocity;  // LuGre eq. (4)
}

}  // namespace mechdyn
