// The model rules of joint friction (model/joint.hpp, check_joint_friction): which joint
// types take friction and which parameter values are valid. Checked once, by
// finalize_model (src/model/model.cpp); the friction models themselves are in friction/.
#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn {

namespace {

[[noreturn]] void fail(const std::string& element, const std::string& key, const std::string& problem, double value) {
  std::ostringstream message;
  message.precision(17);
  message << element << " friction." << key << ": " << problem << ", got " << value;
  throw ModelError(message.str());
}

}  // namespace

void check_joint_friction(const JointFriction& f, JointType type, const std::string& element) {
  if (type != JointType::Revolute && type != JointType::Prismatic)
    throw ModelError(element + " friction: friction is defined only for revolute and prismatic joints, not " +
                     joint_type_name(type));
  auto nonnegative = [&](const char* key, double value) {
    if (!std::isfinite(value) || value < 0.0) fail(element, key, "must be finite and non-negative", value);
  };
  auto positive = [&](const char* key, double value) {
    if (!std::isfinite(value) || value <= 0.0) fail(element, key, "must be finite and positive", value);
  };
  nonnegative("coulomb", f.coulomb);
  nonnegative("viscous", f.viscous);
  if (f.model != FrictionModel::CoulombViscous) {
    nonnegative("static", f.static_coefficient);
    if (f.static_coefficient < f.coulomb) {
      std::ostringstream message;
      message.precision(17);
      message << element << " friction.static: static (k_s = " << f.static_coefficient
              << ") must not be below coulomb (k_c = " << f.coulomb << ")";
      throw ModelError(message.str());
    }
    positive("stribeck_velocity", f.stribeck_velocity);
  }
  if (f.model == FrictionModel::LuGre) {
    positive("bristle_stiffness", f.bristle_stiffness);
    nonnegative("bristle_damping", f.bristle_damping);
  }
  if (f.load) {
    if (type == JointType::Revolute) positive("load.pin_radius", f.load->pin_radius);
    positive("load.bending_arm", f.load->bending_arm);
    positive("load.friction_arm", f.load->friction_arm);
  }
}

}  // namespace mechdyn
