// The dimensionless closure Jacobian. See the header.
#include "mechdyn/mobility/scaled_closure_jacobian.hpp"

#include <algorithm>

#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/screw/twist_wrench.hpp"

namespace mechdyn {

ScrewScale mechanism_scale(const Model& model, const Data& data) {
  std::vector<Vec3> points;
  for (int b = 0; b < model.num_bodies(); ++b) {
    points.push_back(data.position[b]);
    points.push_back(data.com_position[b]);
  }
  for (const Loop& loop : model.loops) {
    points.push_back(point_position(data, loop.a));
    points.push_back(point_position(data, loop.b));
  }
  ScrewScale scale;
  if (points.empty()) return scale;
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& p : points) centroid += p;
  centroid /= static_cast<double>(points.size());
  double largest = 0.0;
  for (const Vec3& p : points) largest = std::max(largest, (p - centroid).norm());
  scale.reference_point = centroid;
  scale.length = largest > 0.0 ? largest : 1.0;
  return scale;
}

ScaledClosureJacobian scaled_closure_jacobian(const Model& model, Data& data) {
  ScaledClosureJacobian out;
  out.scale = mechanism_scale(model, data);
  ScrewSystem metric(ScrewKind::Twist, out.scale);  // only its scaled_norm is used
  const double length = out.scale.length;
  out.column_scale = VecX::Ones(model.nv);
  for (int k = 0; k < model.nv; ++k) {
    const double norm = metric.scaled_norm(Twist::from_motion_vector(data.motion_axis[k]).plucker);
    if (norm > 0.0) out.column_scale[k] = 1.0 / norm;
  }
  const int rows = model.num_loop_rows;
  out.row_scale = VecX::Ones(rows);
  if (rows > 0) {
    loop_row_wrenches(model, data);
    for (int r = 0; r < rows; ++r) {
      const double norm = std::max(metric.scaled_norm(Wrench::from_spatial_force(data.loop_row_wrench_a[r]).plucker),
                                   metric.scaled_norm(Wrench::from_spatial_force(data.loop_row_wrench_b[r]).plucker));
      if (norm > 0.0) out.row_scale[r] = length / norm;
    }
  }
  out.matrix = out.row_scale.asDiagonal() * data.loop_jacobian * out.column_scale.asDiagonal();
  return out;
}

}  // namespace mechdyn
