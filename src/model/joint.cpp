// Joint model: the one place where joint types differ (see joint.hpp).
#include "mechdyn/model/joint.hpp"

#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "joint_inline.hpp"

namespace mechdyn {

const char* joint_type_name(JointType type) {
  switch (type) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Universal: return "universal";
    case JointType::Spherical: return "spherical";
    case JointType::Free: return "free";
    case JointType::Fixed: return "fixed";
  }
  return "unknown";
}

std::optional<JointType> joint_type_from_name(const std::string& name) {
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Universal,
                      JointType::Spherical, JointType::Free, JointType::Fixed}) {
    if (name == joint_type_name(t)) return t;
  }
  return std::nullopt;
}

int joint_nq(JointType type) {
  switch (type) {
    case JointType::Revolute:
    case JointType::Prismatic: return 1;
    case JointType::Universal: return 2;
    case JointType::Spherical: return 4;
    case JointType::Free: return 7;
    case JointType::Fixed: return 0;
  }
  return 0;
}

int joint_nv(JointType type) {
  switch (type) {
    case JointType::Revolute:
    case JointType::Prismatic: return 1;
    case JointType::Universal: return 2;
    case JointType::Spherical: return 3;
    case JointType::Free: return 6;
    case JointType::Fixed: return 0;
  }
  return 0;
}

namespace {
// Unit quaternion (w, x, y, z) stored at q → rotation matrix.
Mat3 quaternion_rotation(const double* q) {
  return Quat(q[0], q[1], q[2], q[3]).toRotationMatrix();
}

// q̇ = ½ (0, ω) ⊗ q for ω in the parent's coordinates (x_parent = R(q) x_body).
void quaternion_rate(const double* q, const Vec3& omega, double* rate) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  rate[0] = 0.5 * (-omega.x() * x - omega.y() * y - omega.z() * z);
  rate[1] = 0.5 * (omega.x() * w + omega.y() * z - omega.z() * y);
  rate[2] = 0.5 * (-omega.x() * z + omega.y() * w + omega.z() * x);
  rate[3] = 0.5 * (omega.x() * y - omega.y() * x + omega.z() * w);
}
}  // namespace

void joint_relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
  switch (joint.type) {
    case JointType::Revolute:  // eq. (3): Q = 1 + ñ sin φ + ñ² (1 − cos φ)
      detail::joint_relative_pose_inline(joint, detail::revolute_principal_axis(joint), q, rotation, translation);
      return;
    case JointType::Prismatic:  // eq. (2): r = n r + r_{l0}
      rotation.setIdentity();
      translation = joint.origin + joint.axis * q[0];
      return;
    case JointType::Universal:  // two axis-invariant rotations in sequence
      rotation = axis_angle_rotation(joint.axis, q[0]) * axis_angle_rotation(joint.second_axis, q[1]);
      translation = joint.origin;
      return;
    case JointType::Spherical:
      rotation = quaternion_rotation(q);
      translation = joint.origin;
      return;
    case JointType::Free:
      rotation = quaternion_rotation(q + 3);
      translation = joint.origin + Vec3(q[0], q[1], q[2]);
      return;
    case JointType::Fixed:
      rotation.setIdentity();
      translation = joint.origin;
      return;
  }
}

void joint_motion_axes(const Joint& joint, const double* /*q*/, const Mat3& parent_rotation,
                       const Mat3& body_rotation, const Vec3& body_origin, MotionAxes& axes) {
  const int nv = joint.nv;
  axes.resize(6, nv);
  auto rotation_axis = [&](int col, const Vec3& n) {  // [n; o × n]
    axes.col(col).head<3>() = n;
    axes.col(col).tail<3>() = body_origin.cross(n);
  };
  switch (joint.type) {
    case JointType::Revolute:
      rotation_axis(0, parent_rotation * joint.axis);
      return;
    case JointType::Prismatic:
      axes.col(0).head<3>().setZero();
      axes.col(0).tail<3>() = parent_rotation * joint.axis;
      return;
    case JointType::Universal:
      rotation_axis(0, parent_rotation * joint.axis);      // fixed in the parent
      rotation_axis(1, body_rotation * joint.second_axis);  // fixed in the child
      return;
    case JointType::Spherical:
      for (int k = 0; k < 3; ++k) rotation_axis(k, Vec3::Unit(k));
      return;
    case JointType::Free:
      for (int k = 0; k < 3; ++k) {
        axes.col(k).head<3>().setZero();
        axes.col(k).tail<3>() = Vec3::Unit(k);
        rotation_axis(3 + k, Vec3::Unit(k));
      }
      return;
    case JointType::Fixed:
      return;
  }
}

Vec6 joint_bias_acceleration(const Joint& joint, const MotionAxes& axes, const double* v,
                             const Vec6& parent_velocity, const Vec6& relative_velocity,
                             const Vec3& body_origin) {
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      // S is fixed in the parent: Ṡ = v_parent × S.
      return cross_motion(parent_velocity, relative_velocity);
    case JointType::Universal: {
      // s1 fixed in the parent (ṡ1 = v_p × s1), s2 fixed in the child (ṡ2 = v_c × s2).
      const Vec6 first = axes.col(0) * v[0];
      const Vec6 second = axes.col(1) * v[1];
      return cross_motion(parent_velocity, relative_velocity) + cross_motion(first, second);
    }
    case JointType::Spherical: {
      // S = [1; õ] with world-fixed columns; o is fixed in the parent.
      const Vec3 origin_velocity =
          parent_velocity.tail<3>() + parent_velocity.head<3>().cross(body_origin);
      const Vec3 omega(v[0], v[1], v[2]);
      return make_vec6(Vec3::Zero(), origin_velocity.cross(omega));
    }
    case JointType::Free: {
      // Linear columns constant; angular columns [e; o × e] with o moving at ȯ.
      const Vec3 origin_velocity = parent_velocity.tail<3>() +
                                   parent_velocity.head<3>().cross(body_origin) + Vec3(v[0], v[1], v[2]);
      const Vec3 omega(v[3], v[4], v[5]);
      return make_vec6(Vec3::Zero(), origin_velocity.cross(omega));
    }
    case JointType::Fixed:
      return Vec6::Zero();
  }
  return Vec6::Zero();
}

