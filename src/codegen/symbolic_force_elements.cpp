// Symbolic force elements of model format 3 for `mechdyn codegen` (symbolic_dynamics.hpp):
// the spring-dampers' wrenches on their bodies and the joint spring-dampers' efforts, from
// the kinematics the generated code already has; and their generalized force Q_f.
//
// Source: ../shared/spec/force-elements.md (the laws), as dynamics/force_elements.cpp
// evaluates them. With p the world position of a body's frame origin (p_i = p_λ + Q_λ r_i,
// r_i the joint's translation in the parent, EC eqs. 2, 4), a body point c (body
// coordinates = world directions at q = 0, natural frames) is at p + Q c and moves with
// Q (u + ω × c) (ω, u the body velocity in body coordinates, as symbolic_rnea.cpp):
//   spring-damper  d = p_b − p_a,  L = |d|,  L̇ = dᵀ (ṗ_b − ṗ_a) / L,
//                  T = k (L − L0) + c L̇ + T0,  F = (T / L) d (world)
//                  on a: [c_a × F_a; F_a] with F_a = Q_aᵀ F (body a coordinates), on b: −F
//                  the same; with c = 0 and k L0 = T0 exactly, F = k d (no division: the
//                  library's exception "exerts nothing" at L = 0, and the same force elsewhere)
//   joint-spring-damper  effort −k (q − rest) − c v on the joint's coordinate
//   Q_f            Q_k = S_kᵀ Σ_{subtree} X^T w_j + the joint efforts (the backward pass of
//                  RNEA with only the element wrenches: Jᵀ of each wrench)
// Other element types and couplings are refused by generate_code (codegen_refusal).
// Cost: O(n + elements) graph nodes. Reads: the model, the symbolic tree. Writes: graph nodes.
#include <string>

#include "c_names.hpp"
#include "mechdyn/errors.hpp"
#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

namespace {

/// Body velocities [ω; u] in body coordinates, made exactly as symbolic_rnea.cpp and
/// symbolic_aba.cpp make them (so the graph shares the nodes).
std::vector<SSpatial> body_velocities(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& velocity) {
  const int n = model.num_bodies();
  std::vector<SSpatial> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const Body& body = model.bodies[b];
    const Joint& joint = model.joints[b];
    const SymbolicJoint& state = tree.joints[b];
    const std::string name = c_identifier(body.name);
    SSpatial v;
    if (body.parent != kGround) v = motion_to_body(state, out[static_cast<std::size_t>(body.parent)]);
    for (int k = 0; k < joint.nv; ++k) v = v + velocity[static_cast<std::size_t>(joint.v_index + k)] * state.axes[k];
    out[b] = {named(v.top, "omega_" + name), named(v.bottom, "u_" + name)};
  }
  return out;
}

/// World positions of the body frame origins: p_i = p_λ + Q_λ r_i.
std::vector<SVec3> body_positions(const Model& model, const SymbolicTree& tree) {
  const int n = model.num_bodies();
  std::vector<SVec3> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const int parent = model.bodies[b].parent;
    const SVec3& r = tree.joints[b].translation;
    const SVec3 p = parent == kGround ? r
                                      : out[static_cast<std::size_t>(parent)] +
                                            tree.world_rotation[static_cast<std::size_t>(parent)] * r;
    out[b] = named(p, "p_" + c_identifier(model.bodies[b].name));
  }
  return out;
}

}  // namespace

const ForceElement* codegen_refused_element(const Model& model) {
  for (const ForceElement& e : model.forces)
    if (e.type != ForceElementType::SpringDamper && e.type != ForceElementType::JointSpringDamper) return &e;
  return nullptr;
}

