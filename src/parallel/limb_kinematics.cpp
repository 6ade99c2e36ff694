// Screw-form limb kinematics (momentum-screw §3.2; screw-kinematics §2.1, §4). See the header.
#include "mechdyn/parallel/limb_kinematics.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/screw/lie_bracket.hpp"

namespace mechdyn {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

/// Paden–Kahan subproblem 1: the angle θ of the rotation about the unit axis n that takes
/// u to v (their components across n). Returns false when u or v lies along n.
bool rotation_angle(const Vec3& n, const Vec3& u, const Vec3& v, double& angle) {
  const Vec3 up = u - n * n.dot(u), vp = v - n * n.dot(v);
  if (up.norm() < 1e-12 || vp.norm() < 1e-12) return false;
  angle = std::atan2(n.dot(up.cross(vp)), up.dot(vp));
  return true;
}

/// θ + 2πk nearest to `previous`.
double unwrap(double angle, double previous) {
  return angle + 2.0 * kPi * std::round((previous - angle) / (2.0 * kPi));
}

/// Two-axis rotation R(n1, θ1) R(n2, θ2) d = e (Paden–Kahan subproblem 2), the solution
/// nearest (θ1, θ2) on input.
void universal_angles_for_direction(const Vec3& n1, const Vec3& n2, const Vec3& d, const Vec3& e, double& theta1,
                                    double& theta2, const std::string& limb) {
  const double c = n1.dot(n2), a = n1.dot(e), b = n2.dot(d), den = 1.0 - c * c;
  const double alpha = (a - c * b) / den, beta = (b - c * a) / den;
  const Vec3 w = n1.cross(n2);
  double gamma2 = (1.0 - alpha * alpha - beta * beta - 2.0 * alpha * beta * c) / w.squaredNorm();
  if (gamma2 < -1e-12)
    throw InvalidArgument("limb '" + limb + "': its universal joint cannot point the leg at the platform point");
  const double gamma = std::sqrt(std::max(gamma2, 0.0));
  double best = 1e300, best1 = theta1, best2 = theta2;
  for (double sign : {1.0, -1.0}) {
    const Vec3 z = alpha * n1 + beta * n2 + sign * gamma * w;
    double t1 = 0.0, t2 = 0.0;
    if (!rotation_angle(n2, d, z, t2) || !rotation_angle(n1, z, e, t1))
      throw InvalidArgument("limb '" + limb + "': the leg lies along an axis of its universal joint (a singular configuration)");
    t1 = unwrap(t1, theta1);
    t2 = unwrap(t2, theta2);
    const double distance = std::abs(t1 - theta1) + std::abs(t2 - theta2);
    if (distance < best) best = distance, best1 = t1, best2 = t2;
  }
  theta1 = best1;
  theta2 = best2;
}

/// R(n1, φ1) R(n2, φ2) = rotation, nearest (φ1, φ2) on input; InvalidArgument when the
/// rotation is not one of the universal joint's.
void universal_angles_for_rotation(const Vec3& n1, const Vec3& n2, const Mat3& rotation, double& phi1, double& phi2,
                                   const std::string& joint) {
  const Vec3 t = rotation * n2;
  if (std::abs(n1.dot(t) - n1.dot(n2)) > 1e-9)
    throw InvalidArgument("universal joint '" + joint + "' cannot take the prescribed platform orientation (its axes would turn by " +
                          number(std::acos(std::max(-1.0, std::min(1.0, n1.dot(t)))) - std::acos(std::max(-1.0, std::min(1.0, n1.dot(n2))))) +
                          " rad): the motion violates the loop closure");
  double a1 = 0.0, a2 = 0.0;
  const Vec3 u = (n1 - n2 * n2.dot(n1)).normalized();
  if (!rotation_angle(n1, n2, t, a1)) a1 = 0.0;
  const Mat3 rest = axis_angle_rotation(n1, -a1) * rotation;
  if (!rotation_angle(n2, u, rest * u, a2)) a2 = 0.0;
  phi1 = unwrap(a1, phi1);
  phi2 = unwrap(a2, phi2);
}

/// Quaternion of `rotation` into q[0..3] (w, x, y, z), the sign of the previous one.
void quaternion_for_rotation(const Mat3& rotation, double* q) {
  Quat next(rotation);
  next.normalize();
  const double same = q[0] * next.w() + q[1] * next.x() + q[2] * next.y() + q[3] * next.z();
  const double sign = same < 0.0 ? -1.0 : 1.0;
  q[0] = sign * next.w(), q[1] = sign * next.x(), q[2] = sign * next.y(), q[3] = sign * next.z();
}

/// The platform group's joint (root) coordinates for the relative rotation `relative`.
void root_joint_coordinates(const Joint& joint, const Mat3& relative, double* q) {
  if (joint.type == JointType::Spherical) {
    quaternion_for_rotation(relative, q);
  } else {  // universal (make_parallel_model admits only these two here)
    universal_angles_for_rotation(joint.axis, joint.second_axis, relative, q[0], q[1], joint.name);
  }
}

// The body-fixed vector of a limb freedom's screw (ω; p × ω) or (0; d).
Vec6 rotation_screw(const Vec3& axis, const Vec3& point) { return make_vec6(axis, point.cross(axis)); }

}  // namespace

