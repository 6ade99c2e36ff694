// Python bindings: joint friction (friction/*.hpp, docs/friction.md).
#include "common.hpp"
#include "mechdyn/friction/forward_dynamics_with_friction.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"

namespace mechdyn::python {

namespace {

LuGreEvaluation lugre_named(const std::string& name) {
  if (name == "state") return LuGreEvaluation::State;
  if (name == "steady_state") return LuGreEvaluation::SteadyState;
  throw InvalidArgument("lugre must be 'state' or 'steady_state', got '" + name + "'");
}

}  // namespace

void bind_friction(py::module_& m) {
  m.def("has_joint_friction", &has_joint_friction, py::arg("model"));
  m.def("inverse_dynamics_with_friction", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                             py::handle a, const std::string& lugre) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), av(a, model.nv, "a", "nv");
    const LuGreEvaluation evaluation = lugre_named(lugre);
    const VecX& result = without_gil([&]() -> const VecX& {
      return inverse_dynamics_with_friction(model, data, qv.map(), vv.map(), av.map(), evaluation);
    });
    return view_of(result, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("lugre") = "state",
     "τ_d = M a + h + τ_f with joint friction (EC Algorithm 1, eq. 54); view of data.tau_with_friction. "
     "LuGre joints read data.friction_state (lugre='state') or use the steady state.");
  m.def("forward_dynamics_with_friction", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                             py::handle tau, double rest_velocity) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), tv(tau, model.nv, "tau", "nv");
    FrictionSolverOptions options;
    options.rest_velocity = rest_velocity;
    const VecX& result = without_gil([&]() -> const VecX& {
      return forward_dynamics_with_friction(model, data, qv.map(), vv.map(), tv.map(), options);
    });
    return view_of(result, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("rest_velocity") = 0.0,
     "q̈ under efforts with joint friction, stick–slip by a fixed point (EC §4.1); view of data.ddq; "
     "data.friction_effort holds τ_f.");
  m.def("joint_load_decomposition", [](const Model& model, PyData& pd) {
    Data& data = data_for(model, pd);
    without_gil([&] { joint_load_decomposition(model, data); return 0; });
  }, py::arg("model"), py::arg("data"),
     "From data.reaction_force/torque (joint_reactions first): data.constraint_torque, constraint_force, "
     "axial_load, normal_load (EC §3.1–3.3).");
}

}  // namespace mechdyn::python
