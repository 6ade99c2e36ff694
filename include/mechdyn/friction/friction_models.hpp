// Joint friction models: the friction effort of one joint coordinate.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §3.3, eqs. (40)–(42)
// (Coulomb–viscous) and (52) (Stribeck after Bo and Pavelescu); the contract is
// ../shared/spec/model-format.md "joint friction"; LuGre (Canudas de Wit, Olsson,
// Åström, Lischinsky, IEEE TAC 40 (1995) 419–425, eqs. (1)–(4)) and Brown–McPhee
// (Brown, McPhee, J. Comput. Nonlinear Dyn. 11 (2016) 054504) as in docs/friction.md.
//
// Sign convention (EC eq. 53): M q̈ + h + τ_f = τ_d, so a friction effort τ_f has the
// sign of the velocity v it resists. N is the joint's normal load (EC eq. 47 in the
// form of model-format.md) when the joint has `load`, else 1 (k_c, k_s are efforts).
//   coulomb_viscous: τ_f = k_c N sgn(v) + k_v v                                     eq. (42)
//   stribeck:        τ_f = g(v) sgn(v) + k_v v, g(v) = k_c N + (k_s − k_c) N e^{−(v/v_s)²}  eq. (52)
//   lugre:           τ_f = σ0 z + σ1 ż + k_v v,  ż = v − σ0 |v| z / g(v)             (LuGre eqs. 1–3)
//   brown_mcphee:    τ_f = k_c N tanh(4 v/v_s) + (k_s − k_c) N (v/v_s) / (¼ (v/v_s)² + ¾)² + k_v v
// With v = 0 the Coulomb and Stribeck efforts oppose the acceleration (direction
// argument); forward dynamics treats v = 0 as sticking (forward_dynamics_with_friction.hpp).
// Every function is allocation free.
#pragma once

#include <string>

#include "mechdyn/model/joint.hpp"

namespace mechdyn {

/// The Stribeck curve g(v) = k_c N + (k_s − k_c) N exp(−(v/v_s)²) (eq. 52); k_c N for
/// coulomb_viscous. The magnitude of the velocity-independent friction at velocity v.
double friction_level(const JointFriction& friction, double normal_load, double velocity);

/// The largest effort a joint at rest can hold (static friction): k_s N for the
/// stribeck, lugre and brown_mcphee models, k_c N for coulomb_viscous.
double static_friction_limit(const JointFriction& friction, double normal_load);

/// The effort of the memoryless models (coulomb_viscous, stribeck, brown_mcphee; lugre
/// at its steady state ż = 0, i.e. the Stribeck curve). `direction` gives the sign when
/// velocity = 0 (the acceleration); both 0: the Coulomb/static part is 0.
double friction_effort(const JointFriction& friction, double normal_load, double velocity, double direction);

/// LuGre: the bristle rate ż = v − σ0 |v| z / g(v) and the effort σ0 z + σ1 ż + k_v v.
double lugre_state_rate(const JointFriction& friction, double normal_load, double velocity, double state);
double lugre_effort(const JointFriction& friction, double normal_load, double velocity, double state,
                    double state_rate);

/// True for the models with a discontinuity at v = 0 (coulomb_viscous, stribeck), which
/// forward dynamics treats by stick–slip switching.
inline bool friction_switches(const JointFriction& friction) {
  return friction.model == FrictionModel::CoulombViscous || friction.model == FrictionModel::Stribeck;
}

}  // namespace mechdyn
