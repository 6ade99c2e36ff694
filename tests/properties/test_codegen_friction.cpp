// `mechdyn codegen` with load-dependent joint friction (docs/codegen.md): the generated
// inverse_dynamics_with_friction(q, v, a, tau_d, friction) is compiled with the system
// compiler, loaded, and compared with the library's inverse_dynamics_with_friction
// (LuGreEvaluation::SteadyState, what `mechdyn eval` reports) — tau_with_friction and
// friction_effort — and the generated inverse_dynamics_with_lugre_state with the
// library's LuGreEvaluation::State (friction_state_rate too), to 1e-12 relative to each
// quantity's largest entry (at least 1), at random states and at states with v_k = 0
// exactly (the sign of a Coulomb or Stribeck effort then comes from a_k; both 0: no
// Coulomb part).
//
// What is independent: the library forms the reactions by the world-frame resultant
// iteration (EC §3.1) and splits them in world components with std::hypot
// (joint_kinds/*.hpp split_reaction); the generated code forms them by body-frame RNEA and
// splits them in body components with sqrt of the folded sum of squares. The friction
// laws themselves (eq. 42, 52, Brown–McPhee) are the same formulas written twice.
//
// Mutations tried by hand on symbolic_friction.cpp (each fails the tests below; see
// docs/codegen.md "Checks"): the axial load without |·| (nᵀf instead of |nᵀf|); the
// sign taken from v alone (0 at v = 0); R_n in place of R_b in the normal load; LuGre's
// ż with v in place of |v|.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "compiled_codegen.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/io/model_file.hpp"
#include "random_model.hpp"

