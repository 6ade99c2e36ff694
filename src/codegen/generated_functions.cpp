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
//   applied_force     (models with force elements only) Q_f (symbolic_force_elements.cpp)
// Model format 3: M carries the armature on its diagonal (symbolic_crba.cpp, symbolic_aba.cpp);
// the force elements' body wrenches enter RNEA and the articulated-body algorithm as external
// wrenches and their joint efforts are subtracted, so that tau = M a + h − Q_f and forward
// dynamics solves M a = tau + Q_f − h (compute_all_terms' convention), the reactions carry the
// wrenches; a spring-damper that divides by its length L guards L ≥ 1e-12 m (the library's
// SolverError) and returns −(j + 1), j its index in the model's forces.
// Cost: linear in the printed code. Reads: the model. Writes: nothing but the result.
#include "generated_functions.hpp"

#include <cmath>
#include <limits>

#include "c_names.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

std::string entry(const std::string& array, int index) { return array + "[" + std::to_string(index) + "]"; }

std::vector<Expr> zeros(int size) { return std::vector<Expr>(static_cast<std::size_t>(size), Expr()); }

/// The force elements in the current graph (format 3), at (q, v).
struct Elements {
  bool present = false;  // the model has force elements
  SymbolicElements terms;
  const std::vector<SSpatial>* wrenches() const { return terms.any_body_wrench ? &terms.body_wrench : nullptr; }
};

Elements elements_at(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& q, const std::vector<Expr>& v) {
  Elements e;
  e.present = model.has_force_elements;
  if (e.present) e.terms = symbolic_force_elements(model, tree, q, v);
  return e;
}

const char* const kSpringStatus =
    "-(j + 1) when spring-damper j (index in the model's forces) has its points closer than 1e-12 m "
    "while it exerts a force (the library's SolverError)";

/// The spring-dampers' length checks, before any output: `if (!(L > limit)) return −(j + 1);`.
void add_length_guards(const Model& model, const Elements& elements, std::vector<Statement>& statements) {
  if (!elements.present) return;
  const double limit = std::nextafter(1e-12, 0.0);  // L ≥ 1e-12 passes, as the library's L < 1e-12 fails
  for (const SymbolicElements::LengthGuard& g : elements.terms.length_guards)
    statements.push_back({Statement::Kind::Guard, "", g.length, Expr(limit), -(g.element + 1),
                          "spring-damper '" + model.forces[static_cast<std::size_t>(g.element)].name +
                              "': points coincide, direction undefined"});
}

/// The effort of the drives: τ from RNEA (with the element wrenches), − joint efforts, + armature a.
std::vector<Expr> drive_effort(const Model& model, const Elements& elements, const std::vector<Expr>& rnea_tau,
                               const std::vector<Expr>& acceleration) {
  std::vector<Expr> tau = rnea_tau;
  for (int k = 0; k < model.nv; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    if (elements.present) tau[kk] = tau[kk] - elements.terms.joint_effort[kk];
    if (model.has_armature && model.armature[k] != 0.0) tau[kk] = tau[kk] + model.armature[k] * acceleration[kk];
  }
  return tau;
}

