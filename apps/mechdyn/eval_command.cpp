// mechdyn eval: every dynamic quantity of a model at one state, per the contract
// ../shared/spec/eval-json.md (keys, shapes, 17 significant digits, exit status 2).
//
// Every term comes from one call of compute_all_terms (evaluation/compute_all_terms.hpp:
// one kinematics stage at (q, v), every term read from it). Which algorithm computes what,
// and its order (docs/cli.md, "Which method"), n bodies, nv coordinates, d the depth:
//   method explicit (--method auto while nv <= 16): M the world-frame CRBA (= EJ eqs.
//     30–37 aggregated) O(nv·d), held (nv × nv); h, g the reaction iteration O(n);
//     tau = M a + h O(nv·d); a by Lᵀ D L of the held M O(Σ d²).
//   method recursive (auto above 16): M left as CRBA's column forces and printed row by
//     row (MassMatrixForm::Rows, dynamics/mass_matrix_rows.hpp), never held: O(n) memory,
//     O(nv) per printed row; h = RNEA(q, v, 0), g = RNEA(q, 0, 0), tau = RNEA O(n);
//     a = ABA O(n).
//   both: body poses from the stage O(n); reactions O(n); joint loads and friction O(n);
//     loops: residual and J (rows × nv).
// So with the recursive method everything but M is O(n), and M costs what printing its
// nv² numbers costs, in O(n) memory (Data made with no dense workspace).
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "flexible_eval.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/math/minimum_effort.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"
#include "mechdyn/dynamics/mass_matrix_rows.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/friction/friction_effort_derivatives.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::cli {

namespace {

struct EvalOptions {
  std::string model_path;
  std::string q, v, a, tau;
  bool has_q = false, has_v = false, has_a = false, has_tau = false;
  bool json = false;
  bool derivatives = false;  // --derivatives: ∂tau/∂q, ∂tau/∂v (--a); ∂a/∂q, ∂a/∂v, ∂a/∂tau (--tau)
  std::string method = "auto";
  double time = 0.0;  // --t: the force elements' time (servo targets, applied loads)
};

// ---- text output --------------------------------------------------------------------
std::string fixed(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%15.9g", x);
  return buffer;
}

void text_vector(std::ostream& out, const char* title, const std::vector<CoordinateLabel>& labels,
                 const VecX& x) {
  out << title << "\n";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-24s%s\n", labels[static_cast<std::size_t>(i)].name.c_str(),
                  fixed(x[i]).c_str());
    out << line;
  }
}

