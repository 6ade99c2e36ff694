// Symbolic load-dependent joint friction for `mechdyn codegen` (symbolic_dynamics.hpp):
// the friction effort τ_f of every joint with a friction block, from the joint reactions
// of the symbolic RNEA, as friction/inverse_dynamics_with_friction.cpp computes it:
// LuGre at its steady state (LuGreEvaluation::SteadyState, what `mechdyn eval` reports
// as friction_effort), or from the bristle deflections z given as inputs
// (LuGreEvaluation::State, what `simulate` uses), with their rates ż.
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §3.3 and §4.1, Algorithm 1
// lines 6–8, in the form of friction/joint_load_decomposition.hpp and friction_models.hpp:
//   the reaction f_i = [τ; f] (symbolic_rnea.cpp: body coordinates, moment about the body
//   origin, a point of the joint axis); n the joint axis, a constant in body coordinates
//   (S = [n; 0] revolute, [0; n] prismatic). The magnitudes are invariant under the
//   rotation Q_i, so they are formed in body coordinates, where n's zero components fold:
//     off(x) = |x − n nᵀx| = sqrt(Σ (x − n nᵀx)²)               (EC eqs. 37–39, 43–44)
//     revolute:  τ_r = off(τ), f_r = off(f), f_m = |nᵀf|           (eqs. 39, 44, 46)
//                N = R_p (f_r + τ_r / R_b) + R_n f_m                (eq. 47, model-format.md)
//     prismatic: τ_p = off(τ), f_p = off(f), τ_m = |nᵀτ|
//                N = f_p + τ_p / R_b + τ_m / R_n
//     no `load`: N = 1 (k_c, k_s are efforts)
//   coulomb_viscous  τ_f = k_c N sgn + k_v v                                  (eq. 42)
//   stribeck, lugre  τ_f = (k_c N + (k_s − k_c) N e^{−(v/v_s)²}) sgn + k_v v  (eq. 52;
//                    LuGre at its steady state ż = 0)
//   brown_mcphee     τ_f = k_c N tanh(4 v/v_s) + (k_s − k_c) N (v/v_s) / (¼(v/v_s)² + ¾)² + k_v v
//   lugre with z   τ_f = σ0 z + σ1 ż + k_v v,  ż = g > 0 ? v − σ0 |v| z / g : v,
//                  g = k_c N + (k_s − k_c) N e^{−(v/v_s)²}    (LuGre eqs. 1–4; lugre_state_rate)
//   sgn = sgn(v ≠ 0 ? v : a): at v = 0 the effort opposes the acceleration (EC eq. 53,
//   friction_models.cpp's direction argument); 0 when both are 0.
// The library takes |·| with std::hypot in world components; sqrt of the sum of squares
// in body components differs from it by rounding only.
// Cost: O(number of joints with friction) nodes. Reads: the model, the symbolic forces.
// Writes: graph nodes.
#include <string>

#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

/// |x − n nᵀx|: the part of x across the axis n (n a unit vector of constants).
Expr off_axis(const SVec3& n, const SVec3& x) {
  const SVec3 across = x - dot(n, x) * n;
  return sqrt(dot(across, across));
}

}  // namespace

SymbolicFriction symbolic_friction_effort(const Model& model, const SymbolicTree& tree, const SymbolicForces& forces,
                                          const std::vector<Expr>& velocity, const std::vector<Expr>& acceleration,
                                          const std::vector<Expr>* lugre_state) {
  SymbolicFriction out;
  out.effort.assign(static_cast<std::size_t>(model.nv), Expr());
  out.state_rate.assign(static_cast<std::size_t>(model.nv), Expr());
  for (int u = 0; u < model.num_bodies(); ++u) {
    const std::size_t b = static_cast<std::size_t>(u);
    const Joint& joint = model.joints[b];
    if (!joint.friction) continue;
    const JointFriction& friction = *joint.friction;
    const std::string name = c_identifier(joint.name);
    const std::size_t k = static_cast<std::size_t>(joint.v_index);  // revolute or prismatic: one coordinate
    const bool revolute = joint.type == JointType::Revolute;
    Expr normal = 1.0;
    if (friction.load) {  // Algorithm 1 lines 6–7: the load decomposition and the normal load
      const SSpatial& axis = tree.joints[b].axes[0];
      const SVec3& n = revolute ? axis.top : axis.bottom;
      const SVec3& torque = forces.body_force[b].top;
      const SVec3& force = forces.body_force[b].bottom;
      const Expr constraint_torque = named(off_axis(n, torque), "constraint_torque_" + name);
      const Expr constraint_force = named(off_axis(n, force), "constraint_force_" + name);
      const Expr axial_load = named(abs(dot(n, revolute ? force : torque)), "axial_load_" + name);
      const FrictionLoad& arms = *friction.load;
      normal = revolute ? Expr(arms.pin_radius) * (constraint_force + constraint_torque / Expr(arms.bending_arm)) +
                              Expr(arms.friction_arm) * axial_load
                        : constraint_force + constraint_torque / Expr(arms.bending_arm) +
                              axial_load / Expr(arms.friction_arm);
      normal = named(normal, "normal_load_" + name);
    }
    const Expr v = velocity[k];
    const Expr viscous = Expr(friction.viscous) * v;
    const Expr static_excess = Expr(friction.static_coefficient - friction.coulomb) * normal;  // (k_s − k_c) N
    Expr value;
    if (friction.model == FrictionModel::BrownMcPhee) {
      const Expr ratio = v / Expr(friction.stribeck_velocity);
      const Expr denominator = 0.25 * ratio * ratio + 0.75;
      value = Expr(friction.coulomb) * normal * tanh(4.0 * ratio) + static_excess * ratio / (denominator * denominator) +
              viscous;
    } else if (friction.model == FrictionModel::LuGre && lugre_state != nullptr) {  // LuGre eqs. (2)–(4)
      const Expr ratio = v / Expr(friction.stribeck_velocity);
      const Expr level = named(Expr(friction.coulomb) * normal + static_excess * exp(-(ratio * ratio)), "g_" + name);
      const Expr z = (*lugre_state)[k];
      // g ≤ 0 (no friction level: N = 0, or k_s = 0) gives ż = v; a g folded to a constant ≤ 0
      // (k_c = k_s = 0) is decided here, without forming the division by it
      const bool no_level = level.is_constant() && !(current_graph().node(level.id).value > 0.0);
      const Expr rate =
          no_level ? v
                   : named(if_positive(level, v - Expr(friction.bristle_stiffness) * abs(v) * z / level, v),
                           "z_rate_" + name);
      out.state_rate[k] = rate;
      value = Expr(friction.bristle_stiffness) * z + Expr(friction.bristle_damping) * rate + viscous;
    } else {  // line 8: eq. (42) or (52); LuGre at its steady state
      Expr level = Expr(friction.coulomb) * normal;
      if (friction.model != FrictionModel::CoulombViscous) {
        const Expr ratio = v / Expr(friction.stribeck_velocity);
        level = level + static_excess * exp(-(ratio * ratio));
      }
      const Expr direction = named(sign(named(nonzero_or(v, acceleration[k]), "v_or_a_" + name)), "sign_" + name);
      value = level * direction + viscous;
    }
    out.effort[k] = named(value, "friction_" + name);
  }
  return out;
}

}  // namespace mechdyn::codegen
