// The linearised equations of motion of a mechanism with flexible bodies and no closure rows
// about a state (flexible/equilibrium.hpp, flexible_linearisation; used by analysis/linearize).
//
// M(q) v̇ + h(q, v, t) = τ (the FFR system, system_dynamics.cpp; h holds −Q: gravity, elastic
// and damping forces, the force elements). At (q, v): a* = M⁻¹ (τ − h), then
//   K = ∂R/∂q,  C = ∂R/∂v  of  R(q, v) = M(q) a* + h(q, v, t) − τ
// by central differences (detail::dynamic_tangents; q ⊕ (±h e_j), step options.step), so
// that δa = −M⁻¹ (K δq + C δv) + M⁻¹ δτ. Allocates (an analysis).
#include <Eigen/Cholesky>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "system_linearisation.hpp"

namespace mechdyn {

FlexibleLinearisation flexible_linearisation(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                                             const VecX& q, const VecX& v, const StaticOptions& options) {
  const Eigen::Index nv = model.nv;
  if (model.num_loop_rows > 0)
    throw InvalidArgument("linearize: a model with flexible bodies and loops or couplings has no independent-coordinate "
                          "linearisation yet (its modes: mechdyn modes)");
  if (q.size() != model.nq || !q.allFinite() || v.size() != nv || !v.allFinite())
    throw InvalidArgument("linearize: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                          std::to_string(nv) + " finite numbers");
  if (options.efforts.size() != 0 && (options.efforts.size() != nv || !options.efforts.allFinite()))
    throw InvalidArgument("linearize: the efforts must hold nv = " + std::to_string(nv) + " finite numbers (or none)");
  FlexibleLinearisation out;
  const VecX none;
  flexible_kinematics(model, system, data, q, v);
  flexible_mass_matrix(model, system, data, q);
  flexible_bias_force(model, system, data, q, v, none, options.time);
  out.mass = data.mass_matrix;
  VecX rhs = -data.bias_force;
  if (options.efforts.size() > 0) rhs += options.efforts;
  const Eigen::LLT<MatX> llt(out.mass);
  if (llt.info() != Eigen::Success) throw SolverError("linearize: the mass matrix is not positive definite");
  out.acceleration = llt.solve(rhs);
  const VecX efforts = options.efforts.size() > 0 ? options.efforts : VecX(VecX::Zero(nv));
  const detail::ResidualInputs inputs{options.time, &efforts};
  detail::dynamic_tangents(model, system, data, q, v, out.acceleration, VecX(), inputs, options.step, out.stiffness,
                           out.damping);
  return out;
}

std::vector<std::string> elastic_coordinate_names(const Model& model) {
  static const char* const components[6] = {"ux", "uy", "uz", "thx", "thy", "thz"};
  std::vector<std::string> out;
  for (const Body& body : model.bodies) {
    if (!body.flexible) continue;
    const int ne = body.flexible->num_elastic();
    for (int k = 0; k < ne; ++k) {
      if (body.flexible->modes > 0) out.push_back(body.name + "_m" + std::to_string(k + 1));
      else out.push_back(body.name + "_n" + std::to_string(k / 6 + 2) + "_" + components[k % 6]);
    }
  }
  return out;
}

}  // namespace mechdyn
