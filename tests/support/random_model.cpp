#include "random_model.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn::testing {

namespace {
Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vec3 v(n(rng), n(rng), n(rng));
  return v.normalized();
}
Vec3 random_vec3(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}
}  // namespace

Model random_tree(unsigned seed, const RandomTreeOptions& options) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model model;
  model.name = "random_tree_" + std::to_string(seed);
  model.gravity = Vec3(0.3, -0.2, -9.81);
  for (int i = 0; i < options.bodies; ++i) {
    Body body;
    Joint joint;
    body.name = "B" + std::to_string(i);
    joint.name = "J" + std::to_string(i);
    body.parent = (i == 0) ? kGround : i - 1;
    if (i > 0 && unit(rng) < options.branch_probability) {
      std::uniform_int_distribution<int> pick(-1, i - 1);
      body.parent = pick(rng);
    }
    const double r = unit(rng);
    if (options.all_joint_types) {
      if (body.parent == kGround && options.allow_free && r < 0.3) joint.type = JointType::Free;
      else if (r < 0.40) joint.type = JointType::Revolute;
      else if (r < 0.60) joint.type = JointType::Prismatic;
      else if (r < 0.75) joint.type = JointType::Universal;
      else if (r < 0.90) joint.type = JointType::Spherical;
      else joint.type = JointType::Fixed;
    } else {
      joint.type = r < 0.7 ? JointType::Revolute : JointType::Prismatic;
    }
    joint.axis = random_unit(rng);
    joint.second_axis = random_unit(rng);
    while (joint.second_axis.cross(joint.axis).norm() < 0.2) joint.second_axis = random_unit(rng);
    joint.origin = random_vec3(rng, 0.5);
    body.mass = 0.2 + 2.0 * unit(rng);
    body.com = random_vec3(rng, 0.3);
    // Principal moments satisfying the triangle inequality, in a random orientation.
    const double a = 0.01 + 0.1 * unit(rng), b = 0.01 + 0.1 * unit(rng);
    const double c = std::abs(a - b) + (a + b - std::abs(a - b)) * (0.05 + 0.9 * unit(rng));
    std::normal_distribution<double> gauss(0.0, 1.0);
    const Mat3 rot = Quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)).normalized().toRotationMatrix();
    body.inertia = rot * Vec3(a, b, c).asDiagonal() * rot.transpose();
    body.inertia = 0.5 * (body.inertia + body.inertia.transpose()).eval();
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, model.name);
  return model;
}

VecX random_configuration(const Model& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  VecX q(model.nq);
  for (int k = 0; k < model.nq; ++k) q[k] = u(rng);
  for (const Joint& j : model.joints) joint_normalize(j, q.data() + j.q_index);
  return q;
}

VecX random_vector(Eigen::Index size, std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX x(size);
  for (Eigen::Index k = 0; k < size; ++k) x[k] = u(rng);
  return x;
}

VecX configuration_rate(const Model& model, const VecX& q, const VecX& v) {
  Data data(model);
  forward_kinematics(model, data, q);
  VecX rate(model.nq);
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& j = model.joints[l];
    const int p = model.bodies[l].parent;
    const Mat3 rp = p == kGround ? Mat3::Identity() : data.rotation[p];
    joint_configuration_rate(j, q.data() + j.q_index, v.data() + j.v_index, rp, rate.data() + j.q_index);
  }
  return rate;
}

VecX integrate_configuration(const Model& model, const VecX& q, const VecX& v, double dt) {
  VecX out = q + dt * configuration_rate(model, q, v);
  for (const Joint& j : model.joints) joint_normalize(j, out.data() + j.q_index);
  return out;
}

Model tree_with_every_joint_type(unsigned seed, int bodies, bool world_axes) {
  Model model = random_tree(seed, {bodies});
  std::mt19937 rng(seed + 1000);
  std::uniform_int_distribution<int> pick(0, 5);
  bool inner_free = false;
  for (std::size_t i = 1; i < model.joints.size(); ++i) {
    Joint& joint = model.joints[i];
    const int choice = pick(rng);
    if (choice == 0) joint.type = JointType::Cylindrical;
    if (choice == 1 && joint.type == JointType::Revolute) joint.axis = -Vec3::UnitY();
    if (choice == 2 && joint.type == JointType::Prismatic) joint.axis = Vec3::UnitZ();
    if (choice == 3 && joint.type == JointType::Revolute) joint.axis = Vec3::UnitX();
    if (choice == 4 && !inner_free) joint.type = JointType::Free, inner_free = true;
  }
  if (!world_axes)
    for (Joint& joint : model.joints)
      if (joint.type == JointType::Spherical || joint.type == JointType::Free) joint.type = JointType::Universal;
  finalize_model(model, "every joint type");
  return model;
}

}  // namespace mechdyn::testing
