// Reduced equations of motion on independent coordinates and their derivatives
// (analysis/reduced_dynamics.hpp: the method, the choice of I and the sources).
#include "mechdyn/analysis/reduced_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/SVD>

#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn {

namespace {

// Numerical rank of the columns `cols` of J (singular values above tolerance).
Eigen::Index column_rank(const MatX& jacobian, const std::vector<int>& cols, double tolerance) {
  if (cols.empty() || jacobian.rows() == 0) return 0;
  MatX sub(jacobian.rows(), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t c = 0; c < cols.size(); ++c) sub.col(static_cast<Eigen::Index>(c)) = jacobian.col(cols[c]);
  const Eigen::JacobiSVD<MatX> svd(sub);
  Eigen::Index rank = 0;
  for (Eigen::Index k = 0; k < svd.singularValues().size(); ++k)
    if (svd.singularValues()[k] > tolerance) ++rank;
  return rank;
}

void append_coordinates(const Joint& joint, std::vector<int>& out) {
  for (int k = 0; k < joint.nv; ++k) out.push_back(joint.v_index + k);
}

// A copy of the model whose "actuated" joints are the independent ones: closed-chain
// inverse dynamics and its derivatives then take them as the coordinates to keep.
Model partitioned_model(const Model& model, const std::vector<int>& independent) {
  Model copy = model;
  for (Joint& joint : copy.joints) joint.actuated = false;
  for (int j : independent) copy.joints[static_cast<std::size_t>(j)].actuated = true;
  finalize_model(copy, model.name);
  return copy;
}

void check_no_friction(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.friction)
      throw InvalidArgument("joint '" + joint.name +
                            "' has friction: Coulomb friction is not differentiable at rest (keep only its viscous "
                            "part with --friction viscous, FrictionTreatment::ViscousOnly)");
}

// G = [1 on I; −J_D⁺ J_I on D] (D17) from the closure Jacobian at q (assemble() has left
// J_D factorised in data.passive_svd).
MatX coordinate_map(const Model& partitioned, Data& data, const std::vector<int>& coordinates, double tolerance) {
  const Eigen::Index nv = partitioned.nv, ni = static_cast<Eigen::Index>(coordinates.size());
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  MatX g = MatX::Zero(nv, ni);
  VecX rhs(partitioned.num_loop_rows), x(std::max<Eigen::Index>(np, partitioned.num_loop_rows));
  for (Eigen::Index c = 0; c < ni; ++c) {
    g(coordinates[static_cast<std::size_t>(c)], c) = 1.0;
    rhs = -data.loop_jacobian.col(coordinates[static_cast<std::size_t>(c)]);
    data.passive_svd.solve_min_norm(rhs, x.head(np), tolerance);
    for (Eigen::Index p = 0; p < np; ++p) g(data.passive_dofs[static_cast<std::size_t>(p)], c) = x[p];
  }
  return g;
}

}  // namespace

Model viscous_friction_model(const Model& model) {
  Model copy = model;
  for (std::size_t j = 0; j < copy.joints.size(); ++j) {
    Joint& joint = copy.joints[j];
    if (!joint.friction) continue;
    if (joint.friction->viscous > 0.0) {
      ForceElement damper;
      damper.name = joint.name + "_viscous_friction";
      damper.type = ForceElementType::JointSpringDamper;
      damper.joint = static_cast<int>(j);
      damper.damping = joint.friction->viscous;
      copy.forces.push_back(damper);
    }
    joint.friction.reset();
  }
  finalize_model(copy, model.name);
  return copy;
}

