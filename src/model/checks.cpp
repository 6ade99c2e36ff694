// The input checks of every public function (model/checks.hpp).
#include "mechdyn/model/checks.hpp"

#include <cmath>
#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

void check_data(const Model& model, const Data& data, const char* function) {
  const std::size_t bodies = static_cast<std::size_t>(model.num_bodies());
  const std::size_t nv = static_cast<std::size_t>(model.nv);
  // Sizes only: a Data made without a dense workspace (DenseWorkspace) fits its Model too.
  if (data.rotation.size() != bodies || data.motion_axis.size() != nv || data.aba_d_inverse.size() != bodies ||
      data.composite_force.size() != nv || data.tau.size() != model.nv || data.assembly_q.size() != model.nq ||
      data.loop_residual.size() != model.num_loop_rows || data.cut_point.size() != model.loops.size() ||
      data.element_value.size() != static_cast<Eigen::Index>(model.forces.size()) ||
      data.coupling_coordinates.size() != 2 * static_cast<Eigen::Index>(model.couplings.size()) ||
      data.element_expression_values.size() != model.num_force_expressions ||
      data.element_target_values.size() != model.num_servo_targets)
    throw InvalidArgument(std::string(function) + ": data was not built for model '" + model.name + "' (" +
                          std::to_string(bodies) + " bodies, nq = " + std::to_string(model.nq) +
                          ", nv = " + std::to_string(model.nv) + ", " + std::to_string(model.num_loop_rows) +
                          " closure rows, " + std::to_string(model.forces.size()) + " force elements)");
}

void check_vector(const Eigen::Ref<const VecX>& x, Eigen::Index size, const char* name) {
  if (x.size() != size)
    throw InvalidArgument(std::string(name) + " has " + std::to_string(x.size()) + " numbers, the model needs " +
                          std::to_string(size));
  // x·0 is 0 for every finite x and NaN for ±inf or NaN: one pass, exact, no branch per
  // number (two accumulators; a plain loop beats Eigen's reduction set-up at these sizes).
  const double* p = x.data();
  double even = 0.0, odd = 0.0;
  Eigen::Index pair = 0;
  for (; pair + 1 < size; pair += 2) {
    even += p[pair] * 0.0;
    odd += p[pair + 1] * 0.0;
  }
  if (pair < size) even += p[pair] * 0.0;  // the last number of an odd size
  if (even + odd == 0.0) return;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k]))
      throw InvalidArgument(std::string(name) + "[" + std::to_string(k) + "] is not finite");
  }
}

void check_state(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>* v,
                 const Eigen::Ref<const VecX>* a, const char* a_name) {
  check_vector(q, model.nq, "q");
  if (v != nullptr) check_vector(*v, model.nv, "v");
  if (a != nullptr) check_vector(*a, model.nv, a_name);
}

void check_holds(const Model& model, const Data& data, DenseWorkspace groups, const char* function, const char* what,
                 const char* run_first) {
  if (model.nv == 0 || data.holds(groups)) return;
  throw InvalidArgument(std::string(function) + ": data holds no " + what + " (run " + run_first + " first)");
}

void check_kinematics(const Data& data, int level, const char* function) {
  static const char* const kStage[] = {"forward_kinematics(q)", "forward_kinematics(q, v)",
                                       "forward_kinematics(q, v, a)"};
  if (data.kinematics_level < level)
    throw InvalidArgument(std::string(function) + ": data does not hold the kinematics it reads; run " +
                          kStage[level] + " first");
}

}  // namespace mechdyn
