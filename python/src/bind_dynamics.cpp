// Python bindings: the explicit and recursive dynamics (dynamics/*.hpp) and
// compute_all_terms (evaluation/compute_all_terms.hpp). docs/python.md.
// Every result is returned as a numpy view of the Data buffer the C++ function writes
// (no copy): it changes at the next call on the same Data.
#include "common.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reaction_derivatives.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/evaluation/compute_all_terms.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

#include <chrono>

namespace mechdyn::python {

namespace {

using Map = Eigen::Map<const VecX>;
using QFunction = const MatX& (*)(const Model&, Data&, const Eigen::Ref<const VecX>&);
using QVector = const VecX& (*)(const Model&, Data&, const Eigen::Ref<const VecX>&);
using QVFunction = const VecX& (*)(const Model&, Data&, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&);
using QVXFunction = const VecX& (*)(const Model&, Data&, const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&,
                                    const Eigen::Ref<const VecX>&);

template <class F>
void def_q(py::module_& m, const char* name, F function, const char* doc) {
  m.def(name, [function](const Model& model, py::object data_object, py::handle q) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq");
    const auto& result = without_gil([&]() -> decltype(auto) { return function(model, data, qv.map()); });
    return view_of(result, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), doc);
}

void def_qv(py::module_& m, const char* name, QVFunction function, const char* doc) {
  m.def(name, [function](const Model& model, py::object data_object, py::handle q, py::handle v) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
    const VecX& result = without_gil([&]() -> const VecX& { return function(model, data, qv.map(), vv.map()); });
    return view_of(result, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), doc);
}

void def_qvx(py::module_& m, const char* name, QVXFunction function, const char* third, const char* doc) {
  m.def(name, [function, third](const Model& model, py::object data_object, py::handle q, py::handle v, py::handle x) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), xv(x, model.nv, third, "nv");
    const VecX& result =
        without_gil([&]() -> const VecX& { return function(model, data, qv.map(), vv.map(), xv.map()); });
    return view_of(result, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg(third), doc);
}

}  // namespace

void bind_dynamics(py::module_& m) {
  def_q(m, "crba", static_cast<QFunction>(&crba), "M(q) by the composite-rigid-body algorithm (Featherstone); view of data.mass_matrix");
  def_q(m, "explicit_mass_matrix", static_cast<QFunction>(&explicit_mass_matrix),
        "M(q) by the explicit subtree aggregates (EJ eqs. 30–37); view of data.mass_matrix");
  def_q(m, "explicit_mass_matrix_direct", static_cast<QFunction>(&explicit_mass_matrix_direct),
        "M(q) by the literal O(n³) double sum of EJ (the reference); view of data.mass_matrix");
  def_q(m, "explicit_gravity_force", static_cast<QVector>(&explicit_gravity_force),
        "gravity part g(q) of h; view of data.gravity_force");
  def_qv(m, "explicit_bias_force", static_cast<QVFunction>(&explicit_bias_force),
         "h(q, v) by the reaction iteration at q̈ = 0 (EC eqs. 19–22); view of data.bias_force");
  def_qvx(m, "rnea", &rnea, "a", "τ = M a + h by Featherstone's RNEA (body coordinates); view of data.tau");
  def_qvx(m, "explicit_inverse_dynamics", static_cast<QVXFunction>(&explicit_inverse_dynamics), "a",
          "τ = M a + h by the explicit method (EC eq. 16); view of data.tau");
  def_qvx(m, "aba", static_cast<QVXFunction>(&aba), "tau", "q̈ by Featherstone's ABA; view of data.ddq");
  def_qvx(m, "explicit_forward_dynamics", static_cast<QVXFunction>(&explicit_forward_dynamics), "tau",
          "q̈ = M⁻¹(τ − h) by the branch-sparse Lᵀ D L; view of data.ddq");

  m.def("joint_reactions", [](const Model& model, py::object data_object, py::handle q, py::handle v, py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), av(a, model.nv, "a", "nv");
    without_gil([&] { joint_reactions(model, data, qv.map(), vv.map(), av.map()); return 0; });
    return py::make_tuple(vec3_list_view(data.reaction_force, data_object),
                          vec3_list_view(data.reaction_torque, data_object));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "Reaction wrench of every joint (EC §3.1): (data.reaction_force, data.reaction_torque) views, (n, 3) "
     "each: force of the parent on the body, torque about the body frame origin, world.");

  // Analytical derivatives (docs/derivatives.md): new numpy arrays (their workspace,
  // DerivativeData, is made per call: O(nv²), the size of the results), row i the derivative
  // of component i, ∂/∂q in the tangent space (q ⊕ dq).
  m.def("rnea_derivatives", [](const Model& model, py::object data_object, py::handle q, py::handle v, py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), av(a, model.nv, "a", "nv");
    DerivativeData work(model);  // the results are copies (they own their memory)
    without_gil([&] { rnea_derivatives(model, data, work, qv.map(), vv.map(), av.map()); return 0; });
    return py::make_tuple(py::cast(MatX(work.dtau_dq)), py::cast(MatX(work.dtau_dv)));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "(∂τ/∂q, ∂τ/∂v) of inverse dynamics, nv × nv arrays (∂τ/∂a is M, crba).");
  m.def("aba_derivatives", [](const Model& model, py::object data_object, py::handle q, py::handle v, py::handle tau) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), tv(tau, model.nv, "tau", "nv");
    DerivativeData work(model);
    without_gil([&] { aba_derivatives(model, data, work, qv.map(), vv.map(), tv.map()); return 0; });
    return py::make_tuple(py::cast(MatX(work.da_dq)), py::cast(MatX(work.da_dv)),
                          py::cast(MatX(work.da_dtau)));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
     "(∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ = M⁻¹) of forward dynamics, nv × nv arrays; "
     "q̈ itself in data.ddq. Raises SolverError at a singular M.");

