// Kinematics of a point on a deformed beam relative to the floating frame
// (flexible/beam_point.hpp). Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (1), (3):
// r_k = r_0 + R (ξ_0 + N q_f); the section rotation by the exponential map of θ = N_θ e
// (math/rotation_vector.hpp). Cost: O(12 · n_e) per call; no allocation.
#include "mechdyn/flexible/beam_point.hpp"

#include <algorithm>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {
namespace {

// The element's 12 nodal values of a vector of elastic coordinates x (n_e): nodal entries
// directly, modal ones through Φ's rows; node 1's entries are zero (clamped).
Eigen::Matrix<double, 12, 1> element_values(const FlexibleBody& body, int element, const Eigen::Ref<const VecX>& x) {
  Eigen::Matrix<double, 12, 1> q;
  const bool modal = body.modal_basis.size() > 0;
  for (int a = 0; a < 12; ++a) {
    const int i = body.nodal_index(element, a);
    q(a) = i < 0 ? 0.0 : (modal ? body.modal_basis.row(i).dot(x) : x(i));
  }
  return q;
}

// out = Σ_a shape.col(a) ⊗ (row of the elastic coordinates of element DOF a), 3 x n_e.
void scatter(const FlexibleBody& body, int element, const Mat3x12& shape, Mat3X& out) {
  out.setZero();
  const bool modal = body.modal_basis.size() > 0;
  for (int a = 0; a < 12; ++a) {
    const int i = body.nodal_index(element, a);
    if (i < 0) continue;
    if (modal) out.noalias() += shape.col(a) * body.modal_basis.row(i);
    else out.col(i) += shape.col(a);
  }
}

}  // namespace

BeamPoint make_beam_point(const FlexibleBody& body, const Vec3& point) {
  const FlexibleBeam& beam = body.beam;
  if (const std::optional<std::string> problem = beam_point_problem(beam, point))
    throw ModelError("flexible body: point: " + *problem);
  BeamPoint p;
  p.arclength = std::clamp(beam.direction.dot(point), 0.0, beam.length);
  p.element = std::min(static_cast<int>(p.arclength / body.element_length), beam.elements - 1);
  p.xi = std::clamp(p.arclength / body.element_length - p.element, 0.0, 1.0);
  p.offset = point - p.arclength * beam.direction;
  p.on_axis = p.offset.norm() <= kBeamPointTolerance;
  if (p.on_axis) p.offset.setZero();
  return p;
}

BeamPointKinematics::BeamPointKinematics(const FlexibleBody& body)
    : position_jacobian(Mat3X::Zero(3, body.num_elastic)), rotation_jacobian(Mat3X::Zero(3, body.num_elastic)) {
  shape.setZero();
  rotation_shape.setZero();
}

void beam_point_kinematics(const FlexibleBody& body, const BeamPoint& point, const Eigen::Ref<const VecX>& e,
                           BeamPointKinematics& out) {
  Mat3x12 local_shape, local_rotation;
  beam_shape_functions(point.xi, body.element_length, local_shape, local_rotation);
  const Mat3& c = body.section_axes;
  // Body components in and out: N_body = C N_local diag(Cᵀ, Cᵀ, Cᵀ, Cᵀ) (beam_assembly.hpp).
  for (int b = 0; b < 4; ++b) {
    out.shape.block<3, 3>(0, 3 * b).noalias() = c * local_shape.block<3, 3>(0, 3 * b) * c.transpose();
    out.rotation_shape.block<3, 3>(0, 3 * b).noalias() = c * local_rotation.block<3, 3>(0, 3 * b) * c.transpose();
  }
  const Eigen::Matrix<double, 12, 1> q = element_values(body, point.element, e);
  out.rotation_vector.noalias() = out.rotation_shape * q;  // θ = N_θ e
  out.rotation = rotation_vector_exp(out.rotation_vector);
  const Mat3 jacobian = rotation_vector_jacobian(out.rotation_vector);
  const Vec3 carried = out.rotation * point.offset;  // Λ o
  out.position = point.arclength * body.beam.direction + out.shape * q + carried;

  scatter(body, point.element, out.rotation_shape, out.rotation_jacobian);  // N_θ
  for (Eigen::Index j = 0; j < out.rotation_jacobian.cols(); ++j) {
    const Vec3 column = jacobian * out.rotation_jacobian.col(j);  // J(θ) N_θ
    out.rotation_jacobian.col(j) = column;
  }
  scatter(body, point.element, out.shape, out.position_jacobian);  // N
  if (!point.on_axis) {
    for (Eigen::Index j = 0; j < out.position_jacobian.cols(); ++j)  // − (Λ o)~ J N_θ
      out.position_jacobian.col(j) -= carried.cross(out.rotation_jacobian.col(j));
  }
}

void beam_point_velocity_product(const FlexibleBody& body, const BeamPoint& point,
                                 const Eigen::Ref<const VecX>& elastic_velocity, BeamPointKinematics& out) {
  const Eigen::Matrix<double, 12, 1> q_rate = element_values(body, point.element, elastic_velocity);
  const Vec3 theta_rate = out.rotation_shape * q_rate;  // θ̇ = N_θ ė
  out.rotation_bias = rotation_vector_jacobian_rate(out.rotation_vector, theta_rate);  // J̇ θ̇
  if (point.on_axis) {
    out.position_bias.setZero();
    return;
  }
  const Vec3 relative = rotation_vector_jacobian(out.rotation_vector) * theta_rate;  // ω_rel
  const Vec3 carried = out.rotation * point.offset;
  out.position_bias = relative.cross(relative.cross(carried)) + out.rotation_bias.cross(carried);
}

}  // namespace mechdyn
