// Static equilibrium of a rigid mechanism by a damped Newton iteration on the free
// independent coordinates (analysis/mechanism_equilibrium.hpp: the method and its sources).
#include "mechdyn/analysis/mechanism_equilibrium.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "flexible_dispatch.hpp"
#include "partition_helpers.hpp"

namespace mechdyn {

namespace detail {

std::vector<Eigen::Index> positions_of(const std::vector<int>& all, const std::vector<int>& subset) {
  std::vector<Eigen::Index> out;
  for (int k : subset)
    for (std::size_t p = 0; p < all.size(); ++p)
      if (all[p] == k) out.push_back(static_cast<Eigen::Index>(p));
  return out;
}

MatX restrict(const MatX& m, const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& cols) {
  MatX out(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < cols.size(); ++c) out(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = m(rows[r], cols[c]);
  return out;
}

std::vector<int> held_joints(const Model& model, bool lock_actuated) {
  std::vector<int> out;
  if (!lock_actuated) return out;
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].actuated && model.joints[j].nv > 0) out.push_back(static_cast<int>(j));
  return out;
}

VecX assembled_start(const Model& model, const Eigen::Ref<const VecX>& q_start, const AssemblyOptions& assembly) {
  VecX q = q_start;
  if (model.has_constraints()) {
    Data data(model, DenseWorkspace::ClosedChains);
    AssemblyOptions options = assembly;
    options.check_singular = false;  // the independent set is chosen next, from this q
    assemble(model, data, q, options);
  }
  return q;
}

VecX holding_efforts(const Model& model, const Eigen::Ref<const VecX>& q, const VecX& tau, double time) {
  Data data(model, DenseWorkspace::All);
  VecX qq = q, v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
  force_elements(model, data, qq, v, time);
  VecX out;
  if (model.has_constraints()) {
    // the actuated efforts at rest (minimum norm with redundant actuation), minus the applied τ
    out = closed_chain_inverse_dynamics(model, data, qq, v, a);
    for (int k : data.passive_dofs) out[k] = 0.0;
    for (int k : data.actuated_dofs) out[k] -= tau[k];
  } else {
    out = rnea(model, data, qq, v, a) - data.applied_force - tau;
  }
  for (const Joint& joint : model.joints)
    if (!joint.actuated) out.segment(joint.v_index, joint.nv).setZero();
  return out;
}

}  // namespace detail

