// Every public entry point that takes (model, data, ...) checks its inputs first
// (model/checks.hpp, HOUSE-STYLE "Errors"): a vector of the wrong size is an
// InvalidArgument naming that argument, and a Data made for another model is an
// InvalidArgument naming the function — before anything is read out of range.
//
// Catches: an entry point that reads q.data(), v.data(), a.data() or τ without a size
// check (an out-of-range read instead of an error), a message that names the wrong
// argument, and a function that indexes a Data built for another model. One row per entry
// point below; a new entry point adds its row.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/constraint_rank.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/constraints/loop_residual.hpp"
#include "mechdyn/constraints/loop_rows.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/sparse_cholesky.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/friction_simulation.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"

namespace mechdyn {
namespace {

// The inputs of one call; an entry point reads the ones it takes.
struct Inputs {
  VecX q, v, a, tau, dv, z;
  MatX jacobian6, jacobian3;
};

struct EntryPoint {
  const char* function;
  std::vector<const char*> vectors;  // the inputs it takes, by their names in messages
  std::function<void(const Model&, Data&, Inputs&)> call;
};

std::vector<EntryPoint> entry_points() {
  using In = Inputs;
  return {
      {"forward_kinematics", {"q"}, [](const Model& m, Data& d, In& x) { forward_kinematics(m, d, x.q); }},
      {"forward_kinematics", {"q", "v"}, [](const Model& m, Data& d, In& x) { forward_kinematics(m, d, x.q, x.v); }},
      {"forward_kinematics", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { forward_kinematics(m, d, x.q, x.v, x.a); }},
      {"forward_kinematics_accelerations", {"a"},
       [](const Model& m, Data& d, In& x) { forward_kinematics_accelerations(m, d, x.a); }},
      {"forward_kinematics_bias_accelerations", {},
       [](const Model& m, Data& d, In&) { forward_kinematics_bias_accelerations(m, d); }},
      {"body_jacobian", {}, [](const Model& m, Data& d, In& x) { body_jacobian(m, d, 0, x.jacobian6); }},
      {"point_jacobian", {}, [](const Model& m, Data& d, In& x) { point_jacobian(m, d, 0, Vec3::Zero(), x.jacobian3); }},
      {"marker_positions", {}, [](const Model& m, Data& d, In&) {
         std::vector<Vec3> out;
         marker_positions(m, d, out);
       }},
      {"rnea", {"q", "v", "a"}, [](const Model& m, Data& d, In& x) { rnea(m, d, x.q, x.v, x.a); }},
      {"crba", {"q"}, [](const Model& m, Data& d, In& x) { crba(m, d, x.q); }},
      {"crba_from_kinematics", {}, [](const Model& m, Data& d, In&) { crba_from_kinematics(m, d); }},
      {"aba", {"q", "v", "tau"}, [](const Model& m, Data& d, In& x) { aba(m, d, x.q, x.v, x.tau); }},
      {"aba_from_kinematics", {"tau"}, [](const Model& m, Data& d, In& x) { aba_from_kinematics(m, d, x.tau); }},
      {"kinetic_energy", {"q", "v"}, [](const Model& m, Data& d, In& x) { kinetic_energy(m, d, x.q, x.v); }},
      {"potential_energy", {"q"}, [](const Model& m, Data& d, In& x) { potential_energy(m, d, x.q); }},
      {"composite_forces", {"q"}, [](const Model& m, Data& d, In& x) { composite_forces(m, d, x.q); }},
      {"composite_forces_from_kinematics", {},
       [](const Model& m, Data& d, In&) { composite_forces_from_kinematics(m, d); }},
      {"mass_matrix_row", {}, [](const Model& m, Data& d, In&) {
         VecX row = VecX::Zero(m.nv);
         mass_matrix_row(m, d, 0, row);
       }},
      {"explicit_mass_matrix", {"q"}, [](const Model& m, Data& d, In& x) { explicit_mass_matrix(m, d, x.q); }},
      {"explicit_mass_matrix_direct", {"q"},
       [](const Model& m, Data& d, In& x) { explicit_mass_matrix_direct(m, d, x.q); }},
      {"explicit_bias_force", {"q", "v"}, [](const Model& m, Data& d, In& x) { explicit_bias_force(m, d, x.q, x.v); }},
      {"explicit_bias_force_from_kinematics", {},
       [](const Model& m, Data& d, In&) { explicit_bias_force_from_kinematics(m, d); }},
      {"explicit_gravity_force", {"q"}, [](const Model& m, Data& d, In& x) { explicit_gravity_force(m, d, x.q); }},
      {"explicit_inverse_dynamics", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { explicit_inverse_dynamics(m, d, x.q, x.v, x.a); }},
      {"explicit_inverse_dynamics_from_kinematics", {"a"},
       [](const Model& m, Data& d, In& x) { explicit_inverse_dynamics_from_kinematics(m, d, x.a); }},
      {"explicit_inverse_dynamics_mass_matrix", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { explicit_inverse_dynamics_mass_matrix(m, d, x.q, x.v, x.a); }},
      {"explicit_forward_dynamics_mass_matrix", {"q", "v", "tau"},
       [](const Model& m, Data& d, In& x) { explicit_forward_dynamics_mass_matrix(m, d, x.q, x.v, x.tau); }},
      {"explicit_forward_dynamics_uses_mass_matrix", {},
       [](const Model& m, Data& d, In&) { explicit_forward_dynamics_uses_mass_matrix(m, d); }},
      {"explicit_forward_dynamics", {"q", "v", "tau"},
       [](const Model& m, Data& d, In& x) { explicit_forward_dynamics(m, d, x.q, x.v, x.tau); }},
      {"explicit_forward_dynamics_from_kinematics", {"tau"},
       [](const Model& m, Data& d, In& x) { explicit_forward_dynamics_from_kinematics(m, d, x.tau); }},
      {"joint_reactions", {"q", "v", "a"}, [](const Model& m, Data& d, In& x) { joint_reactions(m, d, x.q, x.v, x.a); }},
      {"joint_reactions_from_kinematics", {},
       [](const Model& m, Data& d, In&) { joint_reactions_from_kinematics(m, d); }},
      {"add_mass_matrix_product", {"a"}, [](const Model& m, Data& d, In& x) {
         VecX out = VecX::Zero(m.nv);
         add_mass_matrix_product(m, d, x.a, out);
       }},
      {"factor_mass_matrix", {}, [](const Model& m, Data& d, In&) { factor_mass_matrix(m, d); }},
      {"solve_mass_matrix", {"tau"}, [](const Model& m, Data& d, In& x) { solve_mass_matrix(m, d, x.tau); }},
      {"loop_closure", {"q"}, [](const Model& m, Data& d, In& x) { loop_closure(m, d, x.q); }},
      {"loop_closure_from_kinematics", {}, [](const Model& m, Data& d, In&) { loop_closure_from_kinematics(m, d); }},
      {"loop_row_wrenches", {}, [](const Model& m, Data& d, In&) { loop_row_wrenches(m, d); }},
      {"loop_residual_norm", {}, [](const Model& m, Data& d, In&) { loop_residual_norm(m, d); }},
      {"loop_bias_acceleration", {"q", "v"},
       [](const Model& m, Data& d, In& x) { loop_bias_acceleration(m, d, x.q, x.v); }},
      {"loop_bias_from_kinematics", {}, [](const Model& m, Data& d, In&) { loop_bias_from_kinematics(m, d); }},
      {"cut_joint_wrenches", {}, [](const Model& m, Data& d, In&) { cut_joint_wrenches(m, d); }},
      {"closed_chain_joint_reactions", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { closed_chain_joint_reactions(m, d, x.q, x.v, x.a); }},
      {"closed_chain_joint_reactions_from_kinematics", {},
       [](const Model& m, Data& d, In&) { closed_chain_joint_reactions_from_kinematics(m, d); }},
      {"constraint_rank", {"q"}, [](const Model& m, Data& d, In& x) { constraint_rank(m, d, x.q); }},
      {"assemble", {"q"}, [](const Model& m, Data& d, In& x) { assemble(m, d, x.q); }},
      {"apply_velocity_increment", {"q", "dv"},
       [](const Model& m, Data& d, In& x) { apply_velocity_increment(m, d, x.q, x.dv); }},
      {"factor_passive_jacobian", {}, [](const Model& m, Data& d, In&) { factor_passive_jacobian(m, d, 1e-9); }},
      {"project_positions", {"q"}, [](const Model& m, Data& d, In& x) { project_positions(m, d, x.q); }},
      {"project_velocities", {"q", "v"}, [](const Model& m, Data& d, In& x) { project_velocities(m, d, x.q, x.v); }},
      {"constrained_forward_dynamics", {"q", "v", "tau"},
       [](const Model& m, Data& d, In& x) { constrained_forward_dynamics(m, d, x.q, x.v, x.tau); }},
      {"closed_chain_inverse_dynamics", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { closed_chain_inverse_dynamics(m, d, x.q, x.v, x.a); }},
      {"actuated_joint_friction", {"v", "a"},
       [](const Model& m, Data& d, In& x) { actuated_joint_friction(m, d, x.v, x.a); }},
      {"joint_load_decomposition", {}, [](const Model& m, Data& d, In&) { joint_load_decomposition(m, d); }},
      {"inverse_dynamics_with_friction", {"q", "v", "a"},
       [](const Model& m, Data& d, In& x) { inverse_dynamics_with_friction(m, d, x.q, x.v, x.a); }},
      {"friction_from_reactions", {"v", "a"},
       [](const Model& m, Data& d, In& x) { friction_from_reactions(m, d, x.v, x.a); }},
      {"forward_dynamics_with_friction", {"q", "v", "tau"},
       [](const Model& m, Data& d, In& x) { forward_dynamics_with_friction(m, d, x.q, x.v, x.tau); }},
      {"friction_state_derivative", {"q", "v", "z", "tau"}, [](const Model& m, Data& d, In& x) {
         VecX a = VecX::Zero(m.nv), z_rate = VecX::Zero(m.nv);
         friction_state_derivative(m, d, {}, x.q, x.v, x.z, x.tau, a, z_rate);
       }},
      {"compute_all_terms", {"q", "v", "a", "tau"},
       [](const Model& m, Data& d, In& x) { compute_all_terms(m, d, x.q, x.v, &x.a, &x.tau); }},
  };
}

Inputs good_inputs(const Model& model) {
  Inputs x;
  x.q = model.neutral_configuration();
  x.v = x.a = x.tau = x.dv = x.z = VecX::Zero(model.nv);
  x.jacobian6 = MatX::Zero(6, model.nv);
  x.jacobian3 = MatX::Zero(3, model.nv);
  return x;
}

VecX& input(Inputs& x, const std::string& name) {
  if (name == "q") return x.q;
  if (name == "v") return x.v;
  if (name == "a") return x.a;
  if (name == "tau") return x.tau;
  if (name == "dv") return x.dv;
  return x.z;
}

// The message of the InvalidArgument `call` throws ("" when it throws none).
std::string invalid_argument_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "";
}

// The right-hand side of solve_mass_matrix is named as such in its message.
std::string expected_name(const EntryPoint& entry, const std::string& name) {
  if (std::string(entry.function) == "solve_mass_matrix") return "right-hand side has";
  return name + " has";
}

TEST(EntryPointChecks, EveryVectorOfTheWrongSizeIsNamed) {
  const Model model = testing::tree_with_every_loop_type(3);
  for (const EntryPoint& entry : entry_points()) {
    for (const char* name : entry.vectors) {
      for (const int change : {-1, +1}) {
        Data data(model);
        Inputs x = good_inputs(model);
        forward_kinematics(model, data, x.q, x.v, x.a);  // the stage the *_from_kinematics forms read
        VecX& broken = input(x, name);
        broken = VecX::Zero(broken.size() + change);
        const std::string message = invalid_argument_message([&] { entry.call(model, data, x); });
        EXPECT_NE(message.find(expected_name(entry, name)), std::string::npos)
            << entry.function << ", " << name << " of size " << broken.size() << ": '" << message << "'";
      }
    }
  }
}

TEST(EntryPointChecks, DataMadeForAnotherModelIsRefusedByName) {
  const Model model = testing::tree_with_every_loop_type(3);
  const Model other = testing::random_tree(5, {3});  // no loops, other sizes
  for (const EntryPoint& entry : entry_points()) {
    Data data(other);
    Inputs x = good_inputs(model);
    forward_kinematics(other, data, other.neutral_configuration());
    const std::string message = invalid_argument_message([&] { entry.call(model, data, x); });
    EXPECT_NE(message.find(std::string(entry.function) + ": data was not built"), std::string::npos)
        << entry.function << ": '" << message << "'";
  }
}

// Catches: a *_from_kinematics form that reads an empty stage (zeros or the previous
// state's values) instead of saying which forward_kinematics to run first.
TEST(EntryPointChecks, FormsOnTheStageRefuseAnEmptyStage) {
  const Model model = testing::tree_with_every_loop_type(3);
  for (const EntryPoint& entry : entry_points()) {
    const std::string function = entry.function;
    const bool reads_stage = function.find("_from_kinematics") != std::string::npos ||
                             function == "forward_kinematics_accelerations" ||
                             function == "forward_kinematics_bias_accelerations" || function == "body_jacobian" ||
                             function == "point_jacobian" || function == "marker_positions" ||
                             function == "loop_row_wrenches" || function == "loop_residual_norm" ||
                             function == "cut_joint_wrenches" || function == "apply_velocity_increment";
    if (!reads_stage) continue;
    Data data(model);
    Inputs x = good_inputs(model);
    const std::string message = invalid_argument_message([&] { entry.call(model, data, x); });
    EXPECT_NE(message.find("run forward_kinematics"), std::string::npos) << function << ": '" << message << "'";
  }
}

}  // namespace
}  // namespace mechdyn
