// Closed-form limb positions (momentum-screw §3.2, eqs. 15–19). See the header.
#include "mechdyn/parallel/limb_positions.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"

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

/// θ + 2πk nearest to `previous` (cosine and sine unchanged).
double unwrap(double angle, double previous) {
  if (std::abs(previous - angle) > kPi) angle += 2.0 * kPi * std::round((previous - angle) / (2.0 * kPi));
  return angle;
}

/// atan2(y, x), which becomes the anchor.
double angle_by_atan2(double x, double y, AngleAnchor* anchor) {
  const double angle = std::atan2(y, x), radius = std::sqrt(x * x + y * y);
  if (anchor != nullptr && radius > 0.0) *anchor = AngleAnchor{angle, x / radius, y / radius};
  return angle;
}

/// atan2(y, x) up to a multiple of 2π, from the anchor when it is near: the angle is the
/// anchor's plus δ with tan δ = (y c_a − x s_a)/(x c_a + y s_a) (the sine and cosine of the
/// difference, both times √(x² + y²)), δ = atan(tan δ) by its series to t¹⁵/15 when
/// |tan δ| ≤ 0.1 (truncation below 6·10⁻¹⁹ rad; no accumulation: the anchor is an atan2
/// value). Otherwise atan2, which becomes the anchor. Without an anchor, atan2.
inline double angle_near(double x, double y, AngleAnchor* anchor) {
  if (anchor != nullptr) {
    const double across = y * anchor->cosine - x * anchor->sine, along = x * anchor->cosine + y * anchor->sine;
    if (along > 0.0 && std::abs(across) <= 0.1 * along) {
      const double t = across / along, t2 = t * t;
      const double series =
          t * (1.0 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11 +
              t2 * (1.0 / 13 - t2 / 15.0)))))));
      return anchor->value + series;
    }
  }
  return angle_by_atan2(x, y, anchor);  // out of line: the rare case
}

/// R(n, θ)ᵀ x = c x − s n × x + (1 − c)(n·x) n (EC eq. 3, Rodrigues, transposed).
Vec3 rotate_back(const Vec3& n, const Angle& angle, const Vec3& x) {
  return angle.cosine * x - angle.sine * n.cross(x) + ((1.0 - angle.cosine) * n.dot(x)) * n;
}

