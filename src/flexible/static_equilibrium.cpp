// Static equilibrium of a mechanism with rigid and flexible bodies under gravity
// (flexible/equilibrium.hpp; `mechdyn static`, ../shared/spec/flexible-bodies.md).
//
// Unknowns: the free velocity coordinates (all but the held ones) as increments q ⊕ Δ, and
// the cut-joint multipliers λ. Equations: G_f = (Q + Jᵀ λ)_f = 0 and Φ(q) = 0. Newton:
//   [K_t  −J_fᵀ] [Δ ]   [G_f]
//   [J_f    0  ] [Δλ] = [−Φ ],   K_t = −∂G_f/∂q_f (finite differences, system_linearisation)
// with the joint steps limited to 0.5 rad (or m) per iteration. A linear elastic problem
// (a beam on fixed joints) converges in one step; the FFR's only nonlinearity in e is the
// section rotation exp(θ̃) of points off the axis and of children's joints.
// The efforts on the held coordinates are −G there (what the actuators must supply).
// G includes the force elements at StaticOptions::time and the constant efforts τ.
// Stability at the equilibrium: the eigenvalues of Nᵀ K_ff N, K_ff = −∂G_f/∂q_f (symmetrised),
// N an orthonormal basis (SVD) of the null space of J's free columns (loops and couplings):
// the second variation of the potential on the admissible motions (the λ term is the
// constraint manifold's curvature).
// Cost per iteration: 2 n_free evaluations of the static forces, one dense solve; the
// stability one more tangent and an eigenproblem of the free motions.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "system_linearisation.hpp"

