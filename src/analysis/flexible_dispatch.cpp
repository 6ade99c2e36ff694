// Equilibrium and modes of models with flexible bodies through the floating-frame-of-reference
// system (flexible/equilibrium.hpp), with the meaning that analysis/mechanism_equilibrium.hpp
// gives for rigid ones (../shared/spec/linearisation.md): the held joints are the actuated ones
// with lock_actuated, else none (also in the equilibrium that the modes are taken about).
// The flexible path eliminates the constraints by a null-space basis and differences its
// stiffness and damping (docs/flexible-bodies.md "Statics and modes"); it does not choose
// independent coordinates, so `independent` is refused.
#include "flexible_dispatch.hpp"

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "partition_helpers.hpp"

namespace mechdyn::detail {

namespace {

StaticOptions static_options(const Model& model, const EquilibriumOptions& options) {
  if (!options.independent.empty())
    throw InvalidArgument("independent coordinates are not chosen for models with flexible bodies (the constraints "
                          "are eliminated by a null-space basis)");
  StaticOptions out;
  out.tolerance = options.tolerance;
  out.max_iterations = options.max_iterations;
  out.time = options.time;
  if (options.tau.size() != 0) {
    if (options.tau.size() != model.nv || !options.tau.allFinite())
      throw InvalidArgument("static: tau must hold nv = " + std::to_string(model.nv) + " finite numbers");
    out.efforts = options.tau;
  }
  return out;
}

std::vector<int> free_joints(const Model& model, const std::vector<int>& held) {
  std::vector<char> is_held(model.joints.size(), 0);
  for (int j : held) is_held[static_cast<std::size_t>(j)] = 1;
  std::vector<int> out;
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].nv > 0 && !is_held[j]) out.push_back(static_cast<int>(j));
  return out;
}

std::vector<int> held_velocities(const Model& model, bool lock) {
  return lock ? actuated_velocities(model) : std::vector<int>{};
}

}  // namespace

bool has_flexible_bodies(const Model& model) {
  for (const Body& body : model.bodies)
    if (body.flexible) return true;
  return false;
}

MechanismEquilibrium flexible_equilibrium(const Model& model, const Eigen::Ref<const VecX>& q_start,
                                          const EquilibriumOptions& options) {
  const StaticOptions so = static_options(model, options);
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const StaticResult r = static_equilibrium(model, system, data, VecX(q_start), held_velocities(model, options.lock_actuated), so);
  MechanismEquilibrium out;
  out.q = r.q;
  out.markers = r.markers;
  out.stable = r.stable;
  out.stiffness_eigenvalues = r.stiffness_eigenvalues;
  out.locked_joints = held_joints(model, options.lock_actuated);
  out.free_joints = free_joints(model, out.locked_joints);
  out.held_efforts = r.held_efforts;
  out.iterations = r.iterations;
  return out;
}

MechanismModes flexible_modes(const Model& model, const Eigen::Ref<const VecX>& q_start, const ModesOptions& options) {
  const EquilibriumOptions& eq = options.equilibrium;
  const StaticOptions so = static_options(model, eq);
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  ModesResult r;
  if (options.at_state) {
    const VecX v = options.v.size() == 0 ? VecX(VecX::Zero(model.nv)) : options.v;
    if (v.size() != model.nv || !v.allFinite())
      throw InvalidArgument("modes: v must hold nv = " + std::to_string(model.nv) + " finite numbers");
    r = natural_frequencies_at(model, system, data, VecX(q_start), v, eq.lock_actuated, so);
  } else if (eq.lock_actuated) {
    r = natural_frequencies(model, system, data, VecX(q_start), true, so);
  } else {  // the equilibrium with nothing held, then the modes about it
    const StaticResult s = static_equilibrium(model, system, data, VecX(q_start), {}, so);
    r = natural_frequencies_at(model, system, data, s.q, VecX::Zero(model.nv), false, so);
  }
  MechanismModes out;
  out.frequencies = r.frequencies;
  out.zero_modes = r.zero_modes;
  out.unstable_modes = r.unstable_modes;
  out.threshold = r.threshold;
  out.locked = r.locked;
  out.damped_model = r.damped_model;
  for (const auto& [frequency, ratio] : r.damped) out.damped.push_back({frequency, ratio + 0.0});  // + 0: no −0
  out.eigenvalues = r.eigenvalues;
  out.shapes = r.shapes;
  out.q = r.equilibrium.q;
  out.v = options.at_state && options.v.size() == model.nv ? options.v : VecX(VecX::Zero(model.nv));
  out.free_joints = free_joints(model, held_joints(model, eq.lock_actuated));
  return out;
}

}  // namespace mechdyn::detail
