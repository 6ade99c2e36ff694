// `mechdyn codegen` (docs/codegen.md): the generated C (and C++) is compiled with the
// system compiler, loaded, and compared with the library's independent algorithms at
// random states — M with CRBA (world frame), h and tau with RNEA and with the explicit
// M a + h, a with ABA and with the residual M a + h − tau, the reactions with the
// explicit resultant iteration (EC §3.1) — to 1e-12 relative to each quantity's scale
// (its largest entry, at least 1). The generated code is body-frame RNEA/CRBA/LTDL
// evaluated symbolically, so every reference here is a different algorithm.
// Each test names the bug it would catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <string>

#include "compiled_codegen.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "random_model.hpp"

namespace {

using mechdyn::CodegenLanguage;
using mechdyn::Data;
using mechdyn::MatX;
using mechdyn::Model;
using mechdyn::VecX;
using mechdyn::testing::CompiledCodegen;
using mechdyn::testing::compile_codegen;
using mechdyn::testing::example_model;
using mechdyn::testing::scale_of;

constexpr double kTolerance = 1e-12;

struct Worst {  // largest relative differences seen, printed for docs/codegen.md
  double mass_matrix = 0, bias = 0, tau = 0, forward = 0, residual = 0, reactions = 0;
};

/// Compares the five generated functions with the library at `states` random states.
Worst compare_with_library(const Model& model, const CompiledCodegen& code, unsigned seed, int states) {
  Worst worst;
  if (code.mass_matrix == nullptr) return worst;
  Data data(model);
  std::mt19937 rng(seed);
  const int nv = model.nv, n = model.num_bodies();
  for (int s = 0; s < states; ++s) {
    const VecX q = mechdyn::testing::random_configuration(model, rng);
    const VecX v = mechdyn::testing::random_vector(nv, rng);
    const VecX a = mechdyn::testing::random_vector(nv, rng);
    const VecX tau_in = mechdyn::testing::random_vector(nv, rng, 10.0);

    const MatX m_library = mechdyn::crba(model, data, q);  // world-frame CRBA
    MatX m_generated(nv, nv);
    code.mass_matrix(q.data(), m_generated.data());  // row-major; M is symmetric, so also checks the layout
    const Eigen::Map<const VecX> m_flat(m_library.data(), m_library.size());
    const double m_scale = scale_of(m_flat);
    const double m_error = (m_generated.transpose() - m_library).cwiseAbs().maxCoeff() / m_scale;
    EXPECT_LE(m_error, kTolerance) << model.name << " M at state " << s;
    worst.mass_matrix = std::max(worst.mass_matrix, m_error);

    const VecX h_library = mechdyn::rnea(model, data, q, v, VecX::Zero(nv));
    VecX h_generated(nv);
    code.bias(q.data(), v.data(), h_generated.data());
    const double h_error = (h_generated - h_library).cwiseAbs().maxCoeff() / scale_of(h_library);
    EXPECT_LE(h_error, kTolerance) << model.name << " h at state " << s;
    worst.bias = std::max(worst.bias, h_error);

    const VecX tau_library = mechdyn::explicit_inverse_dynamics(model, data, q, v, a);  // EC §3.1 resultant iteration, world frames (the generated code is body-frame RNEA)
    VecX tau_generated(nv);
    code.inverse_dynamics(q.data(), v.data(), a.data(), tau_generated.data());
    const double tau_error = (tau_generated - tau_library).cwiseAbs().maxCoeff() / scale_of(tau_library);
    EXPECT_LE(tau_error, kTolerance) << model.name << " tau at state " << s;
    worst.tau = std::max(worst.tau, tau_error);

    const VecX a_library = mechdyn::aba(model, data, q, v, tau_in);
    VecX a_generated(nv);
    const int status = code.forward_dynamics(q.data(), v.data(), tau_in.data(), a_generated.data());
    EXPECT_EQ(status, 0) << model.name << " forward dynamics refused at state " << s;
    if (status != 0) return worst;
    const double a_error = (a_generated - a_library).cwiseAbs().maxCoeff() / scale_of(a_library);
    EXPECT_LE(a_error, kTolerance) << model.name << " a at state " << s;
    worst.forward = std::max(worst.forward, a_error);
    // M a + h = tau with the library's M and h: the equation itself, whatever cond(M)
    const VecX residual = m_library * a_generated + h_library - tau_in;
    const double residual_error = residual.cwiseAbs().maxCoeff() / std::max(scale_of(tau_in), scale_of(h_library));
    EXPECT_LE(residual_error, kTolerance) << model.name << " M a + h - tau at state " << s;
    worst.residual = std::max(worst.residual, residual_error);

    mechdyn::joint_reactions(model, data, q, v, a);  // explicit resultant iteration (EC §3.1)
    VecX force(3 * n), torque(3 * n), reference(6 * n);
    code.joint_reactions(q.data(), v.data(), a.data(), force.data(), torque.data());
    for (int i = 0; i < n; ++i) {
      reference.segment<3>(3 * i) = data.reaction_force[static_cast<std::size_t>(i)];
      reference.segment<3>(3 * n + 3 * i) = data.reaction_torque[static_cast<std::size_t>(i)];
    }
    VecX generated(6 * n);
    generated << force, torque;
    const double r_error = (generated - reference).cwiseAbs().maxCoeff() / scale_of(reference);
    EXPECT_LE(r_error, kTolerance) << model.name << " reactions at state " << s;
    worst.reactions = std::max(worst.reactions, r_error);
  }
  std::printf("%-22s worst relative difference: M %.1e, h %.1e, tau %.1e, a %.1e (residual %.1e), reactions %.1e\n",
              model.name.c_str(), worst.mass_matrix, worst.bias, worst.tau, worst.forward, worst.residual,
              worst.reactions);
  return worst;
}

// A random tree with every joint type codegen supports: the seeded random tree of
// tests/support (revolute, prismatic, universal, spherical, free at roots, fixed; random
// axes) with some axes set to ±e_k (the folded principal rotations) and one joint turned
// cylindrical.
Model every_joint_type_tree(unsigned seed, int bodies) {
  mechdyn::testing::RandomTreeOptions options;
  options.bodies = bodies;
  const Model random = mechdyn::testing::random_tree(seed, options);
  Model model;
  model.name = "random_tree_" + std::to_string(seed);
  model.gravity = random.gravity;
  model.bodies = random.bodies;
  model.joints = random.joints;
  bool cylindrical = false;
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    mechdyn::Joint& joint = model.joints[i];
    if (joint.type == mechdyn::JointType::Revolute || joint.type == mechdyn::JointType::Prismatic) {
      if (!cylindrical && joint.type == mechdyn::JointType::Revolute) {
        joint.type = mechdyn::JointType::Cylindrical;
        cylindrical = true;
      } else if (i % 2 == 0) {
        joint.axis = mechdyn::Vec3::Zero();
        joint.axis[static_cast<int>(i % 3)] = i % 4 == 0 ? 1.0 : -1.0;
      }
    }
  }
  mechdyn::finalize_model(model, model.name);
  return model;
}

