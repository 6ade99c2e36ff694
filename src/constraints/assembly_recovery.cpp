// Assembly with Levenberg–Marquardt and restarts around Newton. See the header.
#include "mechdyn/constraints/assembly_recovery.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <random>

#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

double residual_norm(const Data& data) {
  return data.loop_residual.size() == 0 ? 0.0 : data.loop_residual.lpNorm<Eigen::Infinity>();
}

// A length typical of the model (m): the largest joint offset or loop point, at least 1 mm.
double length_scale(const Model& model) {
  double scale = 1e-3;
  for (const Joint& joint : model.joints) scale = std::max(scale, joint.origin.norm());
  for (const Loop& loop : model.loops) scale = std::max({scale, loop.a.point.norm(), loop.b.point.norm()});
  return scale;
}

// q ← q ⊕ (random increment of the passive coordinates). Needs data's kinematics at q.
void perturb_passive(const Model& model, Data& data, Eigen::Ref<VecX> q, std::mt19937& generator, double length) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  data.assembly_step.setZero();
  for (int k : data.passive_dofs) {
    const Joint& joint = model.joints[model.dof_body[static_cast<std::size_t>(k)]];
    const int offset = k - joint.v_index;
    const bool linear = joint.type == JointType::Prismatic || (joint.type == JointType::Free && offset < 3);
    data.assembly_step[k] = linear ? length * unit(generator) : M_PI * unit(generator);
  }
  loop_closure(model, data, q);  // parent rotations at q for the quaternion joints
  apply_velocity_increment(model, data, q, data.assembly_step);
}

// One starting guess: Newton, then LM; true when the loops closed (q updated).
bool try_from(const Model& model, Data& data, Eigen::Ref<VecX> q, const AssemblyOptions& options,
              const AssemblyRecoveryOptions& recovery, std::string& method, std::string& newton_message) {
  AssemblyOptions trial = options;
  trial.check_singular = false;  // decided once, at the end
  VecX guess = q;
  try {
    assemble(model, data, guess, trial);
    q = guess;
    method = "newton";
    return true;
  } catch (const SolverError& e) {
    if (newton_message.empty()) newton_message = e.what();
  }
  guess = q;
  if (levenberg_marquardt_assembly(model, data, guess, options.tolerance, recovery.levenberg_marquardt_iterations)) {
    q = guess;
    method = "levenberg-marquardt";
    return true;
  }
  return false;
}

}  // namespace

bool levenberg_marquardt_assembly(const Model& model, Data& data, Eigen::Ref<VecX> q, double tolerance,
                                  int max_iterations) {
  check_state(model, q);
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  loop_closure(model, data, q);
  double merit = data.loop_residual.squaredNorm();
  if (residual_norm(data) <= tolerance) return true;
  if (np == 0 || !std::isfinite(merit)) return false;
  MatX passive_jacobian(data.loop_residual.size(), np), normal(np, np);
  VecX gradient(np), step(np);
  VecX trial_q = q;
  double damping = -1.0;  // set from the first J_pᵀJ_p
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    for (Eigen::Index c = 0; c < np; ++c) passive_jacobian.col(c) = data.loop_jacobian.col(data.passive_dofs[c]);
    normal.noalias() = passive_jacobian.transpose() * passive_jacobian;
    gradient.noalias() = passive_jacobian.transpose() * data.loop_residual;
    const double scale = std::max(normal.diagonal().maxCoeff(), 1e-300);
    if (gradient.lpNorm<Eigen::Infinity>() <= 1e-15 * scale) return false;  // stationary with Φ ≠ 0
    if (damping < 0.0) damping = 1e-3;
    bool decreased = false;
    while (!decreased && damping <= 1e12) {
      MatX damped = normal;
      for (Eigen::Index c = 0; c < np; ++c) damped(c, c) += damping * std::max(normal(c, c), 1e-12 * scale);
      step = damped.ldlt().solve(-gradient);
      if (!step.allFinite()) return false;
      data.assembly_step.setZero();
      for (Eigen::Index c = 0; c < np; ++c) data.assembly_step[data.passive_dofs[c]] = step[c];
      trial_q = q;
      apply_velocity_increment(model, data, trial_q, data.assembly_step);  // data's kinematics are at q
      loop_closure(model, data, trial_q);
      const double trial_merit = data.loop_residual.squaredNorm();
      if (std::isfinite(trial_merit) && trial_merit < merit) {
        q = trial_q;
        merit = trial_merit;
        damping = std::max(damping / 3.0, 1e-12);
        decreased = true;
      } else {
        damping *= 4.0;
        loop_closure(model, data, q);  // back to the kinematics at q
      }
    }
    if (!decreased) return false;
    if (residual_norm(data) <= tolerance) return true;
  }
  return false;
}

