// `mechdyn codegen` on model format 3 (../shared/spec/force-elements.md, docs/codegen.md
// "Armature and force elements"): the generated C (and C++) of trees with armature,
// spring-dampers (body–body, body–ground, damped, preloaded, and the k L0 = T0 form that
// needs no division) and joint spring-dampers is compiled, loaded, and compared at random
// states with the library's compute_all_terms, both methods (Recursive: RNEA and ABA;
// Explicit: the resultant iteration and Lᵀ D L) — M (armature on the diagonal), h, tau =
// M a + h − Q_f, a from M a = tau + Q_f − h, Q_f (eval's applied_forces) and the joint
// reactions — to 1e-12 relative to each quantity's scale (its largest entry, at least 1);
// plus a pendulum in closed form, and the coincident-points status. Each test names the
// bug it would catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "compiled_codegen.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/io/model_file.hpp"
#include "random_model.hpp"

namespace {

using mechdyn::AllTermsOptions;
using mechdyn::CodegenForwardDynamics;
using mechdyn::CodegenLanguage;
using mechdyn::Data;
using mechdyn::DynamicsMethod;
using mechdyn::ForceElement;
using mechdyn::ForceElementType;
using mechdyn::MatX;
using mechdyn::Model;
using mechdyn::VecX;
using mechdyn::testing::CompiledCodegen;
using mechdyn::testing::compile_codegen;
using mechdyn::testing::scale_of;

constexpr double kTolerance = 1e-12;

/// `model` with armature on every other one-coordinate joint, a joint spring-damper on the
/// others, and four spring-dampers: damped and preloaded between two bodies, to the ground,
/// from the ground, and one with k L0 = T0 and no damping (F = k d, no division).
Model with_force_elements(Model model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.1, 1.0), p(-0.5, 0.5);
  const int n = model.num_bodies();
  int count = 0;
  for (int i = 0; i < n; ++i) {
    mechdyn::Joint& joint = model.joints[static_cast<std::size_t>(i)];
    if (joint.nv != 1) continue;
    if (count++ % 2 == 0) {
      joint.armature = 0.05 * u(rng);
    } else {
      ForceElement e;
      e.name = "K_" + joint.name;
      e.type = ForceElementType::JointSpringDamper;
      e.joint = i;
      e.stiffness = 10 * u(rng), e.damping = u(rng), e.rest = p(rng);
      model.forces.push_back(e);
    }
  }
  auto point = [&](int body) {
    mechdyn::BodyPoint at;
    at.body = body;
    at.point = mechdyn::Vec3(p(rng), p(rng), p(rng)) + (body == mechdyn::kGround ? mechdyn::Vec3(0, 0, 3) : mechdyn::Vec3::Zero());
    return at;
  };
  auto spring = [&](const std::string& name, int a, int b, double k, double length, double c, double preload) {
    ForceElement e;
    e.name = name;
    e.type = ForceElementType::SpringDamper;
    e.a = point(a), e.b = point(b);
    e.stiffness = k, e.free_length = length, e.damping = c, e.preload = preload;
    model.forces.push_back(e);
  };
  spring("S_between", n - 1, n / 2, 50 * u(rng), 0.3 * u(rng), 2 * u(rng), 5 * u(rng));
  spring("S_to_ground", n - 1, mechdyn::kGround, 80 * u(rng), 0.5, 0.0, 0.0);
  spring("S_from_ground", mechdyn::kGround, n / 3, 30 * u(rng), 0.0, 3 * u(rng), 0.0);
  const double k = 40 * u(rng), free_length = 0.2;
  spring("S_no_division", 0, n - 2, k, free_length, 0.0, k * free_length);  // c = 0, k L0 = T0: F = k d
  mechdyn::finalize_model(model, "test model");
  return model;
}

double relative(const VecX& generated, const VecX& library) {
  return (generated - library).cwiseAbs().maxCoeff() / scale_of(library);
}

struct Worst {  // largest relative differences seen, printed for docs/codegen.md
  double mass_matrix = 0, bias = 0, tau = 0, forward = 0, applied = 0, reactions = 0;
};

