// The linear model of a rigid mechanism about a state (analysis/linearize.hpp: the method,
// the names, the sources).
#include "mechdyn/analysis/linearize.hpp"

#include <cmath>
#include <optional>
#include <string>

#include <Eigen/Cholesky>

#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/equilibrium.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/math/skew.hpp"
#include "partition_helpers.hpp"

namespace mechdyn {

namespace {

// "<prefix><joint>" for one coordinate, "<prefix><joint>_<k>" (k from 1) for several.
void coordinate_names(const Joint& joint, const std::string& single, const std::string& multiple,
                      std::vector<std::string>& out) {
  if (joint.nv == 1) out.push_back(single + joint.name);
  else
    for (int k = 0; k < joint.nv; ++k) out.push_back(multiple + joint.name + "_" + std::to_string(k + 1));
}

// Velocity index of a coordinate named "<joint>" (one coordinate) or "<joint>_<k>".
int find_coordinate(const Model& model, const std::string& name) {
  for (const Joint& joint : model.joints) {
    if (joint.nv == 1 && name == joint.name) return joint.v_index;
    if (joint.nv > 1)
      for (int k = 0; k < joint.nv; ++k)
        if (name == joint.name + "_" + std::to_string(k + 1)) return joint.v_index + k;
  }
  return -1;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

int position_in(const std::vector<int>& list, int value) {
  for (std::size_t k = 0; k < list.size(); ++k)
    if (list[k] == value) return static_cast<int>(k);
  return -1;
}

struct OutputRows {
  std::vector<std::string> names;
  std::vector<char> velocity_like;  // rows whose q-derivative needs the difference at v ≠ 0
};

// Marker velocities and coordinate rates at a full state moved along the reduced coordinates:
// the output function whose q-derivative is differenced (only rows with velocity_like).
VecX velocity_outputs(const Model& model, const Eigen::Ref<const VecX>& q, const std::vector<int>& joints,
                      const Eigen::Ref<const VecX>& v_independent,
                      const std::vector<std::pair<int, int>>& requests, const AssemblyOptions& assembly) {
  // v = G(q) v_I at this q
  ReducedDynamicsOptions options;
  options.at_rest = true;
  options.assembly = assembly;
  VecX v = VecX::Zero(model.nv);
  VecX out(static_cast<Eigen::Index>(requests.size()) * 3);
  MatX g = MatX::Identity(model.nv, model.nv);
  if (model.has_constraints()) {
    // G from the closure at q (the tree's dynamics are not needed: a = 0, v = 0)
    g = reduced_dynamics(model, q, VecX::Zero(model.nv), joints, options).coordinate_map;
  }
  v = g * v_independent;
  Data data(model);
  forward_kinematics(model, data, q, v);
  Eigen::Index row = 0;
  MatX jacobian(3, model.nv);
  for (const auto& [kind, index] : requests) {
    if (kind == 0) {  // a coordinate's rate
      out[row++] = v[index];
    } else {          // a marker's velocity
      const Marker& marker = model.markers[static_cast<std::size_t>(index)];
      jacobian.setZero();
      point_jacobian(model, data, marker.at.body, marker.at.point, jacobian);
      out.segment<3>(row) = jacobian * v;
      row += 3;
    }
  }
  return out.head(row);
}

// The generalized force (nv) of each input: tau_ names a coordinate's effort, target_ a
// joint servo's target (δQ = k_p δ(target) below its clamp, zero when saturated at (q, v, t)).
void input_forces(const Model& model, const LinearizeOptions& options, const Eigen::Ref<const VecX>& q,
                  const Eigen::Ref<const VecX>& v, std::vector<std::string>& inputs, MatX& forces) {
  inputs = options.inputs;
  if (inputs.size() == 1 && inputs[0] == "none") inputs.clear();  // no input: B is nx × 0
  else if (inputs.empty())
    for (const Joint& joint : model.joints)
      if (joint.actuated && joint.nv > 0) coordinate_names(joint, "tau_", "tau_", inputs);
  forces = MatX::Zero(model.nv, static_cast<Eigen::Index>(inputs.size()));
  std::optional<Data> element_data;  // made for a servo input only (rigid models)
  for (std::size_t u = 0; u < inputs.size(); ++u) {
    const std::string& name = inputs[u];
    const Eigen::Index col = static_cast<Eigen::Index>(u);
    if (starts_with(name, "tau_")) {
      const int k = find_coordinate(model, name.substr(4));
      if (k < 0) throw InvalidArgument("linearize: input '" + name + "' names no joint coordinate (tau_<joint>, tau_<joint>_<k>)");
      forces(k, col) = 1.0;
    } else if (starts_with(name, "target_")) {
      const std::string servo = name.substr(7);
      int found = -1;
      for (std::size_t e = 0; e < model.forces.size(); ++e)
        if (model.forces[e].name == servo && model.forces[e].type == ForceElementType::JointServo) found = static_cast<int>(e);
      if (found < 0) throw InvalidArgument("linearize: input '" + name + "' names no joint-servo element");
      if (!element_data) {
        element_data.emplace(model, DenseWorkspace::None);
        force_elements(model, *element_data, q, v, options.time);
      }
      const ForceElement& element = model.forces[static_cast<std::size_t>(found)];
      const bool saturated = std::abs(element_data->element_value[static_cast<std::size_t>(found)]) >=
                             element.max_effort * (1.0 - 1e-12);
      const int k = model.joints[static_cast<std::size_t>(element.joint)].v_index;
      forces(k, col) = saturated ? 0.0 : element.stiffness;  // δQ = k_p δ(target) below the clamp
    } else {
      throw InvalidArgument("linearize: unknown input '" + name + "' (tau_<joint>, tau_<joint>_<k>, target_<servo>)");
    }
  }
}

bool has_servo_input(const std::vector<std::string>& inputs) {
  for (const std::string& name : inputs)
    if (starts_with(name, "target_")) return true;
  return false;
}

}  // namespace

std::vector<std::string> state_names(const Model& model, const std::vector<int>& joints) {
  std::vector<std::string> names;
  for (int j : joints) coordinate_names(model.joints[static_cast<std::size_t>(j)], "q_", "dq_", names);
  for (int j : joints) coordinate_names(model.joints[static_cast<std::size_t>(j)], "v_", "v_", names);
  return names;
}

MatX tangent_kinematics_term(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                             const std::vector<int>& coordinates, const MatX& coordinate_map) {
  const Eigen::Index ni = static_cast<Eigen::Index>(coordinates.size());
  MatX term = MatX::Zero(ni, ni);
  Data data(model);
  bool kinematics = false;
  MatX parent_jacobian(6, model.nv);
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    if (joint.type != JointType::Spherical && joint.type != JointType::Free) continue;
    const int rotation = joint.v_index + (joint.type == JointType::Free ? 3 : 0);
    const int row = position_in(coordinates, rotation);
    if (row < 0) continue;  // a dependent joint: not a state
    const Vec3 omega(v[rotation], v[rotation + 1], v[rotation + 2]);
    const Vec3 linear = joint.type == JointType::Free ? Vec3(v[joint.v_index], v[joint.v_index + 1], v[joint.v_index + 2])
                                                       : Vec3::Zero();
    if (omega.isZero(0.0) && linear.isZero(0.0)) continue;
    // ½ [ω]× on the joint's own rotation increment (δ̇ = J_l⁻¹(δ) ω)
    term.block<3, 3>(row, row) += 0.5 * skew(omega);
    const int parent = model.bodies[j].parent;
    if (parent == kGround) continue;
    if (!kinematics) {
      forward_kinematics(model, data, q);
      kinematics = true;
    }
    parent_jacobian.setZero();
    body_jacobian(model, data, parent, parent_jacobian);
    // the rate is measured in the parent's turning frame: [ω]× J_ω,parent G (and [v]× for a
    // free joint's translation)
    const MatX parent_turn = parent_jacobian.topRows<3>() * coordinate_map;
    term.block(row, 0, 3, ni) += skew(omega) * parent_turn;
    if (joint.type == JointType::Free) {
      const int translation = position_in(coordinates, joint.v_index);
      term.block(translation, 0, 3, ni) += skew(linear) * parent_turn;
    }
  }
  return term;
}

namespace {

LinearModel linearize_general(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                              const LinearizeOptions& options) {
  if (q.size() != model.nq || v.size() != model.nv || !q.allFinite() || !v.allFinite())
    throw InvalidArgument("linearize: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                          std::to_string(model.nv) + " finite numbers");
  const VecX tau = options.tau.size() == 0 ? VecX::Zero(model.nv) : options.tau;
  if (tau.size() != model.nv || !tau.allFinite())
    throw InvalidArgument("linearize: tau must hold nv = " + std::to_string(model.nv) + " finite numbers");
  LinearModel out;
  const Eigen::Index nv = model.nv;
  MatX inverse_mass, mass_map;  // M_I⁻¹ and G (nv × n_I)
  std::vector<int> coordinates;
  MatX a_q, a_v;                // ∂q̈_I/∂q_I, ∂q̈_I/∂v_I
  if (!model.has_constraints()) {
    // A tree: the forward-dynamics derivatives (aba_derivatives) at τ + Q_f, plus M⁻¹ ∂Q_f.
    for (std::size_t j = 0; j < model.joints.size(); ++j)
      if (model.joints[j].nv > 0) out.independent_joints.push_back(static_cast<int>(j));
    for (const Joint& joint : model.joints)
      if (joint.friction)
        throw InvalidArgument("joint '" + joint.name +
                              "' has friction: Coulomb friction is not differentiable at rest, so linearize, static and "
                              "modes do not take joint friction (remove its friction block; a viscous joint damper is a "
                              "joint-spring-damper element)");
    coordinates = joint_coordinates(model, out.independent_joints);
    out.q = q;
    out.v = v;
    Data data(model, DenseWorkspace::None);
    force_elements(model, data, out.q, out.v, options.time);
    const VecX total = tau + data.applied_force;
    MatX element_dq = MatX::Zero(nv, nv), element_dv = MatX::Zero(nv, nv);
    if (model.has_force_elements) force_element_derivatives(model, data, out.q, out.v, element_dq, element_dv);
    Data stage(model, DenseWorkspace::None);
    DerivativeData work(model);
    aba_derivatives(model, stage, work, out.q, out.v, total);
    out.a = stage.ddq;
    a_q = work.da_dq;
    a_v = work.da_dv;
    if (model.has_force_elements) {
      a_q.noalias() += work.da_dtau * element_dq;
      a_v.noalias() += work.da_dtau * element_dv;
    }
    inverse_mass = work.da_dtau;
    mass_map = MatX::Identity(nv, nv);
  } else {
    // The independent set is chosen where the loops close (assembled from q keeping the
    // actuated joints); then q itself is assembled keeping the independent coordinates.
    VecX closed = q;
    try {
      closed = detail::assembled_start(model, q, options.assembly);
    } catch (const SolverError&) {
      closed = q;  // chosen at q as given; the assembly below reports a failure
    }
    const std::vector<int> independent = choose_independent_joints(model, closed, options.independent);
    ReducedDynamicsOptions reduced_options;
    reduced_options.time = options.time;
    reduced_options.tau = tau;
    reduced_options.assembly = options.assembly;
    const ReducedDynamics reduced = reduced_dynamics(model, q, v, independent, reduced_options);
    out.independent_joints = reduced.joints;
    coordinates = reduced.coordinates;
    out.q = reduced.q;
    out.v = reduced.v;
    out.a = reduced.a;
    const Eigen::LLT<MatX> llt(reduced.mass);
    if (llt.info() != Eigen::Success)
      throw SolverError("linearize: the reduced mass matrix Gᵀ M G is not positive definite (a singular configuration)");
    inverse_mass = llt.solve(MatX::Identity(reduced.mass.rows(), reduced.mass.cols()));
    a_q = -inverse_mass * (reduced.stiffness + reduced.effort_stiffness);
    a_v = -inverse_mass * reduced.damping;
    mass_map = reduced.coordinate_map;
  }
  const Eigen::Index ni = static_cast<Eigen::Index>(coordinates.size());
  out.state = state_names(model, out.independent_joints);
  out.A = MatX::Zero(2 * ni, 2 * ni);
  out.A.topLeftCorner(ni, ni) = tangent_kinematics_term(model, out.q, out.v, coordinates, mass_map);
  out.A.topRightCorner(ni, ni).setIdentity();
  out.A.bottomLeftCorner(ni, ni) = a_q;
  out.A.bottomRightCorner(ni, ni) = a_v;

  // ---- inputs: a generalized force column each (nv), mapped by M_I⁻¹ Gᵀ ----
  std::vector<std::string> inputs;
  MatX forces;
  input_forces(model, options, out.q, out.v, inputs, forces);
  out.inputs = inputs;
  out.B = MatX::Zero(2 * ni, forces.cols());
  if (forces.cols() > 0) out.B.bottomRows(ni) = inverse_mass * (mass_map.transpose() * forces);  // (no block of an empty matrix)

  // ---- outputs ----
  if (options.outputs.empty()) {
    out.outputs = out.state;
    out.C = MatX::Identity(2 * ni, 2 * ni);
    out.D = MatX::Zero(2 * ni, forces.cols());
    return out;
  }
  OutputRows rows;
  std::vector<std::pair<int, int>> velocity_requests;  // (0, coordinate) or (1, marker)
  std::vector<MatX> position_blocks, rate_blocks;
  Data kinematics(model);
  forward_kinematics(model, kinematics, out.q);
  MatX jacobian(3, nv);
  for (const std::string& name : options.outputs) {
    int marker = -1;
    for (std::size_t m = 0; m < model.markers.size(); ++m)
      if (name == model.markers[m].name || name == model.markers[m].name + "_velocity") marker = static_cast<int>(m);
    if (marker >= 0) {
      const Marker& mk = model.markers[static_cast<std::size_t>(marker)];
      jacobian.setZero();
      point_jacobian(model, kinematics, mk.at.body, mk.at.point, jacobian);
      const MatX mapped = jacobian * mass_map;  // 3 × n_I
      const bool velocity = name != mk.name;
      for (int c = 0; c < 3; ++c) {
        rows.names.push_back(mk.name + (velocity ? std::string("_v") : std::string("_")) + "xyz"[c]);
        position_blocks.push_back(velocity ? MatX::Zero(1, ni) : MatX(mapped.row(c)));
        rate_blocks.push_back(velocity ? MatX(mapped.row(c)) : MatX::Zero(1, ni));
        rows.velocity_like.push_back(velocity ? 1 : 0);
      }
      if (velocity) velocity_requests.emplace_back(1, marker);
      continue;
    }
    const bool is_rate = starts_with(name, "v_");
    const bool is_position = starts_with(name, "q_") || starts_with(name, "dq_");
    const int k = is_rate ? find_coordinate(model, name.substr(2))
                          : starts_with(name, "q_") ? find_coordinate(model, name.substr(2))
                          : is_position ? find_coordinate(model, name.substr(3)) : -1;
    if (k < 0)
      throw InvalidArgument("linearize: unknown output '" + name +
                            "' (q_<joint>, dq_<joint>_<k>, v_<joint>, v_<joint>_<k>, <marker>, <marker>_velocity)");
    rows.names.push_back(name);
    position_blocks.push_back(is_rate ? MatX::Zero(1, ni) : MatX(mass_map.row(k)));
    rate_blocks.push_back(is_rate ? MatX(mass_map.row(k)) : MatX::Zero(1, ni));
    rows.velocity_like.push_back(is_rate && position_in(coordinates, k) < 0 ? 1 : 0);  // a dependent rate
    if (rows.velocity_like.back()) velocity_requests.emplace_back(0, k);
  }
  const Eigen::Index ny = static_cast<Eigen::Index>(rows.names.size());
  out.outputs = rows.names;
  out.C = MatX::Zero(ny, 2 * ni);
  out.D = MatX::Zero(ny, forces.cols());
  for (Eigen::Index r = 0; r < ny; ++r) {
    if (ni == 0) break;  // no state: C is ny × 0
    out.C.block(r, 0, 1, ni) = position_blocks[static_cast<std::size_t>(r)];
    out.C.block(r, ni, 1, ni) = rate_blocks[static_cast<std::size_t>(r)];
  }
  // ∂(rates)/∂q_I at v ≠ 0: centred differences of the velocity outputs along q_I ⊕ ±h e_c.
  if (!velocity_requests.empty() && !out.v.isZero(0.0)) {
    VecX v_independent(ni);
    for (Eigen::Index c = 0; c < ni; ++c) v_independent[c] = out.v[coordinates[static_cast<std::size_t>(c)]];
    const double h = 1e-6;
    for (Eigen::Index c = 0; c < ni; ++c) {
      VecX step = VecX::Zero(ni);
      step[c] = h;
      const VecX plus = velocity_outputs(model, move_independent(model, out.q, out.independent_joints, step, options.assembly),
                                         out.independent_joints, v_independent, velocity_requests,
                                         options.assembly);
      step[c] = -h;
      const VecX minus = velocity_outputs(model, move_independent(model, out.q, out.independent_joints, step, options.assembly),
                                          out.independent_joints, v_independent, velocity_requests,
                                          options.assembly);
      const VecX derivative = (plus - minus) / (2.0 * h);
      Eigen::Index next = 0;
      for (Eigen::Index r = 0; r < ny; ++r)
        if (rows.velocity_like[static_cast<std::size_t>(r)]) out.C(r, c) = derivative[next++];
    }
  }
  return out;
}

// A model with flexible bodies and no closure rows: x = (δq, v) over every coordinate
// (joints, then elastic ones), A = [[0, 1], [−M⁻¹K, −M⁻¹C]] from the FFR system's differenced
// tangents (flexible/equilibrium.hpp, flexible_linearisation), B = [0; M⁻¹ S_u]. Spherical and
// free joints must be at rest (their tangent's kinematic term is not formed here).
LinearModel linearize_flexible(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                               const LinearizeOptions& options) {
  if (!options.outputs.empty() || !options.independent.empty())
    throw InvalidArgument("linearize: named outputs and independent joints are not available for models with flexible "
                          "bodies (the state is every coordinate)");
  for (const Joint& joint : model.joints)
    if ((joint.type == JointType::Spherical || joint.type == JointType::Free) &&
        !v.segment(joint.v_index, joint.nv).isZero(0.0))
      throw InvalidArgument("linearize: joint '" + joint.name + "' turns (v ≠ 0): the tangent term of a spherical or "
                            "free joint is not formed for models with flexible bodies");
  for (const std::string& name : options.inputs)
    if (starts_with(name, "target_"))
      throw InvalidArgument("linearize: servo targets as inputs are not available for models with flexible bodies");
  StaticOptions so;
  so.time = options.time;
  so.efforts = options.tau;
  const FlexibleSystem system = make_flexible_system(model);
  FlexibleSystemData data(model, system);
  const FlexibleLinearisation lin = flexible_linearisation(model, system, data, VecX(q), VecX(v), so);
  const Eigen::Index nv = model.nv;
  const Eigen::LLT<MatX> llt(lin.mass);
  const MatX inverse_mass = llt.solve(MatX::Identity(nv, nv));
  LinearModel out;
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].nv > 0) out.independent_joints.push_back(static_cast<int>(j));
  out.q = q;
  out.v = v;
  out.a = lin.acceleration;
  for (const std::string& prefix : {std::string("q"), std::string("v")}) {
    for (int j : out.independent_joints)
      coordinate_names(model.joints[static_cast<std::size_t>(j)], prefix + "_", prefix == "q" ? "dq_" : "v_", out.state);
    for (const std::string& name : elastic_coordinate_names(model)) out.state.push_back(prefix + "_" + name);
  }
  out.A = MatX::Zero(2 * nv, 2 * nv);
  out.A.topRightCorner(nv, nv).setIdentity();
  out.A.bottomLeftCorner(nv, nv) = -inverse_mass * lin.stiffness;
  out.A.bottomRightCorner(nv, nv) = -inverse_mass * lin.damping;
  MatX forces;
  input_forces(model, options, q, v, out.inputs, forces);
  out.B = MatX::Zero(2 * nv, forces.cols());
  if (forces.cols() > 0) out.B.bottomRows(nv) = inverse_mass * forces;
  out.outputs = out.state;
  out.C = MatX::Identity(2 * nv, 2 * nv);
  out.D = MatX::Zero(2 * nv, forces.cols());
  return out;
}

void check_friction(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.friction)
      throw InvalidArgument("joint '" + joint.name +
                            "' has friction: Coulomb friction is not differentiable at rest (keep only its viscous "
                            "part with --friction viscous, FrictionTreatment::ViscousOnly)");
}

}  // namespace

