// Projection onto the constraint manifold (positions, then velocities). See the header.
#include "mechdyn/constraints/drift_control.hpp"

#include <cstdio>
#include <string>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

double project_positions(const Model& model, Data& data, Eigen::Ref<VecX> q, const ProjectionOptions& options) {
  check_data(model, data, "project_positions");
  check_state(model, q);
  if (model.num_loop_rows == 0) return 0.0;
  data.reserve(model, DenseWorkspace::ClosedChains);  // only in a Data made without it
  loop_closure(model, data, q);
  double norm = data.loop_residual.lpNorm<Eigen::Infinity>();
  for (int iteration = 0; norm > options.tolerance; ++iteration) {
    if (iteration >= options.max_iterations || !std::isfinite(norm)) {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer, "projection onto the loop closure failed: residual %.3g after %d iterations",
                    norm, iteration);
      throw SolverError(buffer);
    }
    data.full_svd.compute(data.loop_jacobian);
    data.loop_residual = -data.loop_residual;
    data.full_svd.solve_min_norm(data.loop_residual, data.assembly_step, options.rank_tolerance);  // −J⁺ Φ
    apply_velocity_increment(model, data, q, data.assembly_step);
    loop_closure(model, data, q);
    norm = data.loop_residual.lpNorm<Eigen::Infinity>();
  }
  return norm;
}

double project_velocities(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> v,
                          const ProjectionOptions& options) {
  check_data(model, data, "project_velocities");
  const Eigen::Ref<const VecX> velocities(v);
  check_state(model, q, &velocities);
  const Eigen::Index rows = model.num_loop_rows;
  if (rows == 0) return 0.0;
  data.reserve(model, DenseWorkspace::MassMatrix | DenseWorkspace::ClosedChains);  // only in a Data made without them
  loop_closure(model, data, q);
  crba(model, data, q);
  data.mass_llt.compute(data.mass_matrix);
  if (data.mass_llt.info() != Eigen::Success)
    throw SolverError("velocity projection: the mass matrix is not positive definite");
  data.constraint_factor = data.loop_jacobian.transpose();
  data.mass_llt.matrixL().solveInPlace(data.constraint_factor);  // K = L⁻¹ Jᵀ
  data.factor_svd.compute(data.constraint_factor);
  data.constraint_solution.head(rows).noalias() = data.loop_jacobian * v;
  data.factor_svd.solve_gram(data.constraint_solution.head(rows), data.constraint_rhs, options.rank_tolerance);  // μ = G⁺ J v
  data.constraint_rhs_nv.noalias() = data.constraint_factor * data.constraint_rhs;
  data.mass_llt.matrixU().solveInPlace(data.constraint_rhs_nv);  // M⁻¹ Jᵀ μ
  v -= data.constraint_rhs_nv;
  data.constraint_rhs.noalias() = data.loop_jacobian * v;
  return data.constraint_rhs.lpNorm<Eigen::Infinity>();
}

}  // namespace mechdyn