/// The generated functions against compute_all_terms (both methods) at `states` random states.
Worst compare_with_library(const Model& model, const CompiledCodegen& code, unsigned seed, int states) {
  Worst worst;
  if (code.forward_dynamics == nullptr) return worst;
  std::mt19937 rng(seed);
  const int nv = model.nv, n = model.num_bodies();
  for (const DynamicsMethod method : {DynamicsMethod::Recursive, DynamicsMethod::Explicit}) {
    const std::string which = method == DynamicsMethod::Recursive ? " (recursive)" : " (explicit)";
    AllTermsOptions options;
    options.method = method;
    Data data(model);
    for (int s = 0; s < states; ++s) {
      const VecX q = mechdyn::testing::random_configuration(model, rng);
      const VecX v = mechdyn::testing::random_vector(nv, rng);
      const VecX a = mechdyn::testing::random_vector(nv, rng);
      const VecX tau_in = mechdyn::testing::random_vector(nv, rng, 10.0);
      mechdyn::compute_all_terms(model, data, q, v, &a, &tau_in, options);
      const std::string where = model.name + which + " state " + std::to_string(s);

      MatX m(nv, nv);
      code.mass_matrix(q.data(), m.data());
      const Eigen::Map<const VecX> m_flat(data.mass_matrix.data(), data.mass_matrix.size());
      const double m_error = (m.transpose() - data.mass_matrix).cwiseAbs().maxCoeff() / scale_of(m_flat);
      EXPECT_LE(m_error, kTolerance) << where << " M";
      worst.mass_matrix = std::max(worst.mass_matrix, m_error);

      VecX h(nv);
      code.bias(q.data(), v.data(), h.data());
      const double h_error = relative(h, data.bias_force);
      EXPECT_LE(h_error, kTolerance) << where << " h";
      worst.bias = std::max(worst.bias, h_error);

      VecX tau(nv);
      EXPECT_EQ(code.call_inverse_dynamics(q.data(), v.data(), a.data(), tau.data()), 0) << where;
      const double tau_error = relative(tau, data.tau);
      EXPECT_LE(tau_error, kTolerance) << where << " tau = M a + h - Q_f";
      worst.tau = std::max(worst.tau, tau_error);

      VecX ddq(nv);
      EXPECT_EQ(code.forward_dynamics(q.data(), v.data(), tau_in.data(), ddq.data()), 0) << where;
      const double a_error = relative(ddq, data.ddq);
      EXPECT_LE(a_error, kTolerance) << where << " a from M a = tau + Q_f - h";
      worst.forward = std::max(worst.forward, a_error);

      VecX applied(nv);
      EXPECT_EQ(code.call_applied_force(q.data(), v.data(), applied.data()), 0) << where;
      const double q_error = relative(applied, data.applied_force);
      EXPECT_LE(q_error, kTolerance) << where << " Q_f";
      worst.applied = std::max(worst.applied, q_error);

      // reactions (world; torque about the child's origin), with the elements' wrenches
      VecX force(3 * n), torque(3 * n), force_library(3 * n), torque_library(3 * n);
      EXPECT_EQ(code.call_joint_reactions(q.data(), v.data(), a.data(), force.data(), torque.data()), 0) << where;
      for (int i = 0; i < n; ++i) {
        force_library.segment<3>(3 * i) = data.reaction_force[static_cast<std::size_t>(i)];
        torque_library.segment<3>(3 * i) = data.reaction_torque[static_cast<std::size_t>(i)];
      }
      const double r_error = std::max(relative(force, force_library), relative(torque, torque_library));
      EXPECT_LE(r_error, kTolerance) << where << " reactions";
      worst.reactions = std::max(worst.reactions, r_error);
    }
  }
  return worst;
}

void print(const std::string& label, const Worst& w) {
  std::printf("%s: M %.1e, h %.1e, tau %.1e, a %.1e, Q_f %.1e, reactions %.1e\n", label.c_str(), w.mass_matrix, w.bias,
              w.tau, w.forward, w.applied, w.reactions);
}

// Bug caught: any term of format 3 missing or mis-signed in the generated code — the
// armature left off M's diagonal (or put into h), a spring-damper's wrench applied to the
// wrong body, about the wrong point or in the wrong frame, its damping rate L̇ from the
// wrong velocity, Q_f added where the library subtracts it, a joint spring on the wrong
// coordinate, the reactions without the elements' wrenches — on trees with every joint
// type (the Lᵀ D L forward dynamics), in C and C++.
TEST(CodegenForceElements, EveryJointTypeMatchesComputeAllTerms) {
  for (const unsigned seed : {3u, 11u}) {
    const Model model = with_force_elements(mechdyn::testing::tree_with_every_joint_type(seed, 9), seed);
    ASSERT_TRUE(model.has_armature && model.has_force_elements);
    for (const CodegenLanguage language : {CodegenLanguage::C, CodegenLanguage::Cpp}) {
      CompiledCodegen code;
      compile_codegen(model, language, "elements_" + std::to_string(seed), code, CodegenForwardDynamics::Factor);
      ASSERT_NE(code.forward_dynamics, nullptr);
      print("every joint type, seed " + std::to_string(seed) + (language == CodegenLanguage::C ? " C" : " C++"),
            compare_with_library(model, code, seed, 10));
    }
  }
}

