// Forward kinematics in natural frames (EC §2.1, eqs. 1–10). See the header.
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include <string>

#include "mechdyn/errors.hpp"
#include "../model/joint_inline.hpp"

namespace mechdyn {

namespace {

const Mat3 kIdentity = Mat3::Identity();  // the ground's rotation
const Vec6 kRest = Vec6::Zero();          // the ground's velocity

/// Position kinematics of body l (EC eqs. 1–6): Q, r, c, i|J, S. K ≥ 0: a revolute
/// joint about ±e_K written out with K a compile-time constant (Q^i_l = Q^i_λ R_K(±φ)
/// changes two columns; n = ±Q^i_λ e_K); K = −1: every other joint.
template <int K>
void position_body(const Model& model, Data& data, int l, const double* q) {
  const Body& body = model.bodies[l];
  const Joint& joint = model.joints[l];
  const int parent = body.parent;
  Mat3& rotation = data.rotation[l];
  Vec3& position = data.position[l];
  if constexpr (K >= 0) {
    const double angle = q[joint.q_index];
    Mat3 relative_rotation;
    detail::principal_rotation(K, joint.axis[K], angle, relative_rotation);  // eq. (3)
    if (parent == kGround) {  // the ground frame is the world frame
      rotation = relative_rotation;
      position = joint.origin;
    } else {
      const Mat3& parent_rotation = data.rotation[parent];
      detail::compose_rotation_fixed<K>(parent_rotation, relative_rotation, rotation);  // eq. (4)
      position.noalias() = data.position[parent] + parent_rotation * joint.origin;      // eq. (6)
    }
  } else {
    Mat3 relative_rotation;
    Vec3 relative_translation;
    detail::joint_relative_pose_inline(joint, -1, q + joint.q_index, relative_rotation, relative_translation);
    if (parent == kGround) {
      rotation = relative_rotation;
      position = relative_translation;
    } else {
      const Mat3& parent_rotation = data.rotation[parent];
      rotation.noalias() = parent_rotation * relative_rotation;                             // eq. (4)
      position.noalias() = data.position[parent] + parent_rotation * relative_translation;  // eq. (6)
    }
  }
  data.com_position[l].noalias() = position + rotation * body.com;
  // i|J = Q J Qᵀ (two 3x3 products: fewer instructions than the symmetric half by rows)
  Mat3 rotated_inertia;
  rotated_inertia.noalias() = rotation * body.inertia;
  data.inertia_world[l].noalias() = rotated_inertia * rotation.transpose();
  if constexpr (K >= 0) {  // S = [n; o × n], n = Q^i_λ n̄ = ±Q^i_l e_K (EC eq. 1)
    Vec6& axis = data.motion_axis[joint.v_index];
    const Vec3 n = joint.axis[K] * rotation.col(K);
    axis.head<3>() = n;
    axis.tail<3>() = position.cross(n);
  } else {
    const Mat3& parent_rotation = parent == kGround ? kIdentity : data.rotation[parent];
    detail::joint_motion_axes_inline(joint, q + joint.q_index, parent_rotation, rotation, position,
                                     data.motion_axis.data() + joint.v_index);
  }
}

void positions(const Model& model, Data& data, const double* q) {
  for (int l = 0; l < model.num_bodies(); ++l) {
    switch (detail::revolute_principal_axis(model.joints[l])) {  // about ±e_k: the written-out step
      case 0: position_body<0>(model, data, l, q); break;
      case 1: position_body<1>(model, data, l, q); break;
      case 2: position_body<2>(model, data, l, q); break;
      default: position_body<-1>(model, data, l, q); break;
    }
  }
}

void velocities(const Model& model, Data& data, const double* v) {
  MotionAxes axes;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    const Vec6& parent_velocity = parent == kGround ? kRest : data.velocity[parent];
    Vec6& relative = data.joint_velocity[l];  // S_l q̇_l
    if (joint.nv == 1) {
      relative.noalias() = data.motion_axis[joint.v_index] * v[joint.v_index];
    } else {
      relative.setZero();
      for (int k = 0; k < joint.nv; ++k)
        relative.noalias() += data.motion_axis[joint.v_index + k] * v[joint.v_index + k];
    }
    data.velocity[l].noalias() = parent_velocity + relative;  // eqs. (7), (9)
    // The joint model reads the axes block only for joints of several coordinates
    // (one-coordinate joints: Ṡ q̇ = v_parent × S q̇); it is copied only then.
    axes.resize(6, joint.nv);
    if (joint.nv > 1)
      for (int k = 0; k < joint.nv; ++k) axes.col(k) = data.motion_axis[joint.v_index + k];
    data.joint_bias[l] =
        joint_bias_acceleration(joint, axes, v + joint.v_index, parent_velocity, relative, data.position[l]);
  }
}

void accelerations(const Model& model, Data& data, const double* a) {
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    Vec6& acceleration = data.acceleration[l];  // eqs. (8), (10): parent + Ṡ q̇ + S q̈
    acceleration = data.joint_bias[l];
    if (parent != kGround) acceleration += data.acceleration[parent];
    for (int k = 0; k < joint.nv; ++k)
      acceleration.noalias() += data.motion_axis[joint.v_index + k] * a[joint.v_index + k];
  }
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
