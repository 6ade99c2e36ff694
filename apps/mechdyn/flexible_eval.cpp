// mechdyn eval on models with flexible bodies: the contract's quantities
// (../shared/spec/eval-json.md) from the FFR system level (flexible/flexible_system.hpp):
//   mass_matrix  M(q) = Σ B_iᵀ M_i B_i (nv = joints + elastic coordinates)
//   bias         h(q, v) = Σ B_iᵀ (M_i Ḃ_i v + Q_v,i) − Q: Coriolis, centrifugal, gravity, and
//                the elastic and damping forces, so that M a + h = τ with τ zero on the
//                elastic coordinates (the geometric stiffness from the frames' accelerations
//                at v̇ = 0, docs/flexible-bodies.md "Geometric stiffening")
//   gravity      the gravity part of h: −Σ B_iᵀ Q_gravity,i (the beams' distributed weight)
//   body_poses   the body frames (a beam's frame: its floating frame, clamped to node 1)
//   a            (with τ) M⁻¹ (τ + Q_f − h), the tree's forward dynamics (no loop forces)
//   applied_forces  (format 3) Q_f of the force elements at t = 0 (not in h, as for rigid
//                models: force-elements.md); M includes the armature
//   loops        Φ(q) and J on the deformed beams
// Coordinates: the joints' as for rigid models, then one entry per elastic coordinate,
// {joint: "<body>_n<node>_<ux|uy|uz|thx|thy|thz>", type: "elastic", q_index, v_index, body,
// node, component} (modal bodies: "<body>_m<k>", type "modal", body, mode) — the names of
// `mechdyn static`'s text output and of the simulate columns (new values and optional keys).
// Cost: the system evaluation once (dense, O(Σ_i (6 + n_e) c_i²) for M).
#include "flexible_eval.hpp"

#include <Eigen/Cholesky>
#include <string>

#include "common.hpp"
#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn::cli {

