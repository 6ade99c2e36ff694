// Python bindings: simulate (evaluation/simulate.hpp) and the sweep specs shared with
// `mechdyn sweep` (apps/mechdyn/sweep_spec.hpp; Python's mechdyn.sweep maps them on Dask).
#include <mutex>

#include "common.hpp"
#include "mechdyn/evaluation/simulate.hpp"
#include "sweep_spec.hpp"
#include "time_expressions.hpp"

namespace mechdyn::python {

namespace {

// The result of simulate: new arrays (C order), rows = output times.
struct Trajectory {
  py::array_t<double> t, q, v, a, tau;
};

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

  py::class_<cli::SweepSpec, std::shared_ptr<cli::SweepSpec>>(m, "SweepSpec",
      "A parsed sweep spec (the YAML of `mechdyn sweep`, docs/python.md). Use mechdyn.sweep.run for the Dask map.")
      .def(py::init([](const std::string& text, const std::string& path) {
        py::gil_scoped_release release;
        return std::make_shared<cli::SweepSpec>(cli::read_sweep_spec(text, path));
      }), py::arg("text"), py::arg("path") = "<string>",
         "Parses spec text; `path` anchors the relative model path (a file next to it).")
      .def_property_readonly("num_samples", [](const cli::SweepSpec& s) { return s.samples.size(); })
      .def_property_readonly("model", [](const cli::SweepSpec& s) { return std::make_shared<Model>(s.model); })
      .def_property_readonly("columns", [](const cli::SweepSpec& s) { return cli::sweep_columns(s); })
      .def_property_readonly("parameter_columns", [](const cli::SweepSpec& s) { return cli::sweep_parameter_columns(s); })
      .def_property_readonly("result_columns", [](const cli::SweepSpec& s) { return cli::sweep_result_columns(s); })
      .def("run_sample", [](const cli::SweepSpec& s, int index) {
        cli::SweepRow row;
        {
          py::gil_scoped_release release;
          row = cli::run_sweep_sample(s, index);
        }
        py::dict d;
        d["sample"] = row.sample;
        d["ok"] = row.ok;
        d["error"] = row.error;
        d["parameters"] = row.parameters;
        d["results"] = row.results;
        d["csv"] = cli::sweep_csv_row(row);
        return d;
      }, py::arg("index"),
         "Runs one sample; never raises for the sample's own failure: {'sample', 'ok', 'error', 'parameters' "
         "(strings), 'results' (floats, NaN after an error), 'csv' (the row as `mechdyn sweep` writes it)}.");
}

}  // namespace mechdyn::python