MechanismEquilibrium mechanism_equilibrium(const Model& model, const Eigen::Ref<const VecX>& q_start,
                                           const EquilibriumOptions& options) {
  if (q_start.size() != model.nq || !q_start.allFinite())
    throw InvalidArgument("static: q must hold nq = " + std::to_string(model.nq) + " finite numbers");
  if (options.friction == FrictionTreatment::ViscousOnly && has_joint_friction(model)) {
    EquilibriumOptions rest = options;
    rest.friction = FrictionTreatment::Refuse;
    return mechanism_equilibrium(viscous_friction_model(model), q_start, rest);
  }
  if (detail::has_flexible_bodies(model)) return detail::flexible_equilibrium(model, q_start, options);
  const VecX tau = options.tau.size() == 0 ? VecX::Zero(model.nv) : options.tau;
  if (tau.size() != model.nv || !tau.allFinite())
    throw InvalidArgument("static: tau must hold nv = " + std::to_string(model.nv) + " finite numbers");
  MechanismEquilibrium result;
  result.locked_joints = detail::held_joints(model, options.lock_actuated);
  result.q = detail::assembled_start(model, q_start, options.assembly);
  result.free_joints = choose_independent_joints(model, result.q, options.independent, result.locked_joints);
  std::vector<int> independent = result.free_joints;
  independent.insert(independent.end(), result.locked_joints.begin(), result.locked_joints.end());
  std::sort(independent.begin(), independent.end());
  const std::vector<int> all = joint_coordinates(model, independent);
  const std::vector<Eigen::Index> free = detail::positions_of(all, joint_coordinates(model, result.free_joints));
  const Eigen::Index nf = static_cast<Eigen::Index>(free.size()), ni = static_cast<Eigen::Index>(all.size());
  if (nf == 0) {  // nothing free (every joint held, or a structure): the assembled start, and what holds it
    result.stable = true;
    result.held_efforts = detail::holding_efforts(model, result.q, tau, options.time);
    Data data(model);
    forward_kinematics(model, data, result.q);
    marker_positions(model, data, result.markers);
    return result;
  }

  ReducedDynamicsOptions reduced;
  reduced.time = options.time;
  reduced.tau = tau;
  reduced.at_rest = true;
  reduced.assembly = options.assembly;
  const VecX zero_v = VecX::Zero(model.nv);
  auto residual_at = [&](const VecX& q, ReducedDynamics& rd) {
    rd = reduced_dynamics(model, q, zero_v, independent, reduced);
    VecX r = rd.tau_reduced - rd.coordinate_map.transpose() * tau;  // Gᵀ (g − Q_f − τ)
    return r;
  };
  ReducedDynamics rd;
  VecX r = residual_at(result.q, rd);
  // The force scale: the reduced gravity and element forces at the start.
  const double scale = 1.0 + (rd.tau_reduced.size() > 0 ? rd.tau_reduced.cwiseAbs().maxCoeff() : 0.0);
  auto free_norm = [&](const VecX& res) {
    double n = 0.0;
    for (Eigen::Index c : free) n = std::max(n, std::abs(res[c]));
    return n;
  };
  double transient_shift = 0.0, previous_error = 0.0;  // μ of the pseudo-transient steps (0: Newton)
  for (int iteration = 0;; ++iteration) {
    result.q = rd.q;
    const double error = free_norm(r);
    if (!std::isfinite(error)) throw SolverError("static: the equilibrium iteration diverged (non-finite forces)");
    if (error <= options.tolerance * scale) {
      result.iterations = iteration;
      break;
    }
    if (iteration == options.max_iterations) {
      std::ostringstream message;
      message << "static: no equilibrium found in " << options.max_iterations << " Newton iterations (residual "
              << error << "; a free body or an unheld mechanism motion under a load, or a load beyond what the "
              << "mechanism can carry)";
      throw SolverError(message.str());
    }
    const MatX tangent = detail::restrict(MatX(rd.stiffness + rd.effort_stiffness), free, free);
    const MatX mass = detail::restrict(rd.mass, free, free);
    VecX rf(nf);
    for (Eigen::Index c = 0; c < nf; ++c) rf[c] = r[free[static_cast<std::size_t>(c)]];
    // Newton's step (μ = 0); when the tangent is singular or the step does not lower ‖r_F‖,
    // the shifted step (K + μ M) δ = −r with μ growing tenfold from 1e-6 of ‖K‖/‖M‖ turns
    // it towards the mass-weighted steepest descent −M⁻¹ r / μ of the potential.
    const double ratio = tangent.cwiseAbs().maxCoeff() / std::max(mass.cwiseAbs().maxCoeff(), 1e-300);
    const double shift_scale = ratio > 0.0 && std::isfinite(ratio) ? ratio : 1.0;
    VecX full_step = VecX::Zero(ni);
    ReducedDynamics trial;
    VecX trial_r;
    bool accepted = false;
    if (transient_shift == 0.0) {  // Newton with a monotone line search, then shifted steps
      for (int attempt = 0; attempt <= 14 && !accepted; ++attempt) {
        const double mu = attempt == 0 ? 0.0 : shift_scale * std::pow(10.0, attempt - 7);
        const Eigen::FullPivLU<MatX> lu(tangent + mu * mass);
        if (!lu.isInvertible()) continue;
        VecX step = -lu.solve(rf);
        if (!step.allFinite()) continue;
        const double largest = step.size() > 0 ? step.cwiseAbs().maxCoeff() : 0.0;
        if (largest > 0.5) step *= 0.5 / largest;
        // Halve while ‖r_F‖∞ does not decrease enough (backtracking).
        for (int halving = 0; halving <= 10 && !accepted; ++halving) {
          for (Eigen::Index c = 0; c < nf; ++c) full_step[free[static_cast<std::size_t>(c)]] = step[c];
          try {
            const VecX moved = move_independent(model, result.q, independent, full_step, options.assembly);
            trial_r = residual_at(moved, trial);
            accepted = free_norm(trial_r) < (1.0 - 1e-4) * error;  // a sufficient decrease
          } catch (const SolverError&) {
            accepted = false;  // the step left the assembly's reach: shorter
          }
          if (!accepted) step *= 0.5;
        }
      }
      if (!accepted) {  // a plateau of the residual (a saturated servo): pseudo-transient continuation
        const Eigen::LLT<MatX> mass_llt(mass);
        const VecX descent = mass_llt.solve(rf);  // M⁻¹ r: the acceleration from rest, reversed
        const double largest = descent.size() > 0 ? descent.cwiseAbs().maxCoeff() : 0.0;
        if (!(largest > 0.0) || !descent.allFinite())
          throw SolverError("static: no step lowers the force residual (" + std::to_string(error) +
                            "): no equilibrium within reach of the start (a free body, an unheld mechanism motion "
                            "under a load, or a singular configuration)");
        transient_shift = largest / 0.1;  // the first transient step moves about 0.1 rad (or m)
      }
    }
    if (!accepted) {
      // Pseudo-transient continuation (Kelley & Keyes, SIAM J. Numer. Anal. 35 (1998) 508–523):
      // (K + μ M) δ = −r with μ = 1/Δt² following the residual (switched evolution relaxation:
      // μ ← μ (‖r_n‖/‖r_{n−1}‖)²), every step taken; on a plateau the steps follow the
      // acceleration from rest −M⁻¹ r, near the equilibrium μ → 0 and the step is Newton's.
      if (previous_error > 0.0) transient_shift *= std::pow(error / previous_error, 2);
      const Eigen::FullPivLU<MatX> lu(tangent + transient_shift * mass);
      VecX step = lu.isInvertible() ? VecX(-lu.solve(rf)) : VecX(-rf / std::max(transient_shift, 1e-300));
      const double largest = step.size() > 0 ? step.cwiseAbs().maxCoeff() : 0.0;
      if (!step.allFinite() || !(largest > 0.0))
        throw SolverError("static: the pseudo-transient step failed (residual " + std::to_string(error) + ")");
      if (largest > 0.5) step *= 0.5 / largest;
      for (Eigen::Index c = 0; c < nf; ++c) full_step[free[static_cast<std::size_t>(c)]] = step[c];
      const VecX moved = move_independent(model, result.q, independent, full_step, options.assembly);
      trial_r = residual_at(moved, trial);
      previous_error = error;
    }
    rd = trial;
    r = trial_r;
  }
  const MatX stiffness = detail::restrict(MatX(rd.stiffness + rd.effort_stiffness), free, free);
  const MatX symmetric = 0.5 * (stiffness + stiffness.transpose());
  if (nf > 0) {
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(symmetric, Eigen::EigenvaluesOnly);
    result.stiffness_eigenvalues = eigen.eigenvalues();
    const double largest = result.stiffness_eigenvalues.cwiseAbs().maxCoeff();
    result.stable = result.stiffness_eigenvalues[0] > 1e-9 * std::max(largest, 1e-300);
  } else {
    result.stable = true;
  }
  result.held_efforts = VecX::Zero(model.nv);
  for (int j : result.locked_joints)
    for (int k = 0; k < model.joints[static_cast<std::size_t>(j)].nv; ++k) {
      const int coordinate = model.joints[static_cast<std::size_t>(j)].v_index + k;
      for (std::size_t p = 0; p < all.size(); ++p)
        if (all[p] == coordinate) result.held_efforts[coordinate] = r[static_cast<Eigen::Index>(p)];
    }
  Data data(model);
  forward_kinematics(model, data, result.q);
  marker_positions(model, data, result.markers);
  return result;
}

}  // namespace mechdyn
