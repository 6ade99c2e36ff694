// Python bindings: Model, Data and model files (YAML, URDF, SDFormat, MJCF in and out).
// docs/python.md; C++: model/model.hpp, model/data.hpp, io/model_file.hpp, io/robot_files.hpp.
#include <cmath>
#include <pybind11/stl.h>

#include "common.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/robot_files.hpp"

namespace mechdyn::python {

namespace {

// Reader warnings become Python warnings (category mechdyn.ModelWarning), one per line.
void emit_warnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  py::module_ mechdyn_module = py::module_::import("mechdyn._mechdyn");
  py::object category = mechdyn_module.attr("ModelWarning");
  py::object warn = py::module_::import("warnings").attr("warn");
  for (const auto& w : warnings) warn(w, category, 1);  // 1: the Python line that called the reader
}

ModelFormat format_named(const std::string& name) {
  auto format = model_format_from_name(name);
  if (!format) throw InvalidArgument("unknown model format '" + name + "' (yaml, urdf, sdf, mjcf)");
  return *format;
}

int body_named(const Model& model, const std::string& name) {
  auto index = model.body_index(name);
  if (!index) throw InvalidArgument("model '" + model.name + "' has no body '" + name + "'");
  return *index;
}

Vec3 vec3_from(py::handle object, const char* name) { return InputVector(object, 3, name, "size").map(); }

py::dict joint_dict(const Model& model, int i) {
  const Joint& j = model.joints[static_cast<std::size_t>(i)];
  py::dict d;
  d["name"] = j.name;
  d["type"] = std::string(joint_type_name(j.type));
  d["parent"] = model.bodies[static_cast<std::size_t>(i)].parent;
  d["axis"] = copy_vec3(j.axis);
  d["origin"] = copy_vec3(j.origin);
  d["actuated"] = j.actuated;
  d["q_index"] = j.q_index;
  d["v_index"] = j.v_index;
  d["nq"] = j.nq;
  d["nv"] = j.nv;
  d["friction"] = j.friction.has_value();
  d["armature"] = j.armature;  // reflected drive inertia on M's diagonal (format 3; Model.set_armature)
  d["quaternion_offset"] = joint_quaternion_offset(j);  // -1: none; else q[q_index + offset : +4] is a unit quaternion
  return d;
}

std::vector<std::string> coordinate_names(const Model& model, bool velocity) {
  std::vector<CoordinateName> configuration, velocities;
  for (const Joint& j : model.joints) joint_coordinate_names(j, configuration, velocities);
  std::vector<std::string> names;
  for (const auto& c : velocity ? velocities : configuration) names.push_back(c.name);
  return names;
}

}  // namespace