namespace {

using mechdyn::CodegenLanguage;
using mechdyn::Data;
using mechdyn::FrictionModel;
using mechdyn::JointType;
using mechdyn::Model;
using mechdyn::VecX;
using mechdyn::testing::CompiledCodegen;
using mechdyn::testing::compile_codegen;
using mechdyn::testing::example_model;
using mechdyn::testing::scale_of;

constexpr double kTolerance = 1e-12;

struct Worst {
  double tau_with_friction = 0, friction = 0;
  double lugre_tau = 0, lugre_friction = 0, lugre_rate = 0;  // inverse_dynamics_with_lugre_state
  int lugre_states = 0;
  int states_at_rest = 0;  // coordinates with v = 0 exactly whose friction had a Coulomb part from a
};

/// Compares the generated friction ID with the library's at `states` states: one in three
/// random, one in three with every other v_k = 0, one in three with v = 0 and every third
/// a_k = 0 too.
Worst compare_friction(const Model& model, const CompiledCodegen& code, unsigned seed, int states) {
  Worst worst;
  EXPECT_NE(code.inverse_dynamics_with_friction, nullptr) << model.name << ": no friction function generated";
  if (code.inverse_dynamics_with_friction == nullptr) return worst;
  Data data(model);
  std::mt19937 rng(seed);
  const int nv = model.nv;
  for (int s = 0; s < states; ++s) {
    const VecX q = mechdyn::testing::random_configuration(model, rng);
    VecX v = mechdyn::testing::random_vector(nv, rng);
    VecX a = mechdyn::testing::random_vector(nv, rng, 3.0);
    if (s % 3 == 1)
      for (int k = 0; k < nv; k += 2) v[k] = 0.0;
    if (s % 3 == 2) {
      v.setZero();
      for (int k = 0; k < nv; k += 3) a[k] = 0.0;
    }
    const VecX tau_library =
        mechdyn::inverse_dynamics_with_friction(model, data, q, v, a, mechdyn::LuGreEvaluation::SteadyState);
    const VecX friction_library = data.friction_effort;
    VecX tau_generated(nv), friction_generated(nv);
    code.inverse_dynamics_with_friction(q.data(), v.data(), a.data(), tau_generated.data(), friction_generated.data());
    const double tau_error = (tau_generated - tau_library).cwiseAbs().maxCoeff() / scale_of(tau_library);
    const double friction_error =
        (friction_generated - friction_library).cwiseAbs().maxCoeff() / scale_of(friction_library);
    EXPECT_LE(tau_error, kTolerance) << model.name << " tau_with_friction at state " << s;
    EXPECT_LE(friction_error, kTolerance) << model.name << " friction_effort at state " << s << "\n generated "
                                          << friction_generated.transpose() << "\n library   "
                                          << friction_library.transpose();
    worst.tau_with_friction = std::max(worst.tau_with_friction, tau_error);
    worst.friction = std::max(worst.friction, friction_error);
    if (code.inverse_dynamics_with_lugre_state != nullptr) {  // LuGreEvaluation::State at random bristle deflections
      const VecX z = mechdyn::testing::random_vector(nv, rng, 1e-3);
      data.friction_state = z;
      const VecX tau_state =
          mechdyn::inverse_dynamics_with_friction(model, data, q, v, a, mechdyn::LuGreEvaluation::State);
      VecX tau_out(nv), friction_out(nv), rate_out(nv);
      code.inverse_dynamics_with_lugre_state(q.data(), v.data(), a.data(), z.data(), tau_out.data(), friction_out.data(),
                                             rate_out.data());
      const double errors[3] = {
          (tau_out - tau_state).cwiseAbs().maxCoeff() / scale_of(tau_state),
          (friction_out - data.friction_effort).cwiseAbs().maxCoeff() / scale_of(data.friction_effort),
          (rate_out - data.friction_state_rate).cwiseAbs().maxCoeff() / scale_of(data.friction_state_rate)};
      EXPECT_LE(errors[0], kTolerance) << model.name << " LuGre-state tau_with_friction at state " << s;
      EXPECT_LE(errors[1], kTolerance) << model.name << " LuGre-state friction_effort at state " << s;
      EXPECT_LE(errors[2], kTolerance) << model.name << " LuGre-state friction_state_rate at state " << s << "\n generated "
                                       << rate_out.transpose() << "\n library   " << data.friction_state_rate.transpose();
      worst.lugre_tau = std::max(worst.lugre_tau, errors[0]);
      worst.lugre_friction = std::max(worst.lugre_friction, errors[1]);
      worst.lugre_rate = std::max(worst.lugre_rate, errors[2]);
      ++worst.lugre_states;
    }
    for (int u = 0; u < model.num_bodies(); ++u) {
      const mechdyn::Joint& joint = model.joints[static_cast<std::size_t>(u)];
      if (joint.friction && joint.friction->model != FrictionModel::BrownMcPhee && joint.friction->coulomb > 0.0 &&
          v[joint.v_index] == 0.0 && a[joint.v_index] != 0.0)
        ++worst.states_at_rest;
    }
  }
  std::printf("%-34s worst relative difference: tau_with_friction %.1e, friction_effort %.1e (%d joint states at "
              "v = 0 with a Coulomb part)\n",
              model.name.c_str(), worst.tau_with_friction, worst.friction, worst.states_at_rest);
  if (worst.lugre_states > 0)
    std::printf("%-34s LuGre state form (%d states): tau_with_friction %.1e, friction_effort %.1e, z rate %.1e\n",
                model.name.c_str(), worst.lugre_states, worst.lugre_tau, worst.lugre_friction, worst.lugre_rate);
  return worst;
}

/// Friction of `model` (0 … 3: coulomb_viscous, stribeck, lugre, brown_mcphee), with the
/// load block or without, random coefficients that pass check_joint_friction.
mechdyn::JointFriction random_friction(int which, bool load, JointType type, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  mechdyn::JointFriction f;
  f.model = static_cast<FrictionModel>(which);
  f.coulomb = 0.1 + 0.4 * unit(rng);
  f.viscous = 0.05 * unit(rng);
  if (f.model != FrictionModel::CoulombViscous) {
    f.static_coefficient = f.coulomb + 0.3 * unit(rng);
    f.stribeck_velocity = 0.1 + 0.4 * unit(rng);  // |v| ≲ 1: both sides of the Stribeck dip
  }
  if (f.model == FrictionModel::LuGre) {
    f.bristle_stiffness = 1e3;
    f.bristle_damping = 1.0;
  }
  if (load) {
    mechdyn::FrictionLoad arms;
    if (type == JointType::Revolute) arms.pin_radius = 0.01 + 0.02 * unit(rng);
    arms.bending_arm = 0.02 + 0.03 * unit(rng);
    arms.friction_arm = 0.01 + 0.02 * unit(rng);
    f.load = arms;
  }
  return f;
}

/// A seeded random tree whose revolute and prismatic joints get friction, the models in
/// turn (per joint type, so that each type meets every model) with the load block on the
/// first four of each type and without it on the next four; some axes set to ±e_k (the
/// folded principal axes). `all_types`: the other joint types (universal, spherical, free,
/// fixed) stay in the tree, carrying the loads through.
Model friction_tree(unsigned seed, int bodies, bool all_types, bool seen[2][4][2]) {
  mechdyn::testing::RandomTreeOptions options;
  options.bodies = bodies;
  options.all_joint_types = all_types;
  options.allow_free = all_types;
  const Model random = mechdyn::testing::random_tree(seed, options);
  Model model;
  model.name = "friction_tree_" + std::to_string(seed);
  model.gravity = random.gravity;
  model.bodies = random.bodies;
  model.joints = random.joints;
  std::mt19937 rng(seed);
  int count[2] = {0, 0};
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    mechdyn::Joint& joint = model.joints[i];
    if (joint.type != JointType::Revolute && joint.type != JointType::Prismatic) continue;
    if (i % 3 == 0) {
      joint.axis = mechdyn::Vec3::Zero();
      joint.axis[static_cast<int>(i % 3)] = i % 2 == 0 ? 1.0 : -1.0;
    }
    const int type = joint.type == JointType::Revolute ? 0 : 1;
    const int which = count[type] % 4;
    const bool load = (count[type] / 4) % 2 == 0;
    ++count[type];
    joint.friction = random_friction(which, load, joint.type, rng);
    seen[type][which][load ? 1 : 0] = true;
  }
  mechdyn::finalize_model(model, model.name);
  return model;
}