void run_eval(const EvalOptions& o, std::ostream& stdout_stream) {
  const Model model = load_model(o.model_path);
  VecX q = o.has_q ? parse_number_list(o.q, "--q", model.nq, "nq") : model.neutral_configuration();
  check_and_normalize_quaternions(model, q, "--q");
  const VecX v = o.has_v ? parse_number_list(o.v, "--v", model.nv, "nv") : VecX::Zero(model.nv);
  if (o.derivatives && !o.has_a && !o.has_tau)
    throw UsageError("--derivatives: give --a (inverse-dynamics derivatives) and/or --tau (forward-dynamics derivatives)");
  if (has_flexible_bodies(model)) {  // flexible_eval.cpp (docs/flexible-bodies.md "mechdyn eval")
    if (o.derivatives)
      throw UsageError("--derivatives: not available for models with flexible bodies (rigid trees and loops only)");
    const VecX tau = o.has_tau ? parse_number_list(o.tau, "--tau", model.nv, "nv") : VecX();
    run_flexible_eval(model, q, v, o.has_tau ? &tau : nullptr, o.has_a, o.json, stdout_stream);
    return;
  }
  const bool recursive = resolve_method(o.method, model) == "recursive";

  VecX a, tau;
  if (o.has_a) a = parse_number_list(o.a, "--a", model.nv, "nv");
  if (o.has_tau) tau = parse_number_list(o.tau, "--tau", model.nv, "nv");
  // Every term below on one kinematics stage (evaluation/compute_all_terms.hpp). The
  // explicit method holds M (and its factor for --tau); the recursive one no nv × nv
  // matrix at all: M stays as CRBA's column forces, from which any row is formed
  // (dynamics/mass_matrix_rows.hpp), and the Data is made with no dense workspace
  // (model/data.hpp, DenseWorkspace).
  Data data(model, recursive ? DenseWorkspace::None
                             : DenseWorkspace::MassMatrix |
                                   (o.has_tau ? DenseWorkspace::MassMatrixFactor : DenseWorkspace::None));
  AllTermsOptions options;
  options.method = recursive ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
  options.mass_matrix = recursive ? MassMatrixForm::Rows : MassMatrixForm::Dense;
  if (!std::isfinite(o.time)) throw UsageError("--t: the time must be a finite number");
  options.time = o.time;
  compute_all_terms(model, data, q, v, o.has_a ? &a : nullptr, o.has_tau ? &tau : nullptr, options);
  // M is never copied whole: row i from data.mass_matrix or from the column forces, which
  // no later term overwrites (compute_all_terms.hpp says what each writes).
  VecX mass_row = VecX::Zero(model.nv);
  auto mass_matrix_row_at = [&](int i) -> const VecX& {
    if (recursive) mass_matrix_row(model, data, i, mass_row);
    else mass_row = data.mass_matrix.row(i).transpose();  // same size: no allocation
    return mass_row;
  };
  for (int i = 0; i < model.nv; ++i) {
    const VecX& row = mass_matrix_row_at(i);
    if (!row.allFinite()) check_finite(row, "the mass matrix[" + std::to_string(i) + "]");
  }
  const VecX& bias = data.bias_force;
  const VecX& gravity = data.gravity_force;
  check_finite(bias, "the bias force");
  check_finite(gravity, "the gravity force");

  const bool with_friction = has_joint_friction(model);
  const VecX& tau_inverse = data.tau;
  const VecX& tau_with_friction = data.tau_with_friction;
  const VecX& constraint_torque = data.constraint_torque;
  const VecX& constraint_force = data.constraint_force;
  const VecX& axial_load = data.axial_load;
  const VecX& normal_load = data.normal_load;
  const std::vector<Vec3>& reaction_force = data.reaction_force;
  const std::vector<Vec3>& reaction_torque = data.reaction_torque;
  if (o.has_a) {
    check_finite(tau_inverse, "tau");
    check_finite(tau_with_friction, "the friction efforts");
    check_finite(normal_load, "the normal loads");
    for (std::size_t i = 0; i < reaction_force.size(); ++i) {
      check_finite(reaction_force[i], "the reaction force of joint '" + model.joints[i].name + "'");
      check_finite(reaction_torque[i], "the reaction torque of joint '" + model.joints[i].name + "'");
    }
  }
  // Force elements (format 3, force-elements.md): Q_f and each element's own generalized
  // force, scalar and potential energy; checked like every printed number.
  std::vector<VecX> element_forces;
  if (model.has_force_elements) {
    check_finite(data.applied_force, "the force elements' generalized force");
    for (int e = 0; e < static_cast<int>(model.forces.size()); ++e) {
      element_forces.emplace_back(VecX::Zero(model.nv));
      force_element_generalized_force(model, data, e, element_forces.back());
      const std::string element = "force element '" + model.forces[static_cast<std::size_t>(e)].name + "'";
      check_finite(data.element_value[e], "the value of " + element);
      check_finite(data.element_energy[e], "the potential energy of " + element);
    }
  }
  const VecX& forward_a = data.ddq;
  if (o.has_tau) check_finite(forward_a, "the forward-dynamics acceleration");
  // --derivatives (docs/derivatives.md): on a Data of their own, so that every term above
  // stays exactly what compute_all_terms left (rnea_derivatives recomputes tau its own way).
  std::unique_ptr<Data> derivative_stage;
  std::unique_ptr<DerivativeData> derivative_data;
  if (o.derivatives) {
    derivative_stage = std::make_unique<Data>(model, DenseWorkspace::None);  // reserves what it needs
    derivative_data = std::make_unique<DerivativeData>(model, o.has_a);  // with --a: the reactions' too
    DerivativeData& d = *derivative_data;
    // Force elements: ∂Q_f/∂q, ∂Q_f/∂v at this state (dynamics/force_elements.hpp, exact),
    // from the elements' state compute_all_terms left in data. τ = ID − Q_f, so
    // ∂τ = ∂ID − ∂Q_f; a = FD(τ + Q_f), so ∂a = ∂FD|_{τ+Q_f} + M⁻¹ ∂Q_f.
    MatX element_dq, element_dv;
    if (model.has_force_elements) {
      element_dq = MatX::Zero(model.nv, model.nv);
      element_dv = MatX::Zero(model.nv, model.nv);
      force_element_derivatives(model, data, q, v, element_dq, element_dv);
    }
    if (o.has_tau) {
      const VecX total = tau + data.applied_force;
      aba_derivatives(model, *derivative_stage, d, q, v, total);  // SolverError (status 3) at a singular M
      if (model.has_force_elements) {
        d.da_dq += d.da_dtau * element_dq;
        d.da_dv += d.da_dtau * element_dv;
      }
      check_finite(d.da_dq, "da_dq");
      check_finite(d.da_dv, "da_dv");
      check_finite(d.da_dtau, "da_dtau");
    }
    if (o.has_a) {
      // The reactions' derivatives include the force elements' body wrenches at --t (D30).
      if (with_friction)
        friction_effort_derivatives(model, *derivative_stage, d, q, v, a, o.time);  // and the reactions', dtau_dq, dtau_dv
      else
        joint_reaction_derivatives(model, *derivative_stage, d, q, v, a, o.time);  // and dtau_dq, dtau_dv
      if (model.has_force_elements) {
        d.dtau_dq -= element_dq;
        d.dtau_dv -= element_dv;
      }
      check_finite(d.dtau_dq, "dtau_dq");
      check_finite(d.dtau_dv, "dtau_dv");
      check_finite(d.dreaction_dq, "reaction_derivatives");
      check_finite(d.dreaction_dv, "reaction_derivatives");
      if (with_friction) {
        d.dfriction_dq += d.dtau_dq;  // from here on: ∂ tau_with_friction
        d.dfriction_dv += d.dtau_dv;
        check_finite(d.dfriction_dq, "dtau_with_friction_dq");
        check_finite(d.dfriction_dv, "dtau_with_friction_dv");
      }
    }
  }
  // --derivatives --a on a model with loops (beyond the contract, docs/cli.md): the closed
  // chain's actuated efforts and their total derivatives with respect to the actuated
  // coordinates (constraints/closed_chain_inverse_dynamics_derivatives.hpp), the passive
  // coordinates assembled from --q as the guess and v_p, a_p from the closure.
  std::unique_ptr<Data> closed_stage;
  std::unique_ptr<ClosedChainDerivativeData> closed;
  VecX closed_q, closed_v, closed_a;
  if (o.derivatives && o.has_a && model.has_constraints()) {
    closed_stage = std::make_unique<Data>(model, DenseWorkspace::None);  // reserves what it needs
    closed = std::make_unique<ClosedChainDerivativeData>(model);
    closed_q = q, closed_v = v, closed_a = a;
    // An extension must not take the contract's keys down with it: where the closed chain's
    // derivatives are not defined (no passive or actuated joint, redundant actuation) or not
    // computable here (no assembly from --q, a singular configuration, a non-finite result),
    // the key is left out with one warning line and everything else is printed as before.
    try {
      // With force elements: Q_f(q, v, t) at the completed state and --t, and its derivatives.
      closed_chain_inverse_dynamics_derivatives(model, *closed_stage, *closed, closed_q, closed_v, closed_a, o.time);
      check_finite(closed->tau, "the closed chain's actuated efforts");
      check_finite(closed->dtau_dq, "closed_chain_derivatives.dtau_dq");
      check_finite(closed->dtau_dv, "closed_chain_derivatives.dtau_dv");
      check_finite(closed->dtau_da, "closed_chain_derivatives.dtau_da");
    } catch (const Error& e) {
      std::cerr << "mechdyn: warning: " << o.model_path << ": closed_chain_derivatives left out: " << e.what()
                << "\n";
      closed.reset();
    }
  }
  // Couplings (force-elements.md): each coupling's effort λ, the multiplier of its row.
  // With --a: the minimum-effort split [S_a Jᵀ] [τ_a; λ] = M a + h − Q_f (the closed-chain
  // inverse dynamics' step 4, constraints/closed_chain_inverse_dynamics.hpp) at the given
  // state; with --tau only: the constrained forward dynamics' λ at τ + Q_f.
  VecX coupling_effort;
  if (!model.couplings.empty() && (o.has_a || o.has_tau)) {
    Data constrained(model);
    const Eigen::Index rows = model.num_loop_rows;
    VecX multipliers;
    if (o.has_a) {
      const std::vector<int>& actuated = constrained.actuated_dofs;
      const auto na = static_cast<Eigen::Index>(actuated.size());
      MatX system = MatX::Zero(model.nv, na + rows);
      for (Eigen::Index c = 0; c < na; ++c) system(actuated[static_cast<std::size_t>(c)], c) = 1.0;
      system.rightCols(rows) = data.loop_jacobian.transpose();
      MinimumEffortSolver solver(model.nv, na + rows, na);
      VecX solution = VecX::Zero(na + rows);
      if (!solver.solve(system, data.tau, solution))
        throw SolverError("couplings: the actuated efforts and the constraint forces cannot balance M a + h - Q_f "
                          "([S_a J^T] loses row rank); a singular configuration");
      multipliers = solution.tail(rows);
    } else {
      const VecX total = tau + data.applied_force;
      constrained_forward_dynamics(model, constrained, q, v, total);
      multipliers = constrained.loop_multiplier;
    }
    coupling_effort = multipliers.tail(static_cast<Eigen::Index>(model.couplings.size()));
    check_finite(coupling_effort, "the couplings' efforts");
  }
  const VecX& loop_residual = data.loop_residual;
  const MatX& loop_jacobian = data.loop_jacobian;
  if (model.has_constraints()) {
    check_finite(loop_residual, "the loop residual");
    check_finite(loop_jacobian, "the loop Jacobian");
  }

  // Every printed number is checked before anything is printed, in one place, so that
  // the JSON and the text output refuse the same states with the same message (status 3
  // naming the quantity; NaN or inf is never printed).
  for (int l = 0; l < model.num_bodies(); ++l) {
    check_finite(data.position[l], "the position of body '" + model.bodies[l].name + "'");
    check_finite(data.rotation[l], "the rotation of body '" + model.bodies[l].name + "'");
  }
  if (o.has_a) {
    for (int l = 0; l < model.num_bodies(); ++l) {
      const std::string joint = "joint '" + model.joints[l].name + "'";
      check_finite(constraint_torque[l], "the constraint torque of " + joint);
      check_finite(constraint_force[l], "the constraint force of " + joint);
      check_finite(axial_load[l], "the axial load of " + joint);
    }
  }

  if (o.json) {  // streamed: no JSON tree in memory (an nv × nv matrix is only its text)
    std::ostream& out = stdout_stream;
    JsonWriter json(out);
    json.begin_object();
    json.key("nq"), json.integer(model.nq);
    json.key("nv"), json.integer(model.nv);
    json.key("method"), json.string(recursive ? "recursive" : "explicit");  // beyond the contract: docs/cli.md
    json.key("coordinates");
    json.begin_array();
    for (const Joint& j : model.joints) {
      if (j.nv == 0) continue;  // fixed joints have no coordinates
      json.begin_object();
      json.key("joint"), json.string(j.name);
      json.key("type"), json.string(joint_type_name(j.type));
      json.key("q_index"), json.integer(j.q_index);
      json.key("v_index"), json.integer(j.v_index);
      json.end_object();
    }
    json.end_array();
    json.key("mass_matrix");
    json.begin_array();  // streamed row by row: no nv × nv matrix is held for the recursive method
    for (int i = 0; i < model.nv; ++i) json.vector(mass_matrix_row_at(i));
    json.end_array();
    json.key("bias"), json.vector(bias);
    json.key("gravity"), json.vector(gravity);
    if (model.has_force_elements || model.format_version() == 3) {  // force-elements.md "What other programs read"
      json.key("applied_forces"), json.vector(data.applied_force);
      json.key("force_elements");
      json.begin_array();
      for (std::size_t e = 0; e < model.forces.size(); ++e) {
        const ForceElement& element = model.forces[e];
        const auto k = static_cast<Eigen::Index>(e);
        json.begin_object();
        json.key("name"), json.string(element.name);
        json.key("type"), json.string(force_element_type_name(element.type));
        json.key("generalized_force"), json.vector(element_forces[e]);
        json.key("potential_energy"), json.number(data.element_energy[k]);
        json.key("value"), json.number(data.element_value[k]);  // beyond the contract: the simulate column's scalar
        if (element.type == ForceElementType::SpringDamper) {
          json.key("tension"), json.number(data.element_value[k]);
          json.key("length"), json.number(data.element_length[k]);
        }
        json.end_object();
      }
      json.end_array();
    }
    json.key("body_poses");
    json.begin_array();
    for (int l = 0; l < model.num_bodies(); ++l) {
      json.begin_object();
      json.key("body"), json.string(model.bodies[l].name);
      json.key("position"), json.vec3(data.position[l]);
      json.key("rotation");
      json.begin_array();
      for (int r = 0; r < 3; ++r) json.vec3(data.rotation[l].row(r).transpose());
      json.end_array();
      json.end_object();
    }
    json.end_array();
    if (o.has_a) {
      json.key("tau"), json.vector(tau_inverse);
      if (with_friction) {
        json.key("tau_with_friction"), json.vector(tau_with_friction);
        bool any_load = false;
        for (int l = 0; l < model.num_bodies(); ++l) {
          if (!model.joints[l].friction || !model.joints[l].friction->load) continue;
          if (!any_load) json.key("normal_load"), json.begin_array();
          any_load = true;
          json.begin_object();
          json.key("joint"), json.string(model.joints[l].name);
          json.key("value"), json.number(normal_load[l]);
          json.end_object();
        }
        if (any_load) json.end_array();
      }
      json.key("reactions");
      json.begin_array();
      for (int l = 0; l < model.num_bodies(); ++l) {
        json.begin_object();
        json.key("joint"), json.string(model.joints[l].name);
        json.key("force"), json.vec3(reaction_force[l]);
        json.key("torque"), json.vec3(reaction_torque[l]);
        json.end_object();
      }
      json.end_array();
      // Beyond the contract: the decomposition of each reaction (docs/friction.md).
      json.key("joint_loads");
      json.begin_array();
      for (int l = 0; l < model.num_bodies(); ++l) {
        json.begin_object();
        json.key("joint"), json.string(model.joints[l].name);
        json.key("type"), json.string(joint_type_name(model.joints[l].type));
        json.key("constraint_torque"), json.number(constraint_torque[l]);
        json.key("constraint_force"), json.number(constraint_force[l]);
        json.key("axial_load"), json.number(axial_load[l]);
        if (model.joints[l].friction && model.joints[l].friction->load)
          json.key("normal_load"), json.number(normal_load[l]);
        json.end_object();
      }
      json.end_array();
    }
    if (o.has_tau) json.key("a"), json.vector(forward_a);
    if (o.derivatives) {  // eval-json.md: row i = the derivative of component i
      const DerivativeData& d = *derivative_data;
      if (o.has_a) {
        json.key("dtau_dq"), json.matrix(d.dtau_dq);
        json.key("dtau_dv"), json.matrix(d.dtau_dv);
        if (with_friction) {  // beyond the contract (docs/cli.md)
          json.key("dtau_with_friction_dq"), json.matrix(d.dfriction_dq);
          json.key("dtau_with_friction_dv"), json.matrix(d.dfriction_dv);
        }
      }
      if (o.has_a) {
        // Beyond the contract (docs/cli.md): ∂ of each joint's `reactions` entry, 3 × nv each.
        json.key("reaction_derivatives");
        json.begin_array();
        for (int l = 0; l < model.num_bodies(); ++l) {
          const Eigen::Index row = 6 * static_cast<Eigen::Index>(l);
          json.begin_object();
          json.key("joint"), json.string(model.joints[l].name);
          json.key("dforce_dq"), json.matrix(d.dreaction_dq.middleRows(row, 3));
          json.key("dtorque_dq"), json.matrix(d.dreaction_dq.middleRows(row + 3, 3));
          json.key("dforce_dv"), json.matrix(d.dreaction_dv.middleRows(row, 3));
          json.key("dtorque_dv"), json.matrix(d.dreaction_dv.middleRows(row + 3, 3));
          json.end_object();
        }
        json.end_array();
      }
      if (o.has_tau) {
        json.key("da_dq"), json.matrix(d.da_dq);
        json.key("da_dv"), json.matrix(d.da_dv);
        json.key("da_dtau"), json.matrix(d.da_dtau);
      }
      if (closed) {  // beyond the contract (docs/cli.md): na × na, the actuated coordinates' order
        const std::vector<CoordinateLabel> labels = velocity_labels(model);
        json.key("closed_chain_derivatives");
        json.begin_object();
        json.key("coordinates");
        json.begin_array();
        for (int k : closed->coordinates) json.string(labels[static_cast<std::size_t>(k)].name);
        json.end_array();
        json.key("v_index");
        json.begin_array();
        for (int k : closed->coordinates) json.integer(k);
        json.end_array();
        json.key("q"), json.vector(closed_q);
        json.key("v"), json.vector(closed_v);
        json.key("a"), json.vector(closed_a);
        json.key("tau"), json.vector(closed->tau);
        json.key("dtau_dq"), json.matrix(closed->dtau_dq);
        json.key("dtau_dv"), json.matrix(closed->dtau_dv);
        json.key("dtau_da"), json.matrix(closed->dtau_da);
        json.end_object();
      }
    }
    if (coupling_effort.size() > 0) {
      json.key("couplings");
      json.begin_array();
      for (std::size_t c = 0; c < model.couplings.size(); ++c) {
        json.begin_object();
        json.key("name"), json.string(model.couplings[c].name);
        json.key("effort"), json.number(coupling_effort[static_cast<Eigen::Index>(c)]);
        json.end_object();
      }
      json.end_array();
    }
    if (model.has_constraints()) {
      json.key("loops");
      json.begin_object();
      json.key("residual"), json.vector(loop_residual);
      json.key("jacobian"), json.matrix(loop_jacobian);
      json.end_object();
    }
    json.end_object();
    out << "\n";
    return;
  }

  // Readable text, streamed.
  std::ostream& out = stdout_stream;
  const std::vector<CoordinateLabel> vlabels = velocity_labels(model);
  out << "model " << model.name << ": nq = " << model.nq << ", nv = " << model.nv << ", method "
      << describe_method(o.method, model) << "\n";
  out << "mass matrix M(q):\n";
  for (int r = 0; r < model.nv; ++r) {
    const VecX& row = mass_matrix_row_at(r);
    out << "  ";
    for (Eigen::Index c = 0; c < row.size(); ++c) out << fixed(row[c]) << (c + 1 < row.size() ? " " : "");
    out << "\n";
  }
  text_vector(out, "bias h(q, v):", vlabels, bias);
  text_vector(out, "gravity part of h:", vlabels, gravity);
  if (model.has_force_elements) {
    text_vector(out, "force elements' generalized force Q_f(q, v, t):", vlabels, data.applied_force);
    out << "force elements (value: tension N, joint effort, |force| N; potential energy J):\n";
    for (std::size_t e = 0; e < model.forces.size(); ++e)
      out << "  " << model.forces[e].name << " (" << force_element_type_name(model.forces[e].type) << ")  value "
          << fixed(data.element_value[static_cast<Eigen::Index>(e)]) << "  energy "
          << fixed(data.element_energy[static_cast<Eigen::Index>(e)]) << "\n";
  }
  out << "body poses (position; rotation rows):\n";
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Vec3& p = data.position[l];
    const Mat3& R = data.rotation[l];
    out << "  " << model.bodies[l].name << "  position [" << fixed(p.x()) << ", " << fixed(p.y()) << ", "
        << fixed(p.z()) << "]  rotation";
    for (int r = 0; r < 3; ++r)
      out << " [" << fixed(R(r, 0)) << ", " << fixed(R(r, 1)) << ", " << fixed(R(r, 2)) << "]";
    out << "\n";
  }
  if (o.has_a) {
    text_vector(out, model.has_force_elements ? "inverse dynamics tau = M a + h - Q_f:" : "inverse dynamics tau = M a + h:",
                vlabels, tau_inverse);
    if (with_friction) {
      text_vector(out, "with joint friction:", vlabels, tau_with_friction);
      for (int l = 0; l < model.num_bodies(); ++l)
        if (model.joints[l].friction && model.joints[l].friction->load)
          out << "  normal load of " << model.joints[l].name << ": " << fixed(normal_load[l]) << "\n";
    }
    out << "joint reactions (parent on child, world frame, torque about the child's origin):\n";
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Vec3& f = reaction_force[l];
      const Vec3& t = reaction_torque[l];
      out << "  " << model.joints[l].name << "  force [" << fixed(f.x()) << ", " << fixed(f.y()) << ", "
          << fixed(f.z()) << "] N  torque [" << fixed(t.x()) << ", " << fixed(t.y()) << ", " << fixed(t.z())
          << "] N m\n";
    }
    out << "joint loads (constraint torque, constraint force, axial load; docs/friction.md):\n";
    for (int l = 0; l < model.num_bodies(); ++l)
      out << "  " << model.joints[l].name << " " << fixed(constraint_torque[l]) << " " << fixed(constraint_force[l])
          << " " << fixed(axial_load[l]) << "\n";
  }
  if (o.has_tau) text_vector(out, "forward dynamics a:", vlabels, forward_a);
  if (o.derivatives) {
    const auto text_matrix = [&](const char* title, const MatX& m) {
      out << title << "\n";
      for (Eigen::Index r = 0; r < m.rows(); ++r) {
        out << "  ";
        for (Eigen::Index c = 0; c < m.cols(); ++c) out << fixed(m(r, c)) << (c + 1 < m.cols() ? " " : "");
        out << "\n";
      }
    };
    const DerivativeData& d = *derivative_data;
    if (o.has_a) {
      text_matrix("dtau/dq (row i: derivative of tau_i; q in the tangent space):", d.dtau_dq);
      text_matrix("dtau/dv:", d.dtau_dv);
    }
    if (o.has_tau) {
      text_matrix("da/dq (forward dynamics):", d.da_dq);
      text_matrix("da/dv:", d.da_dv);
      text_matrix("da/dtau = M^-1:", d.da_dtau);
    }
    if (closed) {
      const std::vector<CoordinateLabel> labels = velocity_labels(model);
      out << "closed chain (loops closed; passive coordinates follow): actuated coordinates";
      for (int k : closed->coordinates) out << " " << labels[static_cast<std::size_t>(k)].name;
      out << "\n";
      out << "  actuated efforts tau_a:";
      for (Eigen::Index i = 0; i < closed->tau.size(); ++i) out << " " << fixed(closed->tau[i]);
      out << "\n";
      text_matrix("dtau_a/dq_a (total):", closed->dtau_dq);
      text_matrix("dtau_a/dv_a:", closed->dtau_dv);
      text_matrix("dtau_a/da_a (reduced mass matrix):", closed->dtau_da);
    }
  }
  for (Eigen::Index c = 0; c < coupling_effort.size(); ++c)
    out << "coupling " << model.couplings[static_cast<std::size_t>(c)].name << " effort " << fixed(coupling_effort[c]) << "\n";
  if (model.has_constraints()) {
    out << "loop closure residual:";
    for (Eigen::Index i = 0; i < loop_residual.size(); ++i) out << " " << fixed(loop_residual[i]);
    out << "\n";
  }
}

}  // namespace