std::string forward_status(const Elements& elements) {
  std::string text = "0, or k + 1 when pivot k of M is not positive";
  if (elements.present && !elements.terms.length_guards.empty()) text += ", or " + std::string(kSpringStatus);
  return text + " (then a is not written)";
}

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
  f.summary = model.has_armature ? "M(q): the joint-space inertia matrix with the armature, row-major nv x nv (CRBA)"
                                  : "M(q): the joint-space inertia matrix, row-major nv x nv (CRBA)";
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
  // h is the library's bias_force: no force elements in it; inverse dynamics has them.
  const Elements elements = with_acceleration ? elements_at(model, tree, configuration_inputs(model), v) : Elements();
  const SymbolicForces forces = symbolic_rnea(model, tree, v, a, elements.wrenches());
  const std::vector<Expr> tau = with_acceleration ? drive_effort(model, elements, forces.tau, a) : forces.tau;
  const std::string out = with_acceleration ? "tau" : "h";
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
  for (int k = 0; k < model.nv; ++k)
    statements.push_back({Statement::Kind::Assign, entry(out, k), tau[static_cast<std::size_t>(k)], Expr(), 0, ""});
  FunctionPart f;
  f.parameters = {{"q", model.nq, true, "configuration"}, {"v", model.nv, true, "velocities"}};
  if (!statements.empty() && statements.front().kind == Statement::Kind::Guard) {
    f.returns_status = true;
    f.status = std::string("0, or ") + kSpringStatus + " (then tau is not written)";
  }
  if (with_acceleration) {
    f.name = "inverse_dynamics";
    f.summary = model.has_force_elements ? "tau = M(q) a + h(q, v) - Q_f(q, v): the drives' efforts (RNEA), no friction"
                                         : "tau = M(q) a + h(q, v): inverse dynamics (RNEA), no friction";
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
  const std::vector<Expr> v = velocity_inputs(model, "v");
  std::vector<Expr> tau = velocity_inputs(model, "tau");
  const Elements elements = elements_at(model, tree, configuration_inputs(model), v);
  if (elements.present)  // τ + the joint efforts; the body wrenches enter p^A
    for (std::size_t k = 0; k < tau.size(); ++k) tau[k] = tau[k] + elements.terms.joint_effort[k];
  const SymbolicArticulated result = symbolic_aba(model, tree, v, tau, elements.wrenches());
  FunctionPart f;
  f.name = "forward_dynamics";
  f.summary = model.has_force_elements
                  ? "a = M(q)^-1 (tau + Q_f(q, v) - h(q, v)): forward dynamics by the articulated-body algorithm"
                  : "a = M(q)^-1 (tau - h(q, v)): forward dynamics by the articulated-body algorithm";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"tau", model.nv, true, "joint efforts"},
                  {"a", model.nv, false, "accelerations"}};
  f.returns_status = true;
  f.status = forward_status(elements);
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
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
  const Elements elements = elements_at(model, tree, configuration_inputs(model), v);
  const SymbolicForces bias = symbolic_rnea(model, tree, v, zeros(model.nv), elements.wrenches());  // h − Jᵀ w
  const SymbolicFactor factor = symbolic_factor(model, m);
  FunctionPart f;
  f.name = "forward_dynamics";
  f.summary = model.has_force_elements
                  ? "a = M(q)^-1 (tau + Q_f(q, v) - h(q, v)): forward dynamics by the branch-sparse L^T D L of M"
                  : "a = M(q)^-1 (tau - h(q, v)): forward dynamics by the branch-sparse L^T D L of M";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"tau", model.nv, true, "joint efforts"},
                  {"a", model.nv, false, "accelerations"}};
  f.returns_status = true;
  f.status = forward_status(elements);
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
  for (std::size_t k = 0; k < rhs.size(); ++k) {
    rhs[k] = tau[k] - bias.tau[k];  // tau − h (+ Jᵀ w)
    if (elements.present) rhs[k] = rhs[k] + elements.terms.joint_effort[k];  // + the joint efforts: tau + Q_f − h
  }
  const std::vector<Expr> acceleration = symbolic_solve(model, factor, rhs);
  // Singular to working precision: a pivot at the round-off level of M's largest diagonal entry.
  Expr largest = m[0];
  for (int k = 1; k < model.nv; ++k) largest = max(largest, m[static_cast<std::size_t>(k * model.nv + k)]);
  const Expr limit = named((1e3 * std::numeric_limits<double>::epsilon()) * largest, "singular_below");
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
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
  const std::vector<Expr> v = velocity_inputs(model, "v");
  const Elements elements = elements_at(model, tree, configuration_inputs(model), v);
  const SymbolicForces forces = symbolic_rnea(model, tree, v, velocity_inputs(model, "a"), elements.wrenches());
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
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
  if (!statements.empty() && statements.front().kind == Statement::Kind::Guard) {
    f.returns_status = true;
    f.status = std::string("0, or ") + kSpringStatus + " (then nothing is written)";
  }
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
  const Elements elements = elements_at(model, tree, configuration_inputs(model), v);
  const SymbolicForces forces = symbolic_rnea(model, tree, v, a, elements.wrenches());  // reactions with the elements
  const std::vector<Expr> tau = drive_effort(model, elements, forces.tau, a);
  const SymbolicFriction friction = symbolic_friction_effort(model, tree, forces, v, a, lugre_state ? &z : nullptr);
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
  for (int k = 0; k < model.nv; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    statements.push_back({Statement::Kind::Assign, entry("tau_d", k), tau[kk] + friction.effort[kk], Expr(), 0, ""});
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
    f.summary = std::string(model.has_force_elements ? "tau_d = M(q) a + h(q, v) - Q_f(q, v) + tau_f" : "tau_d = M(q) a + h(q, v) + tau_f") +
                " with the LuGre joints' bristle deflections z as inputs (EC eq. 54)";
    f.parameters.push_back({"z", model.nv, true, "LuGre bristle deflections at the LuGre coordinates, others unread"});
  } else {
    f.name = "inverse_dynamics_with_friction";
    f.summary = std::string(model.has_force_elements ? "tau_d = M(q) a + h(q, v) - Q_f(q, v) + tau_f" : "tau_d = M(q) a + h(q, v) + tau_f") +
                ": inverse dynamics with the load-dependent joint friction (EC eq. 54)";
  }
  f.parameters.push_back({"tau_d", model.nv, false, "driving efforts, friction included (mechdyn eval's tau_with_friction)"});
  f.parameters.push_back({"friction", model.nv, false,
                          "friction efforts tau_f, of the sign of v (at v = 0 of a), 0 without friction "
                          "(eval's friction_effort)"});
  if (lugre_state) f.parameters.push_back({"z_rate", model.nv, false, "dz/dt at the LuGre coordinates, 0 elsewhere"});
  if (!statements.empty() && statements.front().kind == Statement::Kind::Guard) {
    f.returns_status = true;
    f.status = std::string("0, or ") + kSpringStatus + " (then nothing is written)";
  }
  f.body = emit_body(graph, statements, {"q", "v", "a", "z"}, math);
  return f;
}

