// Screw-form limb kinematics (momentum-screw §3.2; screw-kinematics §2.1, §4). See the header.
#include "mechdyn/parallel/limb_kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/parallel/straight_leg.hpp"
#include "mechdyn/screw/lie_bracket.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

// ‖Nᵀ x‖: the part of x along the limb's constraint directions (orthonormal columns).
double component_norm(const LimbScrews& directions, const Vec6& x) {
  double sum = 0.0;
  for (Eigen::Index c = 0; c < directions.cols(); ++c) {
    const double p = directions.col(c).dot(x);
    sum += p * p;
  }
  return std::sqrt(sum);
}

// The body-fixed vector of a limb freedom's screw (ω; p × ω) or (0; d).
Vec6 rotation_screw(const Vec3& axis, const Vec3& point) { return make_vec6(axis, point.cross(axis)); }

}  // namespace

LimbWorkspace::LimbWorkspace(const Model& model, const ParallelModel& parallel) {
  for (const Limb& limb : parallel.limbs) {
    LimbState state;
    const int k = limb.freedoms;
    state.screws.setZero(6, k);
    state.constraint.setZero(6, 6 - k);
    state.rates.setZero(k);
    state.accelerations.setZero(k);
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
  twist.head<3>() = angular_velocity;
  twist.tail<3>() = velocity - angular_velocity.cross(position);  // v_O = ṗ − ω × p
  twist_rate.head<3>() = angular_acceleration;
  twist_rate.tail<3>() =
      acceleration - angular_acceleration.cross(position) - angular_velocity.cross(velocity);  // d/dt v_O
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
    s.closed_form = work.closed_form(limb) &&
                    straight_leg_motion(model, limb, data, platform_velocity, platform_acceleration,
                                        work.compatibility_tolerance, work.closed_form_margin, s, work.body_velocity, work.body_acceleration, v, a);
    if (s.closed_form) continue;
    // S_i: the unit screws of the limb's joints, eqs. (18)–(20).
    for (const LimbJointScrews& joint : limb.joints) {
      const int c0 = joint.first_freedom;
      if (!joint.cut) {
        const Joint& model_joint = model.joints[joint.index];
        for (int c = 0; c < joint.freedoms; ++c) {  // the joint model says how each axis moves
          s.screws.col(c0 + c) = data.motion_axis[joint.v_index + c];
          switch (joint_axis_carrier(model_joint, c)) {
            case AxisCarrier::Parent: s.carrier[c0 + c] = ScrewCarrier::Proximal; break;
            case AxisCarrier::Child: s.carrier[c0 + c] = ScrewCarrier::Distal; break;
            case AxisCarrier::WorldDirection:
              s.carrier[c0 + c] = ScrewCarrier::WorldDirection;
              s.point[c0 + c] = data.position[joint.index];
              break;
            case AxisCarrier::World:  // free joints only, which make_parallel_model refuses
              throw InvalidArgument("joint '" + model_joint.name + "': a free joint cannot be part of a limb");
          }
        }
        continue;
      }
      const Loop& loop = model.loops[static_cast<std::size_t>(joint.index)];
      const Mat3 ra = loop.a.body == kGround ? Mat3::Identity() : data.rotation[loop.a.body];
      const Mat3 rb = loop.b.body == kGround ? Mat3::Identity() : data.rotation[loop.b.body];
      const Vec3 point = (loop.a.body == kGround ? Vec3::Zero() : data.position[loop.a.body]) + ra * loop.a.point;
      // The kind's freedoms (model/cut_joint.hpp): a direction carried by the limb's last
      // body is Proximal, by the platform Distal; the limb side comes first.
      CutFreedom axes[4];
      const int count = cut_joint_freedom_axes(loop, ra, rb, axes);
      auto carrier_of = [&](CutCarrier c) {
        if (c == CutCarrier::World) return ScrewCarrier::WorldDirection;
        if (c == CutCarrier::Both) return ScrewCarrier::Proximal;
        return (c == CutCarrier::A) == joint.platform_is_a ? ScrewCarrier::Distal : ScrewCarrier::Proximal;
      };
      int column = c0;
      for (int pass = 0; pass < 2; ++pass)  // pass 0: all but the Distal ones; pass 1: the Distal ones
        for (int k = 0; k < count; ++k) {
          const ScrewCarrier carrier = carrier_of(axes[k].carrier);
          if ((carrier == ScrewCarrier::Distal) != (pass == 1)) continue;
          s.screws.col(column) = axes[k].rotation ? rotation_screw(axes[k].direction, point)
                                                  : make_vec6(Vec3::Zero(), axes[k].direction);
          s.carrier[column] = carrier;
          if (carrier == ScrewCarrier::WorldDirection) s.point[column] = point;
          ++column;
        }
    }
    // D_i = S_i G⁻¹, N_i ⟂ S_i (G = S_iᵀ S_i = L Lᵀ).
    const int rank = s.gram.factor(s.screws, work.rank_tolerance);
    if (rank < k)
      throw InvalidArgument("limb '" + limb.name + "' is singular: its " + std::to_string(k) +
                            " joint screws span only " + std::to_string(rank) + " dimensions");
    s.gram.reciprocal_basis(s.screws, s.constraint);
    // θ̇ = G⁻¹ Sᵀ V_P; V_P must lie in span S (no component along N).
    s.gram.least_squares(s.screws, platform_velocity, s.rates);
    if (k < 6) {
      const double misfit = component_norm(s.constraint, platform_velocity);
      if (misfit > work.compatibility_tolerance * (1.0 + platform_velocity.norm()))
        throw InvalidArgument("the platform twist leaves the span of limb '" + limb.name + "' (misfit " + number(misfit) +
                              "): the motion violates the loop closure");
    }
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
    s.gram.least_squares(s.screws, rest, s.accelerations);
    if (k < 6) {
      const double misfit = component_norm(s.constraint, rest);
      if (misfit > work.compatibility_tolerance * (1.0 + rest.norm()))
        throw InvalidArgument("the platform acceleration leaves the span of limb '" + limb.name + "' (misfit " +
                              number(misfit) + "): the motion violates the loop closure");
    }
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
