// The generated functions of `mechdyn codegen` (generated_functions.hpp): one
// expression graph each, so that each function's text holds only its own work.
//   mass_matrix       CRBA (symbolic_crba.cpp)
//   bias              RNEA at q̈ = 0 (symbolic_rnea.cpp)
//   inverse_dynamics  RNEA
//   forward_dynamics  CRBA, RNEA at q̈ = 0, Lᵀ D L of M, solve for τ − h (symbolic_ldl.cpp);
//                     every pivot checked against 1e3·ε·max_k M_kk first (the library's
//                     test in dynamics/sparse_cholesky.cpp), before any output is written;
//                     or, when every joint has one coordinate or none and it prints fewer
//                     operations (multiplications + additions + divisions), the
//                     articulated-body algorithm (symbolic_aba.cpp; long chains), each
//                     D_i checked against 1e3·ε·|S_i|ᵀ|I^A_i||S_i| (dynamics/aba.cpp's test)
//   joint_reactions   RNEA's f_i turned into the world by Q_i (EC eq. 4)
//   inverse_dynamics_with_friction  (models with joint friction only) RNEA's τ and f_i,
//                     the friction efforts from f_i (symbolic_friction.cpp), τ_d = τ + τ_f
//                     (EC Algorithm 1, eq. 54); LuGre at its steady state (eval's)
//   inverse_dynamics_with_lugre_state  (models with a LuGre joint only) the same with the
//                     bristle deflections z as inputs and ż as outputs (simulate's)
// Cost: linear in the printed code. Reads: the model. Writes: nothing but the result.
#include "generated_functions.hpp"

#include <limits>

#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

std::string entry(const std::string& array, int index) { return array + "[" + std::to_string(index) + "]"; }

std::vector<Expr> zeros(int size) { return std::vector<Expr>(static_cast<std::size_t>(size), Expr()); }

FunctionPart mass_matrix_function(const Model& model, const std::string& math) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const std::vector<Expr> m = symbolic_mass_matrix(model, tree);
  std::vector<Statement> statements;
  for (int r = 0; r < model.nv; ++r)
    for (int c = 0; c < model.nv; ++c)
      statements.push_back({Statement::Kind::Assign, entry("M", r * model.nv + c), m[static_cast<std::size_t>(r * model.nv + c)],
                            Expr(), 0, "M(" + std::to_string(r) + ", " + std::to_string(c) + ")"});
  FunctionPart f;
  f.name = "mass_matrix";
  f.summary = "M(q): the joint-space inertia matrix, row-major nv x nv (CRBA)";
  f.parameters = {{"q", model.nq, true, "configuration"}, {"M", model.nv * model.nv, false, "M(q), row-major"}};
  f.body = emit_body(graph, statements, {"q"}, math);
  return f;
}

FunctionPart rnea_function(const Model& model, const std::string& math, bool with_acceleration) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const std::vector<Expr> v = velocity_inputs(model, "v");
  const std::vector<Expr> a = with_acceleration ? velocity_inputs(model, "a") : zeros(model.nv);
  const SymbolicForces forces = symbolic_rnea(model, tree, v, a);
  const std::string out = with_acceleration ? "tau" : "h";
  std::vector<Statement> statements;
  for (int k = 0; k < model.nv; ++k)
    statements.push_back({Statement::Kind::Assign, entry(out, k), forces.tau[static_cast<std::size_t>(k)], Expr(), 0, ""});
  FunctionPart f;
  f.parameters = {{"q", model.nq, true, "configuration"}, {"v", model.nv, true, "velocities"}};
  if (with_acceleration) {
    f.name = "inverse_dynamics";
    f.summary = "tau = M(q) a + h(q, v): inverse dynamics (RNEA), no friction";
    f.parameters.push_back({"a", model.nv, true, "accelerations"});
    f.parameters.push_back({"tau", model.nv, false, "joint efforts"});
  } else {
    f.name = "bias";
    f.summary = "h(q, v): Coriolis, centrifugal and gravity efforts, M a + h = tau (RNEA at a = 0)";
    f.parameters.push_back({"h", model.nv, false, "bias efforts"});
  }
  f.body = emit_body(graph, statements, {"q", "v", "a"}, math);
  return f;
}

long cost(const FunctionPart& f) {
  return f.body.counts.multiplications + f.body.counts.additions + f.body.counts.divisions;
}

