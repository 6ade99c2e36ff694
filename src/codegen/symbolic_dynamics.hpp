// The symbolic dynamics algorithms of `mechdyn codegen`, over the expression graph: each
// builds the expressions of one result with every structural zero folded, the tree's
// sparsity unrolled, and returns them; c_emitter.hpp prints them as straight-line code.
// Body coordinates throughout (symbolic_kinematics.hpp). Not installed.
//   symbolic_rnea.cpp  RNEA (Featherstone 2008 §5.3, Table 5.1): τ and every joint's
//                      transmitted wrench f_i (the reaction of EC §3.1)
//   symbolic_crba.cpp  CRBA (§6.2, Table 6.2) in body coordinates: M(q)
//   symbolic_ldl.cpp   branch-sparse M = Lᵀ D L and its solve (§6.5, Table 6.3)
//   symbolic_aba.cpp   articulated-body forward dynamics (§7.3, Table 7.1), one-coordinate joints
//   symbolic_friction.cpp  load-dependent joint friction efforts from the reactions (EC §3.3)
//   symbolic_force_elements.cpp  format-3 spring-dampers and joint spring-dampers, Q_f
#pragma once

#include <vector>

#include "mechdyn/model/model.hpp"
#include "symbolic_kinematics.hpp"

namespace mechdyn::codegen {

/// The result of the symbolic RNEA.
struct SymbolicForces {
  std::vector<SSpatial> body_force;  // f_i = [n; f], body i coordinates, moment about its origin
  std::vector<Expr> tau;             // τ = Sᵀ f, nv entries
};

/// RNEA at (q, q̇, q̈) with gravity as the base acceleration −g: τ = M q̈ + h and f_i.
/// `velocity` and `acceleration` hold nv expressions each (constant 0 for h's q̈ = 0).
/// `external` (per body, body coordinates, moment about its origin; nullptr: none): wrenches
/// the force elements exert on the bodies: f_i = I a + v ×* I v − w_i, so that τ = M q̈ + h −
/// Jᵀ w and f_i is the joint reaction with them (compute_all_terms'
/// apply_external_wrenches_to_reactions). Armature and joint efforts are not in τ here.
SymbolicForces symbolic_rnea(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& velocity,
                             const std::vector<Expr>& acceleration, const std::vector<SSpatial>* external = nullptr);

/// M(q) row-major (nv × nv), the constant 0 for the entries of coordinates on different
/// branches of the tree; the joints' armature on the diagonal (format 3).
std::vector<Expr> symbolic_mass_matrix(const Model& model, const SymbolicTree& tree);

/// The force elements codegen expresses (format 3; symbolic_force_elements.cpp).
struct SymbolicElements {
  std::vector<SSpatial> body_wrench;  // per body: the spring-dampers' wrench on it, body coordinates, about its origin
  std::vector<Expr> joint_effort;     // nv: the joint spring-dampers' efforts
  struct LengthGuard {
    Expr length;  // L of a spring-damper that divides by it
    int element;  // its index in model.forces
  };
  std::vector<LengthGuard> length_guards;  // the library fails for L < 1e-12 m: the generated code returns
  bool any_body_wrench = false;            // some body_wrench is not structurally 0
};

/// The first force element codegen does not express (joint-stop, joint-servo, bushing,
/// applied), or nullptr.
const ForceElement* codegen_refused_element(const Model& model);

/// The spring-dampers' body wrenches and the joint spring-dampers' efforts at (q, q̇).
SymbolicElements symbolic_force_elements(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& q,
                                         const std::vector<Expr>& velocity);

/// Q_f: Jᵀ of the body wrenches plus the joint efforts, nv entries.
std::vector<Expr> symbolic_generalized_force(const Model& model, const SymbolicTree& tree,
                                             const SymbolicElements& elements);

/// The factor of M = Lᵀ D L over the tree's sparsity pattern (model.dof_parent).
struct SymbolicFactor {
  std::vector<Expr> factor;          // row-major nv × nv: D on the diagonal, L_ki (i an ancestor of k) below
  std::vector<Expr> inverse_pivot;   // 1 / D_k
  std::vector<Expr> pivot;           // D_k
  // The first (highest) k whose pivot is a constant ≤ 0: M is singular at every q (e.g. a
  // link with no inertia about its own axis); the factor stops there. −1: none.
  int structurally_singular = -1;
};
SymbolicFactor symbolic_factor(const Model& model, const std::vector<Expr>& mass_matrix);

/// x = M⁻¹ b by the factor: Lᵀ y = b, D z = y, L x = z.
std::vector<Expr> symbolic_solve(const Model& model, const SymbolicFactor& factor, std::vector<Expr> b);

/// The result of the symbolic articulated-body algorithm.
struct SymbolicArticulated {
  std::vector<Expr> acceleration;  // q̈, nv entries
  std::vector<Expr> pivot;         // D_i per coordinate (every joint has one coordinate or none)
  std::vector<Expr> pivot_scale;   // |S_i|ᵀ |I^A_i| |S_i|: D_i's round-off scale (dynamics/aba.cpp's test)
};

/// Whether symbolic_aba can express the model: every joint of one coordinate or none.
bool symbolic_aba_applies(const Model& model);

/// q̈ = FD(q, q̇, τ) by the articulated-body algorithm; `velocity` and `tau` nv expressions;
/// `external` as symbolic_rnea's (p^A_i −= w_i); the armature added to D_i (format 3).
SymbolicArticulated symbolic_aba(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& velocity,
                                 const std::vector<Expr>& tau, const std::vector<SSpatial>* external = nullptr);

/// The friction of the joints with a friction block (symbolic_friction.cpp).
struct SymbolicFriction {
  std::vector<Expr> effort;      // τ_f, nv entries, constant 0 for coordinates without friction
  std::vector<Expr> state_rate;  // ż of the LuGre coordinates when their z is given, else 0
};

/// The friction effort of every joint with a friction block, from the reactions `forces` of
/// symbolic_rnea at the same q, q̇, q̈: load decomposition, normal load, friction model, the
/// sign at q̇ = 0 from q̈ — friction/inverse_dynamics_with_friction.cpp. `lugre_state`
/// (nv expressions, the bristle deflections z): LuGre from z (LuGreEvaluation::State);
/// nullptr: LuGre at its steady state (SteadyState).
SymbolicFriction symbolic_friction_effort(const Model& model, const SymbolicTree& tree, const SymbolicForces& forces,
                                          const std::vector<Expr>& velocity, const std::vector<Expr>& acceleration,
                                          const std::vector<Expr>* lugre_state = nullptr);

}  // namespace mechdyn::codegen
