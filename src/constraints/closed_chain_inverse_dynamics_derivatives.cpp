// Derivatives of closed-chain inverse dynamics with respect to the actuated coordinates
// (docs/derivatives.md eqs. D17–D22). See the header for the equations, what is
// analytical and what is a directional centred difference of the closure kinematics.
//
// Reads: Model, q, v, a (actuated parts), t (force elements), data.external_wrench (must
// be zero without force elements; with them it is the elements', recomputed here).
// Writes: work's results and scratch; q, v, a completed and Data as
// closed_chain_inverse_dynamics leaves it (with the force elements at the completed
// state), then Data's kinematics stage, loop_* and mass_matrix scratch. Allocates nothing
// once Data holds its dense groups.
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

constexpr const char* kFunction = "closed_chain_inverse_dynamics_derivatives";
// Centred-difference step along a unit tangent: ε^(1/3) balances truncation h²|f'''|/6
// against rounding ε|f|/h (relative error ~ ε^(2/3) ≈ 4e-11 per unit of scale).
constexpr double kClosureStep = 6e-6;

std::string number(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

// x = K r: passive rows J_p⁺ r (minimum-norm least squares, data.passive_svd at q), zero
// actuated rows. `r` must not alias data's solver scratch.
void passive_solve(Data& data, const VecX& r, VecX& passive_scratch, VecX& x, double tolerance) {
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  x.setZero();
  if (np == 0) return;
  data.passive_svd.solve_min_norm(r, passive_scratch.head(np), tolerance);
  for (Eigen::Index c = 0; c < np; ++c) x[data.passive_dofs[c]] = passive_scratch[c];
}

// ∂(J̇v)/∂v · u into `out` by polarisation: J̇v = c(q, v) is a quadratic form in v, so
// c(v + s u) − c(v − s u) = 2 s ∂c/∂v · u exactly (eq. D20); s scales s u to |v|.
void bias_velocity_derivative(const Model& model, Data& data, ClosedChainDerivativeData& work,
                              const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, const VecX& u,
                              VecX& out) {
  const double size = u.lpNorm<Eigen::Infinity>();
  if (size == 0.0) {
    out.setZero();
    return;
  }
  const double s = std::max(1.0, v.lpNorm<Eigen::Infinity>()) / size;
  work.v_plus = v + s * u;
  work.v_minus = v - s * u;
  out = loop_bias_acceleration(model, data, q, work.v_plus);
  out -= loop_bias_acceleration(model, data, q, work.v_minus);
  out /= 2.0 * s;
}

}  // namespace

ClosedChainDerivativeData::ClosedChainDerivativeData(const Model& model) : tree(model) {
  nv = model.nv;
  nq = model.nq;
  rows = model.num_loop_rows;
  int np = 0;
  for (const Joint& joint : model.joints)
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      if (joint.actuated) coordinates.push_back(k);
      else ++np;
    }
  const Eigen::Index na = static_cast<Eigen::Index>(coordinates.size());
  tau = VecX::Zero(na);
  dtau_dq = MatX::Zero(na, na);
  dtau_dv = MatX::Zero(na, na);
  dtau_da = MatX::Zero(na, na);
  coordinate_map = MatX::Zero(nv, na);
  mass = MatX::Zero(nv, nv);
  jacobian_direction = MatX::Zero(rows, nv);
  multiplier = VecX::Zero(rows);
  bias_direction = VecX::Zero(rows);
  bias_velocity = VecX::Zero(rows);
  row_scratch = VecX::Zero(rows);
  passive_scratch = VecX::Zero(std::max(np, rows));
  q_plus = VecX::Zero(nq);
  q_minus = VecX::Zero(nq);
  v_plus = VecX::Zero(nv);
  v_minus = VecX::Zero(nv);
  tangent = VecX::Zero(nv);
  velocity_change = VecX::Zero(nv);
  acceleration_change = VecX::Zero(nv);
  tree_change = VecX::Zero(nv);
  nv_scratch = VecX::Zero(nv);
  mass_map = MatX::Zero(nv, na);
  if (model.has_force_elements) {
    element_dq = MatX::Zero(nv, nv);
    element_dv = MatX::Zero(nv, nv);
  }
}