// Bug caught: the articulated-body form of the generated forward dynamics without the
// armature in D_i, the spring wrenches in p^A or the joint efforts in u_i (the factor form
// tested above would not see it); revolute and prismatic trees.
TEST(CodegenForceElements, ArticulatedFormMatchesComputeAllTerms) {
  mechdyn::testing::RandomTreeOptions tree;
  tree.bodies = 8;
  tree.all_joint_types = false;
  for (const unsigned seed : {5u, 8u}) {
    const Model model = with_force_elements(mechdyn::testing::random_tree(seed, tree), seed);
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::C, "articulated_" + std::to_string(seed), code,
                    CodegenForwardDynamics::Articulated);
    ASSERT_NE(code.forward_dynamics, nullptr);
    EXPECT_NE(code.text("articulated_" + std::to_string(seed) + ".c").find("articulated-body algorithm"), std::string::npos);
    print("articulated, seed " + std::to_string(seed), compare_with_library(model, code, seed, 10));
  }
}

// Bug caught: the friction function of a format-3 model computing its normal loads from
// reactions without the springs' wrenches, or τ_d without − Q_f or the armature — the
// five-axis Stribeck tree (load-dependent friction on every joint) with the elements added,
// against compute_all_terms' tau_with_friction and friction_effort (both methods).
TEST(CodegenForceElements, FrictionWithElementsMatchesComputeAllTerms) {
  const Model model = with_force_elements(mechdyn::testing::example_model("five_axis_tree_stribeck"), 21);
  for (const CodegenLanguage language : {CodegenLanguage::C, CodegenLanguage::Cpp}) {
    CompiledCodegen code;
    compile_codegen(model, language, "stribeck_elements", code);
    ASSERT_NE(code.inverse_dynamics_with_friction_status, nullptr) << "a damped spring: a status is expected";
    std::mt19937 rng(21);
    double worst = 0;
    for (const DynamicsMethod method : {DynamicsMethod::Recursive, DynamicsMethod::Explicit}) {
      AllTermsOptions options;
      options.method = method;
      Data data(model);
      for (int s = 0; s < 10; ++s) {
        const VecX q = mechdyn::testing::random_configuration(model, rng);
        const VecX v = mechdyn::testing::random_vector(model.nv, rng);
        const VecX a = mechdyn::testing::random_vector(model.nv, rng);
        mechdyn::compute_all_terms(model, data, q, v, &a, nullptr, options);
        VecX tau_d(model.nv), friction(model.nv);
        ASSERT_EQ(code.call_inverse_dynamics_with_friction(q.data(), v.data(), a.data(), tau_d.data(), friction.data()), 0);
        const double error = std::max(relative(tau_d, data.tau_with_friction), relative(friction, data.friction_effort));
        EXPECT_LE(error, kTolerance) << "state " << s;
        worst = std::max(worst, error);
      }
    }
    std::printf("five_axis_tree_stribeck with elements%s: tau_d, friction %.1e\n",
                language == CodegenLanguage::C ? " C" : " C++", worst);
  }
}

