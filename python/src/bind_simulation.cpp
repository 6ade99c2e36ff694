// Python bindings: simulate and simulate_inverse (evaluation/simulate.hpp),
// simulate_closed_chain (evaluation/closed_chain_run.hpp), simulate_flexible
// (evaluation/flexible_run.hpp) and the sweep specs shared with
// `mechdyn sweep` (io/sweep_spec.hpp, evaluation/sweep.hpp; Python's mechdyn.sweep maps them
// on Dask).
#include <iostream>
#include <limits>
#include <mutex>
#include <type_traits>

#include "common.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/evaluation/closed_chain_run.hpp"
#include "mechdyn/evaluation/flexible_run.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/evaluation/sweep.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/io/sweep_spec.hpp"

namespace mechdyn::python {

namespace {

// The force elements' and couplings' numbers of each row (format 3): the columns
// force_<name>_ and coupling_<name>_ of `mechdyn simulate`, and the elements' energies.
struct ElementRows {
  std::vector<double> value, energy, coupling;
  // Appends the row's numbers from the Data on which the row was computed (the run's last
  // force_elements at the row's state; with couplings, the constraint multipliers).
  void add(const Model& model, const Data& data) {
    for (std::size_t e = 0; e < model.forces.size(); ++e) {
      value.push_back(data.element_value[static_cast<Eigen::Index>(e)]);
      energy.push_back(data.element_energy[static_cast<Eigen::Index>(e)]);
    }
    for (std::size_t c = 0; c < model.couplings.size(); ++c)
      coupling.push_back(data.loop_multiplier[model.coupling_row_index + static_cast<Eigen::Index>(c)]);
  }
};

// The result of simulate: new arrays (C order), rows = output times.
struct Trajectory {
  py::array_t<double> t, q, v, a, tau, kinetic_energy, potential_energy, force_value, force_energy, coupling_effort;
  py::list force_names, coupling_names;
};

// The result of simulate_closed_chain: the rows of `mechdyn simulate` on a model with loops.
struct ClosedChainTrajectory {
  py::array_t<double> t, q, v, a, tau, cut_force, cut_torque, reaction_force, reaction_torque, closure_residual,
      kinetic_energy, potential_energy, force_value, force_energy, coupling_effort;
  py::list warnings, force_names, coupling_names;
  long near_singular_episodes = 0;
};

// The result of simulate_inverse: the rows of `mechdyn simulate --mode inverse` on a tree.
struct InverseTrajectory {
  py::array_t<double> t, q, v, a, tau, reaction_force, reaction_torque, kinetic_energy, potential_energy, friction,
      friction_state, force_value, force_energy;
  py::list force_names;
};

// The result of simulate_flexible: the rows of `mechdyn simulate` on a model with flexible bodies.
struct FlexibleTrajectory {
  py::array_t<double> t, q, v, a, effort, markers, deviation, rigid_effort, constraint_violation, newton_iterations,
      kinetic_energy, gravity_energy, strain_energy;
  py::list actuated, warnings;
};

// Rows collected as flat numbers, then one new C-order array of the given shape.
py::array_t<double> rows_array(const std::vector<double>& values, std::vector<py::ssize_t> shape) {
  py::array_t<double> out(shape);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// The element and coupling arrays of a trajectory (rows × elements, rows × couplings) and their names.
template <class Result>
void put_element_rows(const Model& model, const ElementRows& rows, py::ssize_t n, Result& r, bool couplings) {
  const auto ne = static_cast<py::ssize_t>(model.forces.size());
  r.force_value = rows_array(rows.value, {n, ne});
  r.force_energy = rows_array(rows.energy, {n, ne});
  for (const ForceElement& e : model.forces) r.force_names.append(e.name);
  if constexpr (!std::is_same_v<Result, InverseTrajectory>) {
    if (couplings) {
      r.coupling_effort = rows_array(rows.coupling, {n, static_cast<py::ssize_t>(model.couplings.size())});
      for (const Coupling& c : model.couplings) r.coupling_names.append(c.name);
    }
  }
}

// A function of t giving n numbers: None (zeros), n numbers (constant), n strings (muParser
// expressions of t, as the CLI), or a callable f(t) -> n numbers (runs with the GIL).
std::function<void(double, Eigen::Ref<VecX>)> time_function(py::handle object, Eigen::Index n, const std::string& name) {
  if (object.is_none()) return [](double, Eigen::Ref<VecX> out) { out.setZero(); };
  if (PyCallable_Check(object.ptr())) {
    py::object callable = py::reinterpret_borrow<py::object>(object);
    return [callable, n, name](double t, Eigen::Ref<VecX> out) {
      py::gil_scoped_acquire acquire;
      py::object value = callable(t);
      out = InputVector(value, n, (name + "(t)").c_str(), "numbers").map();
    };
  }
  if (!py::isinstance<py::array>(object) && py::isinstance<py::sequence>(object) && !py::isinstance<py::str>(object)) {
    auto list = py::reinterpret_borrow<py::sequence>(object);
    bool text = false;
    for (auto item : list) text = text || py::isinstance<py::str>(item);
    if (text) {
      std::vector<std::string> texts;
      for (auto item : list) texts.push_back(py::str(item).cast<std::string>());
      if (static_cast<Eigen::Index>(texts.size()) != n)
        throw InvalidArgument(name + " has " + std::to_string(texts.size()) + " expressions, needs " + std::to_string(n));
      auto expressions = std::make_shared<TimeExpressions>(texts, name);
      return [expressions](double t, Eigen::Ref<VecX> out) { expressions->evaluate(t, out); };
    }
  }
  const VecX constant = owned_vector(object, n, name.c_str(), "numbers");
  return [constant](double, Eigen::Ref<VecX> out) { out = constant; };
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<Trajectory>(m, "Trajectory",
      "Result of simulate: arrays t (rows), q (rows × nq), v, a, tau (rows × nv), kinetic_energy, potential_energy "
      "(rows; with the force elements' potential energy and the armature's kinetic energy), force_value (rows × "
      "force elements: the column force_<name>_ of `mechdyn simulate`), force_energy (rows × force elements), "
      "coupling_effort (rows × couplings, the column coupling_<name>_), force_names, coupling_names.")
      .def_readonly("t", &Trajectory::t)
      .def_readonly("q", &Trajectory::q)
      .def_readonly("v", &Trajectory::v)
      .def_readonly("a", &Trajectory::a)
      .def_readonly("tau", &Trajectory::tau)
      .def_readonly("kinetic_energy", &Trajectory::kinetic_energy)
      .def_readonly("potential_energy", &Trajectory::potential_energy)
      .def_readonly("force_value", &Trajectory::force_value)
      .def_readonly("force_energy", &Trajectory::force_energy)
      .def_readonly("coupling_effort", &Trajectory::coupling_effort)
      .def_readonly("force_names", &Trajectory::force_names)
      .def_readonly("coupling_names", &Trajectory::coupling_names)
      .def("__len__", [](const Trajectory& r) { return r.t.size(); })
      .def("__repr__", [](const Trajectory& r) {
        return "<mechdyn.Trajectory: " + std::to_string(r.t.size()) + " rows>";
      });

  m.def("simulate", [](std::shared_ptr<Model> model, py::handle q0, py::handle v0, py::handle tau, double duration,
                       double step, const std::string& integrator, const std::string& method, long every, double rtol,
                       double atol, long max_steps) {
    if (!model) throw InvalidArgument("simulate: model is None");
    SimulationOptions options;
    options.duration = duration;
    options.step = step;
    if (integrator != "rk4" && integrator != "dopri5")
      throw InvalidArgument("integrator must be 'rk4' or 'dopri5', got '" + integrator + "'");
    if (method != "explicit" && method != "recursive")
      throw InvalidArgument("method must be 'explicit' or 'recursive', got '" + method + "'");
    options.adaptive = integrator == "dopri5";
    options.method = method == "recursive" ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
    options.every = every;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = atol;
    options.max_steps = max_steps;
    const Eigen::Index nv = model->nv;
    VecX q = q0.is_none() ? (model->initial_configuration.size() > 0 ? model->initial_configuration
                                                                     : model->neutral_configuration())
                          : owned_vector(q0, model->nq, "q0", "nq");
    VecX v = v0.is_none() ? VecX::Zero(nv) : owned_vector(v0, nv, "v0", "nv");

    // Efforts: None (zero), nv numbers (constant), nv strings (muParser expressions of t,
    // as the CLI's --tau), or a callable tau(t, q, v) -> nv numbers (runs with the GIL).
    EffortFunction effort;
    std::shared_ptr<TimeExpressions> expressions;
    VecX constant;
    py::object callable;
    bool is_text = false;
    if (!tau.is_none() && !py::isinstance<py::array>(tau) && py::isinstance<py::sequence>(tau) &&
        !py::isinstance<py::str>(tau)) {
      auto list = py::reinterpret_borrow<py::sequence>(tau);
      for (auto item : list) is_text = is_text || py::isinstance<py::str>(item);
      if (is_text) {
        std::vector<std::string> texts;
        for (auto item : list) texts.push_back(py::str(item).cast<std::string>());
        if (static_cast<Eigen::Index>(texts.size()) != nv)
          throw InvalidArgument("tau has " + std::to_string(texts.size()) + " expressions, model '" + model->name +
                                "' needs " + std::to_string(nv) + " (nv)");
        expressions = std::make_shared<TimeExpressions>(texts, "tau");
        effort = [expressions](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                               Eigen::Ref<VecX> out) { expressions->evaluate(t, out); };
      }
    }
    if (!is_text && !tau.is_none()) {
      if (PyCallable_Check(tau.ptr())) {
        callable = py::reinterpret_borrow<py::object>(tau);
        const std::string name = model->name;
        effort = [callable, nv](double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                Eigen::Ref<VecX> out) {
          py::gil_scoped_acquire acquire;
          py::object value = callable(t, copy_vector(q), copy_vector(v));
          out = InputVector(value, nv, "tau(t, q, v)", "nv").map();
        };
      } else {
        constant = owned_vector(tau, nv, "tau", "nv");
        effort = [constant](double, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> out) {
          out = constant;
        };
      }
    }
    // The rows as the observer receives them (simulate's array form keeps the same numbers),
    // with each row's energies on a Data of their own (the row's Data stays the run's) and
    // the elements' numbers from the row's Data.
    std::vector<double> t, rq, rv, ra, rtau, ke, pe;
    ElementRows elements;
    {
      py::gil_scoped_release release;
      std::unique_ptr<Data> energy_data;  // made at the first row: simulate checks the model first
      simulate(*model, q, v, effort, options, [&](SimulationRow& row) {
        if (!energy_data) energy_data = std::make_unique<Data>(*model, DenseWorkspace::None);
        t.push_back(row.time);
        rq.insert(rq.end(), row.q.data(), row.q.data() + row.q.size());
        rv.insert(rv.end(), row.v.data(), row.v.data() + nv);
        ra.insert(ra.end(), row.a.data(), row.a.data() + nv);
        rtau.insert(rtau.end(), row.tau.data(), row.tau.data() + nv);
        elements.add(*model, row.data);
        ke.push_back(kinetic_energy(*model, *energy_data, row.q, row.v));
        pe.push_back(potential_energy_from_kinematics(*model, *energy_data) +
                     (model->has_force_elements ? force_element_potential_energy(row.data) : 0.0));
      });
    }
    const py::ssize_t n = static_cast<py::ssize_t>(t.size()), pv = static_cast<py::ssize_t>(nv);
    Trajectory r;
    r.t = rows_array(t, {n});
    r.q = rows_array(rq, {n, static_cast<py::ssize_t>(model->nq)});
    r.v = rows_array(rv, {n, pv});
    r.a = rows_array(ra, {n, pv});
    r.tau = rows_array(rtau, {n, pv});
    r.kinetic_energy = rows_array(ke, {n});
    r.potential_energy = rows_array(pe, {n});
    put_element_rows(*model, elements, n, r, true);
    return r;
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("v0") = py::none(), py::arg("tau") = py::none(),
     py::arg("duration") = 1.0, py::arg("step") = 1e-3, py::arg("integrator") = "rk4", py::arg("method") = "explicit",
     py::arg("every") = 1, py::arg("rtol") = 1e-8, py::arg("atol") = 1e-10, py::arg("max_steps") = 0,
     "Forward simulation (the forward mode of `mechdyn simulate`): trees with the explicit method or ABA, joint "
     "friction with stick–slip, loops with constrained dynamics and projection. tau: None (zero), nv numbers, nv "
     "muParser expressions of t, or a callable tau(t, q, v). Returns a Trajectory of new arrays. The GIL is "
     "released except while a Python tau callable runs.");

  py::class_<ClosedChainTrajectory>(m, "ClosedChainTrajectory",
      "Result of simulate_closed_chain: t (rows), q (rows × nq), v, a, tau (rows × nv), cut_force, cut_torque "
      "(rows × loops × 3, on body a, world frame, torque about the cut point), reaction_force, reaction_torque "
      "(rows × bodies × 3, parent on child, torque about the child's origin), closure_residual, kinetic_energy, "
      "potential_energy (rows; with the force elements'), warnings (the run's warning lines), near_singular_episodes, "
      "force_value, force_energy (rows × force elements), coupling_effort (rows × couplings: λ, the gear's effort "
      "on b), force_names, coupling_names.")
      .def_readonly("t", &ClosedChainTrajectory::t)
      .def_readonly("q", &ClosedChainTrajectory::q)
      .def_readonly("v", &ClosedChainTrajectory::v)
      .def_readonly("a", &ClosedChainTrajectory::a)
      .def_readonly("tau", &ClosedChainTrajectory::tau)
      .def_readonly("cut_force", &ClosedChainTrajectory::cut_force)
      .def_readonly("cut_torque", &ClosedChainTrajectory::cut_torque)
      .def_readonly("reaction_force", &ClosedChainTrajectory::reaction_force)
      .def_readonly("reaction_torque", &ClosedChainTrajectory::reaction_torque)
      .def_readonly("closure_residual", &ClosedChainTrajectory::closure_residual)
      .def_readonly("kinetic_energy", &ClosedChainTrajectory::kinetic_energy)
      .def_readonly("potential_energy", &ClosedChainTrajectory::potential_energy)
      .def_readonly("warnings", &ClosedChainTrajectory::warnings)
      .def_readonly("near_singular_episodes", &ClosedChainTrajectory::near_singular_episodes)
      .def_readonly("force_value", &ClosedChainTrajectory::force_value)
      .def_readonly("force_energy", &ClosedChainTrajectory::force_energy)
      .def_readonly("coupling_effort", &ClosedChainTrajectory::coupling_effort)
      .def_readonly("force_names", &ClosedChainTrajectory::force_names)
      .def_readonly("coupling_names", &ClosedChainTrajectory::coupling_names)
      .def("__len__", [](const ClosedChainTrajectory& r) { return r.t.size(); });

  m.def("simulate_closed_chain", [](std::shared_ptr<Model> model, py::handle q0, py::handle v0, py::handle tau,
                                    const std::string& mode, py::handle accelerations, py::handle velocities,
                                    double duration, double step, const std::string& integrator, long every,
                                    double rtol, double atol, bool adaptive) {
    if (!model) throw InvalidArgument("simulate_closed_chain: model is None");
    if (!model->has_constraints()) throw InvalidArgument("simulate_closed_chain: model '" + model->name + "' has no loops (use simulate)");
    if (mode != "forward" && mode != "inverse") throw InvalidArgument("mode must be 'forward' or 'inverse', got '" + mode + "'");
    const auto chosen = closed_chain_integrator_from_name(integrator);
    if (!chosen) throw InvalidArgument("integrator must be 'rk4', 'dopri5' or 'ali3p', got '" + integrator + "'");
    const Data probe(*model);
    const std::vector<int> actuated = probe.actuated_dofs;
    const Eigen::Index na = static_cast<Eigen::Index>(actuated.size()), nv = model->nv;
    ClosedChainRunOptions options;
    options.inverse = mode == "inverse";
    options.integrator = *chosen;
    options.duration = duration;
    options.step = step;
    options.every = every;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = atol;
    if (adaptive && *chosen != ClosedChainIntegrator::Ali3p)
      throw InvalidArgument("adaptive is for integrator 'ali3p' (dopri5 always controls its error)");
    options.ali3p_adaptive = adaptive;
    ClosedChainTrajectory r;
    std::vector<std::string> warnings;
    options.warning = [&warnings](const std::string& line) { warnings.push_back(line); };
    options.started = [&warnings](const InitialStateResult& start) {
      for (const InitialStateAdjustment& moved : start.adjustments)
        warnings.push_back("initial velocity of " + moved.name + ": " + std::to_string(moved.given) + " " + moved.unit +
                           "/s given, " + std::to_string(moved.used) + " used");
    };
    VecX q = q0.is_none() ? (model->initial_configuration.size() > 0 ? model->initial_configuration
                                                                     : model->neutral_configuration())
                          : owned_vector(q0, model->nq, "q0", "nq");
    VecX v = v0.is_none() ? VecX::Zero(nv) : owned_vector(v0, nv, "v0", "nv");
    // Efforts on the actuated coordinates (na), or the actuated motion (inverse).
    ClosedChainInputs inputs;
    if (!options.inverse) {
      auto effort = time_function(tau, na, "tau");
      inputs.effort = [effort, actuated, na](double t, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                             Eigen::Ref<VecX> out) {
        VecX value(na);
        effort(t, value);
        for (Eigen::Index c = 0; c < na; ++c) out[actuated[c]] = value[c];
      };
    } else {
      if (!accelerations.is_none() && !velocities.is_none())
        throw InvalidArgument("give either accelerations or velocities of the actuated joints, not both");
      if (!velocities.is_none()) inputs.actuated_velocity = time_function(velocities, na, "velocities");
      else inputs.actuated_acceleration = time_function(accelerations, na, "accelerations");
    }
    std::vector<double> rows_t, rows_q, rows_v, rows_a, rows_tau, rows_cf, rows_ct, rows_rf, rows_rt, rows_res, rows_ke, rows_pe;
    ElementRows elements;
    auto keep = [&](const ClosedChainRow& row) {
      elements.add(*model, row.data);
      rows_t.push_back(row.t);
      rows_q.insert(rows_q.end(), row.q.data(), row.q.data() + row.q.size());
      rows_v.insert(rows_v.end(), row.v.data(), row.v.data() + nv);
      rows_a.insert(rows_a.end(), row.a.data(), row.a.data() + nv);
      rows_tau.insert(rows_tau.end(), row.tau.data(), row.tau.data() + nv);
      for (std::size_t i = 0; i < model->loops.size(); ++i)
        for (int c = 0; c < 3; ++c) rows_cf.push_back(row.data.cut_force[i][c]), rows_ct.push_back(row.data.cut_torque[i][c]);
      for (int l = 0; l < model->num_bodies(); ++l)
        for (int c = 0; c < 3; ++c)
          rows_rf.push_back(row.data.reaction_force[l][c]), rows_rt.push_back(row.data.reaction_torque[l][c]);
      rows_res.push_back(row.closure_residual);
      rows_ke.push_back(row.kinetic_energy);
      rows_pe.push_back(row.potential_energy);
    };
    ClosedChainRunSummary summary;
    {
      py::gil_scoped_release release;
      summary = run_closed_chain(*model, q, v, inputs, options, keep);
    }
    const py::ssize_t n = static_cast<py::ssize_t>(rows_t.size());
    const auto& array = rows_array;
    const py::ssize_t loops = static_cast<py::ssize_t>(model->loops.size()), bodies = model->num_bodies();
    r.t = array(rows_t, {n});
    r.q = array(rows_q, {n, static_cast<py::ssize_t>(model->nq)});
    r.v = array(rows_v, {n, static_cast<py::ssize_t>(nv)});
    r.a = array(rows_a, {n, static_cast<py::ssize_t>(nv)});
    r.tau = array(rows_tau, {n, static_cast<py::ssize_t>(nv)});
    r.cut_force = array(rows_cf, {n, loops, 3});
    r.cut_torque = array(rows_ct, {n, loops, 3});
    r.reaction_force = array(rows_rf, {n, bodies, 3});
    r.reaction_torque = array(rows_rt, {n, bodies, 3});
    r.closure_residual = array(rows_res, {n});
    r.kinetic_energy = array(rows_ke, {n});
    r.potential_energy = array(rows_pe, {n});
    put_element_rows(*model, elements, n, r, true);
    for (const std::string& w : warnings) r.warnings.append(w);
    r.near_singular_episodes = summary.near_singular_episodes;
    return r;
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("v0") = py::none(), py::arg("tau") = py::none(),
     py::arg("mode") = "forward", py::arg("accelerations") = py::none(), py::arg("velocities") = py::none(),
     py::arg("duration") = 1.0, py::arg("step") = 1e-3, py::arg("integrator") = "rk4", py::arg("every") = 1,
     py::arg("rtol") = 1e-8, py::arg("atol") = 1e-10, py::arg("adaptive") = false,
     "Simulation of a model with loops (the library run behind `mechdyn simulate`, evaluation/closed_chain_run.hpp): "
     "forward (tau on the actuated coordinates: None, na numbers, na expressions of t, or a callable tau(t)) with "
     "integrator 'rk4', 'dopri5' or 'ali3p' (index-3 augmented Lagrangian: stays on the branch through singular "
     "configurations; adaptive=True: its error controlled with rtol, atol, steps of at most `step`), or inverse (the actuated accelerations or velocities, the same forms). The start is made "
     "consistent keeping the actuated coordinates. Returns a ClosedChainTrajectory with the cut-joint forces, joint "
     "reactions and energies of every row, and the warning lines (near-singular configurations).");

  py::class_<InverseTrajectory>(m, "InverseTrajectory",
      "Result of simulate_inverse: t (rows), q (rows × nq), v, a, tau (rows × nv; with joint friction τ + τ_f), "
      "reaction_force, reaction_torque (rows × bodies × 3, parent on child, torque about the child's origin), "
      "kinetic_energy, potential_energy (rows), friction (rows × nv: τ_f, zeros without friction), friction_state "
      "(rows × nv: LuGre z, zeros otherwise), force_value, force_energy (rows × force elements), force_names. With "
      "force elements tau is M a + h − Q_f (the actuators' effort), the reactions carry the elements' wrenches and "
      "potential_energy their energy (as `mechdyn simulate --mode inverse`).")
      .def_readonly("t", &InverseTrajectory::t)
      .def_readonly("q", &InverseTrajectory::q)
      .def_readonly("v", &InverseTrajectory::v)
      .def_readonly("a", &InverseTrajectory::a)
      .def_readonly("tau", &InverseTrajectory::tau)
      .def_readonly("reaction_force", &InverseTrajectory::reaction_force)
      .def_readonly("reaction_torque", &InverseTrajectory::reaction_torque)
      .def_readonly("kinetic_energy", &InverseTrajectory::kinetic_energy)
      .def_readonly("potential_energy", &InverseTrajectory::potential_energy)
      .def_readonly("friction", &InverseTrajectory::friction)
      .def_readonly("friction_state", &InverseTrajectory::friction_state)
      .def_readonly("force_value", &InverseTrajectory::force_value)
      .def_readonly("force_energy", &InverseTrajectory::force_energy)
      .def_readonly("force_names", &InverseTrajectory::force_names)
      .def("__len__", [](const InverseTrajectory& r) { return r.t.size(); });

  m.def("simulate_inverse", [](std::shared_ptr<Model> model, py::handle q0, py::handle v0, py::handle accelerations,
                               double duration, double step, const std::string& integrator, const std::string& method,
                               long every, double rtol, double atol, long max_steps) {
    if (!model) throw InvalidArgument("simulate_inverse: model is None");
    if (integrator != "rk4" && integrator != "dopri5")
      throw InvalidArgument("integrator must be 'rk4' or 'dopri5', got '" + integrator + "'");
    if (method != "explicit" && method != "recursive")
      throw InvalidArgument("method must be 'explicit' or 'recursive', got '" + method + "'");
    SimulationOptions options;
    options.duration = duration;
    options.step = step;
    options.adaptive = integrator == "dopri5";
    options.method = method == "recursive" ? DynamicsMethod::Recursive : DynamicsMethod::Explicit;
    options.every = every;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = atol;
    options.max_steps = max_steps;
    const Eigen::Index nv = model->nv;
    const VecX q = q0.is_none() ? (model->initial_configuration.size() > 0 ? model->initial_configuration
                                                                           : model->neutral_configuration())
                                : owned_vector(q0, model->nq, "q0", "nq");
    const VecX v = v0.is_none() ? VecX::Zero(nv) : owned_vector(v0, nv, "v0", "nv");
    const auto acceleration = time_function(accelerations, nv, "accelerations");
    const bool friction = has_joint_friction(*model);
    const int bodies = model->num_bodies();
    std::vector<double> t, rq, rv, ra, rtau, rf, rt, ke, pe, fr, z;
    ElementRows elements;
    {
      py::gil_scoped_release release;
      // Each row as `mechdyn simulate --mode inverse` writes it: the reactions and energies
      // from the row's Data (after its inverse dynamics).
      simulate_inverse(*model, q, v, acceleration, options, [&](SimulationRow& r) {
        elements.add(*model, r.data);
        const double element_energy = model->has_force_elements ? force_element_potential_energy(r.data) : 0.0;
        joint_reactions(*model, r.data, r.q, r.v, r.a);
        // The force elements' wrenches (data.external_wrench, left by the run's
        // force_elements at this row) in the reactions, as the CLI's rows.
        if (model->has_force_elements) apply_external_wrenches_to_reactions(*model, r.data);
        ke.push_back(kinetic_energy(*model, r.data, r.q, r.v));
        pe.push_back(potential_energy(*model, r.data, r.q) + element_energy);
        t.push_back(r.time);
        rq.insert(rq.end(), r.q.data(), r.q.data() + r.q.size());
        rv.insert(rv.end(), r.v.data(), r.v.data() + nv);
        ra.insert(ra.end(), r.a.data(), r.a.data() + nv);
        rtau.insert(rtau.end(), r.tau.data(), r.tau.data() + nv);
        for (int l = 0; l < bodies; ++l)
          for (int c = 0; c < 3; ++c) rf.push_back(r.data.reaction_force[l][c]), rt.push_back(r.data.reaction_torque[l][c]);
        for (Eigen::Index i = 0; i < nv; ++i) fr.push_back(friction ? r.data.friction_effort[i] : 0.0);
        z.insert(z.end(), r.friction_state.data(), r.friction_state.data() + nv);
      });
    }
    const py::ssize_t n = static_cast<py::ssize_t>(t.size()), pv = static_cast<py::ssize_t>(nv);
    InverseTrajectory r;
    r.t = rows_array(t, {n});
    r.q = rows_array(rq, {n, static_cast<py::ssize_t>(model->nq)});
    r.v = rows_array(rv, {n, pv});
    r.a = rows_array(ra, {n, pv});
    r.tau = rows_array(rtau, {n, pv});
    r.reaction_force = rows_array(rf, {n, bodies, 3});
    r.reaction_torque = rows_array(rt, {n, bodies, 3});
    r.kinetic_energy = rows_array(ke, {n});
    r.potential_energy = rows_array(pe, {n});
    r.friction = rows_array(fr, {n, pv});
    r.friction_state = rows_array(z, {n, pv});
    put_element_rows(*model, elements, n, r, false);
    return r;
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("v0") = py::none(), py::arg("accelerations") = py::none(),
     py::arg("duration") = 1.0, py::arg("step") = 1e-3, py::arg("integrator") = "rk4", py::arg("method") = "explicit",
     py::arg("every") = 1, py::arg("rtol") = 1e-8, py::arg("atol") = 1e-10, py::arg("max_steps") = 0,
     "Inverse dynamics along prescribed accelerations integrated in time (the library run behind `mechdyn simulate "
     "--mode inverse` on a tree, evaluation/simulate.hpp simulate_inverse): accelerations None (zero), nv numbers, nv "
     "muParser expressions of t, or a callable a(t); with joint friction the efforts are τ + τ_f and the LuGre "
     "states are integrated along. Returns an InverseTrajectory of new arrays with the joint reactions and energies "
     "of every row. The GIL is released except while a Python callable runs. Models with loops: "
     "simulate_closed_chain(mode='inverse'); flexible bodies: simulate_flexible.");

  py::class_<FlexibleTrajectory>(m, "FlexibleTrajectory",
      "Result of simulate_flexible: t (rows), q (rows × nq: joints, then elastic coordinates), v, a (rows × nv), "
      "effort (rows × na: the actuated coordinates' efforts, applied or — driven — computed), markers (rows × "
      "markers × 3, world), deviation (rows × markers × 3: flexible minus rigid reference; NaN without it or after "
      "it stopped), rigid_effort (rows × na: the rigid reference's efforts when driven, NaN otherwise), "
      "constraint_violation, newton_iterations, kinetic_energy, gravity_energy, strain_energy (rows), actuated (the "
      "actuated coordinates' names), warnings (the run's warning lines).")
      .def_readonly("t", &FlexibleTrajectory::t)
      .def_readonly("q", &FlexibleTrajectory::q)
      .def_readonly("v", &FlexibleTrajectory::v)
      .def_readonly("a", &FlexibleTrajectory::a)
      .def_readonly("effort", &FlexibleTrajectory::effort)
      .def_readonly("markers", &FlexibleTrajectory::markers)
      .def_readonly("deviation", &FlexibleTrajectory::deviation)
      .def_readonly("rigid_effort", &FlexibleTrajectory::rigid_effort)
      .def_readonly("constraint_violation", &FlexibleTrajectory::constraint_violation)
      .def_readonly("newton_iterations", &FlexibleTrajectory::newton_iterations)
      .def_readonly("kinetic_energy", &FlexibleTrajectory::kinetic_energy)
      .def_readonly("gravity_energy", &FlexibleTrajectory::gravity_energy)
      .def_readonly("strain_energy", &FlexibleTrajectory::strain_energy)
      .def_readonly("actuated", &FlexibleTrajectory::actuated)
      .def_readonly("warnings", &FlexibleTrajectory::warnings)
      .def("__len__", [](const FlexibleTrajectory& r) { return r.t.size(); });

  m.def("simulate_flexible", [](std::shared_ptr<Model> model, py::handle q0, py::handle v0, py::handle tau,
                                py::handle motion, double duration, double step, const std::string& integrator,
                                long every, bool rigid_reference) {
    if (!model) throw InvalidArgument("simulate_flexible: model is None");
    if (integrator != "newmark" && integrator != "hht")
      throw InvalidArgument("integrator must be 'newmark' or 'hht', got '" + integrator + "'");
    const std::vector<int> actuated = flexible_run_actuated(*model);
    const Eigen::Index na = static_cast<Eigen::Index>(actuated.size()), nv = model->nv;
    FlexibleRunOptions options;
    options.driven = !motion.is_none();
    options.alpha = integrator == "hht" ? -0.1 : 0.0;
    options.duration = duration;
    options.step = step;
    options.every = every;
    options.rigid_reference = rigid_reference;
    std::vector<std::string> warnings;
    options.warning = [&warnings](const std::string& line) { warnings.push_back(line); };
    // q0, v0: all coordinates, or the joints' only (the elastic ones zero), as the CLI's --q0, --v0.
    auto start = [](py::handle object, Eigen::Index full, Eigen::Index joints, const VecX& fallback, const char* name) {
      if (object.is_none()) return fallback;
      if (py::len(object) == static_cast<std::size_t>(joints) && joints != full) {
        VecX out = VecX::Zero(full);
        out.head(joints) = owned_vector(object, joints, name, "joint");
        return out;
      }
      return owned_vector(object, full, name, name[0] == 'q' ? "nq" : "nv");
    };
    const VecX q = start(q0, model->nq, model->rigid_nq,
                         model->initial_configuration.size() > 0 ? model->initial_configuration
                                                                 : model->neutral_configuration(),
                         "q0");
    const VecX v = start(v0, nv, model->rigid_nv, VecX::Zero(nv), "v0");
    FlexibleInputs inputs;
    if (!tau.is_none()) inputs.effort = time_function(tau, model->rigid_nv, "tau");
    if (options.driven) {
      if (!PyCallable_Check(motion.ptr()))
        throw InvalidArgument("motion must be a callable motion(t) -> (q_a, v_a, a_a), na numbers each");
      py::object callable = py::reinterpret_borrow<py::object>(motion);
      inputs.actuated_motion = [callable, na](double t, PrescribedMotion& out) {
        py::gil_scoped_acquire acquire;
        py::object value = callable(t);
        py::tuple parts = py::cast<py::tuple>(value);
        if (parts.size() != 3) throw InvalidArgument("motion(t) must return (q_a, v_a, a_a)");
        out.position = InputVector(parts[0], na, "motion(t)[0]", "na").map();
        out.velocity = InputVector(parts[1], na, "motion(t)[1]", "na").map();
        out.acceleration = InputVector(parts[2], na, "motion(t)[2]", "na").map();
      };
    }
    const std::size_t markers = model->markers.size();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> t, rq, rv, ra, eff, mk, dev, reff, viol, iters, ke, ge, se;
    {
      py::gil_scoped_release release;
      run_flexible(*model, q, v, inputs, options, [&](const FlexibleRow& r) {
        t.push_back(r.time);
        rq.insert(rq.end(), r.state.q.data(), r.state.q.data() + r.state.q.size());
        rv.insert(rv.end(), r.state.v.data(), r.state.v.data() + nv);
        ra.insert(ra.end(), r.state.a.data(), r.state.a.data() + nv);
        eff.insert(eff.end(), r.actuated_effort.data(), r.actuated_effort.data() + na);
        for (std::size_t k = 0; k < markers; ++k)
          for (int c = 0; c < 3; ++c) {
            mk.push_back(r.data.marker_position[k][c]);
            dev.push_back(r.reference ? r.data.marker_position[k][c] - r.reference->data.marker_position[k][c] : nan);
          }
        for (Eigen::Index p = 0; p < na; ++p)
          reff.push_back(r.reference && options.driven ? r.reference->actuated_effort[p] : nan);
        viol.push_back(r.constraint_violation);
        iters.push_back(r.newton_iterations);
        ke.push_back(r.energy.kinetic);
        ge.push_back(r.energy.gravity);
        se.push_back(r.energy.strain);
      });
    }
    const py::ssize_t n = static_cast<py::ssize_t>(t.size()), pm = static_cast<py::ssize_t>(markers);
    FlexibleTrajectory r;
    r.t = rows_array(t, {n});
    r.q = rows_array(rq, {n, static_cast<py::ssize_t>(model->nq)});
    r.v = rows_array(rv, {n, static_cast<py::ssize_t>(nv)});
    r.a = rows_array(ra, {n, static_cast<py::ssize_t>(nv)});
    r.effort = rows_array(eff, {n, static_cast<py::ssize_t>(na)});
    r.markers = rows_array(mk, {n, pm, 3});
    r.deviation = rows_array(dev, {n, pm, 3});
    r.rigid_effort = rows_array(reff, {n, static_cast<py::ssize_t>(na)});
    r.constraint_violation = rows_array(viol, {n});
    r.newton_iterations = rows_array(iters, {n});
    r.kinetic_energy = rows_array(ke, {n});
    r.gravity_energy = rows_array(ge, {n});
    r.strain_energy = rows_array(se, {n});
    std::vector<CoordinateName> configuration_names, velocity_names;
    for (const Joint& joint : model->joints) joint_coordinate_names(joint, configuration_names, velocity_names);
    for (int k : actuated) r.actuated.append(velocity_names[static_cast<std::size_t>(k)].name);
    for (const std::string& w : warnings) r.warnings.append(w);
    return r;
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("v0") = py::none(), py::arg("tau") = py::none(),
     py::arg("motion") = py::none(), py::arg("duration") = 1.0, py::arg("step") = 1e-3,
     py::arg("integrator") = "newmark", py::arg("every") = 1, py::arg("rigid_reference") = true,
     "Simulation of a model with flexible bodies (the library run behind `mechdyn simulate` on such a model, "
     "evaluation/flexible_run.hpp): Newmark (integrator 'newmark') or HHT-α = −0.1 ('hht'), one step per output "
     "interval. Forward: tau the joints' efforts (None, rigid_nv numbers, expressions of t, or a callable tau(t)). "
     "Position-driven (the CLI's --mode inverse): motion a callable motion(t) -> (q_a, v_a, a_a) of the actuated "
     "coordinates (FlexibleTrajectory.actuated); their efforts are computed. q0, v0: all coordinates or the joints' "
     "only (elastic ones zero). The rigid equivalent runs alongside unless rigid_reference=False. Returns a "
     "FlexibleTrajectory of new arrays. The GIL is released except while a Python callable runs.");

  py::class_<SweepSpec, std::shared_ptr<SweepSpec>>(m, "SweepSpec",
      "A parsed sweep spec (the YAML of `mechdyn sweep`, docs/python.md). Use mechdyn.sweep.run for the Dask map.")
      .def(py::init([](const std::string& text, const std::string& path) {
        py::gil_scoped_release release;
        // The model reader's warnings on stderr, as `mechdyn sweep` prints them.
        std::vector<std::string> warnings;
        auto print_warnings = [&warnings] {
          for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
        };
        try {
          auto spec = std::make_shared<SweepSpec>(read_sweep_spec(text, path, &warnings));
          print_warnings();
          return spec;
        } catch (...) {
          print_warnings();
          throw;
        }
      }), py::arg("text"), py::arg("path") = "<string>",
         "Parses spec text; `path` anchors the relative model path (a file next to it).")
      .def_property_readonly("num_samples", [](const SweepSpec& s) { return s.samples.size(); })
      .def_property_readonly("model", [](const SweepSpec& s) { return std::make_shared<Model>(s.model); })
      .def_property_readonly("columns", [](const SweepSpec& s) { return sweep_columns(s); })
      .def_property_readonly("parameter_columns", [](const SweepSpec& s) { return sweep_parameter_columns(s); })
      .def_property_readonly("result_columns", [](const SweepSpec& s) { return sweep_result_columns(s); })
      .def("run_sample", [](const SweepSpec& s, int index) {
        SweepRow row;
        {
          py::gil_scoped_release release;
          row = run_sweep_sample(s, index);
        }
        py::dict d;
        d["sample"] = row.sample;
        d["ok"] = row.ok;
        d["error"] = row.error;
        d["parameters"] = row.parameters;
        d["results"] = row.results;
        d["csv"] = sweep_csv_row(row);
        return d;
      }, py::arg("index"),
         "Runs one sample; never raises for the sample's own failure: {'sample', 'ok', 'error', 'parameters' "
         "(strings), 'results' (floats, NaN after an error), 'csv' (the row as `mechdyn sweep` writes it)}.");
}

}  // namespace mechdyn::python
