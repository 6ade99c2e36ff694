// The equations of motion of a rigid mechanism (tree or closed chain, with force elements,
// couplings and armature) reduced to independent coordinates, and their first
// derivatives: the common ground of linearize, static and modes (analysis/).
//
// Coordinate partitioning (Wehage & Haug, J. Mech. Des. 104 (1982) 247–255): the velocity
// coordinates split into independent ones I (whole joints) and dependent ones D with
// J_D of full column rank; the admissible motions are v = G v_I with
//   G = [1 on I; −J_D⁺ J_I on D]                               (docs/derivatives.md D17)
// and the reduced equations are the efforts the independent coordinates would need,
//   τ_I(q_I, v_I, a_I) = Gᵀ (M a + h − Q_f)          (D18; the dependent q, v, a follow the closure)
// so that under the applied efforts u on the coordinates S_u the motion obeys
//   τ_I(q_I, v_I, a_I) = Gᵀ S_u u.
// Their derivatives ∂τ_I/∂q_I (the tangent stiffness, including the closure's curvature
// term −Gᵀ (∂J/∂q)ᵀ λ), ∂τ_I/∂v_I (damping and gyroscopic terms) and ∂τ_I/∂a_I = Gᵀ M G
// (the reduced mass matrix) are those of closed-chain inverse dynamics with I as its
// "actuated" set (constraints/closed_chain_inverse_dynamics_derivatives.hpp, D19–D22):
// exact but for the closure's second and third position derivatives (centred differences
// of kinematics, ~1e-10 relative). A tree has I = every coordinate, G = 1, and
// τ_I = RNEA − Q_f with rnea_derivatives and force_element_derivatives (exact).
//
// How I is chosen (choose_independent_joints): the rank r of J at q (SVD, relative
// threshold 1e-9) fixes the number of dependent coordinates; joints are made dependent
// greedily — passive joints before actuated ones, the last joint of the model first — as
// long as each adds its full column count to the rank of J_D; the rest are independent.
// So the actuated joints (inputs) stay independent whenever they can, and the joints
// nearest the ground are preferred as independent (a four-bar's crank). A joint is never
// split. Named joints (--independent) are checked instead: J_D of full column rank r.
// These are analyses: they allocate.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"  // has_joint_friction
#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// Joint friction in the analyses: Coulomb friction (and Stribeck's, LuGre's levels) is not
/// differentiable at rest, so by default a model with friction is refused; ViscousOnly keeps
/// each friction block's viscous coefficient k_v as a linear joint damper (the part of the
/// law that is linear in v, docs/friction.md) and leaves the rest out, a LuGre joint's
/// presliding stiffness σ0 and damping σ1 among it.
enum class FrictionTreatment { Refuse, ViscousOnly };

/// A copy of `model` whose friction blocks are replaced by joint-spring-damper elements
/// "<joint>_viscous_friction" with damping k_v (none where k_v = 0). Model format 3.
Model viscous_friction_model(const Model& model);

/// Joints (indices) whose coordinates are independent at the assembled q: named ones when
/// `names` is not empty, else chosen as above among the joints not in `locked` (locked
/// joints are held: neither independent nor dependent). Throws InvalidArgument for an
/// unknown, locked or zero-coordinate name, or a set that does not leave J_D of full
/// column rank; SolverError when no set of whole joints does (name them).
std::vector<int> choose_independent_joints(const Model& model, const Eigen::Ref<const VecX>& q,
                                           const std::vector<std::string>& names, const std::vector<int>& locked = {});

/// The reduced equations and their derivatives at one state.
struct ReducedDynamics {
  std::vector<int> joints;        // the independent joints (model order)
  std::vector<int> coordinates;   // their velocity indices (ascending): the order of every result below
  VecX q, v, a;                   // the full state (assembled, completed), a from forward dynamics under τ
  VecX tau_reduced;               // τ_I (n_I) at (q, v, a): = Gᵀ S_u u at a solution of the dynamics
  MatX stiffness;                 // ∂τ_I/∂q_I (n_I × n_I, tangent), total: the closure followed
  MatX damping;                   // ∂τ_I/∂v_I
  MatX mass;                      // ∂τ_I/∂a_I = Gᵀ M G
  MatX coordinate_map;            // G (nv × n_I)
  MatX effort_stiffness;          // −∂(Gᵀ τ)/∂q_I of the applied efforts τ (nonzero only when τ acts on
                                  // dependent coordinates of a closed chain; centred differences)
};

struct ReducedDynamicsOptions {
  double time = 0.0;              // time-dependent force elements at this t
  VecX tau;                       // applied efforts (nv; empty: zero)
  bool at_rest = false;           // a = 0 instead of the forward dynamics' (static analyses)
  AssemblyOptions assembly;
};

/// Assembles q keeping the independent joints' coordinates (closed chains), completes the
/// dependent velocities, computes a (forward dynamics under τ + Q_f, or 0 with at_rest) and
/// the derivatives above. q and v are full vectors (nq, nv); only their independent parts
/// are kept for a closed chain. Throws InvalidArgument (sizes, joint friction: not
/// differentiable), SolverError (assembly fails, singular configuration or mass matrix).
ReducedDynamics reduced_dynamics(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                 const std::vector<int>& independent_joints, const ReducedDynamicsOptions& options = {});

/// q_I ⊕ dq_I with the dependent coordinates re-assembled (closed chains): the map the
/// reduced coordinates move along. Returns the new full q.
VecX move_independent(const Model& model, const Eigen::Ref<const VecX>& q, const std::vector<int>& independent_joints,
                      const Eigen::Ref<const VecX>& dq_independent, const AssemblyOptions& assembly = {});

/// The velocity indices of a list of joints, ascending.
std::vector<int> joint_coordinates(const Model& model, const std::vector<int>& joints);

}  // namespace mechdyn