bool has_type(const Model& model, mechdyn::JointType type) {
  return std::any_of(model.joints.begin(), model.joints.end(), [&](const mechdyn::Joint& j) { return j.type == type; });
}

// Bug caught: a wrong sign or index anywhere in the symbolic RNEA/CRBA/LTDL or a wrong
// folding rule, on the paper's tree (every joint about z: the principal rotations).
TEST(Codegen, FiveAxisTreeMatchesTheLibrary) {
  const Model model = example_model("five_axis_tree");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "five_axis_tree", code);
  compare_with_library(model, code, 1, 20);
}

// Bug caught: rotations about ±y and −z, full inertias, a 7-deep chain (the Panda).
TEST(Codegen, PandaMatchesTheLibrary) {
  const Model model = example_model("panda_7dof");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "panda", code);
  compare_with_library(model, code, 2, 20);
}

// Bug caught (fuzz_model_reader under ASan): folding a product read its operands through
// references into the node vector while constant() grew it — a use-after-free that Release
// builds survive by luck. This mutated Panda made the vector reallocate exactly there.
TEST(Codegen, ModelThatGrewTheGraphMidFoldMatchesTheLibrary) {
  const Model model =
      mechdyn::load_model(std::string(MECHDYN_SOURCE_DIR) + "/tests/data/codegen/panda_fuzz_node_growth.yaml");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "panda_fuzz", code);
  compare_with_library(model, code, 5, 10);
}

