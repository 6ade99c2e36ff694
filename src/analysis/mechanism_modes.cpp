// Vibration modes of a rigid mechanism about its equilibrium or a given state, the
// constraints eliminated by coordinate partitioning (analysis/mechanism_equilibrium.hpp).
//
// On the free independent coordinates F: M_F δq̈ + C_F δq̇ + K_F δq = 0 with
// M_F = (Gᵀ M G)_FF, C_F = (∂τ_I/∂v_I)_FF, K_F = (∂τ_I/∂q_I − ∂(Gᵀτ)/∂q_I)_FF
// (analysis/reduced_dynamics.hpp). Undamped: (sym K_F) z = ω² M_F z by Eigen's
// GeneralizedSelfAdjointEigenSolver, each ω² then recomputed as the Rayleigh quotient
// zᵀ K z / zᵀ M z (second-order accurate in z: a mechanism motion's ω² stays ~1e-16
// instead of the solver's ε ‖M⁻¹K‖). With damping, the eigenvalues λ of the first-order
// matrix [[A_qq, 1], [−M_F⁻¹ K_F, −M_F⁻¹ C_F]] (Eigen's EigenSolver; A_qq the tangent's
// kinematic term, zero at rest). Cost O(n_F³) after the reduced derivatives.
#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "flexible_dispatch.hpp"
#include "partition_helpers.hpp"

