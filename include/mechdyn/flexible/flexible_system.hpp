// Mechanisms with rigid and flexible bodies together: the system level of the floating
// frame of reference (FFR) — kinematics on the deformed beams, the system mass matrix,
// the generalized forces and the bias, the cut-joint constraints.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §2–3 (eqs. 1, 10, 27–31: the system of
// rigid and flexible bodies, eqs. 41–63: constraints); docs/flexible-bodies.md "System
// level". Contract of the coordinates: ../shared/spec/flexible-bodies.md.
//
// Coordinates: q = [joint coordinates (model.rigid_nq); elastic coordinates], v = [joint
// velocities (model.rigid_nv); elastic velocities]; body i's elastic velocities are
// v[model.rigid_nv + model.elastic_index[i] …]. Each body's velocity in its own frame
// (flexible: y_i = [ω; v; ė], flexible/ffr_dynamics.hpp; rigid: [ω; v]) is y_i = B_i v with
// B_i = [body-coordinate transform of the world spatial Jacobian J_i; elastic selector],
// and the equations of motion are
//   M(q) v̇ + h(q, v) = Q_joint + Jᵀ λ,
//   M = Σ B_iᵀ M_i B_i,   h = Σ B_iᵀ (M_i Ḃ_i v + Q_v,i − Q_gravity,i − Q_elastic,i − Q_damping,i)
// (FFR eq. 10 for the assembled system; Ḃ_i v is the body's acceleration at v̇ = 0).
//
// Points on a flexible body (a child's joint, a loop point, a marker) follow the deformed
// beam (flexible/beam_point.hpp): a child's joint frame sits on the section at its origin,
// turned by the section rotation Λ; a cut joint's side on a beam is that section's frame.
//
// This is the flexible counterpart of the rigid algorithms (kinematics/, dynamics/,
// constraints/), which stay untouched and refuse flexible models (mechdyn::Data): a
// separate Model-derived structure (FlexibleSystem) and workspace (FlexibleSystemData),
// because the library's layers put flexible/ above model/ (scripts/check-layers.sh).
// Cost: O(bodies · nv) kinematics, O(Σ_i (6 + n_e,i) c_i²) mass matrix (c_i: the columns body
// i depends on, FlexibleSystem::body_columns). Evaluation allocates nothing.
#pragma once

#include <optional>
#include <vector>

#include "mechdyn/constraints/loop_rows.hpp"
#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

using Mat6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// Constant structures derived once from a finalised Model with flexible (or only rigid) bodies.
struct FlexibleSystem {
  std::vector<int> flexible_of;         // per model body: index into `bodies`, −1 for a rigid body
  std::vector<FlexibleBody> bodies;     // per flexible body (body order): invariants, K, D, K_G0,1,2
  std::vector<int> body_of;             // per flexible body: its model body index
  AlignedVector<Mat6> rigid_inertia;    // per model body: body-coordinate spatial inertia at the frame origin
                                        // [[I_O, m c̃], [−m c̃, m 1]] (rigid bodies; unused for flexible ones)
  // Points on flexible bodies, located once (make_beam_point); index −1: not on a flexible body.
  std::vector<BeamPoint> points;        // all of them
  std::vector<int> joint_point;         // per model body: its joint's origin on a flexible parent
  std::vector<int> loop_point_a, loop_point_b;  // per loop
  std::vector<int> marker_point;        // per marker
  std::vector<int> force_point_a, force_point_b;  // per force element (model.forces): its points a, b
  std::vector<int> point_body;          // per point: the flexible body (index into `bodies`) it lies on
  // Per model body: the velocity indices on which its motion can depend (ascending): its own
  // and its ancestors' joint velocities, the elastic velocities of the flexible bodies its
  // chain is mounted on, and its own elastic velocities. Outside them B_i's columns are zero,
  // so M = Σ B_iᵀ M_i B_i is summed on these columns only (flexible_mass_matrix).
  std::vector<std::vector<int>> body_columns;

  /// First velocity (and configuration) index of model body i's elastic coordinates in v (q).
  int elastic_velocity_index(const Model& model, int body) const { return model.rigid_nv + model.elastic_index[body]; }
  int elastic_configuration_index(const Model& model, int body) const {
    return model.rigid_nq + model.elastic_index[body];
  }
};

/// Builds the FlexibleBody of every flexible body and locates the points on them.
/// Throws ModelError (a point beyond a beam, make_beam_point) naming the element.
FlexibleSystem make_flexible_system(const Model& model);

