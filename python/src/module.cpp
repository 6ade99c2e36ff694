// The Python module mechdyn._mechdyn (docs/python.md): pybind11 bindings of the C++
// library, one file per area (bind_*.cpp). mechdyn/__init__.py re-exports it.
#include "common.hpp"

PYBIND11_MODULE(_mechdyn, m) {
  m.doc() = "mechdyn: dynamics of mechanisms (C++17) — Model, Data and the algorithms taking (model, data, q, ...)";
  mechdyn::python::bind_errors(m);
  mechdyn::python::bind_model(m);
  mechdyn::python::bind_kinematics(m);
  mechdyn::python::bind_dynamics(m);
  mechdyn::python::bind_friction(m);
  mechdyn::python::bind_closed_chains(m);
  mechdyn::python::bind_simulation(m);
  mechdyn::python::bind_parallel(m);
  mechdyn::python::bind_screw(m);
  mechdyn::python::bind_analysis(m);
  mechdyn::python::bind_codegen(m);
  mechdyn::python::bind_force_elements(m);
  mechdyn::python::bind_batch(m);
}
