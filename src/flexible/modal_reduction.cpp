// The lowest modes of a symmetric-definite pencil (flexible/modal_reduction.hpp):
// Eigen's GeneralizedSelfAdjointEigenSolver (Cholesky of M, then a symmetric eigensolver),
// eigenvectors M-normalised, signs fixed for reproducibility. Cost O(n³); built once.
#include "mechdyn/flexible/modal_reduction.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

void lowest_modes(const MatX& stiffness, const MatX& mass, int count, MatX& modes, VecX& frequencies) {
  const Eigen::Index n = mass.rows();
  if (count < 1 || count > n)
    throw InvalidArgument("lowest_modes: asked for " + std::to_string(count) + " modes of a system of size " +
                          std::to_string(n));
  Eigen::LLT<MatX> check(mass);
  if (check.info() != Eigen::Success) throw SolverError("lowest_modes: the mass matrix is not positive definite");
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(stiffness, mass, Eigen::ComputeEigenvectors | Eigen::Ax_lBx);
  if (solver.info() != Eigen::Success) throw SolverError("lowest_modes: the eigensolver did not converge");
  const VecX& lambda = solver.eigenvalues();  // ascending
  const double scale = std::max(1.0, lambda.cwiseAbs().maxCoeff());
  if (lambda(0) < -1e-9 * scale) throw SolverError("lowest_modes: the stiffness matrix is not positive semi-definite");
  modes = solver.eigenvectors().leftCols(count);
  frequencies.resize(count);
  for (int i = 0; i < count; ++i) {
    frequencies(i) = std::sqrt(std::max(lambda(i), 0.0));
    Eigen::Index largest = 0;
    modes.col(i).cwiseAbs().maxCoeff(&largest);
    if (modes(largest, i) < 0.0) modes.col(i) = -modes.col(i);
  }
}

}  // namespace mechdyn