/// Workspace and results of the system-level functions, allocated once.
struct FlexibleSystemData {
  FlexibleSystemData(const Model& model, const FlexibleSystem& system);

  // ---- kinematics (flexible_kinematics), world components, spatial vectors at the world origin ----
  int kinematics_level = -1;            // −1 nothing, 0 poses and Jacobians, 1 and velocities, bias accelerations
  std::vector<Mat3> rotation;           // R_i: body frame → world
  std::vector<Vec3> position;           // r_i: body frame origin (world)
  std::vector<Mat3> mount_rotation;     // R_v: the frame the joint turns from (parent's, or the section's on a beam)
  std::vector<Mat6X> jacobian;          // J_i (6 x nv): world spatial velocity [ω; v_O] = J_i v
  std::vector<MatX> body_jacobian;      // B_i ((6 + n_e) x nv): y_i = B_i v, body components
  AlignedVector<Vec6> velocity;         // V_i = J_i v
  AlignedVector<Vec6> bias_acceleration;  // A⁰_i: world spatial acceleration at v̇ = 0 (J̇_i v)
  std::vector<Vec3> marker_position;    // per marker (world)
  std::vector<BeamPointKinematics> point; // per FlexibleSystem::points at the current e (and ė: b_p, b_θ)

  // ---- per-body dynamics workspace ----
  std::vector<FlexibleBodyData> body;   // per flexible body (FlexibleSystem::bodies)
  VecX body_vector;                     // scratch, 6 + max n_e
  VecX body_acceleration;               // scratch, 6 + max n_e
  MatX body_product;                    // scratch, (6 + max n_e) x nv: M_i B_i
  MatX compact_jacobian;                // scratch, (6 + max n_e) x max |body_columns|: B_i on its columns
  MatX compact_product;                 // scratch, the same: M_i B_i on them
  MatX compact_block;                   // scratch, max |body_columns| squared: B_iᵀ M_i B_i on them

  // ---- results ----
  MatX mass_matrix;        // M (nv x nv), symmetric positive definite
  VecX bias_force;         // h (nv)
  VecX mass_product;       // M a (nv): flexible_mass_product
  VecX applied_force;      // Q_gravity + Q_elastic + Q_damping mapped to v (nv): the static forces at v = 0
  VecX loop_residual;      // Φ(q), model.num_loop_rows (constraints/loop_closure.hpp rows, on the deformed beams)
  MatX loop_jacobian;      // J = ∂Φ/∂q in velocity coordinates (rows x nv): Φ̇ = J v
  VecX loop_bias;          // J̇ v (rows)
  AlignedVector<Vec6> loop_wrench_a, loop_wrench_b;  // per row: unit wrenches (constraints/loop_rows.hpp)
  Mat6X side_jacobian_a, side_jacobian_b;            // scratch (6 x nv): a cut side's spatial Jacobian

  // ---- force elements (flexible_force_elements; format 3, docs/force-elements.md) ----
  VecX element_force;      // Q_f (nv): the generalized force of all force elements at (q, v, t); part of applied_force
  VecX element_value;      // per element: tension (spring-damper, N), effort (joint elements), |F| (bushing, applied)
  VecX element_energy;     // per element: potential energy (J)
  VecX element_length;     // per element: L = |p_b − p_a| (spring-damper, bushing), else 0
  AlignedVector<Vec6> element_wrench_a, element_wrench_b;  // per element: spatial force on a, b [moment about the
                                                           // world origin; force], world; joint elements: zero
  std::vector<Vec3> element_point_a, element_point_b;      // per element: the points in the world (on the deformed beams)
  std::vector<std::optional<TimeExpressions>> element_functions;  // per element: servo [target, target_rate] or
                                                                  // [target]; applied: force[3], torque[3]
  VecX element_function_values;  // scratch (6): the element's functions at t
  VecX element_function_ahead, element_function_behind;  // scratch (6): at t ± h (a servo's numerical rate)
  MatX element_stiffness;  // K_f ≈ −∂Q_f/∂q (nv x nv; 0 x 0 without elements): flexible_force_element_tangent
  MatX element_damping;    // D_f = −∂Q_f/∂v (nv x nv)
  Mat6X element_jacobian_a, element_jacobian_b;  // scratch (6 x nv): [angular; point velocity] Jacobians of a, b
};

/// Positions, rotations and world Jacobians of every body at q (and with v: velocities and
/// the accelerations at v̇ = 0), the B_i, the markers' world positions. Reads q (nq), v (nv).
void flexible_kinematics(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q);
void flexible_kinematics(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);

