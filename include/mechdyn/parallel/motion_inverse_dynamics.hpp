// Inverse kinematics and inverse dynamics along a prescribed body motion, by one of three
// methods that must agree (docs/parallel-manipulators.md):
//   MomentumScrew  parallel manipulators: closed-form limb positions, screw-form limb rates
//                  and accelerations (parallel/limb_kinematics.hpp; straight U–P–S/U legs by
//                  the paper's vector formulas, parallel/straight_leg.hpp), the theorem of the
//                  momentum screw (parallel/momentum_screw_dynamics.hpp; MS eqs. 14, 30–41);
//   NewtonEuler    any model with loops: general inverse kinematics
//                  (parallel/prescribed_motion_kinematics.hpp), then every body's
//                  Newton–Euler equations with every joint wrench unknown
//                  (parallel/newton_euler_dynamics.hpp; MS Appendix A, 3UPS eqs. 51–58);
//   ClosedChain    general inverse kinematics, then the closed-chain inverse dynamics of
//                  the spanning tree with cut-joint multipliers
//                  (constraints/closed_chain_inverse_dynamics.hpp; EC eqs. 23–27).
// Per sample it writes the joint motion q, v, a, the actuator efforts (minimum 2-norm with
// redundant actuation), the wrench of every joint, the internal-force dimension and basis,
// the closure residual ‖Φ‖∞ and the power balance
//   P_residual = Σ_k τ_k v_k − d/dt (T + V) − P_external
//             = Σ_k τ_k v_k − Σ_b V_b ∘ (dΓ_b/dt − $_g,b − $_e,b)
// (dT/dt = Σ V_b ∘ dΓ_b/dt, since V ∘ (V ×* Γ) = 0; dV/dt = −Σ $_g,b ∘ V_b), which is zero
// to round-off when the efforts and the kinematics are right (ideal joints do no work).
// Joint wrenches: spatial forces [m; f] about the world origin (math/spatial.hpp), world
// coordinates; per tree joint (body order) the wrench of the parent on the child, then per
// cut joint the wrench of body b on body a. External wrenches act ON their body.
// Failures carry the sample's time in the message ("t = … s: …"): InvalidArgument for an
// infeasible motion (closure violated, singular configuration), SolverError for a
// numerical failure. Allocates nothing per sample after construction. With MomentumScrew the
// results body_velocity, body_acceleration, joint_wrench and effort change places with the
// method's workspaces (std::swap) instead of being copied; `data` then holds every body's
// pose (rotation, position, com_position, motion axes; inertia_world only when the positions
// came from Newton's method, not from the closed form).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mechdyn/model/data.hpp"
#include "mechdyn/parallel/body_motion.hpp"
#include "mechdyn/parallel/limb_kinematics.hpp"
#include "mechdyn/parallel/momentum_screw_dynamics.hpp"
#include "mechdyn/parallel/newton_euler_dynamics.hpp"
#include "mechdyn/parallel/parallel_model.hpp"
#include "mechdyn/parallel/prescribed_motion_kinematics.hpp"

namespace mechdyn {

enum class InverseDynamicsMethod { MomentumScrew, NewtonEuler, ClosedChain };
const char* inverse_dynamics_method_name(InverseDynamicsMethod method);  // "momentum-screw", ...
std::optional<InverseDynamicsMethod> inverse_dynamics_method_from_name(const std::string& name);

struct MotionInverseDynamicsOptions {
  InverseDynamicsMethod method = InverseDynamicsMethod::MomentumScrew;
  /// MomentumScrew: positions in closed form where every limb allows it (else Newton).
  bool closed_form_positions = true;
  /// MomentumScrew: rates, accelerations and platform wrenches of straight U–P–S/U legs in
  /// closed form (parallel/straight_leg.hpp), else every limb by the general screw system.
  bool closed_form_legs = true;
  /// Compute ‖Φ(q)‖∞ of every sample (one more forward kinematics with the closure rows).
  bool closure_residual = true;
  /// Largest ‖Φ‖∞ accepted (m, rad): beyond it the sample is refused (violated closure).
  double closure_tolerance = 1e-9;
  PrescribedMotionOptions kinematics;
  double rank_tolerance = 1e-10;  // row rank of the force systems (constraints/minimum_effort.hpp)
};

/// The constant part: the prescribed body, its limbs when the model is a parallel
/// manipulator with that body as the platform, and the external wrenches.
struct MotionInverseDynamicsModel {
  int body = -1;
  std::optional<ParallelModel> parallel;  // the limbs (needed by MomentumScrew)
  std::string parallel_problem;           // why there are none
  std::vector<ExternalWrench> wrenches;
  std::vector<int> actuated_dofs;         // coordinate order
};

/// Throws ModelError when the model has no loops, no actuated coordinate, or `body` is
/// not in it (the limbs are optional: their absence is only recorded).
MotionInverseDynamicsModel make_motion_inverse_dynamics(const Model& model, int body,
                                                        std::vector<ExternalWrench> wrenches = {});

/// The workspace and the results of the last sample.
struct MotionInverseDynamicsData {
  MotionInverseDynamicsData(const Model& model, const MotionInverseDynamicsModel& problem);

  Data data;
  PrescribedMotionWorkspace kinematics;
  std::optional<LimbWorkspace> limbs;
  std::optional<MomentumScrewWorkspace> momentum_screw;
  NewtonEulerWorkspace newton_euler;
  AlignedVector<Vec6> external;  // per body: the external wrenches at this sample ([m; f] about the origin)
  AlignedVector<Vec6> body_velocity, body_acceleration;  // per body: the twist and its rate used by the method

  // ---- results of the last sample ----
  VecX q, v, a;                  // every joint (on input q is the warm start: the previous sample)
  VecX effort;                   // nv: efforts at the actuated coordinates, 0 elsewhere
  AlignedVector<Vec6> joint_wrench;  // tree joints, then cut joints (see the file comment)
  Eigen::Index internal_force_dimension = 0;
  MatX internal_force_basis;     // actuated × internal_force_dimension (first columns), orthonormal
  double closure_residual = 0.0;  // ‖Φ(q)‖∞ (0 when not computed)
  double power_residual = 0.0;    // W
  double power_scale = 0.0;       // Σ|τ_k v_k| + Σ_b |V_b ∘ F_b| (W): the size of the terms
  // warm start of the next sample
  bool has_previous = false;
  double previous_time = 0.0;
};

/// One sample of a whole prescribed motion (pose, twist, acceleration).
void motion_inverse_dynamics(const Model& model, const MotionInverseDynamicsModel& problem,
                             MotionInverseDynamicsData& work, const BodyMotionSample& sample,
                             const MotionInverseDynamicsOptions& options = {});

/// One sample of a partial twist prescription at time t, at the configuration work.q
/// (closed: the first one from assemble_for_twist, the next ones from advance_twist).
void motion_inverse_dynamics(const Model& model, const MotionInverseDynamicsModel& problem,
                             MotionInverseDynamicsData& work, const TwistPrescription& prescription, double t,
                             const MotionInverseDynamicsOptions& options = {});

/// work.q ← the configuration at t + h under the twist prescription (RK4 + projection).
void advance_twist(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
                   const TwistPrescription& prescription, double t, double h,
                   const MotionInverseDynamicsOptions& options = {});

/// work.q ← the configuration with Φ = 0 nearest work.q that keeps the prescribed body's
/// pose at its pose in work.q (the start of a twist prescription).
void assemble_for_twist(const Model& model, const MotionInverseDynamicsModel& problem, MotionInverseDynamicsData& work,
                        const MotionInverseDynamicsOptions& options = {});

}  // namespace mechdyn
