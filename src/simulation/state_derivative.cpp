// State derivative ẋ = (q̇, v̇) of a tree and the checks shared by the integrators.
// See simulation/integrators.hpp.
#include <cmath>
#include <sstream>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

ConfigurationRate::ConfigurationRate(const Model& model)
    : model_(model), rotation_(static_cast<std::size_t>(model.num_bodies()), Mat3::Identity()) {}

void ConfigurationRate::evaluate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                 Eigen::Ref<VecX> q_rate) {
  Mat3 relative_rotation;
  Vec3 relative_translation;
  for (int l = 0; l < model_.num_bodies(); ++l) {
    const Joint& joint = model_.joints[l];
    const int parent = model_.bodies[l].parent;
    const Mat3& parent_rotation = parent == kGround ? Mat3::Identity() : rotation_[parent];
    joint_relative_pose(joint, q.data() + joint.q_index, relative_rotation, relative_translation);
    rotation_[l].noalias() = parent_rotation * relative_rotation;  // eq. (4) of EC
    joint_configuration_rate(joint, q.data() + joint.q_index, v.data() + joint.v_index, parent_rotation,
                             q_rate.data() + joint.q_index);
  }
}

void normalize_configuration(const Model& model, Eigen::Ref<VecX> q) {
  for (const Joint& joint : model.joints) {
    const double norm = joint_normalize(joint, q.data() + joint.q_index);
    if (!(norm > 1e-12) || !std::isfinite(norm)) {
      std::ostringstream message;
      message << "quaternion of joint '" << joint.name << "' has norm " << norm << " and cannot be normalised";
      throw SolverError(message.str());
    }
  }
}

void check_finite_state(const Model& model, double t, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& v) {
  auto fail = [&](const char* what, int index, int body) {
    std::ostringstream message;
    message.precision(17);
    message << "state became non-finite at t = " << t << " s: " << what << "[" << index << "] (joint '"
            << model.joints[body].name << "')";
    throw SolverError(message.str());
  };
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Joint& joint = model.joints[l];
    for (int k = 0; k < joint.nq; ++k)
      if (!std::isfinite(q[joint.q_index + k])) fail("q", joint.q_index + k, l);
    for (int k = 0; k < joint.nv; ++k)
      if (!std::isfinite(v[joint.v_index + k])) fail("v", joint.v_index + k, l);
  }
}

StateDerivative::StateDerivative(const Model& model, AccelerationFunction acceleration)
    : model_(model), acceleration_(std::move(acceleration)), configuration_rate_(model) {
  if (!acceleration_) throw InvalidArgument("state derivative: no acceleration function given");
}

StateDerivative::StateDerivative(const Model& model, ExtendedDerivativeFunction derivative, int auxiliary_size)
    : model_(model), extended_(std::move(derivative)), auxiliary_size_(auxiliary_size), configuration_rate_(model) {
  if (!extended_) throw InvalidArgument("state derivative: no derivative function given");
  if (auxiliary_size < 0) throw InvalidArgument("state derivative: negative auxiliary state size");
}

namespace {
// The joint of velocity coordinate k (for messages).
const std::string& joint_of_velocity(const Model& model, Eigen::Index k) {
  return model.joints[model.dof_body[static_cast<std::size_t>(k)]].name;
}
}  // namespace

void StateDerivative::evaluate(double t, const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> x_rate) {
  const Eigen::Index nq = model_.nq, nv = model_.nv;
  const Eigen::Index nz = auxiliary_size_;
  // A Runge–Kutta stage of a blowing-up motion can leave the finite range before the step
  // ends: that is the integrator's failure (SolverError naming the time and the joint),
  // not bad input for the algorithms the callback calls (which would say InvalidArgument).
  if (!x.allFinite()) {
    check_finite_state(model_, t, x.head(nq), x.segment(nq, nv));
    std::ostringstream message;
    message.precision(17);
    message << "the auxiliary state (friction bristles) became non-finite at t = " << t << " s";
    throw SolverError(message.str());
  }
  configuration_rate_.evaluate(x.head(nq), x.segment(nq, nv), x_rate.head(nq));
  if (extended_)  // x = (q, v, z)
    extended_(t, x.head(nq), x.segment(nq, nv), x.tail(nz), x_rate.segment(nq, nv), x_rate.tail(nz));
  else
    acceleration_(t, x.head(nq), x.tail(nv), x_rate.tail(nv));
  ++evaluations_;
  if (!x_rate.allFinite()) {
    std::ostringstream message;
    message.precision(17);
    for (Eigen::Index k = 0; k < nv; ++k)
      if (!std::isfinite(x_rate[nq + k])) {
        message << "the acceleration became non-finite at t = " << t << " s: a[" << k << "] (joint '"
                << joint_of_velocity(model_, k) << "')";
        throw SolverError(message.str());
      }
    for (Eigen::Index i = 0; i < nq; ++i)
      if (!std::isfinite(x_rate[i])) {
        message << "the configuration rate became non-finite at t = " << t << " s: q'[" << i << "]";
        throw SolverError(message.str());
      }
    message << "the rate of the auxiliary state (friction bristles) became non-finite at t = " << t << " s";
    throw SolverError(message.str());
  }
}

}  // namespace mechdyn