// Bug caught: a wrong load decomposition (axis, |·|, which of f and τ is axial), normal
// load (R_p, R_b, R_n), Coulomb–viscous law or sign at v = 0 in the generated code, on
// the paper's tree with eq. (42) friction and the load blocks of the example.
TEST(CodegenFriction, FiveAxisCoulombViscousMatchesTheLibrary) {
  const Model model = example_model("five_axis_tree_coulomb_viscous");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "five_axis_cv", code);
  const Worst worst = compare_friction(model, code, 1, 30);
  EXPECT_GT(worst.states_at_rest, 0) << "no state exercised the sign from a at v = 0";
}

// Bug caught: the Stribeck curve (eq. 52: the exponent, k_s − k_c, v_s) generated wrongly.
TEST(CodegenFriction, FiveAxisStribeckMatchesTheLibrary) {
  const Model model = example_model("five_axis_tree_stribeck");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "five_axis_stribeck", code);
  const Worst worst = compare_friction(model, code, 2, 30);
  EXPECT_GT(worst.states_at_rest, 0) << "no state exercised the sign from a at v = 0";
}

// Bug caught: any friction model (LuGre at steady state and from its state z — ż, σ0 z +
// σ1 ż —, Brown–McPhee's tanh and rational term) or the prismatic decomposition (τ_m = |nᵀτ| axial, f_n = f_p + τ_p/R_b + τ_m/R_n)
// wrong, general and principal axes, with and without load blocks: random trees of
// revolute and prismatic joints holding every (type, model, load) combination.
TEST(CodegenFriction, RandomTreesWithEveryFrictionModelMatchTheLibrary) {
  bool seen[2][4][2] = {};
  for (const unsigned seed : {41u, 42u}) {
    const Model model = friction_tree(seed, 22, false, seen);
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::C, "friction_tree", code);
    EXPECT_GT(compare_friction(model, code, seed, 30).lugre_states, 0) << "the LuGre state form was not compared";
  }
  for (int type = 0; type < 2; ++type)
    for (int which = 0; which < 4; ++which)
      for (int load = 0; load < 2; ++load)
        EXPECT_TRUE(seen[type][which][load]) << (type == 0 ? "revolute" : "prismatic") << " model " << which
                                             << (load ? " with" : " without") << " load never generated";
}

// Bug caught: the reactions of joints with friction wrong when spherical, universal, free
// and fixed joints carry the loads between them; and the C++ variant (std::exp,
// std::tanh, std::fabs) drifting from the C one.
TEST(CodegenFriction, EveryJointTypeInThePathAndCppMatchTheLibrary) {
  bool seen[2][4][2] = {};
  const Model model = friction_tree(44u, 12, true, seen);
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::Cpp, "friction_tree_cpp", code);
  compare_friction(model, code, 44u, 15);
  CompiledCodegen c_code;
  compile_codegen(model, CodegenLanguage::C, "friction_tree_c", c_code);
  compare_friction(model, c_code, 45u, 15);
}

