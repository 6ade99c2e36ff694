// The linear model ẋ = A x + B u, y = C x + D u of a rigid mechanism about a state
// (`mechdyn linearize`; contract ../shared/spec/linearisation.md; docs/linearisation.md).
//
// State x = (δq_I, v_I): the independent coordinates of analysis/reduced_dynamics.hpp (a
// tree: every coordinate) as tangent increments q = q̄ ⊕ δq, and their rates. From the
// reduced equations τ_I(q_I, v_I, a_I) = Gᵀ S_u u and their derivatives K = ∂τ_I/∂q_I
// (+ the efforts' term), C_v = ∂τ_I/∂v_I, M_I = ∂τ_I/∂a_I:
//   A = [A_qq   1 ; −M_I⁻¹ K   −M_I⁻¹ C_v],   B = [0; M_I⁻¹ Gᵀ S_u]
// (a tree: the forward-dynamics derivatives ∂q̈/∂q, ∂q̈/∂v of aba_derivatives plus
// M⁻¹ ∂Q_f/∂q, M⁻¹ ∂Q_f/∂v — the same numbers by another algorithm). A_qq is the
// kinematic term of the tangent increments: zero for joints of Euclidean coordinates; for
// a spherical or free joint's rotation δ̇ = J_l⁻¹(δ) ω, so ∂δ̇/∂δ = ½ [ω]× (ω its world
// relative angular velocity), plus [ω]× J_ω,parent (and [v]× J_ω,parent for a free joint's
// translation) because its rate is measured in the parent's moving frame; it vanishes at
// rest. Inputs: the efforts of the actuated coordinates (`tau_<joint>`), or any
// coordinate's effort and servo targets by name (`target_<servo>`: δQ = k_p δ(target)
// while the servo is not saturated). Outputs: the state (default), any coordinate's
// position or rate (`q_<joint>`, `v_<joint>`, dependent ones through G) and markers'
// world positions and velocities (`<marker>`, `<marker>_velocity`: three rows each);
// D = 0 for these outputs. The marker velocity's position derivative at v ≠ 0 is a
// centred difference (kinematics with re-assembly, ~1e-9 relative), everything else is
// analytical. A model with flexible bodies and no loops or couplings: x = (δq, v) over
// every coordinate (joints, then elastic ones named q_<body>_n<node>_<component>), A from
// the FFR system's differenced tangents (flexible/equilibrium.hpp, flexible_linearisation);
// with loops or couplings refused (its modes: mechanism_modes). Allocates (an analysis).
#pragma once

#include <string>
#include <vector>

#include "mechdyn/analysis/reduced_dynamics.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"

namespace mechdyn {

struct LinearizeOptions {
  double time = 0.0;                    // time-dependent force elements at this t
  VecX tau;                             // efforts at the operating point (nv; empty: zero)
  std::vector<std::string> independent; // independent joints of a closed chain (empty: chosen)
  std::vector<std::string> inputs;      // input names (empty: tau_ of every actuated coordinate; {"none"}: none)
  std::vector<std::string> outputs;     // output names (empty: the state)
  FrictionTreatment friction = FrictionTreatment::Refuse;  // joint friction (reduced_dynamics.hpp)
  AssemblyOptions assembly;
};

struct LinearModel {
  std::vector<std::string> state, inputs, outputs;  // names (linearisation.md)
  MatX A, B, C, D;
  std::vector<int> independent_joints;              // the joints of x (model order)
  VecX q, v, a;                                     // the operating point (assembled, completed) and q̈ there
};

/// Preallocated workspace of linearize for repeated calls on one rigid model: a tree's
/// linear model (default outputs) then allocates nothing after the first call (closed chains
/// and named outputs still allocate: they are analyses). Not for models with flexible bodies.
struct LinearizeWorkspace {
  explicit LinearizeWorkspace(const Model& model);
  Data data;                      // the elements' stage and the kinematic term's kinematics
  Data stage;                     // aba_derivatives' stage
  DerivativeData work;            // ∂q̈/∂q, ∂q̈/∂v, M⁻¹
  MatX element_dq, element_dv;    // ∂Q_f/∂q, ∂Q_f/∂v
  VecX total;                     // τ + Q_f
  MatX parent_jacobian;           // 6 × nv
  MatX input_forces;              // nv × inputs: the generalized force of each input
  std::vector<std::string> input_names;  // the inputs input_forces was made for (as asked)
  std::vector<std::string> resolved_inputs;  // and their names (the default list filled in)
  bool inputs_ready = false;
  bool rotation_joints = false;   // a spherical or free joint (the kinematic term)
  int nq = 0, nv = 0;
};

/// State names of the reduced coordinates: q_<joint> / dq_<joint>_<k> (k from 1), then
/// v_<joint> / v_<joint>_<k>.
std::vector<std::string> state_names(const Model& model, const std::vector<int>& joints);

/// The linear model about (q, v, options.tau, options.time). Throws InvalidArgument (sizes,
/// unknown names, friction), SolverError (assembly, singular configuration).
LinearModel linearize(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                      const LinearizeOptions& options = {});

/// The same into `out` with a workspace made for `model` (see LinearizeWorkspace).
void linearize(const Model& model, LinearizeWorkspace& workspace, const Eigen::Ref<const VecX>& q,
               const Eigen::Ref<const VecX>& v, const LinearizeOptions& options, LinearModel& out);

/// A_qq of the header for the coordinates of `joints` at the kinematics of (q, v), with the
/// coordinate map G (nv × n_I) for the parent's angular Jacobian.
MatX tangent_kinematics_term(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                             const std::vector<int>& coordinates, const MatX& coordinate_map);

}  // namespace mechdyn