std::vector<int> joint_coordinates(const Model& model, const std::vector<int>& joints) {
  std::vector<int> out;
  for (int j : joints) append_coordinates(model.joints[static_cast<std::size_t>(j)], out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> choose_independent_joints(const Model& model, const Eigen::Ref<const VecX>& q,
                                           const std::vector<std::string>& names, const std::vector<int>& locked) {
  if (q.size() != model.nq) throw InvalidArgument("choose_independent_joints: q must hold nq numbers");
  std::vector<char> is_locked(model.joints.size(), 0);
  for (int j : locked) is_locked[static_cast<std::size_t>(j)] = 1;
  std::vector<int> movable;  // joints with coordinates that are not held
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].nv > 0 && !is_locked[j]) movable.push_back(static_cast<int>(j));

  MatX jacobian = MatX::Zero(0, model.nv);
  if (model.has_constraints()) {
    Data data(model);
    loop_closure(model, data, q);
    jacobian = data.loop_jacobian;
  }
  std::vector<int> movable_cols;
  for (int j : movable) append_coordinates(model.joints[static_cast<std::size_t>(j)], movable_cols);
  const double largest = jacobian.size() > 0 ? Eigen::JacobiSVD<MatX>(jacobian).singularValues()[0] : 0.0;
  const double tolerance = 1e-9 * std::max(1.0, largest);
  const Eigen::Index rank = column_rank(jacobian, movable_cols, tolerance);  // dependent coordinates needed

  std::vector<int> independent;
  if (!names.empty()) {
    std::vector<char> named(model.joints.size(), 0);
    for (const std::string& name : names) {
      int found = -1;
      for (std::size_t j = 0; j < model.joints.size(); ++j)
        if (model.joints[j].name == name) found = static_cast<int>(j);
      if (found < 0) throw InvalidArgument("independent coordinates: no joint named '" + name + "'");
      if (model.joints[static_cast<std::size_t>(found)].nv == 0)
        throw InvalidArgument("independent coordinates: joint '" + name + "' has no coordinate");
      if (is_locked[static_cast<std::size_t>(found)])
        throw InvalidArgument("independent coordinates: joint '" + name + "' is locked");
      named[static_cast<std::size_t>(found)] = 1;
    }
    std::vector<int> dependent_cols;
    for (int j : movable) {
      if (named[static_cast<std::size_t>(j)]) independent.push_back(j);
      else append_coordinates(model.joints[static_cast<std::size_t>(j)], dependent_cols);
    }
    const Eigen::Index dependent_rank = column_rank(jacobian, dependent_cols, tolerance);
    if (dependent_rank != static_cast<Eigen::Index>(dependent_cols.size()) || dependent_rank != rank)
      throw InvalidArgument("independent coordinates: with the named joints independent, the others (" +
                            std::to_string(dependent_cols.size()) + " coordinates) are not determined by the " +
                            std::to_string(rank) + " independent closure rows at this configuration; the mechanism has " +
                            std::to_string(static_cast<Eigen::Index>(movable_cols.size()) - rank) +
                            " degrees of freedom");
    return independent;
  }
  // Greedy: passive joints before actuated ones, the last joint first (header).
  std::vector<int> order;
  for (auto it = movable.rbegin(); it != movable.rend(); ++it)
    if (!model.joints[static_cast<std::size_t>(*it)].actuated) order.push_back(*it);
  for (auto it = movable.rbegin(); it != movable.rend(); ++it)
    if (model.joints[static_cast<std::size_t>(*it)].actuated) order.push_back(*it);
  std::vector<int> dependent_cols;
  std::vector<char> dependent(model.joints.size(), 0);
  for (int j : order) {
    if (static_cast<Eigen::Index>(dependent_cols.size()) == rank) break;
    std::vector<int> trial = dependent_cols;
    append_coordinates(model.joints[static_cast<std::size_t>(j)], trial);
    if (static_cast<Eigen::Index>(trial.size()) > rank) continue;
    if (column_rank(jacobian, trial, tolerance) != static_cast<Eigen::Index>(trial.size())) continue;
    dependent_cols = trial;
    dependent[static_cast<std::size_t>(j)] = 1;
  }
  if (static_cast<Eigen::Index>(dependent_cols.size()) != rank)
    throw SolverError("independent coordinates: no set of whole joints leaves the dependent ones determined at this "
                      "configuration (a singular configuration, or joints of several coordinates in the loops); name "
                      "the independent joints");
  for (int j : movable)
    if (!dependent[static_cast<std::size_t>(j)]) independent.push_back(j);
  return independent;
}

VecX move_independent(const Model& model, const Eigen::Ref<const VecX>& q, const std::vector<int>& independent_joints,
                      const Eigen::Ref<const VecX>& dq_independent, const AssemblyOptions& assembly) {
  const std::vector<int> coordinates = joint_coordinates(model, independent_joints);
  if (dq_independent.size() != static_cast<Eigen::Index>(coordinates.size()))
    throw InvalidArgument("move_independent: one increment per independent coordinate");
  const Model partitioned = model.has_constraints() ? partitioned_model(model, independent_joints) : model;
  Data data(partitioned);
  forward_kinematics(partitioned, data, q);
  VecX dv = VecX::Zero(model.nv), out = q;
  for (std::size_t c = 0; c < coordinates.size(); ++c) dv[coordinates[c]] = dq_independent[static_cast<Eigen::Index>(c)];
  apply_velocity_increment(partitioned, data, out, dv);
  if (model.has_constraints()) assemble(partitioned, data, out, assembly);
  return out;
}