int factor_screws(const LimbScrews& screws, Eigen::ColPivHouseholderQR<LimbScrews>& qr, Mat6& orthogonal,
                  LimbRows& scratch, LimbScrews& dual, LimbScrews& constraint, double tolerance) {
  const Eigen::Index k = screws.cols();
  if (k == 0) {
    orthogonal.setIdentity();
    constraint = orthogonal;
    return 0;
  }
  qr.compute(screws);
  const auto& packed = qr.matrixQR();
  const double first = std::abs(packed(0, 0));
  for (Eigen::Index j = 0; j < k; ++j)
    if (!(std::abs(packed(j, j)) > tolerance * first) || !(first > 0.0)) return static_cast<int>(j);
  orthogonal = qr.householderQ();
  scratch = orthogonal.leftCols(k).transpose();  // Q₁ᵀ, then R₁⁻¹ Q₁ᵀ
  packed.topLeftCorner(k, k).triangularView<Eigen::Upper>().solveInPlace(scratch);
  const auto& permutation = qr.colsPermutation().indices();
  for (Eigen::Index j = 0; j < k; ++j) dual.col(permutation[j]) = scratch.row(j).transpose();  // Dᵀ = P R₁⁻¹ Q₁ᵀ
  constraint = orthogonal.rightCols(6 - k);
  return static_cast<int>(k);
}

LimbWorkspace::LimbWorkspace(const Model& model, const ParallelModel& parallel) {
  for (const Limb& limb : parallel.limbs) {
    LimbState state;
    const int k = limb.freedoms;
    state.screws.setZero(6, k);
    state.qr = Eigen::ColPivHouseholderQR<LimbScrews>(6, k);
    state.dual.setZero(6, k);
    state.constraint.setZero(6, 6 - k);
    state.rates.setZero(k);
    state.accelerations.setZero(k);
    state.transposed_dual.setZero(k, 6);
    limbs.push_back(state);
  }
  joint_bias.resize(parallel.limbs.size());
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i)
    joint_bias[i].assign(parallel.limbs[i].joints.size(), Vec6::Zero());
  body_velocity.assign(static_cast<std::size_t>(model.num_bodies()), Vec6::Zero());
  body_acceleration.assign(static_cast<std::size_t>(model.num_bodies()), Vec6::Zero());
}

void platform_screws(const Vec3& position, const Vec3& velocity, const Vec3& acceleration, const Vec3& angular_velocity,
                     const Vec3& angular_acceleration, Vec6& twist, Vec6& twist_rate) {
  twist << angular_velocity, velocity - angular_velocity.cross(position);  // v_O = ṗ − ω × p
  twist_rate << angular_acceleration,
      acceleration - angular_acceleration.cross(position) - angular_velocity.cross(velocity);  // d/dt v_O
}

