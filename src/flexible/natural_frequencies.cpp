// Natural frequencies of a mechanism with rigid and flexible bodies, linearised about its
// static equilibrium, constraints eliminated (flexible/equilibrium.hpp; `mechdyn modes`).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §3.2, eqs. (65)–(67), written as the symmetric
// pencil of the constrained system: with N an orthonormal basis of the null space of
// C = [J (loops); S_a (the locked actuated coordinates)] (SVD), the admissible motions are
// δv = N z and
//   (Nᵀ K N) z = ω² (Nᵀ M N) z,  K = −∂(Q + Jᵀλ)/∂q at the equilibrium (symmetrised),
// solved by Eigen's GeneralizedSelfAdjointEigenSolver (Cholesky of Nᵀ M N, then a symmetric
// eigenproblem). Each eigenvalue is then recomputed as the Rayleigh quotient zᵀ K z / zᵀ M z
// of its eigenvector: the solver's absolute error ε ‖M⁻¹K‖ (1e-6 rad²/s² for a stiff axial
// beam mode, i.e. ~1e-4 Hz) would make rigid and mechanism modes look like tiny
// frequencies (the paper's 3.72e-5 Hz, docs/flexible-bodies.md); the quotient's error is
// second order in the eigenvector's. Modes with |f| < threshold (1e-6 Hz) are counted as
// zero modes and not listed; negative ω² beyond it (an unstable equilibrium) are counted as
// unstable_modes.
// Damping (equilibrium.hpp ModesResult): C = ∂R/∂v of the dynamic residual
// R = M a* + h(q, v, t) − τ − Jᵀλ* by central differences; with damping in the model (or
// about a moving state) the eigenvalues of the reduced first-order system
// [[0, 1], [−M_r⁻¹ K_r, −M_r⁻¹ C_r]] (Eigen's EigenSolver, real Schur), each oscillatory pair
// as (|Im λ|/2π, −Re λ/|λ|). About a given state (natural_frequencies_at): a*, λ* from
// [M −C_rowsᵀ; C_rows 0] [a; μ] = [τ − h; −J̇v; 0], K = ∂R/∂q.
// Cost: the equilibrium, nv tangent columns (2 nv force evaluations; 4 nv residuals with
// damping or about a state), an SVD of C and an O(n³) eigenproblem. Allocates (an analysis).
#include <algorithm>
#include <cmath>
#include <complex>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "system_linearisation.hpp"