void joint_local_motion_axes(const Joint& joint, const double* q, const Mat3& body_rotation, MotionAxes& axes) {
  axes.setZero(6, joint.nv);
  switch (joint.type) {
    case JointType::Revolute:  // Q(n, φ)ᵀ n = n: the axis through the body origin
      axes.col(0).head<3>() = joint.axis;
      return;
    case JointType::Prismatic:  // Q = 1
      axes.col(0).tail<3>() = joint.axis;
      return;
    case JointType::Universal:  // Q = Q₁ Q₂: n₁ in the child is Q₂ᵀ n₁; n₂ is fixed in the child
      axes.col(0).head<3>() = axis_angle_rotation(joint.second_axis, q[1]).transpose() * joint.axis;
      axes.col(1).head<3>() = joint.second_axis;
      return;
    case JointType::Spherical:  // world angular velocity ω → Qᵀ ω
      axes.topRows<3>() = body_rotation.transpose();
      return;
    case JointType::Free:  // [v; ω] world → [Qᵀ ω; Qᵀ v]
      axes.block<3, 3>(3, 0) = body_rotation.transpose();
      axes.block<3, 3>(0, 3) = body_rotation.transpose();
      return;
    case JointType::Fixed:
      return;
  }
}

Vec6 joint_local_bias_acceleration(const Joint& joint, const MotionAxes& axes, const double* v,
                                   const Vec6& parent_velocity, const Vec6& relative_velocity) {
  // Cross products are invariant under a spatial transform, so joint_bias_acceleration's
  // formulas hold with the body origin at 0 and every vector in body coordinates.
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      return cross_motion(parent_velocity, relative_velocity);  // v_λ × S q̇
    case JointType::Universal: {
      const Vec6 first = axes.col(0) * v[0];
      const Vec6 second = axes.col(1) * v[1];
      return cross_motion(parent_velocity, relative_velocity) + cross_motion(first, second);
    }
    case JointType::Spherical:  // [0; ȯ × ω], ȯ the origin's velocity as a point of the parent
      return make_vec6(Vec3::Zero(), parent_velocity.tail<3>().cross(relative_velocity.head<3>()));
    case JointType::Free: {  // ȯ includes the joint's own translation
      const Vec3 origin_velocity = parent_velocity.tail<3>() + relative_velocity.tail<3>();
      return make_vec6(Vec3::Zero(), origin_velocity.cross(relative_velocity.head<3>()));
    }
    case JointType::Fixed:
      return Vec6::Zero();
  }
  return Vec6::Zero();
}

namespace detail {
void joint_local_motion_general(const Joint& joint, const double* q, const double* v, const double* a,
                                const Mat3& body_rotation, const Vec6& parent_velocity, Vec6* axes,
                                Vec6& relative_velocity, Vec6& joint_acceleration) {
  MotionAxes s;
  joint_local_motion_axes(joint, q, body_rotation, s);
  relative_velocity.setZero();
  joint_acceleration.setZero();
  for (int k = 0; k < joint.nv; ++k) {
    axes[k] = s.col(k);
    relative_velocity.noalias() += s.col(k) * v[k];  // S q̇
    joint_acceleration.noalias() += s.col(k) * a[k];  // S q̈
  }
  joint_acceleration += joint_local_bias_acceleration(joint, s, v, parent_velocity, relative_velocity);  // + Ṡ q̇
}
}  // namespace detail

void joint_configuration_rate(const Joint& joint, const double* q, const double* v,
                              const Mat3& parent_rotation, double* q_rate) {
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      q_rate[0] = v[0];
      return;
    case JointType::Universal:
      q_rate[0] = v[0];
      q_rate[1] = v[1];
      return;
    case JointType::Spherical:
      quaternion_rate(q, parent_rotation.transpose() * Vec3(v[0], v[1], v[2]), q_rate);
      return;
    case JointType::Free: {
      const Vec3 rate = parent_rotation.transpose() * Vec3(v[0], v[1], v[2]);
      q_rate[0] = rate.x();
      q_rate[1] = rate.y();
      q_rate[2] = rate.z();
      quaternion_rate(q + 3, parent_rotation.transpose() * Vec3(v[3], v[4], v[5]), q_rate + 3);
      return;
    }
    case JointType::Fixed:
      return;
  }
}

void joint_neutral_configuration(const Joint& joint, double* q) {
  for (int k = 0; k < joint.nq; ++k) q[k] = 0.0;
  if (joint.type == JointType::Spherical) q[0] = 1.0;
  if (joint.type == JointType::Free) q[3] = 1.0;
}

double joint_normalize(const Joint& joint, double* q) {
  double* quat = nullptr;
  if (joint.type == JointType::Spherical) quat = q;
  if (joint.type == JointType::Free) quat = q + 3;
  if (quat == nullptr) return 1.0;
  const double norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
  if (norm > 0.0) {
    for (int k = 0; k < 4; ++k) quat[k] /= norm;
  }
  return norm;
}

}  // namespace mechdyn
