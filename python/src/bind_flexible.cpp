// Python bindings: flexible bodies (docs/flexible.md) — the static equilibrium under gravity
// with the actuated joints held (`mechdyn static`) and the natural frequencies of the
// constrained, linearised system (`mechdyn modes`), from flexible/equilibrium.hpp.
#include "common.hpp"
#include "mechdyn/flexible/equilibrium.hpp"

namespace mechdyn::python {

namespace {

/// q0 given (nq numbers), else the model's initial configuration, else the neutral one —
/// the start of `mechdyn static` / `modes`.
VecX start_configuration(const Model& model, py::handle q0) {
  VecX q;
  if (!q0.is_none()) {
    q = owned_vector(q0, model.nq, "q0", "nq");
  } else {
    q = model.initial_configuration.size() == model.nq ? model.initial_configuration : model.neutral_configuration();
  }
  return q;
}

py::dict equilibrium_dict(const Model& model, const StaticResult& r) {
  py::dict d;
  d["q"] = copy_vector(r.q);
  d["multipliers"] = copy_vector(r.multipliers);
  d["held_efforts"] = copy_vector(r.held_efforts);
  MatX markers(static_cast<Eigen::Index>(r.markers.size()), 3);
  for (std::size_t m = 0; m < r.markers.size(); ++m) markers.row(static_cast<Eigen::Index>(m)) = r.markers[m].transpose();
  d["markers"] = copy_matrix(markers);
  std::vector<std::string> names;
  for (const Marker& marker : model.markers) names.push_back(marker.name);
  d["marker_names"] = names;
  d["iterations"] = r.iterations;
  return d;
}

}  // namespace

void bind_flexible(py::module_& m) {
  m.def("static_equilibrium", [](const Model& model, py::handle q0) {
    const VecX q = start_configuration(model, q0);
    StaticResult r = without_gil([&] {
      const FlexibleSystem system = make_flexible_system(model);
      FlexibleSystemData data(model, system);
      return static_equilibrium(model, system, data, q, actuated_velocities(model));
    });
    return equilibrium_dict(model, r);
  }, py::arg("model"), py::arg("q0") = py::none(),
     "Static equilibrium under gravity with the actuated joints held (`mechdyn static`): "
     "{'q' (nq: joints then elastic coordinates), 'multipliers' (cut-joint λ), 'held_efforts' (nv), "
     "'markers' (n × 3, world), 'marker_names', 'iterations'}; new arrays.");

  m.def("natural_frequencies", [](const Model& model, py::handle q0, const std::string& locked) {
    if (locked != "actuated" && locked != "none")
      throw InvalidArgument("locked '" + locked + "' must be actuated or none");
    const VecX q = start_configuration(model, q0);
    ModesResult r = without_gil([&] {
      const FlexibleSystem system = make_flexible_system(model);
      FlexibleSystemData data(model, system);
      return natural_frequencies(model, system, data, q, locked == "actuated");
    });
    py::dict d;
    d["frequencies"] = copy_vector(Eigen::Map<const VecX>(r.frequencies.data(), static_cast<Eigen::Index>(r.frequencies.size())));
    d["zero_modes"] = r.zero_modes;
    d["unstable_modes"] = r.unstable_modes;
    d["threshold"] = r.threshold;
    d["locked"] = r.locked;
    d["shapes"] = copy_matrix(r.shapes);
    d["equilibrium"] = equilibrium_dict(model, r.equilibrium);
    return d;
  }, py::arg("model"), py::arg("q0") = py::none(), py::arg("locked") = "actuated",
     "Natural frequencies of the constrained system linearised at its static equilibrium (`mechdyn modes`): "
     "{'frequencies' (Hz, ascending, zero modes left out), 'zero_modes', 'unstable_modes', 'threshold' (Hz), "
     "'locked' (joint names), 'shapes' (nv × modes, M-normalised), 'equilibrium' (as static_equilibrium)}. "
     "locked: 'actuated' (default) or 'none'.");
}

}  // namespace mechdyn::python