namespace mechdyn {

namespace {

// result.stable and result.stiffness_eigenvalues at the equilibrium result.q (header).
void equilibrium_stability(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                           const std::vector<int>& free, const MatX& jacobian, const detail::ResidualInputs& inputs,
                           double step, StaticResult& result) {
  const Eigen::Index nf = static_cast<Eigen::Index>(free.size()), rows = model.num_loop_rows;
  MatX tangent;
  detail::static_tangent(model, system, data, result.q, result.multipliers, inputs, free, step, tangent);
  MatX stiffness(nf, nf), constraint(rows, nf);
  for (Eigen::Index c = 0; c < nf; ++c) {
    for (Eigen::Index r = 0; r < nf; ++r) stiffness(r, c) = tangent(free[static_cast<std::size_t>(r)], c);
    for (Eigen::Index l = 0; l < rows; ++l) constraint(l, c) = jacobian(l, free[static_cast<std::size_t>(c)]);
  }
  stiffness = 0.5 * (stiffness + stiffness.transpose()).eval();
  MatX basis = MatX::Identity(nf, nf);
  if (rows > 0 && nf > 0) {
    Eigen::JacobiSVD<MatX> svd(constraint, Eigen::ComputeFullV);
    const VecX& sigma = svd.singularValues();
    const double tolerance = 1e-10 * std::max(1.0, sigma.size() > 0 ? sigma[0] : 0.0);
    Eigen::Index rank = 0;
    while (rank < sigma.size() && sigma[rank] > tolerance) ++rank;
    basis = svd.matrixV().rightCols(nf - rank);
  }
  if (basis.cols() == 0) {  // nothing free: trivially stable
    result.stiffness_eigenvalues = VecX();
    result.stable = true;
    return;
  }
  const MatX reduced = basis.transpose() * stiffness * basis;
  Eigen::SelfAdjointEigenSolver<MatX> eigen(reduced, Eigen::EigenvaluesOnly);
  result.stiffness_eigenvalues = eigen.eigenvalues();  // ascending
  const double largest = result.stiffness_eigenvalues.cwiseAbs().maxCoeff();
  result.stable = result.stiffness_eigenvalues[0] > 1e-9 * largest;
}

}  // namespace

std::vector<int> actuated_velocities(const Model& model) {
  std::vector<int> out;
  for (const Joint& joint : model.joints)
    if (joint.actuated)
      for (int k = 0; k < joint.nv; ++k) out.push_back(joint.v_index + k);
  return out;
}

StaticResult static_equilibrium(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, const std::vector<int>& held, const StaticOptions& options) {
  if (q_start.size() != model.nq || !q_start.allFinite())
    throw InvalidArgument("static_equilibrium: q must hold nq = " + std::to_string(model.nq) + " finite numbers");
  if (options.efforts.size() != 0 && (options.efforts.size() != model.nv || !options.efforts.allFinite()))
    throw InvalidArgument("static_equilibrium: the efforts must hold nv = " + std::to_string(model.nv) +
                          " finite numbers (or none)");
  if (!std::isfinite(options.time)) throw InvalidArgument("static_equilibrium: the time is not finite");
  const detail::ResidualInputs inputs{options.time, &options.efforts};
  std::vector<char> is_held(static_cast<std::size_t>(model.nv), 0);
  for (int k : held) {
    if (k < 0 || k >= model.rigid_nv) throw InvalidArgument("static_equilibrium: a held coordinate is not a joint's");
    is_held[static_cast<std::size_t>(k)] = 1;
  }
  std::vector<int> free;
  for (int k = 0; k < model.nv; ++k)
    if (!is_held[static_cast<std::size_t>(k)]) free.push_back(k);
  const Eigen::Index nf = static_cast<Eigen::Index>(free.size()), rows = model.num_loop_rows;

  StaticResult result;
  result.q = q_start;
  result.multipliers = VecX::Zero(rows);
  VecX g;
  // The force scale of the tolerance: the generalized gravity forces of the undeformed start.
  detail::static_residual(model, system, data, result.q, result.multipliers, inputs, g);
  const double scale = 1.0 + g.cwiseAbs().maxCoeff();
  MatX tangent, system_matrix(nf + rows, nf + rows);
  VecX rhs(nf + rows), dv(model.nv), next(model.nq);
  for (int iteration = 0; iteration <= options.max_iterations; ++iteration) {
    detail::static_residual(model, system, data, result.q, result.multipliers, inputs, g);
    double force_error = 0.0;
    for (Eigen::Index c = 0; c < nf; ++c) force_error = std::max(force_error, std::abs(g[free[c]]));
    const double closure_error = rows > 0 ? data.loop_residual.cwiseAbs().maxCoeff() : 0.0;
    if (!std::isfinite(force_error) || !std::isfinite(closure_error))
      throw SolverError("static: the equilibrium iteration diverged (non-finite forces)");
    if (force_error <= options.tolerance * scale && closure_error <= options.tolerance) {
      result.iterations = iteration;
      result.held_efforts = VecX::Zero(model.nv);
      for (int k : held) result.held_efforts[k] = -g[k];
      result.markers = data.marker_position;
      const MatX jacobian = data.loop_jacobian;
      equilibrium_stability(model, system, data, free, jacobian, inputs, options.step, result);
      return result;
    }
    if (iteration == options.max_iterations) break;
    const MatX jacobian = data.loop_jacobian;  // J(q), before the tangent's evaluations overwrite it
    const VecX residual = data.loop_residual;
    detail::static_tangent(model, system, data, result.q, result.multipliers, inputs, free, options.step, tangent);
    system_matrix.setZero();
    for (Eigen::Index r = 0; r < nf; ++r) {
      for (Eigen::Index c = 0; c < nf; ++c) system_matrix(r, c) = tangent(free[r], c);
      for (Eigen::Index l = 0; l < rows; ++l) {
        system_matrix(r, nf + l) = -jacobian(l, free[r]);
        system_matrix(nf + l, r) = jacobian(l, free[r]);
      }
      rhs[r] = g[free[r]];
    }
    for (Eigen::Index l = 0; l < rows; ++l) rhs[nf + l] = -residual[l];
    Eigen::FullPivLU<MatX> lu(system_matrix);
    if (!lu.isInvertible()) {
      // A singular tangent (a link horizontal under gravity has no stiffness there): the
      // shifted step (K_t + μ M) Δ = G with the smallest μ = 1e-6 … 1e6 × ‖K_t‖/‖M‖ that makes
      // it regular, towards the mass-weighted steepest descent of the potential
      // (Levenberg–Marquardt's idea; Nocedal & Wright, Numerical Optimization, §10.3).
      flexible_kinematics(model, system, data, result.q);
      flexible_mass_matrix(model, system, data, result.q);
      const double mass_scale = std::max(data.mass_matrix.cwiseAbs().maxCoeff(), 1e-300);
      const double ratio = tangent.cwiseAbs().maxCoeff() / mass_scale;
      const double shift_scale = ratio > 0.0 && std::isfinite(ratio) ? ratio : 1.0;
      bool regular = false;
      for (int attempt = 1; attempt <= 13 && !regular; ++attempt) {
        MatX shifted = system_matrix;
        const double mu = shift_scale * std::pow(10.0, attempt - 7);
        for (Eigen::Index r = 0; r < nf; ++r)
          for (Eigen::Index c = 0; c < nf; ++c) shifted(r, c) += mu * data.mass_matrix(free[r], free[c]);
        lu.compute(shifted);
        regular = lu.isInvertible();
      }
      if (!regular)
        throw SolverError(
            "static: no unique equilibrium (the stiffness is singular on the free coordinates: a free "
            "body or an unloaded mechanism motion; hold it with an actuated joint)");
    }
    const VecX step = lu.solve(rhs);
    double largest_joint_step = 0.0;
    for (Eigen::Index c = 0; c < nf; ++c)
      if (free[c] < model.rigid_nv) largest_joint_step = std::max(largest_joint_step, std::abs(step[c]));
    const double damping = largest_joint_step > 0.5 ? 0.5 / largest_joint_step : 1.0;
    dv.setZero();
    for (Eigen::Index c = 0; c < nf; ++c) dv[free[c]] = damping * step[c];
    flexible_kinematics(model, system, data, result.q);
    flexible_integrate(model, data, result.q, dv, next);
    result.q = next;
    result.multipliers += damping * step.tail(rows);
  }
  std::ostringstream message;
  message << "static: no equilibrium found in " << options.max_iterations
          << " Newton iterations (a free body under gravity, or a load beyond what the structure can carry)";
  throw SolverError(message.str());
}

}  // namespace mechdyn