// Bug caught: the free joint's quaternion, world-component velocities and linear-first
// order; a floating base with two branches.
TEST(Codegen, FloatingBaseMatchesTheLibrary) {
  const Model model = example_model("floating_base");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "floating_base", code);
  compare_with_library(model, code, 3, 20);
}

// Bug caught: a model read from a robot file (the WAM arm's URDF: frames turned into
// natural frames by the reader, fixed joints, general inertias) generated wrongly.
TEST(Codegen, WamFromUrdfMatchesTheLibrary) {
  const Model model = mechdyn::load_model(std::string(MECHDYN_SOURCE_DIR) + "/tests/data/robots/wam.urdf");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "wam", code);
  compare_with_library(model, code, 4, 10);
}

// Bug caught: any joint type, general axes, fixed joints in the path, branches: random
// trees holding every type the generator supports.
TEST(Codegen, RandomTreesWithEveryJointTypeMatchTheLibrary) {
  bool seen[7] = {};
  for (const unsigned seed : {11u, 12u, 13u}) {
    const Model model = every_joint_type_tree(seed, 9);
    for (const mechdyn::Joint& joint : model.joints) seen[static_cast<int>(joint.type)] = true;
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::C, "random_tree", code);
    compare_with_library(model, code, seed, 10);
  }
  for (const mechdyn::JointType type :
       {mechdyn::JointType::Revolute, mechdyn::JointType::Prismatic, mechdyn::JointType::Universal,
        mechdyn::JointType::Spherical, mechdyn::JointType::Free, mechdyn::JointType::Fixed,
        mechdyn::JointType::Cylindrical})
    EXPECT_TRUE(seen[static_cast<int>(type)]) << "the random trees miss joint type " << mechdyn::joint_type_name(type);
}

// A chain (branch_probability 0) or a deep tree of revolute and prismatic joints with
// general axes, some set to ±e_k, and one fixed joint: what the articulated-body form of
// the generated forward dynamics (symbolic_aba.cpp) is chosen for.
Model one_coordinate_tree(unsigned seed, int bodies, double branch_probability) {
  mechdyn::testing::RandomTreeOptions options;
  options.bodies = bodies;
  options.all_joint_types = false;
  options.allow_free = false;
  options.branch_probability = branch_probability;
  const Model random = mechdyn::testing::random_tree(seed, options);
  Model model;
  model.name = "one_coordinate_tree_" + std::to_string(seed);
  model.gravity = random.gravity;
  model.bodies = random.bodies;
  model.joints = random.joints;
  for (std::size_t i = 0; i < model.joints.size(); i += 3) {
    model.joints[i].axis = mechdyn::Vec3::Zero();
    model.joints[i].axis[static_cast<int>(i % 3)] = i % 2 == 0 ? 1.0 : -1.0;
  }
  model.joints[4].type = mechdyn::JointType::Fixed;
  mechdyn::finalize_model(model, model.name);
  return model;
}

// Bug caught: a wrong sign, frame or index in the symbolic articulated-body algorithm
// (U, D, u, I^a, p^a, the transform Xᵀ I^a X, the bias c, gravity as a_0), a fixed joint
// in the path, branches: the articulated-body form forced on random trees of revolute,
// prismatic and fixed joints, compared with the library's world-frame ABA and with the
// residual M a + h − τ of the library's CRBA and RNEA.
TEST(Codegen, ArticulatedBodyFormMatchesTheLibraryOnRandomTrees) {
  for (const unsigned seed : {31u, 32u, 33u}) {
    const Model model = one_coordinate_tree(seed, 9, seed == 31u ? 0.0 : 0.4);
    CompiledCodegen code;
    compile_codegen(model, CodegenLanguage::C, "articulated", code, mechdyn::CodegenForwardDynamics::Articulated);
    EXPECT_NE(code.code.files.front().text.find("forward dynamics by the articulated-body algorithm"), std::string::npos);
    compare_with_library(model, code, seed, 10);
  }
}

