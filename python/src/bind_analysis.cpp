// Python bindings: linearisation, equilibrium and modes of any mechanism (issue 27;
// docs/linearisation.md, docs/python.md). `linearize` is analysis/linearize.hpp (the linear
// model ẋ = A x + B u, y = C x + D u of `mechdyn linearize`); `static_equilibrium` and
// `natural_frequencies` send rigid models (trees, closed chains, force elements, couplings,
// armature) to analysis/mechanism_equilibrium.hpp (`mechdyn static` / `mechdyn modes`) and
// models with flexible bodies to flexible/equilibrium.hpp, as the command line does
// (apps/mechdyn/equilibrium_commands.cpp). Each call copies its inputs, releases the GIL for the
// C++ computation and returns a dict of new numpy arrays.
#include <cmath>
#include <complex>
#include <sstream>

#include "common.hpp"
#include "mechdyn/analysis/linearize.hpp"
#include "mechdyn/analysis/mechanism_equilibrium.hpp"

namespace mechdyn::python {

namespace {

/// q0 given (nq numbers), else the model's initial configuration, else the neutral one —
/// the start of `mechdyn static` / `modes`.
VecX start_configuration(const Model& model, py::handle q0) {
  if (!q0.is_none()) return owned_vector(q0, model.nq, "q0", "nq");
  return model.initial_configuration.size() == model.nq ? model.initial_configuration : model.neutral_configuration();
}

/// None → empty; a str → its comma-separated names (as the CLI's options); a sequence of str.
std::vector<std::string> names_argument(py::handle x, const char* what) {
  std::vector<std::string> out;
  if (x.is_none()) return out;
  if (py::isinstance<py::str>(x)) {
    std::istringstream in(x.cast<std::string>());
    std::string item;
    while (std::getline(in, item, ','))
      if (!item.empty()) out.push_back(item);
    return out;
  }
  if (!py::isinstance<py::sequence>(x))
    throw InvalidArgument(std::string(what) + " must be a list of names or a comma-separated str");
  for (py::handle item : x) {
    if (!py::isinstance<py::str>(item)) throw InvalidArgument(std::string(what) + ": every name must be a str");
    out.push_back(item.cast<std::string>());
  }
  return out;
}

VecX efforts_argument(const Model& model, py::handle tau) {
  return tau.is_none() ? VecX() : owned_vector(tau, model.nv, "tau", "nv");
}

void check_time(double t) {
  if (!std::isfinite(t)) throw InvalidArgument("t: the time must be a finite number");
}

void check_locked(const std::string& locked) {
  if (locked != "actuated" && locked != "none") throw InvalidArgument("locked '" + locked + "' must be actuated or none");
}

std::vector<std::string> joint_names(const Model& model, const std::vector<int>& joints) {
  std::vector<std::string> out;
  for (int j : joints) out.push_back(model.joints[static_cast<std::size_t>(j)].name);
  return out;
}

std::vector<std::string> marker_names(const Model& model) {
  std::vector<std::string> names;
  for (const Marker& marker : model.markers) names.push_back(marker.name);
  return names;
}

MatX marker_rows(const std::vector<Vec3>& markers) {
  MatX rows(static_cast<Eigen::Index>(markers.size()), 3);
  for (std::size_t m = 0; m < markers.size(); ++m) rows.row(static_cast<Eigen::Index>(m)) = markers[m].transpose();
  return rows;
}

py::array_t<double> copy_list(const std::vector<double>& values) {
  return copy_vector(Eigen::Map<const VecX>(values.data(), static_cast<Eigen::Index>(values.size())));
}

py::array_t<std::complex<double>> copy_complex(const std::vector<std::complex<double>>& values) {
  py::array_t<std::complex<double>> out(static_cast<py::ssize_t>(values.size()));
  auto view = out.mutable_unchecked<1>();
  for (std::size_t k = 0; k < values.size(); ++k) view(static_cast<py::ssize_t>(k)) = values[k];
  return out;
}

// ---- every model (analysis/; models with flexible bodies through flexible/equilibrium.hpp) ----

py::dict rigid_equilibrium_dict(const Model& model, const MechanismEquilibrium& r) {
  py::dict d;
  d["q"] = copy_vector(r.q);
  d["markers"] = copy_matrix(marker_rows(r.markers));
  d["marker_names"] = marker_names(model);
  d["stable"] = r.stable;
  d["stiffness_eigenvalues"] = copy_vector(r.stiffness_eigenvalues);
  d["free"] = joint_names(model, r.free_joints);
  d["locked"] = joint_names(model, r.locked_joints);
  d["held_efforts"] = copy_vector(r.held_efforts);
  d["iterations"] = r.iterations;
  return d;
}

FrictionTreatment friction_argument(const std::string& friction) {
  if (friction != "refuse" && friction != "viscous")
    throw InvalidArgument("friction '" + friction + "' must be refuse or viscous");
  return friction == "viscous" ? FrictionTreatment::ViscousOnly : FrictionTreatment::Refuse;
}

EquilibriumOptions equilibrium_options(const Model& model, py::handle tau, double t, const std::string& locked,
                                       py::handle independent, const std::string& friction) {
  check_time(t);
  check_locked(locked);
  EquilibriumOptions options;
  options.friction = friction_argument(friction);
  options.time = t;
  options.tau = efforts_argument(model, tau);
  options.lock_actuated = locked == "actuated";
  options.independent = names_argument(independent, "independent");
  return options;
}

py::dict rigid_modes_dict(const Model& model, const MechanismModes& r, const MechanismEquilibrium* equilibrium) {
  py::dict d;
  d["frequencies"] = copy_list(r.frequencies);
  d["zero_modes"] = r.zero_modes;
  d["unstable_modes"] = r.unstable_modes;
  d["threshold"] = r.threshold;
  d["locked"] = r.locked;
  d["free"] = joint_names(model, r.free_joints);
  d["damped_model"] = r.damped_model;
  MatX damped(static_cast<Eigen::Index>(r.damped.size()), 2);
  for (std::size_t k = 0; k < r.damped.size(); ++k)
    damped.row(static_cast<Eigen::Index>(k)) << r.damped[k].frequency, r.damped[k].damping_ratio;
  d["damped"] = copy_matrix(damped);
  d["eigenvalues"] = copy_complex(r.eigenvalues);
  d["shapes"] = copy_matrix(r.shapes);
  const py::ssize_t modes = static_cast<py::ssize_t>(r.marker_shapes.size());
  const py::ssize_t markers = static_cast<py::ssize_t>(model.markers.size());
  py::array_t<double> marker_shapes({modes, markers, py::ssize_t{3}});
  auto view = marker_shapes.mutable_unchecked<3>();
  for (py::ssize_t k = 0; k < modes; ++k)
    for (py::ssize_t m = 0; m < markers; ++m)
      for (py::ssize_t c = 0; c < 3; ++c)
        view(k, m, c) = r.marker_shapes[static_cast<std::size_t>(k)][static_cast<std::size_t>(m)][c];
  d["marker_shapes"] = marker_shapes;
  d["marker_names"] = marker_names(model);
  d["q"] = copy_vector(r.q);
  d["v"] = copy_vector(r.v);
  if (equilibrium) {
    d["stable"] = equilibrium->stable;
    d["equilibrium"] = rigid_equilibrium_dict(model, *equilibrium);
  } else {
    d["stable"] = py::none();
    d["equilibrium"] = py::none();
  }
  return d;
}

py::dict linear_model_dict(const Model& model, const LinearModel& lm) {
  py::dict d;
  d["A"] = copy_matrix(lm.A);
  d["B"] = copy_matrix(lm.B);
  d["C"] = copy_matrix(lm.C);
  d["D"] = copy_matrix(lm.D);
  d["state"] = lm.state;
  d["inputs"] = lm.inputs;
  d["outputs"] = lm.outputs;
  d["q"] = copy_vector(lm.q);
  d["v"] = copy_vector(lm.v);
  d["a"] = copy_vector(lm.a);
  d["independent"] = joint_names(model, lm.independent_joints);
  return d;
}

}  // namespace

void bind_analysis(py::module_& m) {
  m.def("linearize", [](const Model& model, py::handle q, py::handle v, py::handle tau, double t, py::handle independent,
                        py::handle inputs, py::handle outputs, const std::string& friction) {
    check_time(t);
    const VecX qv = owned_vector(q, model.nq, "q", "nq");
    const VecX vv = owned_vector(v, model.nv, "v", "nv");
    LinearizeOptions options;
    options.time = t;
    options.tau = efforts_argument(model, tau);
    options.independent = names_argument(independent, "independent");
    options.inputs = names_argument(inputs, "inputs");
    options.outputs = names_argument(outputs, "outputs");
    options.friction = friction_argument(friction);
    const LinearModel lm = without_gil([&] { return linearize(model, qv, vv, options); });
    return linear_model_dict(model, lm);
  }, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau") = py::none(), py::arg("t") = 0.0,
     py::arg("independent") = py::none(), py::arg("inputs") = py::none(), py::arg("outputs") = py::none(),
     py::arg("friction") = "refuse",
     "The linear model x' = A x + B u, y = C x + D u of a rigid mechanism about (q, v, tau, t) (`mechdyn "
     "linearize`, docs/linearisation.md): {'A', 'B', 'C', 'D' (2-D arrays: scipy.signal.StateSpace(A, B, C, D)), "
     "'state', 'inputs', 'outputs' (names), 'q', 'v' (the operating point, loops assembled, dependent rates "
     "completed), 'a' (q'' there), 'independent' (joint names)}. tau: nv efforts (default 0); t: time of servo "
     "targets and applied loads; independent, inputs, outputs: lists of names or comma-separated str (default: "
     "chosen; tau_ of the actuated coordinates; the state); friction: 'refuse' (default) or 'viscous' (each "
     "friction block's k_v kept as a joint damper, the rest left out).");

  m.def("static_equilibrium", [](const Model& model, py::handle q0, py::handle tau, double t, const std::string& locked,
                                 py::handle independent, const std::string& friction) {
    const VecX q = start_configuration(model, q0);
    const EquilibriumOptions options = equilibrium_options(model, tau, t, locked, independent, friction);
    const MechanismEquilibrium r = without_gil([&] { return mechanism_equilibrium(model, q, options); });
    return rigid_equilibrium_dict(model, r);
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("tau") = py::none(), py::arg("t") = 0.0,
     py::arg("locked") = "actuated", py::arg("independent") = py::none(), py::arg("friction") = "refuse",
     "Static equilibrium (`mechdyn static`, docs/linearisation.md) reached by Newton's method from q0 (default "
     "the model's initial or neutral configuration), under gravity, force elements at time t and constant efforts "
     "tau (nv), the actuated joints held ('actuated') or free ('none'). Rigid models: {'q', 'markers' (n x 3), "
     "'marker_names', 'stable', 'stiffness_eigenvalues', 'free', 'locked' (joint names), 'held_efforts' (nv), "
     "'iterations'}; for a model with flexible bodies q holds the joints then the elastic coordinates "
     "(docs/flexible-bodies.md; independent not available). New arrays.");

  m.def("natural_frequencies", [](const Model& model, py::handle q0, const std::string& locked, py::handle tau, double t,
                                  py::handle v, py::handle independent, const std::string& friction) {
    check_locked(locked);
    const VecX q = start_configuration(model, q0);
    ModesOptions options;
    options.equilibrium = equilibrium_options(model, tau, t, locked, independent, friction);
    options.at_state = !v.is_none();
    if (options.at_state) options.v = owned_vector(v, model.nv, "v", "nv");
    struct Result {
      MechanismModes modes;
      MechanismEquilibrium equilibrium;
    };
    const Result r = without_gil([&] {
      Result out;
      out.modes = mechanism_modes(model, q, options);
      // the equilibrium's own verdict and held efforts (the same iteration as inside mechanism_modes)
      if (!options.at_state) out.equilibrium = mechanism_equilibrium(model, q, options.equilibrium);
      return out;
    });
    return rigid_modes_dict(model, r.modes, options.at_state ? nullptr : &r.equilibrium);
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("locked") = "actuated", py::arg("tau") = py::none(),
     py::arg("t") = 0.0, py::arg("v") = py::none(), py::arg("independent") = py::none(), py::arg("friction") = "refuse",
     "Vibration modes (`mechdyn modes`, docs/linearisation.md) about the static equilibrium reached from q0 "
     "(static_equilibrium with the same tau, t, locked, independent), or about the state (q0, v) as given when v "
     "is given (rigid models). locked: 'actuated' (default: the actuated joints stay locked) or 'none'. Returns "
     "{'frequencies' (undamped, Hz, ascending, zero modes left out), 'zero_modes', 'unstable_modes', 'threshold' "
     "(Hz), 'locked', 'shapes' (nv x modes, M-normalised), 'damped_model', 'damped' (k x 2: frequency Hz, damping "
     "ratio), 'eigenvalues' (complex, 1/s; with damping), 'stable' (the equilibrium's verdict; None about a given "
     "state), 'equilibrium' (as static_equilibrium; None about a given state)}, and for rigid models also 'free', "
     "'marker_shapes' (modes x markers x 3, m; empty for models with flexible bodies), 'marker_names', 'q', 'v' "
     "(where the model was linearised). Models with flexible bodies: independent not available.");
}

}  // namespace mechdyn::python