void limb_positions(const Model& model, const ParallelModel& parallel, const Vec3& position, const Mat3& rotation,
                    Eigen::Ref<VecX> q) {
  if (!parallel.closed_form_positions)
    throw InvalidArgument("model '" + model.name + "': some limb has no closed-form inverse kinematics");
  // Every member of the platform group has the platform's rotation (natural frames, fixed joints).
  auto member_origin = [&](int member) {
    for (std::size_t g = 0; g < parallel.platform_bodies.size(); ++g)
      if (parallel.platform_bodies[g] == member) return Vec3(position + rotation * parallel.group_offset[g]);
    return Vec3(position);
  };
  const int root = parallel.group_root;
  const Joint& root_joint = model.joints[root];
  for (const Limb& limb : parallel.limbs) {
    if (limb.bodies.empty()) {  // the group on the ground by one joint: its centre is fixed
      const Vec3 centre = member_origin(root);
      if ((centre - root_joint.origin).norm() > 1e-9 * (1.0 + centre.norm()))
        throw InvalidArgument("the prescribed position moves the centre of joint '" + root_joint.name + "' by " +
                              number((centre - root_joint.origin).norm()) + " m: the motion violates the loop closure");
      root_joint_coordinates(root_joint, rotation, q.data() + root_joint.q_index);
      continue;
    }
    const StraightLeg& leg = limb.leg;
    const Joint& u = model.joints[leg.lower];
    const Joint& p = model.joints[leg.upper];
    const LimbJointScrews& end = limb.joints.back();
    Vec3 target;  // C: the platform point of the leg (world)
    if (end.cut) {
      const Loop& loop = model.loops[static_cast<std::size_t>(end.index)];
      const BodyPoint& on_platform = end.platform_is_a ? loop.a : loop.b;
      target = member_origin(on_platform.body) + rotation * on_platform.point;
    } else {
      target = member_origin(root);
    }
    const Vec3 leg_vector = target - u.origin;  // r_{A_iC_i}, momentum-screw eq. (16)
    const double length = leg_vector.norm();    // l_i, eq. (18)
    if (length < 1e-12) throw InvalidArgument("limb '" + limb.name + "': the leg has zero length (singular)");
    double& slide = q[p.q_index];
    const double sign = leg.offset + slide >= 0.0 ? 1.0 : -1.0;
    const Vec3 direction = sign * leg_vector / length;  // e_i, eq. (19)
    slide = sign * length - leg.offset;
    double* angles = q.data() + u.q_index;
    universal_angles_for_direction(u.axis, u.second_axis, p.axis, direction, angles[0], angles[1], limb.name);
    if (!end.cut) {
      const Mat3 leg_rotation = axis_angle_rotation(u.axis, angles[0]) * axis_angle_rotation(u.second_axis, angles[1]);
      root_joint_coordinates(root_joint, leg_rotation.transpose() * rotation, q.data() + root_joint.q_index);
    }
  }
}