namespace {

struct ElasticName {
  std::string name, body, component;
  int node = 0, mode = 0, q_index = 0, v_index = 0;
};

std::vector<ElasticName> elastic_coordinates(const Model& model) {
  static const char* const components[6] = {"ux", "uy", "uz", "thx", "thy", "thz"};
  std::vector<ElasticName> out;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& body = model.bodies[static_cast<std::size_t>(i)];
    if (!body.flexible) continue;
    for (int k = 0; k < body.flexible->num_elastic(); ++k) {
      ElasticName e;
      e.body = body.name;
      e.q_index = model.rigid_nq + model.elastic_index[static_cast<std::size_t>(i)] + k;
      e.v_index = model.rigid_nv + model.elastic_index[static_cast<std::size_t>(i)] + k;
      if (body.flexible->modes > 0) {
        e.mode = k + 1;
        e.name = body.name + "_m" + std::to_string(k + 1);
      } else {
        e.node = k / 6 + 2;
        e.component = components[k % 6];
        e.name = body.name + "_n" + std::to_string(e.node) + "_" + e.component;
      }
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace

void run_flexible_eval(const Model& model, const VecX& q, const VecX& v, const VecX* tau, bool with_a, bool json,
                       std::ostream& out) {
  if (with_a)
    throw UsageError(
        "--a: inverse dynamics with joint reactions is not yet available for models with flexible bodies (M a + h "
        "from mass_matrix and bias is; docs/flexible-bodies.md)");
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  // gravity: −(Σ Bᵀ (Q_gravity + Q_elastic)) at v = 0, with the elastic rows' −(K + K_G) e taken out
  flexible_kinematics(model, system, data, q);
  flexible_applied_forces(model, system, data, q, VecX(), VecX());
  VecX gravity = -(data.applied_force - data.element_force);  // without the force elements' Q_f
  for (std::size_t f = 0; f < system.bodies.size(); ++f)
    gravity.segment(system.elastic_velocity_index(model, system.body_of[f]), system.bodies[f].num_elastic) +=
        data.body[f].elastic_force;
  flexible_kinematics(model, system, data, q, v);
  flexible_mass_matrix(model, system, data, q);
  flexible_bias_force(model, system, data, q, v, VecX());
  const MatX& mass = data.mass_matrix;
  // h without the force elements (as for rigid models: M a + h = τ + Q_f), Q_f at t = 0
  const VecX applied_forces = data.element_force;
  const VecX bias = data.bias_force + applied_forces;
  check_finite(mass, "the mass matrix");
  check_finite(bias, "the bias force");
  check_finite(gravity, "the gravity force");
  VecX forward;
  if (tau != nullptr) {
    forward = mass.llt().solve(*tau + applied_forces - bias);
    check_finite(forward, "the forward-dynamics acceleration");
  }
  if (model.num_loop_rows > 0) {
    flexible_loop_closure(model, system, data, q, VecX());
    check_finite(data.loop_residual, "the loop residual");
    check_finite(data.loop_jacobian, "the loop Jacobian");
  }
  for (int l = 0; l < model.num_bodies(); ++l) {
    check_finite(data.position[static_cast<std::size_t>(l)], "the position of body '" + model.bodies[l].name + "'");
    check_finite(data.rotation[static_cast<std::size_t>(l)], "the rotation of body '" + model.bodies[l].name + "'");
  }
  const std::vector<ElasticName> elastic = elastic_coordinates(model);

  if (json) {
    JsonWriter w(out);
    w.begin_object();
    w.key("nq"), w.integer(model.nq);
    w.key("nv"), w.integer(model.nv);
    w.key("method"), w.string("flexible");  // beyond the contract: the FFR system level
    w.key("coordinates");
    w.begin_array();
    for (const Joint& j : model.joints) {
      if (j.nv == 0) continue;
      w.begin_object();
      w.key("joint"), w.string(j.name);
      w.key("type"), w.string(joint_type_name(j.type));
      w.key("q_index"), w.integer(j.q_index);
      w.key("v_index"), w.integer(j.v_index);
      w.end_object();
    }
    for (const ElasticName& e : elastic) {
      w.begin_object();
      w.key("joint"), w.string(e.name);
      w.key("type"), w.string(e.mode > 0 ? "modal" : "elastic");
      w.key("q_index"), w.integer(e.q_index);
      w.key("v_index"), w.integer(e.v_index);
      w.key("body"), w.string(e.body);
      if (e.mode > 0) {
        w.key("mode"), w.integer(e.mode);
      } else {
        w.key("node"), w.integer(e.node);
        w.key("component"), w.string(e.component);
      }
      w.end_object();
    }
    w.end_array();
    w.key("mass_matrix"), w.matrix(mass);
    w.key("bias"), w.vector(bias);
    w.key("gravity"), w.vector(gravity);
    if (!model.forces.empty()) w.key("applied_forces"), w.vector(applied_forces);
    w.key("body_poses");
    w.begin_array();
    for (int l = 0; l < model.num_bodies(); ++l) {
      w.begin_object();
      w.key("body"), w.string(model.bodies[static_cast<std::size_t>(l)].name);
      w.key("position"), w.vec3(data.position[static_cast<std::size_t>(l)]);
      w.key("rotation");
      w.begin_array();
      for (int r = 0; r < 3; ++r) w.vec3(data.rotation[static_cast<std::size_t>(l)].row(r).transpose());
      w.end_array();
      w.end_object();
    }
    w.end_array();
    if (tau != nullptr) w.key("a"), w.vector(forward);
    if (model.num_loop_rows > 0) {
      w.key("loops");
      w.begin_object();
      w.key("residual"), w.vector(data.loop_residual);
      w.key("jacobian"), w.matrix(data.loop_jacobian);
      w.end_object();
    }
    w.end_object();
    out << "\n";
    return;
  }
  std::vector<std::string> names;
  for (const CoordinateLabel& l : velocity_labels(model)) names.push_back(l.name);
  for (const ElasticName& e : elastic) names.push_back(e.name);
  auto vector_text = [&](const char* title, const VecX& x) {
    out << title << "\n";
    for (Eigen::Index i = 0; i < x.size(); ++i)
      out << "  " << names[static_cast<std::size_t>(i)] << "  " << format_number(x[i]) << "\n";
  };
  out << "model " << model.name << ": nq = " << model.nq << ", nv = " << model.nv
      << " (joints " << model.rigid_nv << ", elastic " << model.nv - model.rigid_nv << "), method flexible\n";
  out << "mass matrix M(q):\n";
  for (Eigen::Index r = 0; r < mass.rows(); ++r) {
    out << " ";
    for (Eigen::Index c = 0; c < mass.cols(); ++c) out << " " << format_number(mass(r, c));
    out << "\n";
  }
  vector_text("bias h(q, v) (with the elastic and damping forces):", bias);
  vector_text("gravity part of h:", gravity);
  if (!model.forces.empty()) vector_text("force elements Q_f (t = 0):", applied_forces);
  out << "body poses (position; rotation rows):\n";
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Vec3& p = data.position[static_cast<std::size_t>(l)];
    const Mat3& r = data.rotation[static_cast<std::size_t>(l)];
    out << "  " << model.bodies[static_cast<std::size_t>(l)].name << "  position [" << format_number(p.x()) << ", "
        << format_number(p.y()) << ", " << format_number(p.z()) << "]  rotation";
    for (int k = 0; k < 3; ++k)
      out << " [" << format_number(r(k, 0)) << ", " << format_number(r(k, 1)) << ", " << format_number(r(k, 2)) << "]";
    out << "\n";
  }
  if (tau != nullptr) vector_text("forward dynamics a:", forward);
  if (model.num_loop_rows > 0) {
    out << "loop closure residual:";
    for (Eigen::Index i = 0; i < data.loop_residual.size(); ++i) out << " " << format_number(data.loop_residual[i]);
    out << "\n";
  }
}

}  // namespace mechdyn::cli