// Bug caught: the operation-count choice not taking the articulated-body form where the
// Lᵀ D L of M costs O(n³) (a 24-body chain), or taking it where the factor is cheaper (6).
TEST(Codegen, LongChainsChooseTheArticulatedBodyForm) {
  // (not compiled: the form's numbers are ArticulatedBodyFormMatchesTheLibraryOnRandomTrees')
  const Model chain = one_coordinate_tree(21u, 24, 0.0);
  const mechdyn::GeneratedCode code = mechdyn::generate_code(chain);
  EXPECT_NE(code.files.front().text.find("forward dynamics by the articulated-body algorithm"), std::string::npos)
      << "the L^T D L form was printed for a 24-body chain";
  mechdyn::CodegenOptions factor;
  factor.forward_dynamics = mechdyn::CodegenForwardDynamics::Factor;
  const auto forward_cost = [](const mechdyn::GeneratedCode& c) {
    const mechdyn::CodegenCounts& k = c.functions[3].counts;
    return k.multiplications + k.additions + k.divisions;
  };
  EXPECT_LT(forward_cost(code), forward_cost(mechdyn::generate_code(chain, factor)));
  const Model short_chain = one_coordinate_tree(24u, 6, 0.0);
  EXPECT_NE(mechdyn::generate_code(short_chain).files.front().text.find("branch-sparse L^T D L"), std::string::npos);
}

// Bug caught: the articulated-body form forced on a joint of several coordinates (its D
// would need a symbolic inverse) generating wrong code instead of refusing by name.
TEST(Codegen, ArticulatedBodyFormRefusesJointsOfSeveralCoordinates) {
  const Model model = every_joint_type_tree(11u, 9);
  mechdyn::CodegenOptions options;
  options.forward_dynamics = mechdyn::CodegenForwardDynamics::Articulated;
  try {
    mechdyn::generate_code(model, options);
    ADD_FAILURE() << "generated";
  } catch (const mechdyn::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("coordinates: the articulated-body form"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("joint '"), std::string::npos) << e.what();
  }
}

// Bug caught: the C++ variant (namespace, <cmath>, std::sin) drifting from the C one.
TEST(Codegen, CppVariantMatchesTheLibrary) {
  const Model model = every_joint_type_tree(12, 9);
  ASSERT_TRUE(has_type(model, mechdyn::JointType::Spherical));
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::Cpp, "random_tree_cpp", code);
  compare_with_library(model, code, 5, 5);
}

// Bug caught: a function that needs none of its inputs (a gantry of two prismatic joints
// across gravity: M constant, h = 0) failing to compile (unused parameters under -Werror)
// or folding to wrong constants.
TEST(Codegen, ConstantDynamicsOfAGantry) {
  const Model model = mechdyn::parse_model_string(
      "mechdyn: 1\nname: gantry\nbodies:\n"
      "  - {name: carriage, parent: ground, joint: {type: prismatic, axis: [1, 0, 0], origin: [0, 0, 1]},\n"
      "     mass: 4, com: [0.1, 0, 0], inertia: {diag: [0.1, 0.2, 0.3]}}\n"
      "  - {name: slide, parent: carriage, joint: {type: prismatic, axis: [0, -1, 0], origin: [0, 0, -0.2]},\n"
      "     mass: 1.5, com: [0, 0.2, -0.1], inertia: {diag: [0.01, 0.02, 0.03]}}\n",
      "gantry.yaml");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "gantry", code);
  const std::string& source = code.text("gantry.c");
  EXPECT_NE(source.find("(void)q;"), std::string::npos) << "M and h of a gantry do not depend on q";
  compare_with_library(model, code, 7, 5);
}

