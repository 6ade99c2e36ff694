// Forward kinematics in natural frames (EC §2.1, eqs. 1–10). See the header.
// One pass over the bodies, parents first: cos φ, sin φ of body l + 1's revolute joint
// (libm's, as RNEA takes them) are taken before body l's step; one-axis joints take the written-out
// step of one_axis_step.hpp, the other kinds body_step below through the joint-kind
// interface (docs/joints.md §5); each step ends with the body's centre of mass and world
// inertia (one_axis_step.hpp, com_and_inertia). docs/benchmarks.md, "Kinematics stage".
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include <cmath>

#include "../model/joint_dispatch.hpp"
#include "mechdyn/math/skew.hpp"
#include "joint_trigonometry.hpp"
#include "kinematics_stage.hpp"
#include "one_axis_step.hpp"

namespace mechdyn {

namespace {

/// One body of the stage (EC eqs. 1–10), for joint kind J (src/model/joint_kinds/):
/// level 0 positions; 1 and velocities, Ṡ q̇; 2 and accelerations.
template <class J, int Level>
MECHDYN_NOINLINE void body_step(const Model& model, Data& data, int l, const double* q, const double* v, const double* a) {
  const Joint& joint = model.joints[l];
  const int parent = model.bodies[l].parent;
  Mat3& rotation = data.rotation[l];
  Vec3& position = data.position[l];
  Mat3 relative_rotation;
  Vec3 relative_translation;
  J::relative_pose(joint, q + joint.q_index, relative_rotation, relative_translation);  // eqs. (2)–(3)
  if (parent == kGround) {  // the ground frame is the world frame
    rotation = relative_rotation;
    position = relative_translation;
  } else {
    const Mat3& parent_rotation = data.rotation[parent];
    J::compose(parent_rotation, relative_rotation, rotation);                                // eq. (4)
    position.noalias() = data.position[parent] + parent_rotation * relative_translation;  // eq. (6)
  }
  const Mat3& parent_rotation = parent == kGround ? kIdentity : data.rotation[parent];
  Vec6* axes = data.motion_axis.data() + joint.v_index;
  J::world_axes(joint, parent_rotation, rotation, position, axes);  // S (eq. 1)
  if constexpr (Level >= 1) {
    const Vec6& parent_velocity = parent == kGround ? kRest : data.velocity[parent];
    J::world_motion(joint, axes, v + joint.v_index, parent_velocity, position, data.joint_velocity[l],
                    data.joint_bias[l]);                                    // S q̇, Ṡ q̇
    data.velocity[l].noalias() = parent_velocity + data.joint_velocity[l];  // eqs. (7), (9)
  }
  if constexpr (Level >= 2) {
    Vec6& acceleration = data.acceleration[l];  // eqs. (8), (10): parent + Ṡ q̇ + S q̈
    acceleration = data.joint_bias[l];
    if (parent != kGround) acceleration += data.acceleration[parent];
    for (int k = 0; k < J::nv; ++k) acceleration.noalias() += axes[k] * a[joint.v_index + k];
  }
  const Split3 columns[3] = {load_split(rotation.data()), load_split(rotation.data() + 3), load_split(rotation.data() + 6)};
  com_and_inertia(model.bodies[l], columns, load_split(position.data()), data.com_position[l].data(),
                  data.inertia_world[l].data());
}

template <int Level>
void kinematics(const Model& model, Data& data, const double* q, const double* v, const double* a) {
  const int n = model.num_bodies();
  // The sine and cosine of body l + 1 are taken before body l's step (as in
  // explicit_inverse_dynamics.cpp): the step makes no call, so nothing of it is spilled
  // around one, and in time the libm call runs beside body l's arithmetic.
  double cosine = 1.0, sine = 0.0;
  if (n > 0) joint_cosine_sine(model, 0, q, cosine, sine);
  for (int l = 0; l < n; ++l) {
    double next_cosine = 1.0, next_sine = 0.0;
    if (l + 1 < n) joint_cosine_sine(model, l + 1, q, next_cosine, next_sine);
    visit_joint_kind(model.joints[l].kind, [&](auto kind) {
      using J = decltype(kind);
      if constexpr (OneAxis<J>::value)
        one_axis_step<J, Level>(model, data, l, q, v, a, cosine, sine);
      else
        body_step<J, Level>(model, data, l, q, v, a);
    });
    cosine = next_cosine, sine = next_sine;
  }
}

// a_l = a_λ + Ṡ_l q̇_l + S_l q̈_l (eqs. 8, 10); a = nullptr: q̈ = 0.
void accelerations(const Model& model, const Data& data, const double* a, AlignedVector<Vec6>& out) {
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    const int parent = model.bodies[l].parent;
    Vec6& acceleration = out[l];
    acceleration = data.joint_bias[l];
    if (parent != kGround) acceleration += out[parent];
    if (a != nullptr)
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k)
        acceleration.noalias() += data.motion_axis[k] * a[k];
  }
}

}  // namespace

void detail::kinematics_stage(const Model& model, Data& data, const double* q, const double* v, const double* a) {
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {  // the coupled coordinates (closure rows of couplings)
    const Coupling& coupling = model.couplings[c];
    data.coupling_coordinates[2 * static_cast<Eigen::Index>(c)] = q[model.joints[static_cast<std::size_t>(coupling.a)].q_index];
    data.coupling_coordinates[2 * static_cast<Eigen::Index>(c) + 1] = q[model.joints[static_cast<std::size_t>(coupling.b)].q_index];
  }
  if (a != nullptr) {
    kinematics<2>(model, data, q, v, a);
    data.kinematics_level = 2;
  } else if (v != nullptr) {
    kinematics<1>(model, data, q, v, nullptr);
    data.kinematics_level = 1;
  } else {
    kinematics<0>(model, data, q, nullptr, nullptr);
    data.kinematics_level = 0;
  }
}

void detail::stage_accelerations(const Model& model, Data& data, const double* a) {
  accelerations(model, data, a, data.acceleration);
  data.kinematics_level = 2;
}

void detail::bias_accelerations(const Model& model, Data& data) {
  accelerations(model, data, nullptr, data.bias_acceleration);
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  check_data(model, data, "forward_kinematics");
  check_state(model, q);
  detail::kinematics_stage(model, data, q.data(), nullptr, nullptr);
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v) {
  check_data(model, data, "forward_kinematics");
  check_state(model, q, &v);
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);
}

void forward_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "forward_kinematics");
  check_state(model, q, &v, &a);
  detail::kinematics_stage(model, data, q.data(), v.data(), a.data());
}

void forward_kinematics_accelerations(const Model& model, Data& data, const Eigen::Ref<const VecX>& a) {
  check_data(model, data, "forward_kinematics_accelerations");
  check_kinematics(data, 1, "forward_kinematics_accelerations");
  check_vector(a, model.nv, "a");
  detail::stage_accelerations(model, data, a.data());
}

void forward_kinematics_bias_accelerations(const Model& model, Data& data) {
  check_data(model, data, "forward_kinematics_bias_accelerations");
  check_kinematics(data, 1, "forward_kinematics_bias_accelerations");
  detail::bias_accelerations(model, data);
}

}  // namespace mechdyn