/// M = Σ B_iᵀ M_i B_i into data.mass_matrix (after flexible_kinematics at q).
void flexible_mass_matrix(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                          const Eigen::Ref<const VecX>& q);

/// data.mass_product = M(q) a = Σ B_iᵀ M_i (B_i a) without forming M (after
/// flexible_kinematics at q). Cost O(Σ_i (6 + n_e,i)(nv + 6 + n_e,i)): the Newton residual
/// M a₁ + … of the integrators needs M only in its iteration matrix.
void flexible_mass_product(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                           const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& a);

/// data.applied_force = Σ B_iᵀ (Q_gravity,i + Q_elastic,i + Q_damping,i) + Q_f at the kinematics in
/// data (level 0: v = 0, no damping, geometric stiffness of gravity alone; level 1: with ω and
/// `frame_acceleration`). `acceleration` (nv or empty): v̇ for the frame accelerations a_0 of
/// the geometric stiffness (docs/flexible-bodies.md "Geometric stiffening"); empty: v̇ = 0.
/// Q_f: the force elements at (q, v, time) (flexible_force_elements; v empty: v = 0).
void flexible_applied_forces(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                             const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                             const Eigen::Ref<const VecX>& acceleration, double time = 0.0);

/// h = Σ B_iᵀ (M_i Ḃ_i v + Q_v,i) − applied_force into data.bias_force (after
/// flexible_kinematics(q, v), flexible_mass_matrix is not needed; computes applied_force,
/// with the force elements at `time`, too).
void flexible_bias_force(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                         const Eigen::Ref<const VecX>& acceleration, double time = 0.0);

/// The force elements (model.forces, docs/force-elements.md) at (q, v, t) on the kinematics in
/// data (level 1 with v; v empty: level 0 and v = 0): Q_f into data.element_force and each
/// element's value, energy, length, wrenches and points. A point on a beam follows the
/// deformed beam (flexible/beam_point.hpp); a wrench W (world, at the origin) on body i maps
/// to Q_f += B_iᵀ g_i, g_i = [R_iᵀ (M + (x − r_i) × F); R_iᵀ F; J_pᵀ R_iᵀ F + J_θᵀ R_iᵀ M]
/// (F through the point x, M the moment about it; the last rows only for a beam: its
/// elastic coordinates). Joint elements act on their coordinate. Throws SolverError for a
/// spring-damper of length < 1e-12 m that would exert a force, InvalidArgument when a time
/// function is not finite (naming the element). Allocates nothing.
void flexible_force_elements(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                             const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, double time);

/// The elements' tangent after flexible_force_elements at the same state (level 1):
/// data.element_damping = −∂Q_f/∂v (exact), data.element_stiffness = −∂Q_f/∂q without the
/// terms of the Jacobians' own change (the elements' material stiffness: springs
/// Dᵀ (k u uᵀ + T/L (1 − u uᵀ)) D, bushings, joint elements; exact where the element's
/// force is zero). The Newmark iteration matrix (flexible/newmark.hpp) reads them.
void flexible_force_element_tangent(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                    const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);

/// Φ, J (and with v, after flexible_kinematics(q, v), J̇ v) of every cut joint on the
/// deformed beams into data.loop_residual, loop_jacobian, loop_bias, then the coupling rows
/// (model.couplings, from model.coupling_row_index): g = q_b − ratio q_a − offset,
/// J = e_bᵀ − ratio e_aᵀ, J̇ v = 0 (their multipliers: the gears' efforts on b's coordinate).
/// v: nv numbers or none.
void flexible_loop_closure(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                           const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);

/// Energies at the kinematics in data (level 1 for the kinetic one, mass matrix computed).
struct FlexibleEnergies {
  double kinetic = 0.0;  // ½ vᵀ M v (J)
  double gravity = 0.0;  // −Σ g · (first moment of mass about the world origin) (J)
  double strain = 0.0;   // Σ ½ eᵀ K e (J)
  double elements = 0.0; // Σ data.element_energy: the force elements' potential energy at the last
                         // flexible_force_elements (or flexible_applied_forces) call; make it at this state
};
FlexibleEnergies flexible_energies(const Model& model, const FlexibleSystem& system, const FlexibleSystemData& data,
                                   const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v);

/// q ⊕ dv (joints: joint_integrate with the mount rotations of the kinematics in data at q;
/// elastic coordinates: added). `out` may not alias q.
void flexible_integrate(const Model& model, const FlexibleSystemData& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& dv, Eigen::Ref<VecX> out);

}  // namespace mechdyn