// Bug caught: a singular M (EJ Table 3's rocker: links with no inertia about their own
// axes) returning garbage accelerations instead of the failure status; the status must
// name the same coordinate as the library's SolverError, and `a` must stay unwritten.
TEST(Codegen, SingularMassMatrixReturnsThePivot) {
  const Model model = example_model("lunar_rover_rocker");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "rocker", code);
  ASSERT_NE(code.forward_dynamics, nullptr);
  Data data(model);
  const VecX q = VecX::Constant(model.nv, 0.3), v = VecX::Zero(model.nv), tau = VecX::Ones(model.nv);
  mechdyn::crba(model, data, q);
  std::string library_message;
  try {
    mechdyn::factor_mass_matrix(model, data);
  } catch (const mechdyn::SolverError& e) {
    library_message = e.what();
  }
  ASSERT_FALSE(library_message.empty()) << "the library no longer finds the rocker's M singular";
  VecX a = VecX::Constant(model.nv, 42.0);
  const int status = code.forward_dynamics(q.data(), v.data(), tau.data(), a.data());
  ASSERT_GT(status, 0);
  EXPECT_NE(library_message.find("velocity coordinate " + std::to_string(status - 1) + " "), std::string::npos)
      << "generated status " << status << ", library: " << library_message;
  EXPECT_EQ(a, VecX::Constant(model.nv, 42.0)) << "a was written although M is singular";
}

// Bug caught: an output written before every input is read (a == tau aliasing), which
// the header promises is allowed.
TEST(Codegen, OutputsMayAliasInputs) {
  const Model model = example_model("panda_7dof");
  CompiledCodegen code;
  compile_codegen(model, CodegenLanguage::C, "panda_alias", code);
  ASSERT_NE(code.forward_dynamics, nullptr);
  std::mt19937 rng(9);
  const VecX q = mechdyn::testing::random_configuration(model, rng), v = mechdyn::testing::random_vector(model.nv, rng);
  VecX tau = mechdyn::testing::random_vector(model.nv, rng), a(model.nv);
  ASSERT_EQ(code.forward_dynamics(q.data(), v.data(), tau.data(), a.data()), 0);
  VecX in_place = tau;
  ASSERT_EQ(code.forward_dynamics(q.data(), v.data(), in_place.data(), in_place.data()), 0);
  EXPECT_EQ(in_place, a);
}

// Bug caught: a folding rule that lets a multiplication by a literal 0 or ±1 (or an
// addition of 0) through, or a zero inertia entry / zero axis component multiplied at
// run time: the generated text must hold none, for every example and a random tree.
TEST(Codegen, NoMultiplicationByLiteralZeroOrOne) {
  const std::regex by_zero_or_one(R"((\*\s*\(?-?[01]\.0\b(?![0-9eE]))|((^|[^0-9.eE])\(?-?[01]\.0\)?\s*\*)|([+-]\s*0\.0\b(?![0-9eE])))");
  std::vector<Model> models = {example_model("five_axis_tree"), example_model("panda_7dof"), example_model("floating_base"),
                               example_model("planar_3dof_arm"), every_joint_type_tree(11, 9),
                               example_model("five_axis_tree_coulomb_viscous"), example_model("five_axis_tree_stribeck")};
  for (const Model& model : models) {
    mechdyn::CodegenOptions options;
    const mechdyn::GeneratedCode generated = mechdyn::generate_code(model, options);
    const std::string& source = generated.files[1].text;
    std::smatch match;
    // Assignments of a structural zero ("M[8] = 0.0;") are outputs, not arithmetic.
    std::string code;  // the source without its comments
    for (std::size_t at = 0; at < source.size();) {
      const std::size_t open = source.find("/*", at);
      code += source.substr(at, open == std::string::npos ? std::string::npos : open - at);
      if (open == std::string::npos) break;
      const std::size_t close = source.find("*/", open + 2);
      ASSERT_NE(close, std::string::npos) << "unterminated comment";
      at = close + 2;
    }
    const std::regex zero_output(R"(= 0\.0;)");
    const std::string arithmetic = std::regex_replace(code, zero_output, "= ZERO;");
    EXPECT_FALSE(std::regex_search(arithmetic, match, by_zero_or_one))
        << model.name << ": '" << match.str() << "' in the generated code";
    EXPECT_NE(source.find("_mass_matrix("), std::string::npos);
  }
}

}  // namespace