/// The articulated-body form (symbolic_aba.cpp); the model's joints have ≤ 1 coordinate.
FunctionPart articulated_forward_dynamics_function(const Model& model, const std::string& math) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const SymbolicArticulated result =
      symbolic_aba(model, tree, velocity_inputs(model, "v"), velocity_inputs(model, "tau"));
  FunctionPart f;
  f.name = "forward_dynamics";
  f.summary = "a = M(q)^-1 (tau - h(q, v)): forward dynamics by the articulated-body algorithm";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"tau", model.nv, true, "joint efforts"},
                  {"a", model.nv, false, "accelerations"}};
  f.returns_status = true;
  std::vector<Statement> statements;
  for (int k = model.nv - 1; k >= 0; --k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    const Expr limit = (1e3 * std::numeric_limits<double>::epsilon()) * result.pivot_scale[kk];
    statements.push_back({Statement::Kind::Guard, "", result.pivot[kk], limit, k + 1,
                          "M is singular: articulated inertia D of coordinate " + std::to_string(k) + " is not positive"});
  }
  for (int k = 0; k < model.nv; ++k)
    statements.push_back({Statement::Kind::Assign, entry("a", k), result.acceleration[static_cast<std::size_t>(k)], Expr(), 0, ""});
  f.body = emit_body(graph, statements, {"q", "v", "tau"}, math);
  return f;
}

FunctionPart factored_forward_dynamics_function(const Model& model, const std::string& math) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const std::vector<Expr> m = symbolic_mass_matrix(model, tree);
  const std::vector<Expr> v = velocity_inputs(model, "v");
  const std::vector<Expr> tau = velocity_inputs(model, "tau");
  const SymbolicForces bias = symbolic_rnea(model, tree, v, zeros(model.nv));
  const SymbolicFactor factor = symbolic_factor(model, m);
  FunctionPart f;
  f.name = "forward_dynamics";
  f.summary = "a = M(q)^-1 (tau - h(q, v)): forward dynamics by the branch-sparse L^T D L of M";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"tau", model.nv, true, "joint efforts"},
                  {"a", model.nv, false, "accelerations"}};
  f.returns_status = true;
  if (factor.structurally_singular >= 0) {  // M singular at every q: the pivots above it, then the failure
    const int k = factor.structurally_singular;
    Expr largest = m[0];
    for (int j = 1; j < model.nv; ++j) largest = max(largest, m[static_cast<std::size_t>(j * model.nv + j)]);
    const Expr limit = named((1e3 * std::numeric_limits<double>::epsilon()) * largest, "singular_below");
    std::vector<Statement> statements;
    for (int j = model.nv - 1; j > k; --j)
      statements.push_back({Statement::Kind::Guard, "", factor.pivot[static_cast<std::size_t>(j)], limit, j + 1,
                            "M is singular: pivot " + std::to_string(j) + " is not positive"});
    statements.push_back({Statement::Kind::Return, "", Expr(), Expr(), k + 1,
                          "pivot " + std::to_string(k) + " is 0 at every q: M is singular"});
    f.always_fails = true;
    f.note = "M is singular at every configuration (pivot " + std::to_string(k) + ", coordinate of joint '" +
             model.joints[static_cast<std::size_t>(model.dof_body[static_cast<std::size_t>(k)])].name +
             "', is 0 whatever q): forward_dynamics always returns a failure status";
    f.body = emit_body(graph, statements, {"q", "v", "tau"}, math);
    return f;
  }
  std::vector<Expr> rhs(static_cast<std::size_t>(model.nv));
  for (std::size_t k = 0; k < rhs.size(); ++k) rhs[k] = tau[k] - bias.tau[k];  // tau − h
  const std::vector<Expr> acceleration = symbolic_solve(model, factor, rhs);
  // Singular to working precision: a pivot at the round-off level of M's largest diagonal entry.
  Expr largest = m[0];
  for (int k = 1; k < model.nv; ++k) largest = max(largest, m[static_cast<std::size_t>(k * model.nv + k)]);
  const Expr limit = named((1e3 * std::numeric_limits<double>::epsilon()) * largest, "singular_below");
  std::vector<Statement> statements;
  for (int k = model.nv - 1; k >= 0; --k)
    statements.push_back({Statement::Kind::Guard, "", factor.pivot[static_cast<std::size_t>(k)], limit, k + 1,
                          "M is singular: pivot " + std::to_string(k) + " is not positive"});
  for (int k = 0; k < model.nv; ++k)
    statements.push_back({Statement::Kind::Assign, entry("a", k), acceleration[static_cast<std::size_t>(k)], Expr(), 0, ""});
  f.body = emit_body(graph, statements, {"q", "v", "tau"}, math);
  return f;
}

FunctionPart forward_dynamics_function(const Model& model, const std::string& math, CodegenForwardDynamics form) {
  if (form == CodegenForwardDynamics::Articulated) return articulated_forward_dynamics_function(model, math);
  FunctionPart factored = factored_forward_dynamics_function(model, math);
  if (form == CodegenForwardDynamics::Factor || factored.always_fails || !symbolic_aba_applies(model)) return factored;
  FunctionPart articulated = articulated_forward_dynamics_function(model, math);
  return cost(articulated) < cost(factored) ? articulated : factored;
}

