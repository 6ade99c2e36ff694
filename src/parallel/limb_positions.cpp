// Closed-form limb positions (momentum-screw §3.2, eqs. 15–19). See the header.
#include "mechdyn/parallel/limb_positions.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

struct Angle {
  double value = 0.0, cosine = 1.0, sine = 0.0;
};

/// Paden–Kahan subproblem 1: the rotation about the unit axis n that takes u to v (their
/// components across n). False when u or v lies along n.
bool rotation_angle(const Vec3& n, const Vec3& u, const Vec3& v, Angle& angle) {
  const Vec3 up = u - n * n.dot(u), vp = v - n * n.dot(v);
  const double y = n.dot(up.cross(vp)), x = up.dot(vp), r = std::hypot(x, y);
  if (up.squaredNorm() < 1e-24 || vp.squaredNorm() < 1e-24 || r == 0.0) return false;
  angle.value = std::atan2(y, x);
  angle.cosine = x / r;
  angle.sine = y / r;
  return true;
}

/// θ + 2πk nearest to `previous` (cosine and sine unchanged).
void unwrap(Angle& angle, double previous) {
  angle.value += 2.0 * kPi * std::round((previous - angle.value) / (2.0 * kPi));
}

/// R(n, θ) = c 1 + s ñ + (1 − c) n nᵀ from c = cos θ, s = sin θ (EC eq. 3, Rodrigues).
Mat3 rotation_of(const Vec3& n, const Angle& angle) {
  const double c = angle.cosine, s = angle.sine, t = 1.0 - c;
  Mat3 out = t * n * n.transpose();
  out += s * skew(n);
  out.diagonal().array() += c;
  return out;
}

/// R(n1, θ1) R(n2, θ2) d = e (subproblem 2), the solution nearest (θ1, θ2) on input.
void universal_angles_for_direction(const Vec3& n1, const Vec3& n2, const Vec3& d, const Vec3& e, Angle& theta1,
                                    Angle& theta2, const std::string& limb) {
  const double c = n1.dot(n2), a = n1.dot(e), b = n2.dot(d), den = 1.0 - c * c;
  const double alpha = (a - c * b) / den, beta = (b - c * a) / den;
  const Vec3 w = n1.cross(n2);
  const double gamma2 = (1.0 - alpha * alpha - beta * beta - 2.0 * alpha * beta * c) / w.squaredNorm();
  if (gamma2 < -1e-12)
    throw InvalidArgument("limb '" + limb + "': its universal joint cannot point the leg at the platform point");
  const double gamma = std::sqrt(std::max(gamma2, 0.0));
  // The branch: the candidate z = R(n2, θ2) d nearest the previous one.
  const double c2 = std::cos(theta2.value), s2 = std::sin(theta2.value);
  const Vec3 previous = d * c2 + n2.cross(d) * s2 + n2 * (n2.dot(d) * (1.0 - c2));
  const Vec3 base = alpha * n1 + beta * n2;
  const Vec3 z = w.dot(previous) >= 0.0 ? Vec3(base + gamma * w) : Vec3(base - gamma * w);
  const double previous1 = theta1.value, previous2 = theta2.value;
  if (!rotation_angle(n2, d, z, theta2) || !rotation_angle(n1, z, e, theta1))
    throw InvalidArgument("limb '" + limb + "': the leg lies along an axis of its universal joint (a singular configuration)");
  unwrap(theta1, previous1);
  unwrap(theta2, previous2);
}

/// R(n1, φ1) R(n2, φ2) = rotation, nearest (φ1, φ2) on input.
void universal_angles_for_rotation(const Vec3& n1, const Vec3& n2, const Mat3& rotation, Angle& phi1, Angle& phi2,
                                   const std::string& joint) {
  const Vec3 t = rotation * n2;
  if (std::abs(n1.dot(t) - n1.dot(n2)) > 1e-9)
    throw InvalidArgument("universal joint '" + joint + "' cannot take the prescribed platform orientation (the angle "
                          "between its axes would change by " + number(n1.dot(t) - n1.dot(n2)) +
                          " in cosine): the motion violates the loop closure");
  const double previous1 = phi1.value, previous2 = phi2.value;
  if (!rotation_angle(n1, n2, t, phi1)) phi1 = Angle{};
  const Vec3 u = (n1 - n2 * n2.dot(n1)).normalized();
  Angle back = phi1;
  back.sine = -back.sine;  // R(n1, −φ1)
  const Mat3 rest = rotation_of(n1, back) * rotation;
  if (!rotation_angle(n2, u, rest * u, phi2)) phi2 = Angle{};
  unwrap(phi1, previous1);
  unwrap(phi2, previous2);
}

/// Quaternion of `rotation` into q[0..3] (w, x, y, z), the sign of the previous one.
void quaternion_for_rotation(const Mat3& rotation, double* q) {
  Quat next(rotation);
  next.normalize();
  const double same = q[0] * next.w() + q[1] * next.x() + q[2] * next.y() + q[3] * next.z();
  const double sign = same < 0.0 ? -1.0 : 1.0;
  q[0] = sign * next.w(), q[1] = sign * next.x(), q[2] = sign * next.y(), q[3] = sign * next.z();
}

