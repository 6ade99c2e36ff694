// The constant system structures (FlexibleSystem) and the workspace (FlexibleSystemData)
// of mechanisms with flexible bodies (flexible/flexible_system.hpp): built once per Model.
// Cost: make_flexible_body per flexible body (element integrals, modal reduction); the
// workspace is sized here so that evaluation allocates nothing.
#include "mechdyn/flexible/flexible_system.hpp"

#include <algorithm>

#include "mechdyn/errors.hpp"

namespace mechdyn {
namespace {

// Locates `point` on flexible body `body` (model index); ModelError names `element`.
int add_point(const Model& model, FlexibleSystem& system, int body, const Vec3& point, const std::string& element) {
  if (body == kGround || system.flexible_of[body] < 0) return -1;
  const int f = system.flexible_of[body];
  try {
    system.points.push_back(make_beam_point(system.bodies[f], point));
  } catch (const ModelError& e) {
    throw ModelError(model.name + ": " + element + ": " + e.what());
  }
  system.point_body.push_back(f);
  return static_cast<int>(system.points.size()) - 1;
}

}  // namespace

FlexibleSystem make_flexible_system(const Model& model) {
  FlexibleSystem system;
  const int n = model.num_bodies();
  system.flexible_of.assign(n, -1);
  system.rigid_inertia.assign(n, Mat6::Zero());
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    if (body.flexible) {
      system.flexible_of[i] = static_cast<int>(system.bodies.size());
      system.bodies.push_back(make_flexible_body(body));
      system.body_of.push_back(i);
    } else {
      system.rigid_inertia[i] = SpatialInertia::from_com(body.mass, body.com, body.inertia).matrix();
    }
  }
  system.joint_point.assign(n, -1);
  for (int i = 0; i < n; ++i)
    system.joint_point[i] =
        add_point(model, system, model.bodies[i].parent, model.joints[i].origin, "joint '" + model.joints[i].name + "'");
  for (const Loop& loop : model.loops) {
    system.loop_point_a.push_back(add_point(model, system, loop.a.body, loop.a.point, "loop '" + loop.name + "'"));
    system.loop_point_b.push_back(add_point(model, system, loop.b.body, loop.b.point, "loop '" + loop.name + "'"));
  }
  for (const Marker& marker : model.markers)
    system.marker_point.push_back(add_point(model, system, marker.at.body, marker.at.point, "marker '" + marker.name + "'"));
  for (const ForceElement& e : model.forces) {  // joint elements have no points; an applied load only a
    const bool points = !is_joint_element(e.type);
    system.force_point_a.push_back(points ? add_point(model, system, e.a.body, e.a.point, "force '" + e.name + "'") : -1);
    system.force_point_b.push_back(points && e.type != ForceElementType::Applied
                                       ? add_point(model, system, e.b.body, e.b.point, "force '" + e.name + "'")
                                       : -1);
  }
  // The columns each body depends on (bodies come after their parents: model order).
  system.body_columns.assign(n, {});
  for (int i = 0; i < n; ++i) {
    std::vector<int>& columns = system.body_columns[i];
    const int parent = model.bodies[i].parent;
    // the parent's columns (a flexible parent's include its elastic ones: the section we sit on)
    if (parent != kGround) columns = system.body_columns[static_cast<std::size_t>(parent)];
    for (int k = 0; k < model.joints[i].nv; ++k) columns.push_back(model.joints[i].v_index + k);
    if (system.flexible_of[i] >= 0) {
      const int first = system.elastic_velocity_index(model, i);
      for (int k = 0; k < system.bodies[static_cast<std::size_t>(system.flexible_of[i])].num_elastic; ++k)
        columns.push_back(first + k);
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  }
  return system;
}

FlexibleSystemData::FlexibleSystemData(const Model& model, const FlexibleSystem& system) {
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  const Eigen::Index nv = model.nv;
  rotation.assign(n, Mat3::Identity());
  position.assign(n, Vec3::Zero());
  mount_rotation.assign(n, Mat3::Identity());
  jacobian.assign(n, Mat6X::Zero(6, nv));
  body_jacobian.resize(n);
  int largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int f = system.flexible_of[i];
    const int ne = f < 0 ? 0 : system.bodies[static_cast<std::size_t>(f)].num_elastic;
    largest = std::max(largest, ne);
    body_jacobian[i] = MatX::Zero(6 + ne, nv);
  }
  velocity.assign(n, Vec6::Zero());
  bias_acceleration.assign(n, Vec6::Zero());
  marker_position.assign(model.markers.size(), Vec3::Zero());
  point.reserve(system.points.size());
  for (std::size_t k = 0; k < system.points.size(); ++k)
    point.emplace_back(system.bodies[static_cast<std::size_t>(system.point_body[k])]);
  body.reserve(system.bodies.size());
  for (const FlexibleBody& b : system.bodies) body.emplace_back(b);
  body_vector = VecX::Zero(6 + largest);
  body_acceleration = VecX::Zero(6 + largest);
  body_product = MatX::Zero(6 + largest, nv);
  std::size_t widest = 0;
  for (const std::vector<int>& columns : system.body_columns) widest = std::max(widest, columns.size());
  const Eigen::Index width = static_cast<Eigen::Index>(widest);
  compact_jacobian = MatX::Zero(6 + largest, width);
  compact_product = MatX::Zero(6 + largest, width);
  compact_block = MatX::Zero(width, width);

