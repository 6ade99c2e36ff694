// Assembly by Newton's method with line search (EC eq. 24). See the header.
#include "mechdyn/constraints/assembly.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

double residual_norm(const Data& data) {
  return data.loop_residual.size() == 0 ? 0.0 : data.loop_residual.lpNorm<Eigen::Infinity>();
}

}  // namespace

void apply_velocity_increment(const Model& model, const Data& data, Eigen::Ref<VecX> q,
                              const Eigen::Ref<const VecX>& dv) {
  check_data(model, data, "apply_velocity_increment");
  check_kinematics(data, 0, "apply_velocity_increment");
  check_state(model, q);
  check_vector(dv, model.nv, "dv");
  for (int l = 0; l < model.num_bodies(); ++l) {  // q ⊕ dv, joint by joint (model/joint.hpp)
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[parent];
    double* x = q.data() + joint.q_index;
    joint_integrate(joint, parent_rotation, x, dv.data() + joint.v_index, x);
  }
}

bool factor_passive_jacobian(const Model& model, Data& data, double singular_tolerance) {
  check_data(model, data, "factor_passive_jacobian");
  data.reserve(model, DenseWorkspace::ClosedChains);  // only in a Data made without it
  const auto& passive = data.passive_dofs;
  for (std::size_t c = 0; c < passive.size(); ++c)
    data.constraint_passive.col(static_cast<Eigen::Index>(c)) = data.loop_jacobian.col(passive[c]);
  data.passive_svd.compute(data.constraint_passive);
  return data.passive_svd.rank(singular_tolerance) == static_cast<Eigen::Index>(passive.size());
}

AssemblyResult assemble(const Model& model, Data& data, Eigen::Ref<VecX> q, const AssemblyOptions& options) {
  check_data(model, data, "assemble");
  check_state(model, q);
  AssemblyResult result;
  loop_closure(model, data, q);
  double norm = residual_norm(data);
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  while (norm > options.tolerance) {
    if (result.iterations >= options.max_iterations)
      throw SolverError("the mechanism cannot be assembled: closure residual " + number(norm) + " after " +
                        std::to_string(result.iterations) + " Newton iterations (check the actuated coordinates and the initial guess)");
    if (np == 0)
      throw SolverError("the mechanism cannot be assembled: closure residual " + number(norm) +
                        " and no passive joint (actuated: false) to solve for");
    ++result.iterations;
    factor_passive_jacobian(model, data, options.singular_tolerance);
    // Newton step J_p Δ_p = −Φ, minimum-norm least squares (Φ negated in place, restored below).
    data.loop_residual = -data.loop_residual;
    data.passive_svd.solve_min_norm(data.loop_residual, data.constraint_solution.head(np), options.singular_tolerance);
    data.loop_residual = -data.loop_residual;
    data.assembly_step.setZero();
    for (Eigen::Index c = 0; c < np; ++c) data.assembly_step[data.passive_dofs[c]] = data.constraint_solution[c];
    // Backtracking on ‖Φ‖₂: accept the first step length with sufficient decrease.
    const double merit = data.loop_residual.squaredNorm();
    double step = 1.0;
    bool accepted = false;
    while (step > 1e-10) {
      data.assembly_q = q;
      apply_velocity_increment(model, data, data.assembly_q, data.assembly_step);  // step · Δ
      loop_closure(model, data, data.assembly_q);
      if (data.loop_residual.squaredNorm() <= (1.0 - 1e-4 * step) * merit) {
        accepted = true;
        break;
      }
      step *= 0.5;
      data.assembly_step *= 0.5;
      loop_closure(model, data, q);  // kinematics at q for the next trial's parent rotations
    }
    if (!accepted)
      throw SolverError("the mechanism cannot be assembled: Newton stalled at closure residual " + number(norm) +
                        " (a local minimum of the residual: the loops cannot close with these actuated coordinates)");
    q = data.assembly_q;
    norm = residual_norm(data);
  }
  result.residual = norm;
  if (!std::isfinite(norm)) throw SolverError("the mechanism cannot be assembled: the closure residual is not finite");
  if (np > 0) {
    const bool determined = factor_passive_jacobian(model, data, options.singular_tolerance);
    if (options.check_singular && !determined)
      throw SolverError("singular configuration: the passive coordinates are not determined by the actuated ones (rank " +
                        std::to_string(data.passive_svd.rank(options.singular_tolerance)) + " of " + std::to_string(np) +
                        " passive velocities; a dead point or branch point of the loops)");
  }
  return result;
}

}  // namespace mechdyn
