// Every invalid friction parameter of a model built in code gives a ModelError naming the
// joint and the parameter (finalize_model → check_joint_friction), and a friction too
// strong for the normal-load fixed point gives a SolverError that says so.
#include <gtest/gtest.h>

#include <functional>

#include "mechdyn/errors.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

Model one_joint(JointType type, const JointFriction& friction) {
  Model model;
  model.bodies.push_back(Body{"B", kGround, 1.0, Vec3(0.2, 0, 0), Vec3(0.01, 0.01, 0.01).asDiagonal()});
  Joint joint;
  joint.name = "J";
  joint.type = type;
  joint.axis = Vec3::UnitZ();
  joint.friction = friction;
  model.joints.push_back(joint);
  return model;
}

JointFriction valid(FrictionModel kind) {
  JointFriction f;
  f.model = kind;
  f.coulomb = 0.1;
  f.static_coefficient = 0.2;
  f.viscous = 0.01;
  f.stribeck_velocity = 0.05;
  f.bristle_stiffness = 1e3;
  f.bristle_damping = 1.0;
  f.load = FrictionLoad{0.01, 0.02, 0.015};
  return f;
}

struct Case {
  const char* name;
  FrictionModel model;
  JointType type;
  std::function<void(JointFriction&)> edit;
  const char* expected;
};

// Catches: a check missing for any parameter, a message that does not name the joint
// and the parameter.
TEST(FrictionErrors, EveryInvalidParameterIsRefused) {
  const std::vector<Case> cases = {
      {"negative coulomb", FrictionModel::CoulombViscous, JointType::Revolute, [](JointFriction& f) { f.coulomb = -0.1; }, "friction.coulomb: must be finite and non-negative"},
      {"NaN coulomb", FrictionModel::Stribeck, JointType::Revolute, [](JointFriction& f) { f.coulomb = NAN; }, "friction.coulomb"},
      {"negative viscous", FrictionModel::Stribeck, JointType::Prismatic, [](JointFriction& f) { f.viscous = -1; }, "friction.viscous: must be finite and non-negative"},
      {"negative static", FrictionModel::Stribeck, JointType::Revolute, [](JointFriction& f) { f.static_coefficient = -1; }, "friction.static: must be finite and non-negative"},
      {"static below coulomb (stribeck)", FrictionModel::Stribeck, JointType::Revolute, [](JointFriction& f) { f.static_coefficient = 0.05; }, "must not be below coulomb"},
      {"static below coulomb (lugre)", FrictionModel::LuGre, JointType::Revolute, [](JointFriction& f) { f.static_coefficient = 0.05; }, "must not be below coulomb"},
      {"static below coulomb (brown_mcphee)", FrictionModel::BrownMcPhee, JointType::Prismatic, [](JointFriction& f) { f.static_coefficient = 0.05; }, "must not be below coulomb"},
      {"zero stribeck velocity", FrictionModel::Stribeck, JointType::Revolute, [](JointFriction& f) { f.stribeck_velocity = 0; }, "friction.stribeck_velocity: must be finite and positive"},
      {"negative stribeck velocity", FrictionModel::BrownMcPhee, JointType::Revolute, [](JointFriction& f) { f.stribeck_velocity = -0.1; }, "friction.stribeck_velocity"},
      {"zero bristle stiffness", FrictionModel::LuGre, JointType::Revolute, [](JointFriction& f) { f.bristle_stiffness = 0; }, "friction.bristle_stiffness: must be finite and positive"},
      {"negative bristle damping", FrictionModel::LuGre, JointType::Revolute, [](JointFriction& f) { f.bristle_damping = -1; }, "friction.bristle_damping: must be finite and non-negative"},
      {"zero pin radius", FrictionModel::CoulombViscous, JointType::Revolute, [](JointFriction& f) { f.load->pin_radius = 0; }, "friction.load.pin_radius: must be finite and positive"},
      {"negative bending arm", FrictionModel::CoulombViscous, JointType::Prismatic, [](JointFriction& f) { f.load->bending_arm = -0.1; }, "friction.load.bending_arm"},
      {"zero friction arm", FrictionModel::Stribeck, JointType::Revolute, [](JointFriction& f) { f.load->friction_arm = 0; }, "friction.load.friction_arm"},
      {"friction on a spherical joint", FrictionModel::CoulombViscous, JointType::Spherical, [](JointFriction&) {}, "only for revolute and prismatic joints"},
  };
  for (const Case& c : cases) {
    JointFriction f = valid(c.model);
    c.edit(f);
    Model model = one_joint(c.type, f);
    try {
      finalize_model(model, "code");
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const ModelError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("joint 'J'"), std::string::npos) << c.name << ": " << message;
      EXPECT_NE(message.find(c.expected), std::string::npos) << c.name << ": " << message;
    }
  }
  // Valid parameters of every model pass; the pin radius is not needed on a prismatic joint.
  for (FrictionModel kind : {FrictionModel::CoulombViscous, FrictionModel::Stribeck, FrictionModel::LuGre,
                             FrictionModel::BrownMcPhee}) {
    Model model = one_joint(JointType::Revolute, valid(kind));
    EXPECT_NO_THROW(finalize_model(model, "code"));
  }
  JointFriction prismatic = valid(FrictionModel::Stribeck);
  prismatic.load->pin_radius = 0.0;
  Model model = one_joint(JointType::Prismatic, prismatic);
  EXPECT_NO_THROW(finalize_model(model, "code"));
}

// A joint whose friction grows faster with its own acceleration than the inertia
// (k_c R_n dN/dq̈ > M: here a prismatic slider whose normal load f_p = m |a_c| with a
// light body and k_c = 50 on a lever) makes the fixed point diverge: a SolverError that
// names the joint and the cause, never NaN. Catches: a silent non-converged result.
TEST(FrictionErrors, DivergingFixedPointIsASolverError) {
  Model model;
  model.gravity = Vec3::Zero();
  model.bodies.push_back(Body{"arm", kGround, 1.0, Vec3(1.0, 0, 0), Vec3(0.01, 0.01, 0.01).asDiagonal()});
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.axis = Vec3::UnitZ();
  JointFriction f;
  f.coulomb = 50.0;  // τ_f = 50 · R_p · f_r with f_r = m |a_c| = |q̈| · 1 m: slope 5 > inertia 1.01
  f.load = FrictionLoad{0.1, 1.0, 1.0};
  hinge.friction = f;
  model.joints.push_back(hinge);
  finalize_model(model, "diverging");
  Data data(model);
  const VecX q = VecX::Zero(1), v = VecX::Constant(1, 1.0), tau = VecX::Constant(1, 1.0);
  try {
    forward_dynamics_with_friction(model, data, q, v, tau);
    ADD_FAILURE() << "no error, ddq = " << data.ddq[0];
  } catch (const SolverError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("no convergence"), std::string::npos) << message;
    EXPECT_NE(message.find("'hinge'"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace mechdyn
