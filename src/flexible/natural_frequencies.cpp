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
// unstable_modes. Cost: the equilibrium, nv tangent columns (2 nv force evaluations), an
// SVD of C and an O(n³) eigenproblem. Allocates (an analysis).
#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "system_linearisation.hpp"

namespace mechdyn {

ModesResult natural_frequencies(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                const VecX& q_start, bool lock_actuated, const StaticOptions& options) {
  ModesResult result;
  const std::vector<int> actuated = actuated_velocities(model);
  result.equilibrium = static_equilibrium(model, system, data, q_start, actuated, options);
  const VecX& q = result.equilibrium.q;
  for (const Joint& joint : model.joints)
    if (lock_actuated && joint.actuated && joint.nv > 0) result.locked.push_back(joint.name);

  const Eigen::Index nv = model.nv;
  std::vector<int> all(static_cast<std::size_t>(nv));
  for (int k = 0; k < nv; ++k) all[static_cast<std::size_t>(k)] = k;
  MatX stiffness;
  detail::static_tangent(model, system, data, q, result.equilibrium.multipliers, all, options.step, stiffness);
  stiffness = 0.5 * (stiffness + stiffness.transpose()).eval();
  flexible_kinematics(model, system, data, q);
  flexible_mass_matrix(model, system, data, q);
  const MatX mass = data.mass_matrix;

  // The constraints: loop rows and one row per locked actuated coordinate.
  const Eigen::Index locked_rows = lock_actuated ? static_cast<Eigen::Index>(actuated.size()) : 0;
  MatX constraint = MatX::Zero(model.num_loop_rows + locked_rows, nv);
  if (model.num_loop_rows > 0) {
    flexible_loop_closure(model, system, data, q, VecX());
    constraint.topRows(model.num_loop_rows) = data.loop_jacobian;
  }
  for (Eigen::Index r = 0; r < locked_rows; ++r)
    constraint(model.num_loop_rows + r, actuated[static_cast<std::size_t>(r)]) = 1.0;
  MatX basis;
  if (constraint.rows() == 0) {
    basis = MatX::Identity(nv, nv);
  } else {
    Eigen::JacobiSVD<MatX> svd(constraint, Eigen::ComputeFullV);
    const VecX& sigma = svd.singularValues();
    const double tolerance = 1e-10 * std::max(1.0, sigma.size() > 0 ? sigma[0] : 0.0);
    Eigen::Index rank = 0;
    while (rank < sigma.size() && sigma[rank] > tolerance) ++rank;
    basis = svd.matrixV().rightCols(nv - rank);
  }
  if (basis.cols() == 0) return result;  // no admissible motion: a fully locked structure

  const MatX reduced_stiffness = basis.transpose() * stiffness * basis;
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
  return result;
}

}  // namespace mechdyn