void bind_model(py::module_& m) {
  m.attr("ModelWarning") = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("mechdyn.ModelWarning",
                                "A reader warning: something in a model file was changed or ignored (named in the text).",
                                PyExc_UserWarning, nullptr));

  py::class_<Model, std::shared_ptr<Model>> model(m, "Model",
      "The constant description of a mechanism (C++ mechdyn::Model). Load with load_model / "
      "load_model_file / parse_model_string. Bodies and joints never change; masses, centres of mass, "
      "inertias and gravity can be set (checked) for parameter studies, and force elements, couplings and "
      "armature added, removed or changed (validated; a Data must be remade after a layout change: docs/python.md). Not thread-safe to modify while "
      "another thread computes with it.");
  model.def_property_readonly("name", [](const Model& x) { return x.name; })
      .def_property_readonly("nq", [](const Model& x) { return x.nq; }, "configuration size")
      .def_property_readonly("nv", [](const Model& x) { return x.nv; }, "velocity size (degrees of freedom of the tree)")
      .def_property_readonly("num_bodies", &Model::num_bodies)
      .def_property_readonly("num_loop_rows", [](const Model& x) { return x.num_loop_rows; })
      .def_property("gravity", [](const Model& x) { return copy_vec3(x.gravity); },
                    [](Model& x, py::handle g) {
                      const Vec3 value = vec3_from(g, "gravity");
                      if (!value.allFinite()) throw InvalidArgument("gravity must be finite");
                      x.gravity = value;
                    }, "g (m/s²), world frame (a copy; assign a new 3-vector to change it)")
      .def_property_readonly("body_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const auto& b : x.bodies) n.push_back(b.name);
        return n;
      })
      .def_property_readonly("joint_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const auto& j : x.joints) n.push_back(j.name);
        return n;
      })
      .def_property_readonly("loop_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const auto& l : x.loops) n.push_back(l.name);
        return n;
      })
      .def_property_readonly("marker_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const auto& k : x.markers) n.push_back(k.name);
        return n;
      })
      .def_property_readonly("configuration_names", [](const Model& x) { return coordinate_names(x, false); },
                             "name of each of the nq coordinates")
      .def_property_readonly("velocity_names", [](const Model& x) { return coordinate_names(x, true); },
                             "name of each of the nv velocity coordinates")
      .def_property_readonly("parents", [](const Model& x) {
        std::vector<int> p;
        for (const auto& b : x.bodies) p.push_back(b.parent);
        return p;
      }, "parent body index of every body (-1: ground)")
      .def("body_index", [](const Model& x, const std::string& name) { return body_named(x, name); })
      .def("joint_index", [](const Model& x, const std::string& name) {
        auto i = x.joint_index(name);
        if (!i) throw InvalidArgument("model '" + x.name + "' has no joint '" + name + "'");
        return *i;
      })
      .def("joint", [](const Model& x, const std::string& name) {
        auto i = x.joint_index(name);
        if (!i) throw InvalidArgument("model '" + x.name + "' has no joint '" + name + "'");
        return joint_dict(x, *i);
      }, "a dict describing the joint (name, type, parent, axis, origin, actuated, indices)")
      .def("neutral_configuration", [](const Model& x) { return copy_vector(x.neutral_configuration()); })
      .def("initial_configuration", [](const Model& x) {
        return copy_vector(x.initial_configuration.size() > 0 ? x.initial_configuration : x.neutral_configuration());
      }, "the model file's initial_configuration, else the neutral one")
      .def("body_mass", [](const Model& x, const std::string& b) { return x.bodies[body_named(x, b)].mass; })
      .def("body_com", [](const Model& x, const std::string& b) { return copy_vec3(x.bodies[body_named(x, b)].com); })
      .def("body_inertia", [](const Model& x, const std::string& b) {
        return copy_matrix(x.bodies[body_named(x, b)].inertia);
      }, "inertia about the centre of mass, body (natural) frame")
      .def("set_body_mass", [](Model& x, const std::string& b, double mass) {
        if (!(std::isfinite(mass) && mass >= 0.0))
          throw ModelError("body '" + b + "': mass must be finite and ≥ 0");
        x.bodies[body_named(x, b)].mass = mass;
      })
      .def("set_body_com", [](Model& x, const std::string& b, py::handle com) {
        const Vec3 value = vec3_from(com, "com");
        if (!value.allFinite()) throw ModelError("body '" + b + "': com must be finite");
        x.bodies[body_named(x, b)].com = value;
      })
      .def("set_body_inertia", [](Model& x, const std::string& b, py::handle inertia) {
        py::array_t<double, py::array::c_style | py::array::forcecast> a =
            py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(inertia);
        if (!a || a.ndim() != 2 || a.shape(0) != 3 || a.shape(1) != 3)
          throw InvalidArgument("inertia must be a 3x3 array of real numbers");
        Mat3 value;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) value(r, c) = a.at(r, c);
        check_inertia(value, x.name, "body '" + b + "'");
        x.bodies[body_named(x, b)].inertia = value;
      }, "checked: finite, symmetric, positive semi-definite, triangle inequality")
      .def("copy", [](const Model& x) { return std::make_shared<Model>(x); }, "an independent deep copy")
      .def("__copy__", [](const Model& x) { return std::make_shared<Model>(x); })
      .def("__deepcopy__", [](const Model& x, py::dict) { return std::make_shared<Model>(x); })
      .def("to_string", [](const Model& x, const std::string& format) {
        std::vector<std::string> warnings;
        std::string text;
        {
          py::gil_scoped_release release;
          text = write_model_string(x, format_named(format), &warnings);
        }
        emit_warnings(warnings);
        return text;
      }, py::arg("format") = "yaml", "the model as yaml, urdf (trees) or mjcf text")
      .def("save", [](const Model& x, const std::string& path) {
        std::vector<std::string> warnings;
        {
          py::gil_scoped_release release;
          save_model(x, path, &warnings);
        }
        emit_warnings(warnings);
      }, py::arg("path"), "writes the model; the format from the extension (.yaml, .urdf, .xml/.mjcf)")
      .def(py::pickle([](const Model& x) { return write_model_string(x, ModelFormat::Yaml); },
                      [](const std::string& text) {
                        return std::make_shared<Model>(parse_model_string(text, "<pickle>"));
                      }))
      .def("__repr__", [](const Model& x) {
        return "<mechdyn.Model '" + x.name + "': " + std::to_string(x.num_bodies()) + " bodies, nq=" +
               std::to_string(x.nq) + ", nv=" + std::to_string(x.nv) + ", " + std::to_string(x.loops.size()) +
               " loops>";
      });

  m.def("load_model", [](const std::string& path, bool merge_fixed_joints, bool floating_base, bool joint_dynamics,
                         py::handle limit_stops) {
    ImportOptions options;
    options.merge_fixed_joints = merge_fixed_joints;
    options.floating_base = floating_base;
    options.joint_dynamics = joint_dynamics;
    if (!limit_stops.is_none()) {  // K or (K, C), as `mechdyn convert --limit-stops K[,C]`
      std::vector<double> values;
      if (py::isinstance<py::float_>(limit_stops) || py::isinstance<py::int_>(limit_stops)) {
        values.push_back(limit_stops.cast<double>());
      } else {
        try {
          values = limit_stops.cast<std::vector<double>>();
        } catch (const py::cast_error&) {
          throw InvalidArgument("limit_stops must be a stiffness K or a pair (K, C)");
        }
      }
      if (values.empty() || values.size() > 2)
        throw InvalidArgument("limit_stops must be a stiffness K or a pair (K, C)");
      LimitStops stops;
      stops.stiffness = values[0];
      stops.damping = values.size() > 1 ? values[1] : 0.0;
      if (!(stops.stiffness > 0.0) || !std::isfinite(stops.stiffness))
        throw InvalidArgument("limit_stops: the stiffness K must be a finite number > 0");
      if (!(stops.damping >= 0.0) || !std::isfinite(stops.damping))
        throw InvalidArgument("limit_stops: the damping C must be a finite number >= 0");
      options.limit_stops = stops;
    }
    std::vector<std::string> warnings;
    std::shared_ptr<Model> model;
    {
      py::gil_scoped_release release;
      model = std::make_shared<Model>(load_model(path, options, &warnings));
    }
    emit_warnings(warnings);
    return model;
  }, py::arg("path"), py::arg("merge_fixed_joints") = false, py::arg("floating_base") = false,
     py::arg("joint_dynamics") = true, py::arg("limit_stops") = py::none(),
     "Loads a model file of any format: mechdyn YAML, URDF, SDFormat or MJCF (docs/robot-files.md). "
     "limit_stops: K or (K, C) adds a joint-stop element '<joint>_stop' at the position limits of every joint of "
     "one coordinate (stiffness K, damping C), as `mechdyn convert --limit-stops K[,C]`.");
  m.def("load_model_file", [](const std::string& path) {
    std::vector<std::string> warnings;
    std::shared_ptr<Model> model;
    {
      py::gil_scoped_release release;
      model = std::make_shared<Model>(load_model_file(path, &warnings));
    }
    emit_warnings(warnings);
    return model;
  }, py::arg("path"), "Loads a mechdyn YAML model file (../shared/spec/model-format.md).");
  m.def("parse_model_string", [](const std::string& text, const std::string& source) {
    std::vector<std::string> warnings;
    std::shared_ptr<Model> model;
    {
      py::gil_scoped_release release;
      model = std::make_shared<Model>(parse_model_string(text, source, &warnings));
    }
    emit_warnings(warnings);
    return model;
  }, py::arg("text"), py::arg("source") = "<string>", "Parses mechdyn YAML model text.");
  m.def("load_model_from_string", [](const std::string& text, const std::string& format, const std::string& source,
                                     bool merge_fixed_joints, bool floating_base, bool joint_dynamics) {
    ImportOptions options;
    options.merge_fixed_joints = merge_fixed_joints;
    options.floating_base = floating_base;
    options.joint_dynamics = joint_dynamics;
    const ModelFormat f = format_named(format);
    std::vector<std::string> warnings;
    std::shared_ptr<Model> model;
    {
      py::gil_scoped_release release;
      model = std::make_shared<Model>(load_model_from_string(text, f, source, options, &warnings));
    }
    emit_warnings(warnings);
    return model;
  }, py::arg("text"), py::arg("format"), py::arg("source") = "<string>", py::arg("merge_fixed_joints") = false,
     py::arg("floating_base") = false, py::arg("joint_dynamics") = true,
     "Parses model text of the given format: yaml, urdf, sdf or mjcf.");

  py::class_<PyData, std::shared_ptr<PyData>> data(m, "Data",
      "The preallocated workspace and results of one model (C++ mechdyn::Data). Attributes are numpy "
      "views of the C++ buffers (no copy): they stay valid while the Data lives and change at the "
      "next call that writes them. Copy (np.copy / .copy()) what you want to keep. One Data per thread.");
  data.def(py::init([](std::shared_ptr<Model> model) {
        if (!model) throw InvalidArgument("Data(model): model is None");
        return std::make_shared<PyData>(std::move(model));
      }), py::arg("model"))
      .def_property_readonly("model", [](const PyData& d) { return d.model; });
  // Views: each returns a new numpy array object on the same memory, owned by the Data.
