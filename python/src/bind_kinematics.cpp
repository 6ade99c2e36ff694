// Python bindings: forward kinematics and Jacobians (kinematics/forward_kinematics.hpp,
// kinematics/jacobians.hpp). docs/python.md.
#include "common.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"

namespace mechdyn::python {

namespace {

void require_kinematics(const Data& data, const char* what) {
  if (data.kinematics_level < 0)
    throw InvalidArgument(std::string(what) + ": data holds no kinematics: call forward_kinematics(model, data, q) first");
}

}  // namespace

void bind_kinematics(py::module_& m) {
  m.def("forward_kinematics", [](const Model& model, PyData& pd, py::handle q, py::handle v, py::handle a) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq");
    if (v.is_none()) {
      if (!a.is_none()) throw InvalidArgument("forward_kinematics: a needs v");
      without_gil([&] { forward_kinematics(model, data, qv.map()); return 0; });
      return;
    }
    InputVector vv(v, model.nv, "v", "nv");
    if (a.is_none()) {
      without_gil([&] { forward_kinematics(model, data, qv.map(), vv.map()); return 0; });
      return;
    }
    InputVector av(a, model.nv, "a", "nv");
    without_gil([&] { forward_kinematics(model, data, qv.map(), vv.map(), av.map()); return 0; });
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(), py::arg("a") = py::none(),
     "Poses (and velocities, accelerations) of every body into data.rotation, position, com_position, "
     "motion_axis, velocity, acceleration (EC eqs. 1–10).");

  m.def("body_jacobian", [](const Model& model, PyData& pd, py::handle body) {
    Data& data = data_for(model, pd);
    require_kinematics(data, "body_jacobian");
    const int b = body_argument(model, body);
    MatX jacobian = MatX::Zero(6, model.nv);
    without_gil([&] { body_jacobian(model, data, b, jacobian); return 0; });
    return copy_matrix(jacobian);
  }, py::arg("model"), py::arg("data"), py::arg("body"),
     "6 × nv Jacobian of a body (rows: angular velocity, velocity of its frame origin; world) at the "
     "configuration of the last forward_kinematics. A new array.");

  m.def("point_jacobian", [](const Model& model, PyData& pd, py::handle body, py::handle point) {
    Data& data = data_for(model, pd);
    require_kinematics(data, "point_jacobian");
    const int b = body_argument(model, body);
    const Vec3 p = InputVector(point, 3, "point", "size").map();
    MatX jacobian = MatX::Zero(3, model.nv);
    without_gil([&] { point_jacobian(model, data, b, p, jacobian); return 0; });
    return copy_matrix(jacobian);
  }, py::arg("model"), py::arg("data"), py::arg("body"), py::arg("point"),
     "3 × nv Jacobian of a point fixed on a body (point from the body origin, body frame). A new array.");

  m.def("point_position", [](const Model& model, PyData& pd, py::handle body, py::handle point) {
    Data& data = data_for(model, pd);
    require_kinematics(data, "point_position");
    BodyPoint bp;
    bp.body = body_argument(model, body);
    bp.point = InputVector(point, 3, "point", "size").map();
    return copy_vec3(point_position(data, bp));
  }, py::arg("model"), py::arg("data"), py::arg("body"), py::arg("point"));

  m.def("marker_positions", [](const Model& model, PyData& pd) {
    Data& data = data_for(model, pd);
    require_kinematics(data, "marker_positions");
    std::vector<Vec3> positions;
    marker_positions(model, data, positions);
    py::array_t<double> out({static_cast<py::ssize_t>(positions.size()), py::ssize_t{3}});
    auto r = out.mutable_unchecked<2>();
    for (std::size_t i = 0; i < positions.size(); ++i)
      for (int k = 0; k < 3; ++k) r(static_cast<py::ssize_t>(i), k) = positions[i][k];
    return out;
  }, py::arg("model"), py::arg("data"), "world positions of the model's markers, (markers, 3)");
}

}  // namespace mechdyn::python