// Bug caught: a model without friction getting the function (or friction text), or the
// header still saying friction is ignored for a model that has it.
TEST(CodegenFriction, TheFunctionExistsExactlyForModelsWithFriction) {
  const mechdyn::GeneratedCode plain = mechdyn::generate_code(example_model("five_axis_tree"));
  EXPECT_EQ(plain.functions.size(), 5u);
  EXPECT_EQ(plain.files[1].text.find("with_friction"), std::string::npos);
  const mechdyn::GeneratedCode with = mechdyn::generate_code(example_model("five_axis_tree_stribeck"));
  ASSERT_EQ(with.functions.size(), 6u);
  EXPECT_EQ(with.functions[5].name, "five_axis_tree_stribeck_inverse_dynamics_with_friction");
  EXPECT_EQ(with.functions[5].counts.exponentials, 5);  // one e^{−(v/v_s)²} per joint
  EXPECT_EQ(with.functions[5].counts.hyperbolic_tangents, 0);
  EXPECT_NE(with.files[0].text.find("inverse_dynamics_with_friction includes it"), std::string::npos);
}

// Bug caught: LuGre with no friction level (k_c = k_s = 0: g = 0, folded) dividing by g
// instead of ż = v (lugre_state_rate's g ≤ 0 case), and the steady-state and state forms
// mixed up: the state form must read z, the steady form must not exist without it.
TEST(CodegenFriction, LuGreWithoutFrictionLevelAndTheStateForm) {
  const Model model = mechdyn::parse_model_string(
      "mechdyn: 1\nname: lugre_pair\nbodies:\n"
      "  - {name: arm, parent: ground, joint: {name: shoulder, type: revolute, axis: [0, 1, 0], origin: [0, 0, 0],\n"
      "       friction: {model: lugre, coulomb: 0, static: 0, viscous: 0.1, stribeck_velocity: 0.1,\n"
      "                  bristle_stiffness: 1000, bristle_damping: 2}},\n"
      "     mass: 2, com: [0.3, 0, 0], inertia: {diag: [0.01, 0.02, 0.02]}}\n"
      "  - {name: slider, parent: arm, joint: {name: slide, type: prismatic, axis: [1, 0, 0], origin: [0.5, 0, 0],\n"
      "       friction: {model: lugre, coulomb: 2, static: 3, viscous: 0.5, stribeck_velocity: 0.05,\n"
      "                  bristle_stiffness: 5000, bristle_damping: 1, load: {bending_arm: 0.04, friction_arm: 0.02}}},\n"
      "     mass: 1, com: [0.1, 0, 0.05], inertia: {diag: [0.001, 0.002, 0.002]}}\n",
      "lugre_pair.yaml");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "lugre_pair", code);
  ASSERT_NE(code.inverse_dynamics_with_lugre_state, nullptr);
  const std::string& source = code.text("lugre_pair.c");
  EXPECT_NE(source.find("z_rate[0] = v_shoulder;"), std::string::npos) << "g = 0 was not folded to z_rate = v";
  EXPECT_NE(source.find("z_rate_slide = (g_slide > 0.0 ? "), std::string::npos);
  const Worst worst = compare_friction(model, code, 8, 30);
  EXPECT_EQ(worst.lugre_states, 30);
  EXPECT_EQ(mechdyn::generate_code(example_model("five_axis_tree_stribeck")).functions.size(), 6u)
      << "a model without LuGre got the LuGre state form";
}

// Bug caught: an output written before every input is read (tau_d aliasing a).
TEST(CodegenFriction, OutputsMayAliasInputs) {
  const Model model = example_model("five_axis_tree_stribeck");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "five_axis_alias", code);
  ASSERT_NE(code.inverse_dynamics_with_friction, nullptr);
  std::mt19937 rng(3);
  const VecX q = mechdyn::testing::random_configuration(model, rng), v = mechdyn::testing::random_vector(model.nv, rng);
  const VecX a = mechdyn::testing::random_vector(model.nv, rng);
  VecX tau(model.nv), friction(model.nv);
  code.inverse_dynamics_with_friction(q.data(), v.data(), a.data(), tau.data(), friction.data());
  VecX in_place = a, friction_in_place = v;
  code.inverse_dynamics_with_friction(q.data(), friction_in_place.data(), in_place.data(), in_place.data(),
                                      friction_in_place.data());
  EXPECT_EQ(in_place, tau);
  EXPECT_EQ(friction_in_place, friction);
}

}  // namespace
