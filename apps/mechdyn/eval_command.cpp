// mechdyn eval: every dynamic quantity of a model at one state, per the contract
// ../shared/spec/eval-json.md (keys, shapes, 17 significant digits, exit status 2).
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::cli {

namespace {

struct EvalOptions {
  std::string model_path;
  std::string q, v, a, tau;
  bool has_q = false, has_v = false, has_a = false, has_tau = false;
  bool json = false;
  std::string method = "explicit";
};

Json vector_json(const Eigen::Ref<const VecX>& x) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < x.size(); ++i) out.push_back(x[i]);
  return out;
}

Json vec3_json(const Vec3& x) { return Json::array({x.x(), x.y(), x.z()}); }

Json matrix_json(const Eigen::Ref<const MatX>& m) {
  Json out = Json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    Json row = Json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    out.push_back(row);
  }
  return out;
}

// ---- text output --------------------------------------------------------------------
std::string fixed(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%15.9g", x);
  return buffer;
}

void text_vector(std::ostringstream& out, const char* title, const std::vector<CoordinateLabel>& labels,
                 const VecX& x) {
  out << title << "\n";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-24s%s\n", labels[static_cast<std::size_t>(i)].name.c_str(),
                  fixed(x[i]).c_str());
    out << line;
  }
}

std::string run_eval(const EvalOptions& o) {
  const Model model = load_model(o.model_path);
  require_rigid_bodies(model, o.model_path, "mechdyn eval");  // flexible bodies: issue 11, second part
  VecX q = o.has_q ? parse_number_list(o.q, "--q", model.nq, "nq") : model.neutral_configuration();
  check_and_normalize_quaternions(model, q, "--q");
  const VecX v = o.has_v ? parse_number_list(o.v, "--v", model.nv, "nv") : VecX::Zero(model.nv);
  const bool recursive = o.method == "recursive";

  VecX a, tau;
  if (o.has_a) a = parse_number_list(o.a, "--a", model.nv, "nv");
  if (o.has_tau) tau = parse_number_list(o.tau, "--tau", model.nv, "nv");
  // Every term below on one kinematics stage (evaluation/compute_all_terms.hpp).
  Data data(model);
  AllTermsOptions options;
  options.method = recursive ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
  compute_all_terms(model, data, q, v, o.has_a ? &a : nullptr, o.has_tau ? &tau : nullptr, options);
  const MatX& mass_matrix = data.mass_matrix;
  const VecX& bias = data.bias_force;
  const VecX& gravity = data.gravity_force;
  check_finite(mass_matrix, "the mass matrix");
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
  const VecX& forward_a = data.ddq;
  if (o.has_tau) check_finite(forward_a, "the forward-dynamics acceleration");
  const VecX& loop_residual = data.loop_residual;
  const MatX& loop_jacobian = data.loop_jacobian;
  if (!model.loops.empty()) {
    check_finite(loop_residual, "the loop residual");
    check_finite(loop_jacobian, "the loop Jacobian");
  }

  if (o.json) {
    Json out = Json::object();
    out["nq"] = model.nq;
    out["nv"] = model.nv;
    Json coordinates = Json::array();
    for (const Joint& j : model.joints) {
      if (j.nv == 0) continue;  // fixed joints have no coordinates
      coordinates.push_back(
          Json{{"joint", j.name}, {"type", joint_type_name(j.type)}, {"q_index", j.q_index}, {"v_index", j.v_index}});
    }
    out["coordinates"] = coordinates;
    out["mass_matrix"] = matrix_json(mass_matrix);
    out["bias"] = vector_json(bias);
    out["gravity"] = vector_json(gravity);
    Json poses = Json::array();
    for (int l = 0; l < model.num_bodies(); ++l) {
      Json rotation = Json::array();
      for (int r = 0; r < 3; ++r) rotation.push_back(vec3_json(data.rotation[l].row(r).transpose()));
      poses.push_back(Json{{"body", model.bodies[l].name}, {"position", vec3_json(data.position[l])},
                           {"rotation", rotation}});
    }
    out["body_poses"] = poses;
    if (o.has_a) {
      out["tau"] = vector_json(tau_inverse);
      if (with_friction) {
        out["tau_with_friction"] = vector_json(tau_with_friction);
        Json loads = Json::array();
        for (int l = 0; l < model.num_bodies(); ++l)
          if (model.joints[l].friction && model.joints[l].friction->load)
            loads.push_back(Json{{"joint", model.joints[l].name}, {"value", normal_load[l]}});
        if (!loads.empty()) out["normal_load"] = loads;
      }
      Json reactions = Json::array();
      for (int l = 0; l < model.num_bodies(); ++l)
        reactions.push_back(Json{{"joint", model.joints[l].name},
                                 {"force", vec3_json(reaction_force[l])},
                                 {"torque", vec3_json(reaction_torque[l])}});
      out["reactions"] = reactions;
      // Beyond the contract: the decomposition of each reaction (docs/friction.md).
      Json joint_loads = Json::array();
      for (int l = 0; l < model.num_bodies(); ++l) {
        Json entry{{"joint", model.joints[l].name},
                   {"type", joint_type_name(model.joints[l].type)},
                   {"constraint_torque", constraint_torque[l]},
                   {"constraint_force", constraint_force[l]},
                   {"axial_load", axial_load[l]}};
        if (model.joints[l].friction && model.joints[l].friction->load) entry["normal_load"] = normal_load[l];
        joint_loads.push_back(entry);
      }
      out["joint_loads"] = joint_loads;
    }
    if (o.has_tau) out["a"] = vector_json(forward_a);
    if (!model.loops.empty())
      out["loops"] = Json{{"residual", vector_json(loop_residual)}, {"jacobian", matrix_json(loop_jacobian)}};
    return write_json(out) + "\n";
  }

  // Readable text.
  std::ostringstream out;
  const std::vector<CoordinateLabel> vlabels = velocity_labels(model);
  out << "model " << model.name << ": nq = " << model.nq << ", nv = " << model.nv << ", method " << o.method << "\n";
  out << "mass matrix M(q):\n";
  for (Eigen::Index r = 0; r < mass_matrix.rows(); ++r) {
    out << "  ";
    for (Eigen::Index c = 0; c < mass_matrix.cols(); ++c) out << fixed(mass_matrix(r, c)) << (c + 1 < mass_matrix.cols() ? " " : "");
    out << "\n";
  }
  text_vector(out, "bias h(q, v):", vlabels, bias);
  text_vector(out, "gravity part of h:", vlabels, gravity);
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
    text_vector(out, "inverse dynamics tau = M a + h:", vlabels, tau_inverse);
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
  if (!model.loops.empty()) {
    out << "loop closure residual:";
    for (Eigen::Index i = 0; i < loop_residual.size(); ++i) out << " " << fixed(loop_residual[i]);
    out << "\n";
  }
  return out.str();
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
  sub->add_flag("--json", o->json, "print one JSON object (../shared/spec/eval-json.md)");
  sub->add_option("--method", o->method, "explicit (default) or recursive (CRBA, RNEA, ABA)")
      ->check(CLI::IsMember({"explicit", "recursive"}));
  sub->footer(
      "Examples:\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0.1,-0.2,0.3,0.05,0.5 --v 0,0,0,0,0\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q -0.5,0.2,0,0,0 --v 1,0,0,0,0 --a 0,0,1,0,0 --json\n"
      "  mechdyn eval examples/models/five_axis_tree.yaml --q 0,0,0,0,0 --v 0,0,0,0,0 --tau 1,2,3,0,0 --method recursive\n"
      "Numbers are comma-separated without spaces (or quoted); negative values work as '--q -0.5,0.2'.");
  sub->callback([o, q, v, a, tau, &selected] {
    o->has_q = q->count() > 0;
    o->has_v = v->count() > 0;
    o->has_a = a->count() > 0;
    o->has_tau = tau->count() > 0;
    selected = [o] { return run_eval(*o); };
  });
}

}  // namespace mechdyn::cli