void add_eval_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand("eval", "Every dynamic quantity of a model at one state (q, v).");
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md)")->required();
  CLI::Option* q = sub->add_option("--q", o->q, "configuration: nq comma-separated numbers (default: neutral)");
  CLI::Option* v = sub->add_option("--v", o->v, "velocities: nv numbers (default: zero)");
  CLI::Option* a = sub->add_option("--a", o->a, "accelerations: nv numbers; prints tau and reactions");
  CLI::Option* tau = sub->add_option("--tau", o->tau, "efforts: nv numbers; prints the forward-dynamics a");
  sub->add_option("--t", o->time, "time (s) of the force elements' servo targets and applied loads (default 0)")
      ->check(CLI::Number);
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/eval-json.md)");
  sub->add_flag("--derivatives", o->derivatives,
                "also the analytical derivatives: dtau_dq, dtau_dv with --a; da_dq, da_dv, da_dtau with --tau "
                "(q in the tangent space; docs/derivatives.md)");
  sub->add_option("--method", o->method,
                  "auto (default: explicit while nv <= 16, else recursive), explicit, or recursive (CRBA, RNEA, ABA)")
      ->check(CLI::IsMember({"auto", "explicit", "recursive"}));
  sub->footer(
      "Examples:\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0.1,-0.2,0.3,0.05,0.5 --v 0,0,0,0,0\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q -0.5,0.2,0,0,0 --v 1,0,0,0,0 --a 0,0,1,0,0 --json\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0,0,0,0,0 --v 0,0,0,0,0 --tau 1,2,3,0,0 --method recursive\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0.1,0,0,0,0 --v 1,0,0,0,0 --a 0,0,0,0,0 --derivatives --json\n"
      "Numbers are comma-separated without spaces (or quoted); negative values work as '--q -0.5,0.2'.");
  sub->callback([o, q, v, a, tau, &selected] {
    o->has_q = q->count() > 0;
    o->has_v = v->count() > 0;
    o->has_a = a->count() > 0;
    o->has_tau = tau->count() > 0;
    selected = [o](std::ostream& out) { run_eval(*o, out); };
  });
}

}  // namespace mechdyn::cli