/// R(n1, φ1) R(n2, φ2) = parentᵀ rotation (the joint's rotation relative to its parent), the
/// angles nearest (φ1, φ2) on input. Paden–Kahan subproblem 1 twice: φ1 takes n2 to
/// t = parentᵀ rotation n2 about n1; φ2 takes u ⟂ n2 (`perpendicular`) to
/// R(n1, −φ1) parentᵀ rotation u about n2.
void universal_angles_for_rotation(const Vec3& n1, const Vec3& n2, const Vec3& perpendicular, const Mat3& parent,
                                   const Mat3& rotation, double* angles, AngleAnchor* anchors,
                                   const std::string& joint) {
  const Vec3 t = parent.transpose() * (rotation * n2);
  const double c = n1.dot(n2), ct = n1.dot(t);
  if (std::abs(ct - c) > 1e-9)
    throw InvalidArgument("universal joint '" + joint + "' cannot take the prescribed platform orientation (the angle "
                          "between its axes would change by " + number(ct - c) +
                          " in cosine): the motion violates the loop closure");
  // φ1: components of n2 and t across n1 (y = n1·(n2⊥ × t⊥) = (n1 × n2)·t).
  const double x1 = n2.dot(t) - c * ct, y1 = n1.cross(n2).dot(t), r1 = std::sqrt(x1 * x1 + y1 * y1);
  Angle phi1;
  if (r1 > 0.0) phi1 = Angle{angle_near(x1, y1, anchors), x1 / r1, y1 / r1};
  const Vec3& u = perpendicular;
  const Vec3 rest = rotate_back(n1, phi1, parent.transpose() * (rotation * u));
  const double x2 = u.dot(rest), y2 = n2.dot(u.cross(rest));  // u ⟂ n2
  angles[0] = unwrap(phi1.value, angles[0]);
  angles[1] = unwrap(x2 != 0.0 || y2 != 0.0 ? angle_near(x2, y2, anchors ? anchors + 1 : nullptr) : 0.0, angles[1]);
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
/// parent's rotation for the joint's motion axes (model/joint.hpp, joint_world_motion_axes);
/// inertia_world only when asked.
void place(const Model& model, Data& data, int b, const Mat3& parent_rotation, const Mat3& rotation,
           const Vec3& origin, bool inertia) {
  const Body& body = model.bodies[b];
  const Joint& joint = model.joints[b];
  data.rotation[b] = rotation;
  data.position[b] = origin;
  if (body.com.x() == 0.0 && body.com.y() == 0.0 && body.com.z() == 0.0) data.com_position[b] = origin;
  else data.com_position[b].noalias() = origin + rotation * body.com;
  if (inertia) {
    Mat3 rotated;
    rotated.noalias() = rotation * body.inertia;
    data.inertia_world[b].noalias() = rotated * rotation.transpose();
  }
  joint_world_motion_axes(joint, parent_rotation, rotation, origin, data.motion_axis.data() + joint.v_index);
}

/// One straight leg for the world direction e of its prismatic axis (eq. 19): the
/// universal joint's angles into angles[0..1] (nearest their values on input), its world
/// second axis n₂' and the leg's rotation. n₂' = R(n₁, θ₁) n₂ keeps n₂'·n₁ = n₁·n₂ and
/// n₂'·e = n₂·d (a rotation about n₂ keeps n₂·d), so n₂' = a n₁ + b e ± γ n₁ × e — Paden–Kahan
/// subproblem 2 (Murray, Li & Sastry (1994) §3.2.2) in world form —, the sign nearest the
/// previous n₂'. Then θ₁ = ∠ about n₁ from n₂ to n₂' (components across n₁ of length
/// 1 − (n₁·n₂)²), θ₂ = ∠ about n₂ from d to z = R(n₁, θ₁)ᵀ e, and R_leg = [n₂', e, n₂' × e]
/// [n₂, d, n₂ × d]⁻¹ (the rotation taking n₂, d to n₂', e). `remembered` (optional) holds the
/// previous n₂' for the angle it was made for.
void leg_angles(const StraightLeg& leg, const Vec3& e, double* angles, Vec3& second, Mat3& rotation,
                StraightLegState* remembered, const std::string& limb) {
  const Vec3& n1 = leg.first_axis;
  const double k = n1.dot(e), across = 1.0 - k * k;
  const double c12 = leg.first_second, c2d = leg.second_slide;
  if (!(across > 1e-12))
    throw InvalidArgument("limb '" + limb + "': the leg lies along an axis of its universal joint (a singular configuration)");
  const double inverse = 1.0 / across;
  const double a = (c12 - k * c2d) * inverse, b = (c2d - k * c12) * inverse;
  const double gamma2 = (1.0 - a * a - b * b - 2.0 * a * b * k) * inverse;
  if (gamma2 < -1e-12)
    throw InvalidArgument("limb '" + limb + "': its universal joint cannot point the leg at the platform point");
  // The previous n₂' (remembered, or from the angle on input).
  Vec3 previous;
  if (remembered != nullptr && remembered->remembered_angle == angles[0]) {
    previous = remembered->remembered_second_axis;
  } else {
    const double c = std::cos(angles[0]), s = std::sin(angles[0]);
    previous = c * leg.second_axis + s * leg.first_cross_second + ((1.0 - c) * c12) * n1;
  }
  const Vec3 w = n1.cross(e);
  const double gamma = std::sqrt(std::max(gamma2, 0.0));
  second = a * n1 + b * e + (w.dot(previous) >= 0.0 ? gamma : -gamma) * w;
  // θ₁ from n₂'s components across n₁; then z = R(n₁, θ₁)ᵀ e = c e − s n₁ × e + (1 − c)(n₁·e) n₁.
  const double x1 = leg.second_axis.dot(second) - c12 * c12, y1 = leg.first_cross_second.dot(second);
  const double radius = 1.0 - c12 * c12;
  const double c1 = x1 / radius, s1 = y1 / radius;
  const Vec3 z = c1 * e - s1 * w + ((1.0 - c1) * k) * n1;
  const double x2 = leg.slide_axis.dot(z) - c2d * c2d, y2 = leg.second_cross_slide.dot(z);
  AngleAnchor* anchor = remembered != nullptr ? remembered->anchor.data() : nullptr;
  angles[0] = unwrap(angle_near(x1, y1, anchor), angles[0]);
  angles[1] = unwrap(angle_near(x2, y2, anchor ? anchor + 1 : nullptr), angles[1]);
  Mat3 frame;
  frame.col(0) = second;
  frame.col(1) = e;
  frame.col(2) = second.cross(e);
  rotation.noalias() = frame * leg.frame_inverse;
  if (remembered != nullptr) {
    remembered->remembered_angle = angles[0];
    remembered->remembered_second_axis = second;
  }
}

/// The poses of a leg's two bodies (what place() writes), from the quantities the closed
/// form has: the universal joint's axes n₁, n₂' and the prismatic axis e.
void place_leg(const Model& model, Data& data, const StraightLeg& leg, const Mat3& rotation, const Vec3& second,
               const Vec3& e, const Vec3& end, double slide, bool inertia) {
  const Vec3& base = leg.base_point;
  const Joint& universal = model.joints[leg.lower];
  const Joint& prismatic = model.joints[leg.upper];
  Vec3 upper = end;  // the upper body's origin: C_i − R c (c = 0: the joint at its origin)
  if (leg.end_point.x() != 0.0 || leg.end_point.y() != 0.0 || leg.end_point.z() != 0.0) upper.noalias() -= rotation * leg.end_point;
  if (leg.slender) {  // centres of mass on the axis
    data.com_position[leg.lower] = base + leg.lower_com_along * e;
    data.com_position[leg.upper] = base + (leg.upper_com_along + slide) * e;
  }
  data.position[leg.lower] = base;
  data.position[leg.upper] = upper;
  for (int b : {leg.lower, leg.upper}) {
    data.rotation[b] = rotation;
    if (!leg.slender) data.com_position[b].noalias() = data.position[b] + rotation * model.bodies[b].com;
    if (inertia) {
      Mat3 rotated;
      rotated.noalias() = rotation * model.bodies[b].inertia;
      data.inertia_world[b].noalias() = rotated * rotation.transpose();
    }
  }
  Vec6* axes = data.motion_axis.data();
  axes[universal.v_index].head<3>() = leg.first_axis;
  axes[universal.v_index].tail<3>() = leg.base_moment;
  axes[universal.v_index + 1].head<3>() = second;
  axes[universal.v_index + 1].tail<3>() = base.cross(second);
  axes[prismatic.v_index].head<3>().setZero();
  axes[prismatic.v_index].tail<3>() = e;
}

void positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
               Eigen::Ref<VecX> q, Data* kinematics, bool inertia, LimbWorkspace* limbs) {
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
  // The group's own joint, its parent's rotation `parent`.
  auto root_coordinates = [&](const Mat3& parent) {
    double* x = q.data() + root_joint.q_index;
    if (root_joint.type == JointType::Spherical) {
      const Mat3 relative = parent.transpose() * rotation;
      quaternion_for_rotation(relative, x);
    } else {
      universal_angles_for_rotation(root_joint.axis, root_joint.second_axis, parallel.root_perpendicular, parent,
                                    rotation, x, limbs != nullptr ? limbs->root_anchor.data() : nullptr,
                                    root_joint.name);
    }
    if (kinematics) place(model, *kinematics, root, parent, rotation, member_origin(root), inertia);
  };
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i) {
    const Limb& limb = parallel.limbs[i];
    if (limb.bodies.empty()) {  // the group on the ground by one joint: its centre is fixed
      const Vec3 centre = member_origin(root);
      if ((centre - root_joint.origin).norm() > 1e-9 * (1.0 + centre.norm()))
        throw InvalidArgument("the prescribed position moves the centre of joint '" + root_joint.name + "' by " +
                              number((centre - root_joint.origin).norm()) + " m: the motion violates the loop closure");
      root_coordinates(identity);
      continue;
    }
    const StraightLeg& leg = limb.leg;
    const Joint& p = model.joints[leg.upper];
    const Vec3 target = position + rotation * leg.platform_point;  // C_i, eq. (15)
    const Vec3 leg_vector = target - leg.base_point;                // r_{A_iC_i}, eq. (16)
    const double length = leg_vector.norm();                        // l_i, eq. (18)
    if (length < 1e-12) throw InvalidArgument("limb '" + limb.name + "': the leg has zero length (singular)");
    double& slide = q[p.q_index];
    const double signed_length = leg.offset + slide >= 0.0 ? length : -length;
    const Vec3 direction = leg_vector / signed_length;  // e_i, eq. (19)
    slide = signed_length - leg.offset;
    Vec3 second;
    Mat3 leg_rotation;
    leg_angles(leg, direction, q.data() + model.joints[leg.lower].q_index, second, leg_rotation,
               limbs != nullptr ? &limbs->limbs[i].leg : nullptr, limb.name);
    if (kinematics) place_leg(model, *kinematics, leg, leg_rotation, second, direction, target, slide, inertia);
    if (!limb.joints.back().cut) root_coordinates(leg_rotation);
  }
  if (kinematics) {
    for (int b : parallel.platform_bodies)
      if (b != root) place(model, *kinematics, b, rotation, rotation, member_origin(b), inertia);
    // The position stage as forward_kinematics(q) leaves it. On the trajectory path
    // (inertia false) the world inertias are not written: that Data is the private
    // workspace of motion_inverse_dynamics, whose algorithms read poses and axes only.
    kinematics->kinematics_level = 0;
  }
}

}  // namespace

void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data* kinematics) {
  positions(model, parallel, position, rotation, q, kinematics, true, nullptr);
}

void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q, Data& kinematics, LimbWorkspace& limbs) {
  positions(model, parallel, position, rotation, q, &kinematics, false, &limbs);
}

}  // namespace mechdyn