void closed_chain_inverse_dynamics_derivatives(const Model& model, Data& data, ClosedChainDerivativeData& work,
                                               Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a,
                                               const ClosedChainOptions& options) {
  closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a, 0.0, options);
}

void closed_chain_inverse_dynamics_derivatives(const Model& model, Data& data, ClosedChainDerivativeData& work,
                                               Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a, double t,
                                               const ClosedChainOptions& options) {
  check_data(model, data, kFunction);
  check_derivative_data(model, work.tree, kFunction);
  if (work.nv != model.nv || work.nq != model.nq || work.rows != model.num_loop_rows ||
      work.coordinates != data.actuated_dofs)
    throw InvalidArgument(std::string(kFunction) + ": the ClosedChainDerivativeData was made for another model");
  const Eigen::Index na = static_cast<Eigen::Index>(work.coordinates.size());
  const Eigen::Index np = static_cast<Eigen::Index>(data.passive_dofs.size());
  if (model.num_loop_rows > 0 && np == 0)
    throw InvalidArgument(std::string(kFunction) + ": model '" + model.name +
                          "' has " + model.constraint_kinds() + " but no passive joint: mark the passive joints actuated: false");
  if (na == 0)
    throw InvalidArgument(std::string(kFunction) + ": model '" + model.name +
                          "' has no actuated joint: there is no independent coordinate to differentiate with respect to");
  const bool elements = model.has_force_elements;
  if (elements && !std::isfinite(t))
    throw InvalidArgument(std::string(kFunction) + ": the time t of the force elements is not finite");
  for (int b = 0; b < model.num_bodies() && !elements; ++b)
    if (!data.external_wrench[b].isZero(0.0))
      throw InvalidArgument(std::string(kFunction) + ": body '" + model.bodies[b].name +
                            "' carries an external wrench (data.external_wrench); its derivative is not implemented");
  const double tolerance = options.assembly.singular_tolerance;

  // τ_a, λ and the completed state (assembly, v_p, a_p; EC eqs. 23–27).
  closed_chain_inverse_dynamics(model, data, q, v, a, options);
  if (elements) {
    // The force elements at the completed state (their wrenches and joint efforts, which the
    // inverse dynamics reads as applied loads), then τ_a, λ again with them: q is assembled,
    // so the assembly returns at once and the passive motion is the same. ∂Q_f/∂q, ∂Q_f/∂v
    // on the stage the inverse dynamics leaves at (q, v) (exact, force_element_derivatives).
    force_elements(model, data, q, v, t);
    closed_chain_inverse_dynamics(model, data, q, v, a, options);
    work.element_dq.setZero();
    work.element_dv.setZero();
    force_element_derivatives(model, data, q, v, work.element_dq, work.element_dv);
  }
  for (Eigen::Index c = 0; c < na; ++c) work.tau[c] = data.tau[work.coordinates[c]];
  work.multiplier = data.loop_multiplier;

  // G = ∂q/∂q_a (D17): J at q, J_p factorised; redundant actuation shows as J G ≠ 0.
  loop_closure(model, data, q);
  if (np > 0 && !factor_passive_jacobian(model, data, tolerance))
    throw SolverError(std::string(kFunction) + ": singular configuration: the passive coordinates are not determined "
                      "by the actuated ones (J_p loses column rank)");
  work.coordinate_map.setZero();
  for (Eigen::Index c = 0; c < na; ++c) {
    const int k = work.coordinates[c];
    work.coordinate_map(k, c) = 1.0;
    if (np == 0) continue;
    work.row_scratch = -data.loop_jacobian.col(k);
    passive_solve(data, work.row_scratch, work.passive_scratch, work.tangent, tolerance);
    work.coordinate_map.col(c) += work.tangent;
    work.row_scratch.noalias() = data.loop_jacobian * work.coordinate_map.col(c);
    const double scale = 1.0 + data.loop_jacobian.col(k).norm();
    if (work.row_scratch.norm() > 1e-8 * scale)
      throw InvalidArgument(std::string(kFunction) + ": redundant actuation in model '" + model.name +
                            "': the actuated coordinates are not independent (moving coordinate " +
                            std::to_string(k) + " alone violates the closure by " + number(work.row_scratch.norm()) +
                            "), so a derivative with respect to each of them is not defined");
  }

  // The spanning tree: ∂τ/∂q, ∂τ/∂v (analytical) and M = ∂τ/∂a at the completed state.
  work.mass = crba(model, data, q);
  rnea_derivatives(model, data, work.tree, q, v, a);
  if (elements) {  // τ_tree − Q_f in (D18)–(D21): its partials ∂τ/∂q − ∂Q_f/∂q, ∂τ/∂v − ∂Q_f/∂v (D21')
    work.tree.dtau_dq -= work.element_dq;
    work.tree.dtau_dv -= work.element_dv;
  }
  work.mass_map.noalias() = work.mass * work.coordinate_map;
  work.dtau_da.noalias() = work.coordinate_map.transpose() * work.mass_map;  // (D19)

  for (Eigen::Index c = 0; c < na; ++c) {
    // ---- ∂/∂v_a (D20): u = G e_c, δa = −K ∂(J̇v)/∂v u -------------------------------
    work.tangent = work.coordinate_map.col(c);
    bias_velocity_derivative(model, data, work, q, v, work.tangent, work.bias_velocity);
    work.row_scratch = -work.bias_velocity;
    passive_solve(data, work.row_scratch, work.passive_scratch, work.acceleration_change, tolerance);
    work.tree_change.noalias() = work.tree.dtau_dv * work.tangent;
    work.tree_change.noalias() += work.mass * work.acceleration_change;
    work.dtau_dv.col(c).noalias() = work.coordinate_map.transpose() * work.tree_change;

    // ---- ∂/∂q_a (D21, D22): w = G e_c -----------------------------------------------
    const double h = kClosureStep / std::max(1.0, work.tangent.lpNorm<Eigen::Infinity>());
    loop_closure(model, data, q);  // the stage at q, for q ⊕ ±h w
    work.q_plus = q;
    work.q_minus = q;
    work.nv_scratch = h * work.tangent;
    apply_velocity_increment(model, data, work.q_plus, work.nv_scratch);
    work.nv_scratch = -h * work.tangent;
    apply_velocity_increment(model, data, work.q_minus, work.nv_scratch);
    work.bias_direction = loop_bias_acceleration(model, data, work.q_plus, v);
    loop_closure_from_kinematics(model, data);
    work.jacobian_direction = data.loop_jacobian;
    work.bias_direction -= loop_bias_acceleration(model, data, work.q_minus, v);
    loop_closure_from_kinematics(model, data);
    work.jacobian_direction -= data.loop_jacobian;
    work.jacobian_direction /= 2.0 * h;  // ∂J/∂q · w
    work.bias_direction /= 2.0 * h;      // ∂(J̇v)/∂q · w
    // δv = −K (∂J/∂q·w) v   (J v = 0 differentiated, v_a held)
    work.row_scratch.noalias() = -work.jacobian_direction * v;
    passive_solve(data, work.row_scratch, work.passive_scratch, work.velocity_change, tolerance);
    // δa = −K ((∂J/∂q·w) a + ∂(J̇v)/∂q·w + ∂(J̇v)/∂v δv)   (J a + J̇v = 0 differentiated, a_a held)
    bias_velocity_derivative(model, data, work, q, v, work.velocity_change, work.bias_velocity);
    work.row_scratch.noalias() = -work.jacobian_direction * a;
    work.row_scratch -= work.bias_direction;
    work.row_scratch -= work.bias_velocity;
    passive_solve(data, work.row_scratch, work.passive_scratch, work.acceleration_change, tolerance);
    // δτ_tree − (∂J/∂q·w)ᵀ λ, then Gᵀ (D21)
    work.tree_change.noalias() = work.tree.dtau_dq * work.tangent;
    work.tree_change.noalias() += work.tree.dtau_dv * work.velocity_change;
    work.tree_change.noalias() += work.mass * work.acceleration_change;
    work.tree_change.noalias() -= work.jacobian_direction.transpose() * work.multiplier;
    work.dtau_dq.col(c).noalias() = work.coordinate_map.transpose() * work.tree_change;
  }
  if (!work.dtau_dq.allFinite() || !work.dtau_dv.allFinite() || !work.dtau_da.allFinite())
    throw SolverError(std::string(kFunction) + ": non-finite derivative in model '" + model.name +
                      "' (a singular configuration)");
}

}  // namespace mechdyn