RecoveredAssembly assemble_with_recovery(const Model& model, Data& data, Eigen::Ref<VecX> q,
                                         const AssemblyOptions& options, const AssemblyRecoveryOptions& recovery) {
  check_state(model, q);
  RecoveredAssembly out;
  std::string newton_message, method;
  VecX guess = q;
  bool closed = try_from(model, data, guess, options, recovery, method, newton_message);
  std::mt19937 generator(recovery.seed);
  const double length = length_scale(model);
  for (int k = 0; !closed && k < recovery.restarts && !data.passive_dofs.empty(); ++k) {
    guess = q;
    perturb_passive(model, data, guess, generator, length);
    ++out.attempts;
    closed = try_from(model, data, guess, options, recovery, method, newton_message);
    if (closed) method = "restart " + std::to_string(k + 1) + " (" + method + ")";
  }
  if (!closed)
    throw SolverError(newton_message + "; Levenberg-Marquardt and " + std::to_string(out.attempts - 1) +
                      " restarts from perturbed guesses did not close the loops either");
  // Polish (and the singularity check) by Newton from the closed configuration.
  out.result = assemble(model, data, guess, options);
  out.method = method;
  q = guess;
  return out;
}

RecoveredAssembly assemble_keeping(const Model& model, Data& data, Eigen::Ref<VecX> q, const std::vector<int>& kept,
                                   const AssemblyOptions& options, const AssemblyRecoveryOptions& recovery) {
  check_data(model, data, "assemble_keeping");
  check_state(model, q);
  std::vector<char> is_kept(static_cast<std::size_t>(model.nv), 0);
  for (int k : kept) {
    if (k < 0 || k >= model.nv)
      throw InvalidArgument("assemble_keeping: kept coordinate " + std::to_string(k) + " is outside [0, " +
                            std::to_string(model.nv) + ")");
    if (is_kept[static_cast<std::size_t>(k)])
      throw InvalidArgument("assemble_keeping: kept coordinate " + std::to_string(k) + " is named twice");
    is_kept[static_cast<std::size_t>(k)] = 1;
  }
  std::vector<int> sorted_kept, solved;
  for (int k = 0; k < model.nv; ++k) (is_kept[static_cast<std::size_t>(k)] ? sorted_kept : solved).push_back(k);
  if (sorted_kept == data.actuated_dofs) return assemble_with_recovery(model, data, q, options, recovery);
  // The same method on a Data whose passive set is the coordinates to solve: every stage
  // (Newton, LM, restarts, the singularity check) reads data.passive_dofs and sizes its
  // scratch from it (constraint_passive, passive_svd, constraint_solution).
  Data scratch(model, DenseWorkspace::None);
  scratch.actuated_dofs = sorted_kept;
  scratch.passive_dofs = solved;
  const Eigen::Index rows = model.num_loop_rows, np = static_cast<Eigen::Index>(solved.size()),
                     na = static_cast<Eigen::Index>(sorted_kept.size());
  scratch.constraint_solution = VecX::Zero(std::max(na + rows, np));
  scratch.reserve(model, DenseWorkspace::ClosedChains);
  RecoveredAssembly out = assemble_with_recovery(model, scratch, q, options, recovery);
  loop_closure(model, data, q);
  return out;
}

}  // namespace mechdyn