// A pendulum about z hanging along −y (gravity −y): com at l below the axis, I_c about z at
// the com, armature A, a joint spring-damper (k, c, rest), and a spring-damper from the
// com to the ground point (D, −l, 0). By hand (Lagrange):
//   M = I_c + m l² + A
//   h = m g l sin q                         (V = −m g l cos q, ∂V/∂q)
//   p(q) = (l sin q, −l cos q),  d = (D − l sin q, l cos q − l),  L = |d|
//   ∂L/∂q = −(d · ∂p/∂q) / L,  ∂p/∂q = (l cos q, l sin q),  L̇ = ∂L/∂q v
//   T = k_s (L − L0) + c_s L̇ + T0,  Q_f = −k (q − rest) − c v − T ∂L/∂q
//   tau = M a + h − Q_f,   a = (tau + Q_f − h) / M
// Bug caught: any of the above wrong in a way the library shares (the random comparison
// would not see a convention both got wrong).
TEST(CodegenForceElements, PendulumInClosedForm) {
  const double m = 2.0, l = 0.7, ic = 0.05, armature = 0.3, g = 9.81;
  const double k = 12.0, c = 0.4, rest = 0.25, ks = 150.0, l0 = 1.5, cs = 3.0, t0 = 7.0, reach = 2.0;
  const std::string yaml =
      "mechdyn: 3\nname: pendulum\ngravity: [0, -9.81, 0]\nbodies:\n"
      "  - {name: link, parent: ground, joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], "
      "armature: 0.3}, mass: 2.0, com: [0, -0.7, 0], inertia: {diag: [0.05, 0.05, 0.05]}}\n"
      "forces:\n"
      "  - {name: K, type: joint-spring-damper, joint: J, stiffness: 12, damping: 0.4, rest: 0.25}\n"
      "  - {name: S, type: spring-damper, a: {body: link, point: [0, -0.7, 0]}, b: {body: ground, point: [2, -0.7, 0]}, "
      "stiffness: 150, free_length: 1.5, damping: 3, preload: 7}\n";
  const Model model = mechdyn::parse_model_string(yaml, "pendulum.yaml");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "pendulum", code);
  ASSERT_NE(code.forward_dynamics, nullptr);
  for (const double q : {-1.2, 0.0, 0.4, 2.5}) {
    const double v = 0.8 - 0.3 * q, a = 1.1 + q;
    const double mass = ic + m * l * l + armature;
    const double h = m * g * l * std::sin(q);
    const double dx = reach - l * std::sin(q), dy = l * std::cos(q) - l;
    const double length = std::hypot(dx, dy);
    const double dl_dq = -(dx * l * std::cos(q) + dy * l * std::sin(q)) / length;
    const double tension = ks * (length - l0) + cs * dl_dq * v + t0;
    const double applied = -k * (q - rest) - c * v - tension * dl_dq;
    const double tau = mass * a + h - applied;

    double m_generated = 0, h_generated = 0, tau_generated = 0, a_generated = 0, q_generated = 0;
    code.mass_matrix(&q, &m_generated);
    code.bias(&q, &v, &h_generated);
    ASSERT_EQ(code.call_inverse_dynamics(&q, &v, &a, &tau_generated), 0);
    ASSERT_EQ(code.forward_dynamics(&q, &v, &tau, &a_generated), 0);
    ASSERT_EQ(code.call_applied_force(&q, &v, &q_generated), 0);
    EXPECT_NEAR(m_generated, mass, 1e-14 * mass) << q;
    EXPECT_NEAR(h_generated, h, 1e-13 * std::max(1.0, std::abs(h))) << q;
    EXPECT_NEAR(q_generated, applied, 1e-12 * std::max(1.0, std::abs(applied))) << q;
    EXPECT_NEAR(tau_generated, tau, 1e-12 * std::max(1.0, std::abs(tau))) << q;
    EXPECT_NEAR(a_generated, a, 1e-12 * std::max(1.0, std::abs(a))) << q;
  }
}