  mass_matrix = MatX::Zero(nv, nv);
  bias_force = VecX::Zero(nv);
  mass_product = VecX::Zero(nv);
  applied_force = VecX::Zero(nv);
  const Eigen::Index rows = model.num_loop_rows;
  loop_residual = VecX::Zero(rows);
  loop_jacobian = MatX::Zero(rows, nv);
  loop_bias = VecX::Zero(rows);
  loop_wrench_a.assign(static_cast<std::size_t>(rows), Vec6::Zero());
  loop_wrench_b.assign(static_cast<std::size_t>(rows), Vec6::Zero());
  side_jacobian_a = Mat6X::Zero(6, nv);
  side_jacobian_b = Mat6X::Zero(6, nv);

  // Force elements: results, and one set of time functions per element (servo, applied).
  const std::size_t ne = model.forces.size();
  element_force = VecX::Zero(nv);
  element_value = VecX::Zero(static_cast<Eigen::Index>(ne));
  element_energy = VecX::Zero(static_cast<Eigen::Index>(ne));
  element_length = VecX::Zero(static_cast<Eigen::Index>(ne));
  element_wrench_a.assign(ne, Vec6::Zero());
  element_wrench_b.assign(ne, Vec6::Zero());
  element_point_a.assign(ne, Vec3::Zero());
  element_point_b.assign(ne, Vec3::Zero());
  element_functions.resize(ne);
  for (std::size_t i = 0; i < ne; ++i) {
    const ForceElement& e = model.forces[i];
    if (e.type == ForceElementType::JointServo) {
      std::vector<std::string> functions{e.target};
      if (!e.target_rate.empty()) functions.push_back(e.target_rate);
      element_functions[i].emplace(functions, "force '" + e.name + "'");
    } else if (e.type == ForceElementType::Applied) {
      element_functions[i].emplace(std::vector<std::string>{e.force[0], e.force[1], e.force[2], e.torque[0],
                                                            e.torque[1], e.torque[2]},
                                   "force '" + e.name + "'");
    }
  }
  element_function_values = VecX::Zero(6);
  element_function_ahead = VecX::Zero(6);
  element_function_behind = VecX::Zero(6);
  const Eigen::Index tangent = ne > 0 ? nv : 0;
  element_stiffness = MatX::Zero(tangent, tangent);
  element_damping = MatX::Zero(tangent, tangent);
  element_jacobian_a = Mat6X::Zero(6, nv);
  element_jacobian_b = Mat6X::Zero(6, nv);
}

}  // namespace mechdyn