namespace mechdyn {
namespace {

// True when the linearised model has damping: a damper, a stop's or a servo's damping, a
// beam's Rayleigh damping.
bool has_damping(const Model& model) {
  for (const ForceElement& e : model.forces)
    if (e.damping > 0.0 || e.damping6.maxCoeff() > 0.0) return true;
  for (const Body& body : model.bodies)
    if (body.flexible && (body.flexible->damping_mass > 0.0 || body.flexible->damping_stiffness > 0.0)) return true;
  return false;
}

// Orthonormal basis of the admissible motions: the null space of the loop and coupling rows
// (data.loop_jacobian at q) and the locked actuated coordinates.
MatX admissible_motions(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const VecX& q,
                        const std::vector<int>& locked) {
  const Eigen::Index nv = model.nv, locked_rows = static_cast<Eigen::Index>(locked.size());
  MatX constraint = MatX::Zero(model.num_loop_rows + locked_rows, nv);
  if (model.num_loop_rows > 0) {
    flexible_kinematics(model, system, data, q);
    flexible_loop_closure(model, system, data, q, VecX());
    constraint.topRows(model.num_loop_rows) = data.loop_jacobian;
  }
  for (Eigen::Index r = 0; r < locked_rows; ++r) constraint(model.num_loop_rows + r, locked[static_cast<std::size_t>(r)]) = 1.0;
  if (constraint.rows() == 0) return MatX::Identity(nv, nv);
  Eigen::JacobiSVD<MatX> svd(constraint, Eigen::ComputeFullV);
  const VecX& sigma = svd.singularValues();
  const double tolerance = 1e-10 * std::max(1.0, sigma.size() > 0 ? sigma[0] : 0.0);
  Eigen::Index rank = 0;
  while (rank < sigma.size() && sigma[rank] > tolerance) ++rank;
  return svd.matrixV().rightCols(nv - rank);
}

// The undamped pencil (Nᵀ K N) z = ω² (Nᵀ M N) z with K symmetrised, then, with damping,
// the first-order eigenvalues (header) into result.
void reduced_modes(const MatX& basis, const MatX& stiffness, const MatX& mass, const MatX* damping,
                   ModesResult& result) {
  const Eigen::Index nv = basis.rows();
  if (basis.cols() == 0) return;  // no admissible motion: a fully locked structure
  const MatX symmetric = 0.5 * (stiffness + stiffness.transpose());
  const MatX reduced_stiffness = basis.transpose() * symmetric * basis;
  const MatX reduced_mass = basis.transpose() * mass * basis;
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(reduced_stiffness, reduced_mass);
  if (eigen.info() != Eigen::Success)
    throw SolverError("modes: the eigenproblem failed (the mass matrix is not positive definite on the admissible motions)");
  const MatX& vectors = eigen.eigenvectors();
  const double two_pi = 2.0 * std::acos(-1.0);
  const double zero_eigenvalue = std::pow(two_pi * result.threshold, 2);
  std::vector<std::pair<double, Eigen::Index>> modes;
  for (Eigen::Index k = 0; k < vectors.cols(); ++k) {
    const VecX z = vectors.col(k);
    const double lambda = z.dot(reduced_stiffness * z) / z.dot(reduced_mass * z);  // Rayleigh quotient
    if (std::abs(lambda) < zero_eigenvalue) {
      ++result.zero_modes;
    } else if (lambda < 0.0) {
      ++result.unstable_modes;
    } else {
      modes.emplace_back(std::sqrt(lambda) / two_pi, k);
    }
  }
  std::sort(modes.begin(), modes.end());
  result.shapes.resize(nv, static_cast<Eigen::Index>(modes.size()));
  for (std::size_t k = 0; k < modes.size(); ++k) {
    result.frequencies.push_back(modes[k].first);
    result.shapes.col(static_cast<Eigen::Index>(k)) = basis * vectors.col(modes[k].second);
  }
  if (damping == nullptr) return;

  // ẋ = [[0, 1], [−M_r⁻¹ K_r, −M_r⁻¹ C_r]] x (K_r as linearised, not symmetrised)
  const Eigen::Index n = basis.cols();
  const Eigen::LLT<MatX> factor(reduced_mass);
  MatX first_order = MatX::Zero(2 * n, 2 * n);
  first_order.topRightCorner(n, n).setIdentity();
  first_order.bottomLeftCorner(n, n) = -factor.solve(MatX(basis.transpose() * stiffness * basis));
  first_order.bottomRightCorner(n, n) = -factor.solve(MatX(basis.transpose() * *damping * basis));
  Eigen::EigenSolver<MatX> solver(first_order, false);
  if (solver.info() != Eigen::Success) throw SolverError("modes: the damped eigenproblem failed");
  const Eigen::VectorXcd values = solver.eigenvalues();
  result.eigenvalues.assign(values.data(), values.data() + values.size());
  std::sort(result.eigenvalues.begin(), result.eigenvalues.end(),
            [](const std::complex<double>& a, const std::complex<double>& b) {
              if (std::abs(a.imag()) != std::abs(b.imag())) return std::abs(a.imag()) < std::abs(b.imag());
              if (a.real() != b.real()) return a.real() < b.real();
              return a.imag() < b.imag();
            });
  const double oscillating = two_pi * result.threshold;
  for (const std::complex<double>& lambda : result.eigenvalues)
    if (lambda.imag() > oscillating)
      result.damped.emplace_back(lambda.imag() / two_pi, -lambda.real() / std::abs(lambda));
  std::sort(result.damped.begin(), result.damped.end());
}

std::vector<std::string> locked_names(const Model& model, bool lock_actuated) {
  std::vector<std::string> out;
  for (const Joint& joint : model.joints)
    if (lock_actuated && joint.actuated && joint.nv > 0) out.push_back(joint.name);
  return out;
}

}  // namespace

ModesResult natural_frequencies(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, bool lock_actuated, const StaticOptions& options) {
  ModesResult result;
  const std::vector<int> actuated = actuated_velocities(model);
  result.equilibrium = static_equilibrium(model, system, data, q_start, actuated, options);
  const VecX& q = result.equilibrium.q;
  result.locked = locked_names(model, lock_actuated);

  const Eigen::Index nv = model.nv;
  const detail::ResidualInputs inputs{options.time, &options.efforts};
  std::vector<int> all(static_cast<std::size_t>(nv));
  for (int k = 0; k < nv; ++k) all[static_cast<std::size_t>(k)] = k;
  MatX stiffness;
  detail::static_tangent(model, system, data, q, result.equilibrium.multipliers, inputs, all, options.step, stiffness);
  flexible_kinematics(model, system, data, q);
  flexible_mass_matrix(model, system, data, q);
  const MatX mass = data.mass_matrix;
  const MatX basis = admissible_motions(model, system, data, q, lock_actuated ? actuated : std::vector<int>{});

  result.damped_model = has_damping(model);
  if (!result.damped_model) {
    reduced_modes(basis, stiffness, mass, nullptr, result);
    return result;
  }
  // C = ∂R/∂v at (q, v = 0, a = 0): the held coordinates' efforts and τ are constant.
  VecX efforts = result.equilibrium.held_efforts;
  if (options.efforts.size() > 0) efforts += options.efforts;
  const detail::ResidualInputs held{options.time, &efforts};
  const VecX zero = VecX::Zero(nv);
  MatX unused, damping;
  detail::dynamic_tangents(model, system, data, q, zero, zero, result.equilibrium.multipliers, held, options.step,
                           unused, damping);
  reduced_modes(basis, stiffness, mass, &damping, result);
  return result;
}

ModesResult natural_frequencies_at(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                   const VecX& q, const VecX& v, bool lock_actuated, const StaticOptions& options) {
  const Eigen::Index nv = model.nv, rows = model.num_loop_rows;
  if (q.size() != model.nq || !q.allFinite() || v.size() != nv || !v.allFinite())
    throw InvalidArgument("modes: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                          std::to_string(nv) + " finite numbers");
  if (options.efforts.size() != 0 && (options.efforts.size() != nv || !options.efforts.allFinite()))
    throw InvalidArgument("modes: the efforts must hold nv = " + std::to_string(nv) + " finite numbers (or none)");
  ModesResult result;
  result.locked = locked_names(model, lock_actuated);
  const std::vector<int> locked = lock_actuated ? actuated_velocities(model) : std::vector<int>{};
  const Eigen::Index nl = static_cast<Eigen::Index>(locked.size());

  // a*, λ* (and the locked coordinates' efforts μ) of the constrained dynamics at (q, v, t).
  const VecX none;
  flexible_kinematics(model, system, data, q, v);
  flexible_mass_matrix(model, system, data, q);
  flexible_bias_force(model, system, data, q, v, none, options.time);
  MatX matrix = MatX::Zero(nv + rows + nl, nv + rows + nl);
  VecX rhs = VecX::Zero(nv + rows + nl);
  matrix.topLeftCorner(nv, nv) = data.mass_matrix;
  rhs.head(nv) = -data.bias_force;
  if (options.efforts.size() > 0) rhs.head(nv) += options.efforts;
  if (rows > 0) {
    flexible_loop_closure(model, system, data, q, v);
    matrix.block(0, nv, nv, rows) = -data.loop_jacobian.transpose();
    matrix.block(nv, 0, rows, nv) = data.loop_jacobian;
    rhs.segment(nv, rows) = -data.loop_bias;
  }
  for (Eigen::Index r = 0; r < nl; ++r) {  // a_a = 0
    matrix(locked[static_cast<std::size_t>(r)], nv + rows + r) = -1.0;
    matrix(nv + rows + r, locked[static_cast<std::size_t>(r)]) = 1.0;
  }
  const Eigen::FullPivLU<MatX> lu(matrix);
  if (!lu.isInvertible())
    throw SolverError("modes: the accelerations at the state are not unique (redundant constraints)");
  const VecX solution = lu.solve(rhs);
  const VecX acceleration = solution.head(nv);
  result.equilibrium.q = q;
  result.equilibrium.multipliers = solution.segment(rows > 0 ? nv : 0, rows);
  result.equilibrium.held_efforts = VecX::Zero(nv);
  for (Eigen::Index r = 0; r < nl; ++r) result.equilibrium.held_efforts[locked[static_cast<std::size_t>(r)]] = solution[nv + rows + r];
  result.equilibrium.markers = data.marker_position;

  // K = ∂R/∂q, C = ∂R/∂v with the locked efforts and τ constant.
  VecX efforts = result.equilibrium.held_efforts;
  if (options.efforts.size() > 0) efforts += options.efforts;
  const detail::ResidualInputs inputs{options.time, &efforts};
  MatX stiffness, damping;
  detail::dynamic_tangents(model, system, data, q, v, acceleration, result.equilibrium.multipliers, inputs,
                           options.step, stiffness, damping);
  flexible_kinematics(model, system, data, q);
  flexible_mass_matrix(model, system, data, q);
  const MatX mass = data.mass_matrix;
  const MatX basis = admissible_motions(model, system, data, q, locked);
  result.damped_model = has_damping(model) || v.cwiseAbs().maxCoeff() > 0.0;
  reduced_modes(basis, stiffness, mass, result.damped_model ? &damping : nullptr, result);
  return result;
}

}  // namespace mechdyn