// Bug caught: a spring-damper whose points coincide (L = 0: no direction) passing NaN or
// infinity on in the generated code where the library throws SolverError; or the
// k L0 = T0, c = 0 spring (which the library lets exert nothing there) refused or given a
// status; or points that coincide at every q (the library fails at every state) generated.
// Here the pendulum's point (0, −1, 0) meets the ground point (0, −1, 0) at q = 0 only: every
// function that evaluates the spring returns −(j + 1) there and writes nothing, and works
// at q = 0.3.
TEST(CodegenForceElements, CoincidentSpringPointsReturnAStatus) {
  const std::string body =
      "mechdyn: 3\nname: NAME\ngravity: [0, -9.81, 0]\nbodies:\n"
      "  - {name: link, parent: ground, joint: {name: J, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}, "
      "mass: 1.0, com: [0, -0.5, 0], inertia: {diag: [0.05, 0.05, 0.05]}}\n"
      "forces:\n  - {name: K, type: joint-spring-damper, joint: J, stiffness: 1}\n"  // element 0
      "  - {name: S, type: spring-damper, a: {body: link, point: [0, -1, 0]}, b: {body: ground, point: [0, -1, 0]}, ";
  auto model_with = [&](const std::string& name, const std::string& spring) {
    std::string text = body;
    text.replace(text.find("NAME"), 4, name);
    return mechdyn::parse_model_string(text + spring + "}\n", name + ".yaml");
  };
  const double v = 0.5, a = 0.1, tau_in = 0.2;
  {  // k L0 != T0
    const Model model = model_with("coincide", "stiffness: 10, free_length: 0.5");
    Data data(model);
    const VecX zero = VecX::Zero(1), vv = VecX::Constant(1, v), av = VecX::Constant(1, a);
    EXPECT_THROW(mechdyn::compute_all_terms(model, data, zero, vv, &av), mechdyn::SolverError);
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::Cpp, "coincide", code);
    ASSERT_NE(code.forward_dynamics, nullptr);
    ASSERT_NE(code.inverse_dynamics_status, nullptr) << "inverse_dynamics should return a status";
    const double q = 0.0;
    double out = 42.0, force[3] = {42, 42, 42}, torque[3] = {42, 42, 42};
    EXPECT_EQ(code.call_inverse_dynamics(&q, &v, &a, &out), -2);
    EXPECT_EQ(code.forward_dynamics(&q, &v, &tau_in, &out), -2);
    EXPECT_EQ(code.call_applied_force(&q, &v, &out), -2);
    EXPECT_EQ(code.call_joint_reactions(&q, &v, &a, force, torque), -2);
    EXPECT_EQ(out, 42.0) << "an output was written";
    EXPECT_EQ(force[0], 42.0) << "an output was written";
    const double moved = 0.3;
    const VecX qv = VecX::Constant(1, moved);
    mechdyn::compute_all_terms(model, data, qv, vv, &av);
    EXPECT_EQ(code.call_inverse_dynamics(&moved, &v, &a, &out), 0);
    EXPECT_NEAR(out, data.tau[0], 1e-12 * scale_of(data.tau));
  }
  {  // c = 0, k L0 = T0 (here both 0): F = k d, nothing at L = 0, no status
    const Model model = model_with("harmless", "stiffness: 10, free_length: 0");
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::C, "harmless", code);
    ASSERT_NE(code.inverse_dynamics, nullptr) << "inverse_dynamics should stay void";
    Data data(model);
    const double q = 0.0;
    const VecX qv = VecX::Constant(1, q), vv = VecX::Constant(1, v), av = VecX::Constant(1, a);
    mechdyn::compute_all_terms(model, data, qv, vv, &av);
    double tau = 0;
    code.inverse_dynamics(&q, &v, &a, &tau);
    EXPECT_NEAR(tau, data.tau[0], 1e-12 * scale_of(data.tau));
  }
  {  // points on the axis: L = 0 at every q
    std::string text = body;
    text.replace(text.find("NAME"), 4, "axis");
    const std::string points = "point: [0, -1, 0]}, b: {body: ground, point: [0, -1, 0]}";
    text.replace(text.find(points), points.size(), "point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}");
    const Model model = mechdyn::parse_model_string(text + "stiffness: 10, free_length: 0.5}\n", "axis.yaml");
    try {
      (void)mechdyn::generate_code(model);
      ADD_FAILURE() << "a spring-damper with coincident points at every q was generated";
    } catch (const mechdyn::ModelError& e) {
      EXPECT_NE(std::string(e.what()).find("force 'S': the spring-damper's points coincide at every configuration"),
                std::string::npos)
          << e.what();
    }
  }
}

// Bug caught: the library entry point accepting a model with an element codegen cannot
// express (the CLI's refusals are in tests/errors/test_codegen_errors.cpp): a ModelError
// naming the element, not a silent drop.
TEST(CodegenForceElements, LibraryRefusesUnsupportedElements) {
  Model model = mechdyn::testing::random_tree(4, {});
  int joint = -1;
  for (int i = 0; i < model.num_bodies(); ++i)
    if (model.joints[static_cast<std::size_t>(i)].nv == 1) joint = i;
  ASSERT_GE(joint, 0);
  ForceElement stop;
  stop.name = "stop";
  stop.type = ForceElementType::JointStop;
  stop.joint = joint, stop.lower = -1, stop.upper = 1, stop.stiffness = 100;
  model.forces.push_back(stop);
  mechdyn::finalize_model(model, "test model");
  try {
    (void)mechdyn::generate_code(model);
    ADD_FAILURE() << "a joint-stop was generated";
  } catch (const mechdyn::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("force 'stop': joint-stop elements cannot be generated"), std::string::npos)
        << e.what();
  }
}

}  // namespace