namespace mechdyn {

namespace {

bool model_has_damping(const Model& model) {
  for (const ForceElement& e : model.forces) {
    if (e.damping > 0.0) return true;
    if (e.type == ForceElementType::Bushing && e.damping6.cwiseAbs().maxCoeff() > 0.0) return true;
  }
  return false;
}

}  // namespace

MechanismModes mechanism_modes(const Model& model, const Eigen::Ref<const VecX>& q_start, const ModesOptions& options) {
  if (options.equilibrium.friction == FrictionTreatment::ViscousOnly && has_joint_friction(model)) {
    ModesOptions rest = options;
    rest.equilibrium.friction = FrictionTreatment::Refuse;
    return mechanism_modes(viscous_friction_model(model), q_start, rest);
  }
  if (detail::has_flexible_bodies(model)) return detail::flexible_modes(model, q_start, options);
  MechanismModes result;
  result.threshold = options.threshold;
  const EquilibriumOptions& eq = options.equilibrium;
  const std::vector<int> locked = detail::held_joints(model, eq.lock_actuated);
  for (int j : locked) result.locked.push_back(model.joints[static_cast<std::size_t>(j)].name);
  VecX q, v = VecX::Zero(model.nv);
  if (options.at_state) {
    if (q_start.size() != model.nq || !q_start.allFinite())
      throw InvalidArgument("modes: q must hold nq = " + std::to_string(model.nq) + " finite numbers");
    if (options.v.size() != 0) {
      if (options.v.size() != model.nv || !options.v.allFinite())
        throw InvalidArgument("modes: v must hold nv = " + std::to_string(model.nv) + " finite numbers");
      v = options.v;
    }
    q = detail::assembled_start(model, q_start, eq.assembly);
    result.free_joints = choose_independent_joints(model, q, eq.independent, locked);
  } else {
    const MechanismEquilibrium equilibrium = mechanism_equilibrium(model, q_start, eq);
    q = equilibrium.q;
    result.free_joints = equilibrium.free_joints;
  }
  if (result.free_joints.empty()) {  // nothing free: no mode (every joint held, or a structure)
    result.q = q;
    result.v = v;
    result.shapes.resize(model.nv, 0);
    return result;
  }
  std::vector<int> independent = result.free_joints;
  independent.insert(independent.end(), locked.begin(), locked.end());
  std::sort(independent.begin(), independent.end());
  ReducedDynamicsOptions reduced;
  reduced.time = eq.time;
  reduced.tau = eq.tau;
  reduced.at_rest = !options.at_state;
  reduced.assembly = eq.assembly;
  const ReducedDynamics rd = reduced_dynamics(model, q, v, independent, reduced);
  result.q = rd.q;
  result.v = rd.v;
  const std::vector<int> free_coordinates = joint_coordinates(model, result.free_joints);
  const std::vector<Eigen::Index> free = detail::positions_of(rd.coordinates, free_coordinates);
  const Eigen::Index nf = static_cast<Eigen::Index>(free.size());
  if (nf == 0) return result;
  const MatX stiffness = detail::restrict(MatX(rd.stiffness + rd.effort_stiffness), free, free);
  const MatX damping = detail::restrict(rd.damping, free, free);
  const MatX mass = detail::restrict(rd.mass, free, free);
  MatX map(model.nv, nf);  // G restricted to the free columns
  for (Eigen::Index c = 0; c < nf; ++c) map.col(c) = rd.coordinate_map.col(free[static_cast<std::size_t>(c)]);

  // ---- undamped: (sym K) z = ω² M z ----
  const MatX symmetric = 0.5 * (stiffness + stiffness.transpose());
  const MatX mass_symmetric = 0.5 * (mass + mass.transpose());
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(symmetric, mass_symmetric);
  if (eigen.info() != Eigen::Success)
    throw SolverError("modes: the eigenproblem failed (the reduced mass matrix is not positive definite)");
  const MatX& vectors = eigen.eigenvectors();
  const double two_pi = 2.0 * std::acos(-1.0);
  const double zero_eigenvalue = std::pow(two_pi * options.threshold, 2);
  std::vector<std::pair<double, Eigen::Index>> modes;
  for (Eigen::Index k = 0; k < vectors.cols(); ++k) {
    const VecX z = vectors.col(k);
    const double lambda = z.dot(symmetric * z) / z.dot(mass_symmetric * z);  // Rayleigh quotient
    if (std::abs(lambda) < zero_eigenvalue) ++result.zero_modes;
    else if (lambda < 0.0) ++result.unstable_modes;
    else modes.emplace_back(std::sqrt(lambda) / two_pi, k);
  }
  std::sort(modes.begin(), modes.end());
  result.shapes.resize(model.nv, static_cast<Eigen::Index>(modes.size()));
  Data data(model);
  forward_kinematics(model, data, result.q);
  std::vector<MatX> marker_jacobians;
  for (const Marker& marker : model.markers) {
    MatX jacobian = MatX::Zero(3, model.nv);
    point_jacobian(model, data, marker.at.body, marker.at.point, jacobian);
    marker_jacobians.push_back(jacobian);
  }
  for (std::size_t k = 0; k < modes.size(); ++k) {
    VecX z = vectors.col(modes[k].second);
    z /= std::sqrt(z.dot(mass_symmetric * z));
    // a deterministic sign: the largest component positive
    Eigen::Index largest = 0;
    z.cwiseAbs().maxCoeff(&largest);
    if (z[largest] < 0.0) z = -z;
    result.frequencies.push_back(modes[k].first);
    result.shapes.col(static_cast<Eigen::Index>(k)) = map * z;
    std::vector<Vec3> markers;
    for (const MatX& jacobian : marker_jacobians) markers.push_back(Vec3(jacobian * result.shapes.col(static_cast<Eigen::Index>(k))));
    result.marker_shapes.push_back(markers);
  }

  // ---- damped: the first-order model's eigenvalues ----
  result.damped_model = model_has_damping(model) || !result.v.isZero(0.0);
  if (!result.damped_model) return result;
  const Eigen::LLT<MatX> llt(mass_symmetric);
  if (llt.info() != Eigen::Success) throw SolverError("modes: the reduced mass matrix is not positive definite");
  MatX first_order = MatX::Zero(2 * nf, 2 * nf);
  const MatX kinematic = tangent_kinematics_term(model, result.q, result.v, rd.coordinates, rd.coordinate_map);
  first_order.topLeftCorner(nf, nf) = detail::restrict(kinematic, free, free);
  first_order.topRightCorner(nf, nf).setIdentity();
  first_order.bottomLeftCorner(nf, nf) = -llt.solve(stiffness);
  first_order.bottomRightCorner(nf, nf) = -llt.solve(damping);
  const Eigen::EigenSolver<MatX> solver(first_order, false);
  if (solver.info() != Eigen::Success) throw SolverError("modes: the first-order eigenproblem failed");
  for (Eigen::Index k = 0; k < solver.eigenvalues().size(); ++k) result.eigenvalues.push_back(solver.eigenvalues()[k]);
  std::sort(result.eigenvalues.begin(), result.eigenvalues.end(),
            [](const std::complex<double>& a, const std::complex<double>& b) {
              if (std::abs(a.imag()) != std::abs(b.imag())) return std::abs(a.imag()) < std::abs(b.imag());
              if (a.real() != b.real()) return a.real() < b.real();
              return a.imag() < b.imag();
            });
  for (const std::complex<double>& lambda : result.eigenvalues) {
    const double magnitude = std::abs(lambda);
    // an oscillatory pair: Im λ > 0, above the threshold and above round-off of |λ|
    if (lambda.imag() > std::max(two_pi * options.threshold, 1e-9 * magnitude))
      result.damped.push_back({lambda.imag() / two_pi, -lambda.real() / magnitude + 0.0});  // + 0: no −0
  }
  std::sort(result.damped.begin(), result.damped.end(),
            [](const DampedMode& a, const DampedMode& b) { return a.frequency < b.frequency; });
  return result;
}

}  // namespace mechdyn
