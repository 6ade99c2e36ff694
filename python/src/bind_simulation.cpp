// Python bindings: simulate (evaluation/simulate.hpp) and the sweep specs shared with
// `mechdyn sweep` (io/sweep_spec.hpp, evaluation/sweep.hpp; Python's mechdyn.sweep maps them
// on Dask).
#include <iostream>
#include <mutex>

#include "common.hpp"
#include "mechdyn/evaluation/closed_chain_run.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "mechdyn/evaluation/sweep.hpp"
#include "mechdyn/evaluation/time_expressions.hpp"
#include "mechdyn/io/sweep_spec.hpp"

namespace mechdyn::python {

namespace {

// The result of simulate: new arrays (C order), rows = output times.
struct Trajectory {
  py::array_t<double> t, q, v, a, tau;
};

// The result of simulate_closed_chain: the rows of `mechdyn simulate` on a model with loops.
struct ClosedChainTrajectory {
  py::array_t<double> t, q, v, a, tau, cut_force, cut_torque, reaction_force, reaction_torque, closure_residual,
      kinetic_energy, potential_energy;
  py::list warnings;
  long near_singular_episodes = 0;
};

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
  py::class_<Trajectory>(m, "Trajectory", "Result of simulate: arrays t (rows), q (rows × nq), v, a, tau (rows × nv).")
      .def_readonly("t", &Trajectory::t)
      .def_readonly("q", &Trajectory::q)
      .def_readonly("v", &Trajectory::v)
      .def_readonly("a", &Trajectory::a)
      .def_readonly("tau", &Trajectory::tau)
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
    SimulationResult result;
    {
      py::gil_scoped_release release;
      result = simulate(*model, q, v, effort, options);
    }
    Trajectory r;
    r.t = copy_vector(result.time);
    r.q = copy_matrix(result.q);
    r.v = copy_matrix(result.v);
    r.a = copy_matrix(result.a);
    r.tau = copy_matrix(result.tau);
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
      "potential_energy (rows), warnings (the run's warning lines), near_singular_episodes.")
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
      .def("__len__", [](const ClosedChainTrajectory& r) { return r.t.size(); });

  m.def("simulate_closed_chain", [](std::shared_ptr<Model> model, py::handle q0, py::handle v0, py::handle tau,
                                    const std::string& mode, py::handle accelerations, py::handle velocities,
                                    double duration, double step, const std::string& integrator, long every,
                                    double rtol, double atol, bool adaptive) {
    if (!model) throw InvalidArgument("simulate_closed_chain: model is None");
    if (model->loops.empty()) throw InvalidArgument("simulate_closed_chain: model '" + model->name + "' has no loops (use simulate)");
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
    auto keep = [&](const ClosedChainRow& row) {
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
    auto array = [](const std::vector<double>& values, std::vector<py::ssize_t> shape) {
      py::array_t<double> out(shape);
      std::copy(values.begin(), values.end(), out.mutable_data());
      return out;
    };
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
