// Derivatives of closed-chain inverse dynamics: ∂τ_a/∂q_a, ∂τ_a/∂v_a, ∂τ_a/∂a_a of the
// actuated efforts that constraints/closed_chain_inverse_dynamics.hpp returns, as total
// derivatives: the passive coordinates follow through the closure (q_p(q_a) by assembly,
// v_p = −J_p⁺ J_a v_a, a_p from J a = −J̇ v).
//
// Source: explicit-canonical-dynamics-joint-friction (EC) §2.3, eqs. (23)–(26) (the
// closed chain's equations), §4.2 eqs. (55)–(56); the tree part is Carpentier & Mansard,
// RSS 2018 (dynamics/rnea_derivatives.hpp). Derivation in docs/derivatives.md,
// "Closed-chain inverse dynamics" (eqs. D17–D22):
//   G = ∂q/∂q_a = [1 on the actuated rows; −J_p⁺ J_a on the passive rows]  (nv × na)   (D17)
//   τ_a = Gᵀ τ_tree, since [S_a Jᵀ][τ_a; λ] = τ_tree and J G = 0                      (D18)
//   ∂τ_a/∂a_a = Gᵀ M G                                                                 (D19)
//   ∂τ_a/∂v_a = Gᵀ (∂τ/∂v G − M K ∂(J̇v)/∂v G)                                          (D20)
//   ∂τ_a/∂q_a e_c = Gᵀ (∂τ/∂q w + ∂τ/∂v δv + M δa − (∂J/∂q·w)ᵀ λ),  w = G e_c,
//       δv = −K (∂J/∂q·w) v,  δa = −K ((∂J/∂q·w) a + ∂(J̇v)/∂q·w + ∂(J̇v)/∂v δv)          (D21)
//   with K x = the passive rows J_p⁺ x (zero actuated rows).
// What is analytical and what is not: ∂τ/∂q, ∂τ/∂v of the spanning tree are
// rnea_derivatives' (analytical), ∂τ/∂a = M is CRBA's; ∂(J̇v)/∂v is exact (J̇v is a
// quadratic form in v, so its polarisation (c(v + s u) − c(v − s u)) / 2s has no
// truncation error); the closure's second- and third-order position derivatives along the
// na directions w, ∂J/∂q·w and ∂(J̇v)/∂q·w (D22), are centred differences of
// loop_closure / loop_bias_acceleration along q ⊕ ±h w — kinematics only, no assembly,
// no dynamics — with h = 6e-6 / max(1, |w|∞) (relative error ~1e-10).
// Force elements (format 3, dynamics/force_elements.hpp): the balance is
// [S_a Jᵀ][τ_a; λ] = τ_tree − Q_f, so in (D18)–(D21) τ_tree is replaced by τ_tree − Q_f and
// its partials by ∂τ/∂q − ∂Q_f/∂q, ∂τ/∂v − ∂Q_f/∂v (force_element_derivatives, exact); the
// elements are evaluated here at the completed state and the time t (docs/derivatives.md,
// "Closed-chain inverse dynamics", D21'). Couplings are closure rows like the loops' (their
// J̇v = 0 and ∂J/∂q = 0 come out of the same difference passes).
// Redundant closure rows are allowed (J_p⁺ is the minimum-norm least-squares inverse the
// solver uses, and τ_a is unique). Redundant actuation (J G ≠ 0: the actuated
// coordinates are not independent, so a derivative with respect to each of them is not
// defined) and, on a model without force elements, external wrenches (data.external_wrench
// ≠ 0, not differentiated) are refused with InvalidArgument; a singular configuration
// throws SolverError (from closed_chain_inverse_dynamics, or J_p rank-deficient).
// Cost: one closed_chain_inverse_dynamics (two with force elements, and one
// force_elements and force_element_derivatives), one rnea_derivatives, one CRBA, and per
// actuated coordinate 7 kinematics passes (6 of them with J̇v) and 3 passive solves; O(nv² na)
// products.
//
// Reads: Model, q, v, a (actuated parts; q's passive part the assembly guess).
// Writes: q, v, a (completed, as closed_chain_inverse_dynamics), everything
// closed_chain_inverse_dynamics writes in Data (data.tau, λ, reactions, friction — left at
// the state), with force elements everything force_elements writes (at the completed
// state and t), then data's kinematics stage and loop_* scratch (left at some nearby
// evaluation point), data.mass_matrix; the results and scratch in `work`.
#pragma once