#define MECHDYN_VIEW(name, kind, doc)                                                                \
  data.def_property_readonly(#name, [](py::object self) {                                          \
    return kind(self.cast<PyData&>().data.name, self);                                             \
  }, doc)
  MECHDYN_VIEW(mass_matrix, matrix_view, "M(q), nv × nv (crba, explicit_mass_matrix)");
  MECHDYN_VIEW(bias_force, vector_view, "h(q, v): Coriolis, centrifugal and gravity, nv");
  MECHDYN_VIEW(gravity_force, vector_view, "gravity part of h, nv");
  MECHDYN_VIEW(tau, vector_view, "joint efforts of the last inverse dynamics, nv");
  MECHDYN_VIEW(ddq, vector_view, "joint accelerations of the last forward dynamics, nv");
  MECHDYN_VIEW(rotation, mat3_list_view, "Q^i_l, body → world rotation per body, (n, 3, 3)");
  MECHDYN_VIEW(position, vec3_list_view, "body frame origins in the world, (n, 3)");
  MECHDYN_VIEW(com_position, vec3_list_view, "centres of mass in the world, (n, 3)");
  MECHDYN_VIEW(inertia_world, mat3_list_view, "inertias about the com, world frame, (n, 3, 3)");
  MECHDYN_VIEW(motion_axis, vec6_list_view, "world motion axis per velocity coordinate [n; o × n], (nv, 6)");
  MECHDYN_VIEW(velocity, vec6_list_view, "spatial velocity [ω; v_O] per body (world origin), (n, 6)");
  MECHDYN_VIEW(acceleration, vec6_list_view, "spatial acceleration per body (world origin), (n, 6)");
  MECHDYN_VIEW(reaction_force, vec3_list_view, "force of the parent on body u through joint u (world), (n, 3)");
  MECHDYN_VIEW(reaction_torque, vec3_list_view, "torque about body u's frame origin (world), (n, 3)");
  MECHDYN_VIEW(loop_residual, vector_view, "Φ(q), num_loop_rows");
  MECHDYN_VIEW(loop_jacobian, matrix_view, "J(q), num_loop_rows × nv");
  MECHDYN_VIEW(loop_bias, vector_view, "J̇ v, num_loop_rows");
  MECHDYN_VIEW(loop_multiplier, vector_view, "λ: M a + h = τ + Jᵀ λ, num_loop_rows");
  MECHDYN_VIEW(cut_force, vec3_list_view, "per loop: constraint force on body a at the cut point (world)");
  MECHDYN_VIEW(cut_torque, vec3_list_view, "per loop: constraint torque on body a about the cut point (world)");
  MECHDYN_VIEW(cut_point, vec3_list_view, "per loop: the cut point p_a in the world");
  MECHDYN_VIEW(external_wrench, vec6_list_view,
               "per body: external wrench ON the body [moment about the world origin; force]; an input (write it)");
  MECHDYN_VIEW(friction_effort, vector_view, "τ_f per velocity coordinate");
  MECHDYN_VIEW(tau_with_friction, vector_view, "τ_d = M a + h + τ_f (EC eq. 54)");
  MECHDYN_VIEW(friction_state, vector_view, "LuGre bristle deflections z per velocity coordinate; an input");
  MECHDYN_VIEW(friction_state_rate, vector_view, "ż of the LuGre bristles");
  MECHDYN_VIEW(constraint_torque, vector_view, "per body: τ_r (revolute) / τ_p (prismatic)");
  MECHDYN_VIEW(constraint_force, vector_view, "per body: f_r (revolute) / f_p (prismatic)");
  MECHDYN_VIEW(axial_load, vector_view, "per body: f_m (revolute) / τ_m (prismatic)");
  MECHDYN_VIEW(normal_load, vector_view, "per body: τ_n / f_n (0 without friction.load)");
  MECHDYN_VIEW(applied_force, vector_view, "Q_f: generalized force of the force elements (force_elements), nv");
  MECHDYN_VIEW(element_effort, vector_view, "the joint elements' efforts per velocity coordinate (part of Q_f), nv");
  MECHDYN_VIEW(element_value, vector_view,
               "per force element: tension (spring-damper, N), effort (joint elements), |F| (bushing, applied)");
  MECHDYN_VIEW(element_energy, vector_view, "per force element: potential energy (J)");
  MECHDYN_VIEW(element_length, vector_view, "per force element: |p_b − p_a| (spring-damper, bushing), else 0");
  MECHDYN_VIEW(element_wrench_a, vec6_list_view,
               "per force element: wrench on body a [moment about the world origin; force], world, (ne, 6)");
  MECHDYN_VIEW(element_wrench_b, vec6_list_view, "per force element: wrench on body b, world origin, (ne, 6)");
  MECHDYN_VIEW(element_point_a, vec3_list_view, "per force element: point a in the world, (ne, 3)");
  MECHDYN_VIEW(element_point_b, vec3_list_view, "per force element: point b in the world, (ne, 3)");
#undef MECHDYN_VIEW
  data.def_property_readonly("kinematics_level", [](const PyData& d) { return d.data.kinematics_level; },
                             "-1 nothing, 0 poses, 1 and velocities, 2 and accelerations");
}

}  // namespace mechdyn::python
