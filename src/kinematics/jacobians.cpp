// Body and point Jacobians (EC eqs. 13–15). See the header.
#include "mechdyn/kinematics/jacobians.hpp"

#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {
void check(const Model& model, const Data& data, int body, const Eigen::Ref<MatX>& jacobian, Eigen::Index rows,
           const char* function) {
  check_data(model, data, function);
  check_kinematics(data, 0, function);
  if (body != kGround && (body < 0 || body >= model.num_bodies()))
    throw InvalidArgument("jacobian: body index " + std::to_string(body) + " is out of range");
  if (jacobian.rows() != rows || jacobian.cols() != model.nv)
    throw InvalidArgument("jacobian: output is " + std::to_string(jacobian.rows()) + " x " +
                          std::to_string(jacobian.cols()) + ", needs " + std::to_string(rows) + " x " +
                          std::to_string(model.nv));
}
}  // namespace

void point_jacobian(const Model& model, const Data& data, int body, const Vec3& point, Eigen::Ref<MatX> jacobian) {
  check(model, data, body, jacobian, 3, "point_jacobian");
  jacobian.setZero();
  if (body == kGround) return;
  const Vec3 p = data.position[body] + data.rotation[body] * point;
  for (int b = body; b != kGround; b = model.bodies[b].parent) {
    const Joint& joint = model.joints[b];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& s = data.motion_axis[k];
      jacobian.col(k) = s.tail<3>() + s.head<3>().cross(p);  // ñ_k r^{k}_S (eq. 13) or n_k (eq. 14)
    }
  }
}

void body_jacobian(const Model& model, const Data& data, int body, Eigen::Ref<MatX> jacobian) {
  check(model, data, body, jacobian, 6, "body_jacobian");
  jacobian.setZero();
  if (body == kGround) return;
  const Vec3& origin = data.position[body];
  for (int b = body; b != kGround; b = model.bodies[b].parent) {
    const Joint& joint = model.joints[b];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& s = data.motion_axis[k];
      jacobian.col(k).head<3>() = s.head<3>();                            // ∂ϕ̇/∂q̇_k = n_k (eq. 15)
      jacobian.col(k).tail<3>() = s.tail<3>() + s.head<3>().cross(origin);  // eqs. (13), (14)
    }
  }
}

Vec3 point_position(const Data& data, const BodyPoint& point) {
  if (point.body == kGround) return point.point;
  return data.position[point.body] + data.rotation[point.body] * point.point;
}

void marker_positions(const Model& model, const Data& data, std::vector<Vec3>& positions) {
  check_data(model, data, "marker_positions");
  check_kinematics(data, 0, "marker_positions");
  positions.resize(model.markers.size());
  for (std::size_t i = 0; i < model.markers.size(); ++i) positions[i] = point_position(data, model.markers[i].at);
}

}  // namespace mechdyn