void limb_screw_kinematics(const Model& model, const ParallelModel& parallel, const Data& data, LimbWorkspace& work,
                           const Vec6& platform_velocity, const Vec6& platform_acceleration, Eigen::Ref<VecX> v,
                           Eigen::Ref<VecX> a) {
  work.platform_velocity = platform_velocity;
  work.platform_acceleration = platform_acceleration;
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i) {
    const Limb& limb = parallel.limbs[i];
    LimbState& s = work.limbs[i];
    const int k = limb.freedoms;
    // S_i: the unit screws of the limb's joints, eqs. (18)–(20).
    for (const LimbJointScrews& joint : limb.joints) {
      const int c0 = joint.first_freedom;
      if (!joint.cut) {
        const Joint& model_joint = model.joints[joint.index];
        for (int c = 0; c < joint.freedoms; ++c) {
          s.screws.col(c0 + c) = data.motion_axis[joint.v_index + c];
          s.carrier[c0 + c] = ScrewCarrier::Proximal;
          if (model_joint.type == JointType::Universal && c == 1) s.carrier[c0 + c] = ScrewCarrier::Distal;
          if (model_joint.type == JointType::Spherical) {
            s.carrier[c0 + c] = ScrewCarrier::WorldDirection;
            s.point[c0 + c] = data.position[joint.index];
          }
        }
        continue;
      }
      const Loop& loop = model.loops[static_cast<std::size_t>(joint.index)];
      const Mat3 ra = loop.a.body == kGround ? Mat3::Identity() : data.rotation[loop.a.body];
      const Mat3 rb = loop.b.body == kGround ? Mat3::Identity() : data.rotation[loop.b.body];
      const Vec3 point = (loop.a.body == kGround ? Vec3::Zero() : data.position[loop.a.body]) + ra * loop.a.point;
      switch (loop.type) {
        case LoopType::Spherical:
          for (int c = 0; c < 3; ++c) {
            s.screws.col(c0 + c) = rotation_screw(Vec3::Unit(c), point);
            s.carrier[c0 + c] = ScrewCarrier::WorldDirection;
            s.point[c0 + c] = point;
          }
          break;
        case LoopType::Universal: {
          const Vec3 on_a = ra * loop.axis, on_b = rb * loop.second_axis;
          const Vec3& first = joint.platform_is_a ? on_b : on_a;  // the axis fixed in the limb's last body
          const Vec3& second = joint.platform_is_a ? on_a : on_b;
          s.screws.col(c0) = rotation_screw(first, point);
          s.carrier[c0] = ScrewCarrier::Proximal;
          s.screws.col(c0 + 1) = rotation_screw(second, point);
          s.carrier[c0 + 1] = ScrewCarrier::Distal;
          break;
        }
        case LoopType::Revolute:
          s.screws.col(c0) = rotation_screw(ra * loop.axis, point);
          s.carrier[c0] = ScrewCarrier::Proximal;
          break;
        case LoopType::Prismatic:
          s.screws.col(c0) = make_vec6(Vec3::Zero(), ra * loop.axis);
          s.carrier[c0] = ScrewCarrier::Proximal;
          break;
        default:
          break;
      }
    }
    // S P = Q R; D = Q₁ R₁⁻ᵀ Pᵀ; N = Q₂.
    const int rank = factor_screws(s.screws, s.qr, s.orthogonal, s.transposed_dual, s.dual, s.constraint,
                                   work.rank_tolerance);
    if (rank < k)
      throw InvalidArgument("limb '" + limb.name + "' is singular: its " + std::to_string(k) +
                            " joint screws span only " + std::to_string(rank) + " dimensions");
    // θ̇ = S⁺ V_P = Dᵀ V_P; V_P must lie in span S (no component along N).
    s.rates.noalias() = s.dual.transpose() * platform_velocity;
    const double scale = 1.0 + platform_velocity.norm();
    if (k < 6 && (s.constraint.transpose() * platform_velocity).norm() > work.compatibility_tolerance * scale)
      throw InvalidArgument("the platform twist leaves the span of limb '" + limb.name + "' (misfit " +
                            number((s.constraint.transpose() * platform_velocity).norm()) +
                            "): the motion violates the loop closure");
    // Forward recursion: body twists and the Lie-bracket terms ṡ θ̇ (eqs. 37–43).
    Vec6 velocity = Vec6::Zero();
    s.bias.setZero();
    for (std::size_t j = 0; j < limb.joints.size(); ++j) {
      const LimbJointScrews& joint = limb.joints[j];
      Vec6 relative = Vec6::Zero();
      for (int c = joint.first_freedom; c < joint.first_freedom + joint.freedoms; ++c)
        relative.noalias() += s.screws.col(c) * s.rates[c];
      const Vec6 after = velocity + relative;
      Vec6 bias = Vec6::Zero();
      for (int c = joint.first_freedom; c < joint.first_freedom + joint.freedoms; ++c) {
        const Vec6 column = s.screws.col(c);
        switch (s.carrier[c]) {  // the Lie brackets of eq. (43): [V, θ̇ $]
          case ScrewCarrier::Proximal: bias += s.rates[c] * lie_bracket(Twist(velocity), Twist(column)).plucker; break;
          case ScrewCarrier::Distal: bias += s.rates[c] * lie_bracket(Twist(after), Twist(column)).plucker; break;
          case ScrewCarrier::WorldDirection: {
            const Vec3 point_velocity = velocity.tail<3>() + velocity.head<3>().cross(s.point[c]);
            bias.tail<3>() += s.rates[c] * point_velocity.cross(column.head<3>());
            break;
          }
        }
      }
      work.joint_bias[i][j] = bias;
      s.bias += bias;
      velocity = after;
      if (!joint.cut) {
        work.body_velocity[joint.index] = velocity;
        for (int c = 0; c < joint.freedoms; ++c) v[joint.v_index + c] = s.rates[joint.first_freedom + c];
      }
    }
    // θ̈ = S⁺ (A_P − Σ ṡ θ̇)  (eq. 44 solved for β)
    const Vec6 rest = platform_acceleration - s.bias;
    s.accelerations.noalias() = s.dual.transpose() * rest;
    if (k < 6 && (s.constraint.transpose() * rest).norm() > work.compatibility_tolerance * (1.0 + rest.norm()))
      throw InvalidArgument("the platform acceleration leaves the span of limb '" + limb.name + "' (misfit " +
                            number((s.constraint.transpose() * rest).norm()) + "): the motion violates the loop closure");
    Vec6 acceleration = Vec6::Zero();
    for (std::size_t j = 0; j < limb.joints.size(); ++j) {
      const LimbJointScrews& joint = limb.joints[j];
      acceleration += work.joint_bias[i][j];
      for (int c = joint.first_freedom; c < joint.first_freedom + joint.freedoms; ++c)
        acceleration.noalias() += s.screws.col(c) * s.accelerations[c];
      if (!joint.cut) {
        work.body_acceleration[joint.index] = acceleration;
        for (int c = 0; c < joint.freedoms; ++c) a[joint.v_index + c] = s.accelerations[joint.first_freedom + c];
      }
    }
  }
  for (int b : parallel.platform_bodies) {
    work.body_velocity[b] = platform_velocity;
    work.body_acceleration[b] = platform_acceleration;
  }
}

}  // namespace mechdyn