#include <vector>

#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {

struct ClosedChainDerivativeData {
  /// Sized from the Model (nv, nq, closure rows, actuated coordinates); never resized.
  explicit ClosedChainDerivativeData(const Model& model);

  // ---- results: na × na, row i / column j = the i-th / j-th actuated coordinate in
  //      the order of `coordinates` (data.actuated_dofs); ∂/∂q_a in the tangent space ----
  std::vector<int> coordinates;  // velocity indices of the actuated coordinates (data.actuated_dofs' order)
  VecX tau;                      // τ_a, na: the actuated efforts (data.tau at `coordinates`)
  MatX dtau_dq;                  // dτ_a/dq_a, na × na (total: passive q, v, a follow the closure), eq. (D21)
  MatX dtau_dv;                  // dτ_a/dv_a, eq. (D20)
  MatX dtau_da;                  // dτ_a/da_a = Gᵀ M G, the reduced mass matrix, eq. (D19)
  MatX coordinate_map;           // G = ∂q/∂q_a (tangent), nv × na, eq. (D17)

  // ---- scratch ----------------------------------------------------------------------
  DerivativeData tree;         // ∂τ_tree/∂q, ∂τ_tree/∂v of the spanning tree (rnea_derivatives)
  MatX mass;                   // M(q), nv × nv (CRBA)
  MatX jacobian_direction;     // ∂J/∂q · w, rows × nv (centred difference), eq. (D22)
  VecX multiplier;             // λ, rows
  VecX bias_direction;         // ∂(J̇v)/∂q · w, rows
  VecX bias_velocity;          // ∂(J̇v)/∂v · u, rows
  VecX row_scratch;            // rows
  VecX passive_scratch;        // np (and max(np, rows) for the solver's output)
  VecX q_plus, q_minus;        // nq: q ⊕ ±h w
  VecX v_plus, v_minus;        // nv: v ± s u
  VecX tangent;                // nv: w or u
  VecX velocity_change;        // nv: δv, eq. (D21)
  VecX acceleration_change;    // nv: δa
  VecX tree_change;            // nv: δτ_tree − (∂J/∂q·w)ᵀ λ
  VecX nv_scratch;             // nv: M δa and others
  MatX mass_map;               // M G, nv × na
  MatX element_dq, element_dv;  // ∂Q_f/∂q, ∂Q_f/∂v of the force elements, nv × nv (format 3; else unused)

  int nv = 0, nq = 0, rows = 0;  // of the Model this was made from
};

/// The derivatives above at the state (q, v, a) (only the actuated parts are inputs, as
/// for closed_chain_inverse_dynamics, whose completed q, v, a are written back). Results in
/// `work`. A model with force elements: they are evaluated at the completed state and the
/// time `t` (force_elements(model, data, q, v, t), which replaces data.external_wrench),
/// so τ_a balances M a + h − Q_f(q, v, t) and its derivatives include ∂Q_f. Throws
/// InvalidArgument (wrong sizes, a `work` made for another model, no actuated or no
/// passive coordinate on a model with loops, redundant actuation, external wrenches on a
/// model without force elements, a t that is not finite), SolverError (assembly fails,
/// singular configuration, a spring-damper of zero length). Allocates nothing once `data`
/// holds the ClosedChains and MassMatrix groups (after the first call), with or without
/// force elements (tested).
void closed_chain_inverse_dynamics_derivatives(const Model& model, Data& data, ClosedChainDerivativeData& work,
                                               Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a, double t,
                                               const ClosedChainOptions& options = {});

/// The same at t = 0 (the time only matters for servos' targets and applied loads).
void closed_chain_inverse_dynamics_derivatives(const Model& model, Data& data, ClosedChainDerivativeData& work,
                                               Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a,
                                               const ClosedChainOptions& options = {});

}  // namespace mechdyn
