// Forward kinematics in natural frames (EC §2.1, eqs. 1–10). See the header.
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include "../math/lane_pairs.hpp"
#include "../model/joint_dispatch.hpp"
#include "kinematics_stage.hpp"

namespace mechdyn {

namespace {

const Mat3 kIdentity = Mat3::Identity();  // the ground's rotation
const Vec6 kRest = Vec6::Zero();          // the ground's velocity

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
}

/// The centres of mass and the world inertias of bodies l0, l1, one in each lane
/// (math/lane_pairs.hpp; T = One: l0 alone): r_{lI} = r_l + Q c̄, i|J = Q J Qᵀ (symmetric: its
/// six distinct entries from Q J, the products of both bodies as one packed instruction each).
template <class T>
void com_and_inertia(const Model& model, Data& data, int l0, int l1) {
  using Vec3Lanes = Vec3Of<T>;
  const Mat3& rotation0 = data.rotation[l0];
  const Mat3& rotation1 = data.rotation[l1];
  const Body& body0 = model.bodies[l0];
  const Body& body1 = model.bodies[l1];
  Vec3Lanes column[3];  // Q's columns
  for (int c = 0; c < 3; ++c) column[c] = load_lanes<T>(rotation0.col(c).data(), rotation1.col(c).data());
  const Vec3Lanes com = load_lanes<T>(body0.com.data(), body1.com.data());
  store_lanes(load_lanes<T>(data.position[l0].data(), data.position[l1].data()) + com.x * column[0] + com.y * column[1] +
                  com.z * column[2],
              data.com_position[l0].data(), data.com_position[l1].data());
  Vec3Lanes rotated[3];  // Q J's columns: Σ_k Q_k J_kc
  for (int c = 0; c < 3; ++c)
    rotated[c] = T(body0.inertia(0, c), body1.inertia(0, c)) * column[0] +
                 T(body0.inertia(1, c), body1.inertia(1, c)) * column[1] +
                 T(body0.inertia(2, c), body1.inertia(2, c)) * column[2];
  const auto entry = [&](int r, int c) {  // (Q J Qᵀ)_rc = Σ_k (Q J)_rk Q_ck
    const auto component = [](const Vec3Lanes& x, int i) -> const T& { return i == 0 ? x.x : i == 1 ? x.y : x.z; };
    const T value = component(rotated[0], r) * component(column[0], c) +
                        component(rotated[1], r) * component(column[1], c) +
                        component(rotated[2], r) * component(column[2], c);
    data.inertia_world[l0](r, c) = data.inertia_world[l0](c, r) = value[0];
    if constexpr (kTwoItems<T>) data.inertia_world[l1](r, c) = data.inertia_world[l1](c, r) = value[1];
  };
  entry(0, 0), entry(1, 1), entry(2, 2), entry(0, 1), entry(0, 2), entry(1, 2);
}

template <int Level>
void kinematics(const Model& model, Data& data, const double* q, const double* v, const double* a) {
  const int n = model.num_bodies();
  for (int l = 0; l < n; ++l)
    visit_joint_kind(model.joints[l].kind, [&](auto kind) { body_step<decltype(kind), Level>(model, data, l, q, v, a); });
  int l = 0;
  for (; l + 1 < n; l += 2) com_and_inertia<Lanes>(model, data, l, l + 1);
  if (l < n) com_and_inertia<One>(model, data, l, l);
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