SymbolicElements symbolic_force_elements(const Model& model, const SymbolicTree& tree, const std::vector<Expr>& q,
                                         const std::vector<Expr>& velocity) {
  const int n = model.num_bodies();
  SymbolicElements out;
  out.body_wrench.assign(static_cast<std::size_t>(n), SSpatial());
  out.joint_effort.assign(static_cast<std::size_t>(model.nv), Expr());
  bool any_spring = false;
  for (const ForceElement& e : model.forces) any_spring = any_spring || e.type == ForceElementType::SpringDamper;
  std::vector<SVec3> position;
  std::vector<SSpatial> velocity_of_body;
  if (any_spring) {
    position = body_positions(model, tree);
    velocity_of_body = body_velocities(model, tree, velocity);
  }
  auto world_point = [&](const BodyPoint& at) -> SVec3 {
    if (at.body == kGround) return SVec3::constant(at.point);
    const std::size_t b = static_cast<std::size_t>(at.body);
    return position[b] + tree.world_rotation[b] * SVec3::constant(at.point);
  };
  auto point_velocity = [&](const BodyPoint& at) -> SVec3 {  // world
    if (at.body == kGround) return SVec3{};
    const std::size_t b = static_cast<std::size_t>(at.body);
    const SSpatial& v = velocity_of_body[b];
    return tree.world_rotation[b] * (v.bottom + cross(v.top, SVec3::constant(at.point)));
  };
  auto add_wrench = [&](const BodyPoint& at, const SVec3& world_force) {  // the force through the point
    if (at.body == kGround) return;
    const std::size_t b = static_cast<std::size_t>(at.body);
    const SVec3 force = transpose_times(tree.world_rotation[b], world_force);  // body coordinates
    out.body_wrench[b] = out.body_wrench[b] + SSpatial{cross(SVec3::constant(at.point), force), force};
  };

  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& e = model.forces[i];
    const std::string name = c_identifier(e.name);
    if (e.type == ForceElementType::JointSpringDamper) {
      const Joint& joint = model.joints[static_cast<std::size_t>(e.joint)];
      const std::size_t k = static_cast<std::size_t>(joint.v_index);
      const Expr effort = -e.stiffness * (q[static_cast<std::size_t>(joint.q_index)] - e.rest) - e.damping * velocity[k];
      out.joint_effort[k] = out.joint_effort[k] + named(effort, "effort_" + name);
      continue;
    }
    if (e.type != ForceElementType::SpringDamper) continue;  // refused before (codegen_refused_element)
    const SVec3 d = named(world_point(e.b) - world_point(e.a), "d_" + name);
    SVec3 force;
    if (e.damping == 0.0 && e.stiffness * e.free_length == e.preload) {
      force = e.stiffness * d;  // T u = k L u = k d: defined at L = 0 too
    } else {
      const Expr length = named(sqrt(dot(d, d)), "L_" + name);
      if (length.is_constant() && current_graph().node(length.id).value < 1e-12)  // the same point of one body chain
        throw ModelError("force '" + e.name +
                         "': the spring-damper's points coincide at every configuration (L = 0, no direction; the "
                         "library fails at every state): nothing to generate");
      const Expr rate = named(dot(d, point_velocity(e.b) - point_velocity(e.a)) / length, "dL_" + name);
      const Expr tension = named(e.stiffness * (length - e.free_length) + e.damping * rate + e.preload, "T_" + name);
      force = (tension / length) * d;
      if (!length.is_constant()) out.length_guards.push_back({length, static_cast<int>(i)});
    }
    force = named(force, "F_" + name);
    add_wrench(e.a, force);
    add_wrench(e.b, -force);
  }
  for (int i = 0; i < n; ++i) {
    const SSpatial& w = out.body_wrench[static_cast<std::size_t>(i)];
    for (int k = 0; k < 3; ++k) out.any_body_wrench = out.any_body_wrench || !w.top[k].is_zero() || !w.bottom[k].is_zero();
  }
  return out;
}

std::vector<Expr> symbolic_generalized_force(const Model& model, const SymbolicTree& tree,
                                             const SymbolicElements& elements) {
  const int n = model.num_bodies();
  std::vector<SSpatial> subtree = elements.body_wrench;  // Σ of the subtree's wrenches, body coordinates
  std::vector<Expr> out = elements.joint_effort;
  for (int i = n - 1; i >= 0; --i) {
    const std::size_t b = static_cast<std::size_t>(i);
    const Joint& joint = model.joints[b];
    for (int k = 0; k < joint.nv; ++k) {
      const std::size_t c = static_cast<std::size_t>(joint.v_index + k);
      out[c] = out[c] + dot(tree.joints[b].axes[k], subtree[b]);
    }
    const int parent = model.bodies[b].parent;
    if (parent != kGround)
      subtree[static_cast<std::size_t>(parent)] = subtree[static_cast<std::size_t>(parent)] + force_to_parent(tree.joints[b], subtree[b]);
  }
  return out;
}

}  // namespace mechdyn::codegen