  m.def("joint_reaction_derivatives", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                         py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), av(a, model.nv, "a", "nv");
    DerivativeData work(model, true);
    without_gil([&] { joint_reaction_derivatives(model, data, work, qv.map(), vv.map(), av.map()); return 0; });
    return py::make_tuple(py::cast(MatX(work.dreaction_dq)), py::cast(MatX(work.dreaction_dv)));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "(∂reaction/∂q, ∂reaction/∂v), 6n × nv arrays: rows 6u…6u+2 the force of joint u, 6u+3…6u+5 its torque "
     "about body u's origin (world), as joint_reactions returns them.");

  m.def("kinetic_energy", [](const Model& model, PyData& pd, py::handle q, py::handle v) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
    return without_gil([&] { return kinetic_energy(model, data, qv.map(), vv.map()); });
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), "kinetic energy (J)");
  m.def("potential_energy", [](const Model& model, PyData& pd, py::handle q) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq");
    return without_gil([&] { return potential_energy(model, data, qv.map()); });
  }, py::arg("model"), py::arg("data"), py::arg("q"), "gravitational potential energy (J)");

  // For bench/python_overhead.py: the same C++ call `repeats` times in a C++ loop (no
  // Python in between); returns the seconds per call. Not part of the API.
  m.def("_time_cpp_calls", [](const std::string& name, const Model& model, PyData& pd, py::handle q, py::handle v,
                              py::handle x, long repeats) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), xv(x, model.nv, "x", "nv");
    const auto qm = qv.map();
    const auto vm = vv.map();
    const auto xm = xv.map();
    std::function<void()> call;
    if (name == "rnea") call = [&] { rnea(model, data, qm, vm, xm); };
    else if (name == "aba") call = [&] { aba(model, data, qm, vm, xm); };
    else if (name == "crba") call = [&] { crba(model, data, qm); };
    else if (name == "explicit_inverse_dynamics") call = [&] { explicit_inverse_dynamics(model, data, qm, vm, xm); };
    else if (name == "forward_kinematics") call = [&] { forward_kinematics(model, data, qm, vm); };
    else throw InvalidArgument("_time_cpp_calls: unknown function '" + name + "'");
    return without_gil([&] {
      const auto start = std::chrono::steady_clock::now();
      for (long i = 0; i < repeats; ++i) call();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
             static_cast<double>(std::max(1L, repeats));
    });
  });

  m.def("compute_all_terms", [](const Model& model, PyData& pd, py::handle q, py::handle v, py::handle a,
                                py::handle tau, const std::string& method, double t) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
    AllTermsOptions options;
    if (method == "explicit") options.method = DynamicsMethod::Explicit;
    else if (method == "recursive") options.method = DynamicsMethod::Recursive;
    else throw InvalidArgument("method must be 'explicit' or 'recursive', got '" + method + "'");
    if (!std::isfinite(t)) throw InvalidArgument("t must be finite");
    options.time = t;
    std::optional<VecX> av, tv;
    if (!a.is_none()) av = owned_vector(a, model.nv, "a", "nv");
    if (!tau.is_none()) tv = owned_vector(tau, model.nv, "tau", "nv");
    without_gil([&] {
      compute_all_terms(model, data, qv.map(), vv.map(), av ? &*av : nullptr, tv ? &*tv : nullptr, options);
      return 0;
    });
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a") = py::none(),
     py::arg("tau") = py::none(), py::arg("method") = "explicit", py::arg("t") = 0.0,
     "Every term of one state on one kinematics stage (M, h, g, Φ, J; with a: reactions, friction, τ; "
     "with tau: q̈) into data (the entry point behind `mechdyn eval`). With force elements (format 3) also Q_f "
     "at time t (data.applied_force, element_value, ...): τ = M a + h − Q_f, q̈ solves M q̈ = τ + Q_f − h; M "
     "includes the armature.");
}

}  // namespace mechdyn::python