FunctionPart joint_reactions_function(const Model& model, const std::string& math) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const SymbolicForces forces = symbolic_rnea(model, tree, velocity_inputs(model, "v"), velocity_inputs(model, "a"));
  std::vector<Statement> statements;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const SMat3& world = tree.world_rotation[b];
    const SVec3 force = world * forces.body_force[b].bottom, torque = world * forces.body_force[b].top;
    for (int k = 0; k < 3; ++k)
      statements.push_back({Statement::Kind::Assign, entry("force", 3 * i + k), force[k], Expr(), 0,
                            k == 0 ? "joint '" + model.joints[b].name + "'" : ""});
    for (int k = 0; k < 3; ++k)
      statements.push_back({Statement::Kind::Assign, entry("torque", 3 * i + k), torque[k], Expr(), 0, ""});
  }
  const int n3 = 3 * model.num_bodies();
  FunctionPart f;
  f.name = "joint_reactions";
  f.summary = "the wrench each joint's parent exerts on its child (world frame, torque about the child's origin)";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"a", model.nv, true, "accelerations"},
                  {"force", n3, false, "force of joint i at 3i, 3i+1, 3i+2 (N)"},
                  {"torque", n3, false, "torque of joint i at 3i, 3i+1, 3i+2 (N m)"}};
  f.body = emit_body(graph, statements, {"q", "v", "a"}, math);
  return f;
}

/// inverse_dynamics_with_friction (LuGre at its steady state) or, `lugre_state`,
/// inverse_dynamics_with_lugre_state (LuGre from the bristle deflections z).
FunctionPart friction_function(const Model& model, const std::string& math, bool lugre_state) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const SymbolicTree tree = symbolic_positions(model, configuration_inputs(model));
  const std::vector<Expr> v = velocity_inputs(model, "v"), a = velocity_inputs(model, "a");
  const std::vector<Expr> z = lugre_state ? velocity_inputs(model, "z") : std::vector<Expr>();
  const SymbolicForces forces = symbolic_rnea(model, tree, v, a);
  const SymbolicFriction friction = symbolic_friction_effort(model, tree, forces, v, a, lugre_state ? &z : nullptr);
  std::vector<Statement> statements;
  for (int k = 0; k < model.nv; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    statements.push_back({Statement::Kind::Assign, entry("tau_d", k), forces.tau[kk] + friction.effort[kk], Expr(), 0, ""});
  }
  for (int k = 0; k < model.nv; ++k)
    statements.push_back(
        {Statement::Kind::Assign, entry("friction", k), friction.effort[static_cast<std::size_t>(k)], Expr(), 0, ""});
  if (lugre_state)
    for (int k = 0; k < model.nv; ++k)
      statements.push_back(
          {Statement::Kind::Assign, entry("z_rate", k), friction.state_rate[static_cast<std::size_t>(k)], Expr(), 0, ""});
  FunctionPart f;
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"a", model.nv, true, "accelerations"}};
  if (lugre_state) {
    f.name = "inverse_dynamics_with_lugre_state";
    f.summary = "tau_d = M(q) a + h(q, v) + tau_f with the LuGre joints' bristle deflections z as inputs (EC eq. 54)";
    f.parameters.push_back({"z", model.nv, true, "LuGre bristle deflections at the LuGre coordinates, others unread"});
  } else {
    f.name = "inverse_dynamics_with_friction";
    f.summary = "tau_d = M(q) a + h(q, v) + tau_f: inverse dynamics with the load-dependent joint friction (EC eq. 54)";
  }
  f.parameters.push_back({"tau_d", model.nv, false, "driving efforts, friction included (mechdyn eval's tau_with_friction)"});
  f.parameters.push_back({"friction", model.nv, false,
                          "friction efforts tau_f, of the sign of v (at v = 0 of a), 0 without friction "
                          "(eval's friction_effort)"});
  if (lugre_state) f.parameters.push_back({"z_rate", model.nv, false, "dz/dt at the LuGre coordinates, 0 elsewhere"});
  f.body = emit_body(graph, statements, {"q", "v", "a", "z"}, math);
  return f;
}

bool has_friction(const Model& model, bool lugre_only) {
  for (const Joint& joint : model.joints)
    if (joint.friction && (!lugre_only || joint.friction->model == FrictionModel::LuGre)) return true;
  return false;
}

}  // namespace

std::vector<FunctionPart> generate_functions(const Model& model, const std::string& math_prefix,
                                             CodegenForwardDynamics form) {
  std::vector<FunctionPart> parts;
  parts.push_back(mass_matrix_function(model, math_prefix));
  parts.push_back(rnea_function(model, math_prefix, false));
  parts.push_back(rnea_function(model, math_prefix, true));
  parts.push_back(forward_dynamics_function(model, math_prefix, form));
  parts.push_back(joint_reactions_function(model, math_prefix));
  if (has_friction(model, false)) parts.push_back(friction_function(model, math_prefix, false));
  if (has_friction(model, true)) parts.push_back(friction_function(model, math_prefix, true));
  return parts;
}

}  // namespace mechdyn::codegen