LinearizeWorkspace::LinearizeWorkspace(const Model& model)
    : data(model, DenseWorkspace::None),
      stage(model, DenseWorkspace::None),
      work(model),
      element_dq(MatX::Zero(model.nv, model.nv)),
      element_dv(MatX::Zero(model.nv, model.nv)),
      total(VecX::Zero(model.nv)),
      parent_jacobian(MatX::Zero(6, model.nv)),
      nq(static_cast<int>(model.nq)),
      nv(static_cast<int>(model.nv)) {
  for (const Joint& joint : model.joints)
    rotation_joints = rotation_joints || joint.type == JointType::Spherical || joint.type == JointType::Free;
}

LinearModel linearize(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                      const LinearizeOptions& options) {
  if (options.friction == FrictionTreatment::ViscousOnly && has_joint_friction(model)) {
    LinearizeOptions rest = options;
    rest.friction = FrictionTreatment::Refuse;
    return linearize(viscous_friction_model(model), q, v, rest);
  }
  for (const Body& body : model.bodies)
    if (body.flexible) {  // the FFR system's own workspace (no rigid Data)
      if (q.size() != model.nq || v.size() != model.nv || !q.allFinite() || !v.allFinite())
        throw InvalidArgument("linearize: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                              std::to_string(model.nv) + " finite numbers");
      return linearize_flexible(model, q, v, options);
    }
  LinearizeWorkspace workspace(model);
  LinearModel out;
  linearize(model, workspace, q, v, options, out);
  return out;
}

// A tree with the default outputs: aba_derivatives at τ + Q_f plus M⁻¹ ∂Q_f, on the
// workspace (nothing allocated after the first call).
void linearize(const Model& model, LinearizeWorkspace& ws, const Eigen::Ref<const VecX>& q,
               const Eigen::Ref<const VecX>& v, const LinearizeOptions& options, LinearModel& out) {
  if (ws.nq != model.nq || ws.nv != model.nv)
    throw InvalidArgument("linearize: the workspace was made for another model");
  if (model.has_constraints() || !options.outputs.empty()) {
    out = linearize_general(model, q, v, options);
    return;
  }
  if (q.size() != model.nq || v.size() != model.nv || !q.allFinite() || !v.allFinite())
    throw InvalidArgument("linearize: q and v must hold nq = " + std::to_string(model.nq) + " and nv = " +
                          std::to_string(model.nv) + " finite numbers");
  if (options.tau.size() != 0 && (options.tau.size() != model.nv || !options.tau.allFinite()))
    throw InvalidArgument("linearize: tau must hold nv = " + std::to_string(model.nv) + " finite numbers");
  check_friction(model);
  const Eigen::Index nv = model.nv;
  if (out.independent_joints.empty() || out.state.size() != static_cast<std::size_t>(2 * nv)) {
    out.independent_joints.clear();
    for (std::size_t j = 0; j < model.joints.size(); ++j)
      if (model.joints[j].nv > 0) out.independent_joints.push_back(static_cast<int>(j));
    out.state = state_names(model, out.independent_joints);
    out.outputs = out.state;
  }
  out.q = q;
  out.v = v;
  if (options.tau.size() == model.nv) ws.total = options.tau;
  else ws.total.setZero();
  if (model.has_force_elements) {
    force_elements(model, ws.data, out.q, out.v, options.time);
    ws.total += ws.data.applied_force;
    ws.element_dq.setZero();
    ws.element_dv.setZero();
    force_element_derivatives(model, ws.data, out.q, out.v, ws.element_dq, ws.element_dv);
  }
  aba_derivatives(model, ws.stage, ws.work, out.q, out.v, ws.total);
  out.a = ws.stage.ddq;
  out.A.resize(2 * nv, 2 * nv);
  out.A.topLeftCorner(nv, nv).setZero();
  out.A.topRightCorner(nv, nv).setIdentity();
  out.A.bottomLeftCorner(nv, nv) = ws.work.da_dq;
  out.A.bottomRightCorner(nv, nv) = ws.work.da_dv;
  if (model.has_force_elements) {
    out.A.bottomLeftCorner(nv, nv).noalias() += ws.work.da_dtau * ws.element_dq;
    out.A.bottomRightCorner(nv, nv).noalias() += ws.work.da_dtau * ws.element_dv;
  }
  if (ws.rotation_joints) {  // the tangent's kinematic term (allocates: spherical and free joints only)
    std::vector<int> all(static_cast<std::size_t>(nv));
    for (int k = 0; k < nv; ++k) all[static_cast<std::size_t>(k)] = k;
    out.A.topLeftCorner(nv, nv) = tangent_kinematics_term(model, out.q, out.v, all, MatX::Identity(nv, nv));
  }
  // inputs: made once per list of names (a servo's saturation depends on the state: redone then)
  if (!ws.inputs_ready || ws.input_names != options.inputs || has_servo_input(options.inputs)) {
    input_forces(model, options, out.q, out.v, ws.resolved_inputs, ws.input_forces);
    ws.input_names = options.inputs;
    ws.inputs_ready = true;
  }
  if (out.inputs != ws.resolved_inputs) out.inputs = ws.resolved_inputs;
  out.B.resize(2 * nv, ws.input_forces.cols());
  out.B.setZero();
  if (out.B.cols() > 0) out.B.bottomRows(nv).noalias() = ws.work.da_dtau * ws.input_forces;  // no block of an empty B
  if (out.C.rows() != 2 * nv || out.C.cols() != 2 * nv) out.C = MatX::Identity(2 * nv, 2 * nv);
  out.D.setZero(2 * nv, ws.input_forces.cols());
}

}  // namespace mechdyn
