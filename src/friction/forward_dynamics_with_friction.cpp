// Forward dynamics with joint friction and stick–slip: the implicit equation
// M q̈ + h + τ_f(N(q̈), v) = τ_d (EC §4.1, eq. 53) by fixed-point iteration on τ_f, with
// the stick set of the switching models. See friction/forward_dynamics_with_friction.hpp.
//
// The kinematics stage runs once, at (q, v), and M and h are formed once on it; each
// iteration only redoes the stage's acceleration level at its q̈ for the reactions.
// With force elements the reactions carry their body wrenches (data.external_wrench, as
// force_elements left it on this Data at (q, v, t); tau is then τ + Q_f).
// Reads: Model, data.friction_state (LuGre), with force elements data.external_wrench,
// data.applied_force, data.element_effort. Writes: the kinematics stage (data.acceleration
// at the last q̈), data.ddq, data.friction_effort, data.friction_state_rate,
// data.joint_stuck, data.tau_with_friction, data.tau, the reactions (data.reaction_force,
// reaction_torque, subtree_force), the decomposition, data.mass_matrix,
// data.composite_inertia, data.bias_force, data.gravity_force, data.bias_acceleration,
// data.subtree_inertia, the friction scratch (friction_previous, friction_rhs,
// friction_direction, friction_matrix, friction_factor). Allocates nothing.
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"

#include <cmath>
#include <sstream>

#include "../dynamics/dynamics_stages.hpp"
#include "../kinematics/kinematics_stage.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/friction/friction_models.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {
double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
}  // namespace

