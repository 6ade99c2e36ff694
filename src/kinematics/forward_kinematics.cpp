// Forward kinematics in natural frames (EC §2.1, eqs. 1–10). See the header.
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include <string>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

void positions(const Model& model, Data& data, const double* q) {
  MotionAxes axes;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Body& body = model.bodies[l];
    const Joint& joint = model.joints[l];
    const int parent = body.parent;
    const Mat3 parent_rotation = parent == kGround ? Mat3::Identity() : data.rotation[parent];
    const Vec3 parent_position = parent == kGround ? Vec3::Zero() : data.position[parent];
    Mat3 relative_rotation;
    Vec3 relative_translation;
    joint_relative_pose(joint, q + joint.q_index, relative_rotation, relative_translation);
    data.rotation[l].noalias() = parent_rotation * relative_rotation;                    // eq. (4)
    data.position[l].noalias() = parent_position + parent_rotation * relative_translation;  // eq. (6)
    data.com_position[l].noalias() = data.position[l] + data.rotation[l] * body.com;
    data.inertia_world[l].noalias() = data.rotation[l] * body.inertia * data.rotation[l].transpose();
    joint_motion_axes(joint, q + joint.q_index, parent_rotation, data.rotation[l], data.position[l], axes);
    for (int k = 0; k < joint.nv; ++k) data.motion_axis[joint.v_index + k] = axes.col(k);
  }
}

void velocities(const Model& model, Data& data, const double* v) {
  MotionAxes axes;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    const Vec6 parent_velocity = parent == kGround ? Vec6::Zero() : data.velocity[parent];
    Vec6 relative = Vec6::Zero();
    axes.resize(6, joint.nv);
    for (int k = 0; k < joint.nv; ++k) {
      axes.col(k) = data.motion_axis[joint.v_index + k];
      relative += axes.col(k) * v[joint.v_index + k];
    }
    data.joint_velocity[l] = relative;
    data.velocity[l] = parent_velocity + relative;  // eqs. (7), (9)
    data.joint_bias[l] =
        joint_bias_acceleration(joint, axes, v + joint.v_index, parent_velocity, relative, data.position[l]);
  }
}

void accelerations(const Model& model, Data& data, const double* a) {
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    Vec6 acc = parent == kGround ? Vec6::Zero() : data.acceleration[parent];
    acc += data.joint_bias[l];
    for (int k = 0; k < joint.nv; ++k) acc += data.motion_axis[joint.v_index + k] * a[joint.v_index + k];
    data.acceleration[l] = acc;  // eqs. (8), (10)
  }
}

void check_vector(const Eigen::Ref<const VecX>& x, Eigen::Index size, const char* name) {
  if (x.size() != size)
    throw InvalidArgument(std::string(name) + " has " + std::to_string(x.size()) + " numbers, the model needs " +
                          std::to_string(size));
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k]))
      throw InvalidArgument(std::string(name) + "[" + std::to_string(k) + "] is not finite");
  }
}

}  // namespace

void check_state(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>* v,
                 const Eigen::Ref<const VecX>* a, const char* a_name) {
  check_vector(q, model.nq, "q");
  if (v != nullptr) check_vector(*v, model.nv, "v");
  if (a != nullptr) check_vector(*a, model.nv, a_name);
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  positions(model, data, q.data());
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v) {
  positions(model, data, q.data());
  velocities(model, data, v.data());
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  positions(model, data, q.data());
  velocities(model, data, v.data());
  accelerations(model, data, a.data());
}

}  // namespace mechdyn