ReducedDynamics reduced_dynamics(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                 const std::vector<int>& independent_joints, const ReducedDynamicsOptions& options) {
  if (q.size() != model.nq || v.size() != model.nv || !q.allFinite() || !v.allFinite())
    throw InvalidArgument("reduced dynamics: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                          std::to_string(model.nv) + " finite numbers");
  if (options.tau.size() != 0 && (options.tau.size() != model.nv || !options.tau.allFinite()))
    throw InvalidArgument("reduced dynamics: the efforts must hold nv = " + std::to_string(model.nv) + " finite numbers");
  check_no_friction(model);
  const VecX tau = options.tau.size() == model.nv ? options.tau : VecX::Zero(model.nv);
  ReducedDynamics out;
  out.joints = independent_joints;
  std::sort(out.joints.begin(), out.joints.end());
  out.coordinates = joint_coordinates(model, out.joints);
  const Eigen::Index nv = model.nv, ni = static_cast<Eigen::Index>(out.coordinates.size());
  out.q = q;
  out.v = v;
  out.a = VecX::Zero(nv);

  if (!model.has_constraints()) {
    if (ni != nv) throw InvalidArgument("reduced dynamics: a tree's independent coordinates are all of them");
    Data data(model, DenseWorkspace::MassMatrix);
    force_elements(model, data, out.q, out.v, options.time);  // Q_f (zero without elements)
    const VecX applied = data.applied_force;
    MatX element_dq = MatX::Zero(nv, nv), element_dv = MatX::Zero(nv, nv);
    if (model.has_force_elements) force_element_derivatives(model, data, out.q, out.v, element_dq, element_dv);
    if (!options.at_rest) out.a = aba(model, data, out.q, out.v, tau + applied);
    DerivativeData work(model);
    rnea_derivatives(model, data, work, out.q, out.v, out.a);
    out.tau_reduced = work.tau - applied;             // τ_I = RNEA − Q_f
    out.stiffness = work.dtau_dq - element_dq;
    out.damping = work.dtau_dv - element_dv;
    out.mass = crba(model, data, out.q);
    out.coordinate_map = MatX::Identity(nv, nv);
    out.effort_stiffness = MatX::Zero(nv, nv);
    return out;
  }

  // Closed chain: the independent joints play the actuated ones' part.
  const Model partitioned = partitioned_model(model, out.joints);
  Data data(partitioned, DenseWorkspace::All);
  VecX a0 = VecX::Zero(nv);
  closed_chain_inverse_dynamics(partitioned, data, out.q, out.v, a0, ClosedChainOptions{options.assembly});  // q, v completed
  force_elements(partitioned, data, out.q, out.v, options.time);
  const VecX applied = data.applied_force;
  if (!options.at_rest) {
    out.a = constrained_forward_dynamics(partitioned, data, out.q, out.v, tau + applied);
  } else {  // a_I = 0; the dependent accelerations from J a = −J̇ v
    VecX zero = VecX::Zero(nv);
    closed_chain_inverse_dynamics(partitioned, data, out.q, out.v, zero, ClosedChainOptions{options.assembly});
    out.a = zero;
  }
  force_elements(partitioned, data, out.q, out.v, options.time);  // the state the derivatives read
  ClosedChainDerivativeData work(partitioned);
  VecX qq = out.q, vv = out.v, aa = out.a;
  closed_chain_inverse_dynamics_derivatives(partitioned, data, work, qq, vv, aa, ClosedChainOptions{options.assembly});
  out.tau_reduced = work.tau;
  out.stiffness = work.dtau_dq;
  out.damping = work.dtau_dv;
  out.mass = work.dtau_da;
  out.coordinate_map = work.coordinate_map;
  // −∂(Gᵀ τ)/∂q_I of efforts on dependent coordinates: G moves with q (centred differences
  // of G along q_I ⊕ ±h e_c, each re-assembled; kinematics only).
  out.effort_stiffness = MatX::Zero(ni, ni);
  bool dependent_effort = false;
  for (int k : data.passive_dofs) dependent_effort = dependent_effort || tau[k] != 0.0;
  if (dependent_effort) {
    for (Eigen::Index c = 0; c < ni; ++c) {
      const double h = 1e-6;
      VecX step = VecX::Zero(ni);
      VecX projected[2];
      for (int side = 0; side < 2; ++side) {
        step[c] = side == 0 ? h : -h;
        VecX moved = move_independent(model, out.q, out.joints, step, options.assembly);
        Data moved_data(partitioned, DenseWorkspace::ClosedChains);
        assemble(partitioned, moved_data, moved, options.assembly);
        projected[side] = coordinate_map(partitioned, moved_data, out.coordinates, options.assembly.singular_tolerance)
                              .transpose() * tau;
      }
      out.effort_stiffness.col(c) = -(projected[0] - projected[1]) / (2.0 * h);
    }
  }
  return out;
}

}  // namespace mechdyn