/// applied_force: Q_f, the force elements' generalized force (mechdyn eval's applied_forces).
FunctionPart applied_force_function(const Model& model, const std::string& math) {
  ExpressionGraph graph;
  GraphScope scope(graph);
  const std::vector<Expr> q = configuration_inputs(model);
  const SymbolicTree tree = symbolic_positions(model, q);
  const std::vector<Expr> v = velocity_inputs(model, "v");
  const Elements elements = elements_at(model, tree, q, v);
  const std::vector<Expr> generalized = symbolic_generalized_force(model, tree, elements.terms);
  std::vector<Statement> statements;
  add_length_guards(model, elements, statements);
  for (int k = 0; k < model.nv; ++k)
    statements.push_back({Statement::Kind::Assign, entry("Q_f", k), generalized[static_cast<std::size_t>(k)], Expr(), 0, ""});
  FunctionPart f;
  f.name = "applied_force";
  f.summary = "Q_f(q, v): the generalized force of the model's force elements (eval's applied_forces)";
  f.parameters = {{"q", model.nq, true, "configuration"},
                  {"v", model.nv, true, "velocities"},
                  {"Q_f", model.nv, false, "generalized force of the spring-dampers and joint spring-dampers"}};
  if (!statements.empty() && statements.front().kind == Statement::Kind::Guard) {
    f.returns_status = true;
    f.status = std::string("0, or ") + kSpringStatus + " (then Q_f is not written)";
  }
  f.body = emit_body(graph, statements, {"q", "v"}, math);
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
  if (model.has_force_elements) parts.push_back(applied_force_function(model, math_prefix));
  return parts;
}

}  // namespace mechdyn::codegen