/// Writes what forward_kinematics(q) writes for body b at (rotation, origin), with the
/// parent's rotation for the joint's motion axes (joint.hpp, joint_motion_axes).
void place(const Model& model, Data& data, int b, const Mat3& parent_rotation, const Mat3& rotation,
           const Vec3& origin) {
  const Body& body = model.bodies[b];
  const Joint& joint = model.joints[b];
  data.rotation[b] = rotation;
  data.position[b] = origin;
  data.com_position[b].noalias() = origin + rotation * body.com;
  Mat3 rotated;
  rotated.noalias() = rotation * body.inertia;
  data.inertia_world[b].noalias() = rotated * rotation.transpose();
  Vec6* axes = data.motion_axis.data() + joint.v_index;
  auto rotation_axis = [&](int k, const Vec3& n) { axes[k] << n, origin.cross(n); };
  switch (joint.type) {
    case JointType::Revolute: rotation_axis(0, parent_rotation * joint.axis); break;
    case JointType::Prismatic: axes[0] << Vec3::Zero(), parent_rotation * joint.axis; break;
    case JointType::Universal:
      rotation_axis(0, parent_rotation * joint.axis);
      rotation_axis(1, rotation * joint.second_axis);
      break;
    case JointType::Spherical:
      for (int k = 0; k < 3; ++k) rotation_axis(k, Vec3::Unit(k));
      break;
    case JointType::Free:
    case JointType::Fixed: break;
  }
}

}  // namespace

void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data* kinematics) {
  if (!parallel.closed_form_positions)
    throw InvalidArgument("model '" + model.name + "': some limb has no closed-form inverse kinematics");
  // Every member of the platform group has the platform's rotation (natural frames, welds).
  auto member_origin = [&](int member) {
    for (std::size_t g = 0; g < parallel.platform_bodies.size(); ++g)
      if (parallel.platform_bodies[g] == member) return Vec3(position + rotation * parallel.group_offset[g]);
    return Vec3(position);
  };
  const Mat3 identity = Mat3::Identity();
  const int root = parallel.group_root;
  const Joint& root_joint = model.joints[root];
  // The group's own joint for the relative rotation `relative` (its parent's rotation: `parent`).
  auto root_coordinates = [&](const Mat3& parent, const Mat3& relative) {
    double* x = q.data() + root_joint.q_index;
    if (root_joint.type == JointType::Spherical) {
      quaternion_for_rotation(relative, x);
    } else {
      Angle phi1{x[0]}, phi2{x[1]};
      universal_angles_for_rotation(root_joint.axis, root_joint.second_axis, relative, phi1, phi2, root_joint.name);
      x[0] = phi1.value, x[1] = phi2.value;
    }
    if (kinematics) place(model, *kinematics, root, parent, rotation, member_origin(root));
  };
  for (const Limb& limb : parallel.limbs) {
    if (limb.bodies.empty()) {  // the group on the ground by one joint: its centre is fixed
      const Vec3 centre = member_origin(root);
      if ((centre - root_joint.origin).norm() > 1e-9 * (1.0 + centre.norm()))
        throw InvalidArgument("the prescribed position moves the centre of joint '" + root_joint.name + "' by " +
                              number((centre - root_joint.origin).norm()) + " m: the motion violates the loop closure");
      root_coordinates(identity, rotation);
      continue;
    }
    const StraightLeg& leg = limb.leg;
    const Joint& u = model.joints[leg.lower];
    const Joint& p = model.joints[leg.upper];
    const LimbJointScrews& end = limb.joints.back();
    Vec3 target;  // C_i: the platform point of the leg (world), eq. (15)
    if (end.cut) {
      const Loop& loop = model.loops[static_cast<std::size_t>(end.index)];
      const BodyPoint& on_platform = end.platform_is_a ? loop.a : loop.b;
      target = member_origin(on_platform.body) + rotation * on_platform.point;
    } else {
      target = member_origin(root);
    }
    const Vec3 leg_vector = target - u.origin;  // r_{A_iC_i}, eq. (16)
    const double length = leg_vector.norm();    // l_i, eq. (18)
    if (length < 1e-12) throw InvalidArgument("limb '" + limb.name + "': the leg has zero length (singular)");
    double& slide = q[p.q_index];
    const double sign = leg.offset + slide >= 0.0 ? 1.0 : -1.0;
    const Vec3 direction = sign * leg_vector / length;  // e_i, eq. (19)
    slide = sign * length - leg.offset;
    double* angles = q.data() + u.q_index;
    Angle theta1{angles[0]}, theta2{angles[1]};
    universal_angles_for_direction(u.axis, u.second_axis, p.axis, direction, theta1, theta2, limb.name);
    angles[0] = theta1.value, angles[1] = theta2.value;
    const Mat3 leg_rotation = rotation_of(u.axis, theta1) * rotation_of(u.second_axis, theta2);
    if (kinematics) {
      place(model, *kinematics, leg.lower, identity, leg_rotation, u.origin);
      place(model, *kinematics, leg.upper, leg_rotation, leg_rotation,
            u.origin + leg_rotation * (p.origin + p.axis * slide));
    }
    if (!end.cut) root_coordinates(leg_rotation, leg_rotation.transpose() * rotation);
  }
  if (kinematics)
    for (int b : parallel.platform_bodies)
      if (b != root) place(model, *kinematics, b, rotation, rotation, member_origin(b));
}

}  // namespace mechdyn