const VecX& forward_dynamics_with_friction(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                           const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& tau,
                                           const FrictionSolverOptions& options) {
  check_data(model, data, "forward_dynamics_with_friction");
  check_state(model, q, &v, &tau, "tau");
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::Friction);  // only in a Data made without them
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // once: every iteration reads it
  detail::composite_rigid_body(model, data);      // M (EJ eqs. 30–37: the world-frame CRBA)
  detail::explicit_bias_from_stage(model, data);  // h (EC eqs. 21–22)
  const int n = model.num_bodies();
  VecX& friction = data.friction_effort;
  VecX& direction = data.friction_direction;  // slip direction of joints released from rest
  friction.setZero();
  direction.setZero();
  // A frozen joint (event search, see the options) slides in its given direction.
  auto frozen = [&](int k) { return options.frozen_direction != nullptr ? (*options.frozen_direction)[k] : 0.0; };
  for (int u = 0; u < n; ++u) {
    const Joint& joint = model.joints[u];
    data.joint_stuck[u] = joint.friction && friction_switches(*joint.friction) &&
                          std::abs(v[joint.v_index]) <= options.rest_velocity && frozen(joint.v_index) == 0.0;
  }
  int stuck_worst = -1;
  double change = 0.0;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    // q̈ = M⁻¹ (τ_d − h − τ_f) with the stuck coordinates fixed at 0 (eq. 53).
    data.friction_matrix = data.mass_matrix;
    data.friction_rhs = tau - data.bias_force - friction;
    for (int u = 0; u < n; ++u) {
      if (!data.joint_stuck[u]) continue;
      const int k = model.joints[u].v_index;
      data.friction_matrix.row(k).setZero();
      data.friction_matrix.col(k).setZero();
      data.friction_matrix(k, k) = 1.0;
      data.friction_rhs[k] = 0.0;
    }
    data.friction_factor.compute(data.friction_matrix);
    if (data.friction_factor.info() != Eigen::Success)
      throw SolverError("forward dynamics with friction: the mass matrix is not positive definite");
    data.ddq = data.friction_rhs;
    data.friction_factor.solveInPlace(data.ddq);
    if (!data.ddq.allFinite()) {  // overflow (huge efforts, velocities, loads): a solver failure, not bad input
      Eigen::Index k = 0;
      while (k + 1 < data.ddq.size() && std::isfinite(data.ddq[k])) ++k;
      std::ostringstream message;
      message << "forward dynamics with friction: the acceleration of joint '"
              << model.joints[model.dof_body[static_cast<std::size_t>(k)]].name << "' (a[" << k
              << "]) is not finite (the efforts, velocities or friction loads overflow)";
      throw SolverError(message.str());
    }

    // Normal loads at this acceleration (Algorithm 1 lines 6–7), then the friction (line 8).
    detail::stage_accelerations(model, data, data.ddq.data());  // only the acceleration level changes
    detail::reactions_from_stage(model, data);                  // data.tau = M q̈ + h (EC eq. 17)
    if (model.has_force_elements) {
      // The elements' body wrenches E_l (force_elements on this Data) are loads on the bodies:
      // each joint transmits W_u = F_u − Σ_{l ∈ subtree u} E_l, which sets its normal load.
      // subtract_applied_wrenches leaves data.tau = Sᵀ W = M q̈ + h − Σ J_lᵀ E_l; adding that
      // generalized force back (Q_f minus the joint elements' efforts) keeps data.tau = M q̈ + h,
      // which the stick test compares with tau (= τ + Q_f, the elements' share included).
      for (int l = 0; l < n; ++l) data.cut_subtree_wrench[l] = data.external_wrench[l];
      detail::subtract_applied_wrenches(model, data);
      data.tau += data.applied_force;
      data.tau -= data.element_effort;
    }
    if (model.has_armature) data.tau += model.armature.cwiseProduct(data.ddq);  // + the drives' armature q̈
    joint_load_decomposition(model, data);
    data.friction_previous = friction;
    bool stick_set_changed = false;
    double worst_ratio = 1.0;
    int worst = -1;
    for (int u = 0; u < n; ++u) {
      const Joint& joint = model.joints[u];
      if (!joint.friction) continue;
      const JointFriction& f = *joint.friction;
      const int k = joint.v_index;
      const double normal = f.load ? data.normal_load[u] : 1.0;
      if (data.joint_stuck[u]) {  // the effort that holds the joint, against the static limit
        const double holding = tau[k] - data.tau[k];
        const double limit = static_friction_limit(f, normal);
        friction[k] = holding;
        if (std::abs(holding) > limit) {
          const double ratio = limit > 0.0 ? std::abs(holding) / limit : INFINITY;
          if (ratio > worst_ratio) worst_ratio = ratio, worst = u;
        }
      } else if (f.model == FrictionModel::LuGre) {
        const double rate = lugre_state_rate(f, normal, v[k], data.friction_state[k]);
        data.friction_state_rate[k] = rate;
        friction[k] = lugre_effort(f, normal, v[k], data.friction_state[k], rate);
      } else if (friction_switches(f) && frozen(k) != 0.0) {  // eq. (42) / (52) with a held sign
        friction[k] = friction_level(f, normal, v[k]) * frozen(k) + f.viscous * v[k];
      } else if (friction_switches(f) && std::abs(v[k]) <= options.rest_velocity) {
        // Released from rest: slips with the friction of v = 0, opposing its acceleration.
        if (data.ddq[k] * direction[k] < 0.0) {  // accelerating against its slip: sticks again
          data.joint_stuck[u] = 1;
          stick_set_changed = true;
        }
        friction[k] = friction_effort(f, normal, 0.0, direction[k]);
      } else {
        friction[k] = friction_effort(f, normal, v[k], data.ddq[k]);  // eq. (42) or (52)
      }
    }
    if (worst >= 0) {  // release the most overloaded stuck joint
      const int k = model.joints[worst].v_index;
      data.joint_stuck[worst] = 0;
      direction[k] = sign_of(tau[k] - data.tau[k]);
      friction[k] = friction_effort(*model.joints[worst].friction,
                                    model.joints[worst].friction->load ? data.normal_load[worst] : 1.0, 0.0,
                                    direction[k]);
      stick_set_changed = true;
    }
    change = (friction - data.friction_previous).lpNorm<Eigen::Infinity>();
    stuck_worst = worst;
    if (!stick_set_changed && change <= options.tolerance * (1.0 + friction.lpNorm<Eigen::Infinity>())) {
      for (int u = 0; u < n; ++u)
        if (data.joint_stuck[u]) data.ddq[model.joints[u].v_index] = 0.0;
      data.tau_with_friction = tau;
      return data.ddq;
    }
  }
  int worst_index = 0;
  (friction - data.friction_previous).cwiseAbs().maxCoeff(&worst_index);
  std::ostringstream message;
  message.precision(3);
  message << "forward dynamics with friction: no convergence in " << options.max_iterations
          << " iterations (the friction effort of joint '" << model.joints[model.dof_body[worst_index]].name
          << "' still changes by " << change << (stuck_worst >= 0 ? ", stick set not settled" : "")
          << "); the load-dependent friction is too strong for the fixed point (tolerance " << options.tolerance << ")";
  throw SolverError(message.str());
}

}  // namespace mechdyn
