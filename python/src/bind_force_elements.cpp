// Python bindings: force elements, couplings and armature (model format 3,
// ../shared/spec/force-elements.md; C++: model/force_elements.hpp,
// dynamics/force_elements.hpp). docs/python.md, "Force elements".
//
// Reading and changing them: Model.forces / Model.couplings are lists of views (a view
// holds the Model and the element's name, and reads the Model at every access); every
// change (Model.add_*, remove_*, set_force_parameter, set_coupling_parameter,
// set_armature, or assigning a view's attribute) is made on a copy of the Model, which
// finalize_model validates (and whose servo and applied-load expressions are parsed), and
// only then replaces the Model in place: a refused change raises the library's error
// (ModelError, InvalidArgument) and leaves the Model as it was. A Data made before a change
// of the layout (an element or coupling added or removed, a time function rewritten) is
// refused by every function (common.hpp, data_for); numeric parameters change in place
// and a Data stays valid.
//
// Evaluating them: force_elements (Q_f into data.applied_force), the per-element
// generalized force, potential energy and derivatives, and applied_forces /
// force_element_report (own Data; the numbers of `mechdyn eval --json`'s applied_forces and
// force_elements).
#include <cstdio>
#include <functional>

#include "common.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/math/time_expressions.hpp"

namespace mechdyn::python {

namespace {

void combine(std::size_t& seed, std::size_t value) { seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2); }

}  // namespace

std::size_t data_layout_signature(const Model& model) {
  std::size_t seed = 0;
  for (std::size_t x : {static_cast<std::size_t>(model.num_bodies()), static_cast<std::size_t>(model.nq),
                        static_cast<std::size_t>(model.nv), static_cast<std::size_t>(model.num_loop_rows),
                        model.loops.size(), model.forces.size(), model.couplings.size()})
    combine(seed, x);
  for (const Joint& j : model.joints) combine(seed, j.actuated ? 1u : 2u);  // Data's actuated/passive coordinates
  const std::hash<std::string> text;
  for (const ForceElement& e : model.forces) {
    combine(seed, static_cast<std::size_t>(e.type));
    if (e.type == ForceElementType::JointServo) {
      combine(seed, text(e.target));
      combine(seed, text(e.target_rate));
    } else if (e.type == ForceElementType::Applied) {
      for (const std::string& x : e.force) combine(seed, text(x));
      for (const std::string& x : e.torque) combine(seed, text(x));
    }
  }
  return seed;
}

namespace {

using ModelPtr = std::shared_ptr<Model>;

// ---- names and conversions ---------------------------------------------------------

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

int force_index(const Model& model, const std::string& name) {
  for (std::size_t e = 0; e < model.forces.size(); ++e)
    if (model.forces[e].name == name) return static_cast<int>(e);
  throw InvalidArgument("model '" + model.name + "' has no force element '" + name + "'");
}

int coupling_index(const Model& model, const std::string& name) {
  for (std::size_t c = 0; c < model.couplings.size(); ++c)
    if (model.couplings[c].name == name) return static_cast<int>(c);
  throw InvalidArgument("model '" + model.name + "' has no coupling '" + name + "'");
}

// An element given by name (str) or index (int).
int element_argument(const Model& model, py::handle element) {
  if (py::isinstance<py::str>(element)) return force_index(model, element.cast<std::string>());
  if (py::isinstance<py::int_>(element) && !py::isinstance<py::bool_>(element)) {
    const long long k = element.cast<long long>();
    if (k < 0 || k >= static_cast<long long>(model.forces.size()))
      throw InvalidArgument("force element index " + std::to_string(k) + " is outside 0.." +
                            std::to_string(static_cast<long long>(model.forces.size()) - 1));
    return static_cast<int>(k);
  }
  throw InvalidArgument("a force element is given by its name (str) or index (int)");
}

// A joint by name (str) or index (int).
int joint_argument(const Model& model, py::handle joint) {
  if (py::isinstance<py::str>(joint)) {
    const std::string name = joint.cast<std::string>();
    auto index = model.joint_index(name);
    if (!index) throw InvalidArgument("model '" + model.name + "' has no joint '" + name + "'");
    return *index;
  }
  if (py::isinstance<py::int_>(joint) && !py::isinstance<py::bool_>(joint)) {
    const long long k = joint.cast<long long>();
    if (k < 0 || k >= static_cast<long long>(model.joints.size()))
      throw InvalidArgument("joint index " + std::to_string(k) + " is outside 0.." +
                            std::to_string(static_cast<long long>(model.joints.size()) - 1));
    return static_cast<int>(k);
  }
  throw InvalidArgument("a joint is given by its name (str) or index (int)");
}

// A body by name, index, "ground" or None (ground).
int body_or_ground(const Model& model, py::handle body) {
  if (body.is_none()) return kGround;
  if (py::isinstance<py::str>(body) && body.cast<std::string>() == "ground") return kGround;
  return body_argument(model, body);
}

py::object body_name(const Model& model, int body) {
  return py::str(body == kGround ? std::string("ground") : model.bodies[static_cast<std::size_t>(body)].name);
}

double real(py::handle x, const std::string& what) {
  if (x.is_none() || py::isinstance<py::str>(x) || py::isinstance<py::bool_>(x))
    throw InvalidArgument(what + " must be a real number");
  try {
    return py::float_(py::reinterpret_borrow<py::object>(x)).cast<double>();
  } catch (py::error_already_set&) {
    throw InvalidArgument(what + " must be a real number");
  }
}

// A bound: a number, or None for no bound (±∞).
double bound(py::handle x, double none, const std::string& what) { return x.is_none() ? none : real(x, what); }

// A time function: an expression of t (str) or a number (written with all its digits).
std::string expression(py::handle x, const std::string& what) {
  if (py::isinstance<py::str>(x)) return x.cast<std::string>();
  return number_text(real(x, what + " (an expression of t or a number)"));
}

std::array<std::string, 3> expressions3(py::handle x, const std::string& what) {
  std::array<std::string, 3> out{"0", "0", "0"};
  if (x.is_none()) return out;
  if (py::isinstance<py::str>(x) || !py::isinstance<py::sequence>(x) || py::len(x) != 3)
    throw InvalidArgument(what + " must be 3 components (expressions of t or numbers)");
  auto list = py::reinterpret_borrow<py::sequence>(x);
  for (std::size_t k = 0; k < 3; ++k) out[k] = expression(list[k], what + "[" + std::to_string(k) + "]");
  return out;
}

Vec6 six(py::handle x, const std::string& what) {
  return InputVector(x, 6, what.c_str(), "6 (translation then rotation)").map();
}

Vec3 point_of(py::handle x, const std::string& what) { return InputVector(x, 3, what.c_str(), "3").map(); }

// (body, point) pair: a tuple or list of two.
BodyPoint body_point(const Model& model, py::handle x, const std::string& what) {
  if (py::isinstance<py::str>(x) || !py::isinstance<py::sequence>(x) || py::len(x) != 2)
    throw InvalidArgument(what + " must be (body, point): a body name, index or 'ground', and 3 numbers");
  auto pair = py::reinterpret_borrow<py::sequence>(x);
  return {body_or_ground(model, pair[0]), point_of(pair[1], what + " point")};
}

py::array_t<double> copy6(const Vec6& x) { return copy_vector(x); }

// ---- validated changes -------------------------------------------------------------

// Every servo target and applied-load expression parses (the reader's check,
// io/model_file.cpp; a Data would otherwise refuse them only when it is made).
void check_time_functions(const Model& model, const std::string& source) {
  for (const ForceElement& e : model.forces) {
    std::vector<std::pair<std::string, std::string>> texts;
    if (e.type == ForceElementType::JointServo) {
      texts.emplace_back("target", e.target);
      if (!e.target_rate.empty()) texts.emplace_back("target_rate", e.target_rate);
    } else if (e.type == ForceElementType::Applied) {
      for (int k = 0; k < 3; ++k) texts.emplace_back("force[" + std::to_string(k) + "]", e.force[static_cast<std::size_t>(k)]);
      for (int k = 0; k < 3; ++k) texts.emplace_back("torque[" + std::to_string(k) + "]", e.torque[static_cast<std::size_t>(k)]);
    }
    for (const auto& [key, text] : texts) {
      try {
        TimeExpressions parsed({text}, key);
      } catch (const InvalidArgument& error) {
        throw ModelError(source + ": force '" + e.name + "': " + key + " '" + text + "' is not an expression of t (" +
                         error.what() + ")");
      }
    }
  }
}

// Makes `change` on a copy, validates the copy as a loaded model is validated, and only
// then replaces the model (same object: its Python references and Data see the change).
template <class Change>
void change_model(Model& model, Change&& change) {
  Model candidate = model;
  change(candidate);
  const std::string source = "model '" + model.name + "'";
  finalize_model(candidate, source);
  check_time_functions(candidate, source);
  model = std::move(candidate);
}

// The keys of each element type (its parameters; name and type are not parameters).
const std::vector<std::string>& keys_of(ForceElementType type) {
  static const std::vector<std::string> spring{"a", "b", "stiffness", "free_length", "damping", "preload"};
  static const std::vector<std::string> bushing{"a", "b", "stiffness", "damping"};
  static const std::vector<std::string> joint_spring{"joint", "stiffness", "damping", "rest"};
  static const std::vector<std::string> stop{"joint", "lower", "upper", "stiffness", "damping"};
  static const std::vector<std::string> servo{"joint", "target", "target_rate", "stiffness", "damping", "max_effort"};
  static const std::vector<std::string> applied{"body", "point", "force", "torque"};
  switch (type) {
    case ForceElementType::SpringDamper: return spring;
    case ForceElementType::Bushing: return bushing;
    case ForceElementType::JointSpringDamper: return joint_spring;
    case ForceElementType::JointStop: return stop;
    case ForceElementType::JointServo: return servo;
    case ForceElementType::Applied: return applied;
  }
  return spring;
}

const std::vector<std::string>& all_keys() {
  static const std::vector<std::string> keys{"a",      "b",         "joint",       "body",       "point",
                                             "stiffness", "damping", "free_length", "preload",   "rest",
                                             "lower",  "upper",     "max_effort",  "target",     "target_rate",
                                             "force",  "torque"};
  return keys;
}

[[noreturn]] void no_such_key(const Model& model, const ForceElement& e, const std::string& key) {
  std::string keys;
  for (const std::string& k : keys_of(e.type)) keys += (keys.empty() ? "" : ", ") + k;
  throw InvalidArgument("model '" + model.name + "': force '" + e.name + "' (" + force_element_type_name(e.type) +
                        ") has no parameter '" + key + "' (its parameters: " + keys + ")");
}

bool has_key(ForceElementType type, const std::string& key) {
  for (const std::string& k : keys_of(type))
    if (k == key) return true;
  return false;
}

py::object get_parameter(const Model& model, const ForceElement& e, const std::string& key) {
  if (!has_key(e.type, key)) no_such_key(model, e, key);
  const bool six_numbers = e.type == ForceElementType::Bushing;
  if (key == "a" || key == "b") {
    const BodyPoint& at = key == "a" ? e.a : e.b;
    return py::make_tuple(body_name(model, at.body), copy_vec3(at.point));
  }
  if (key == "body") return body_name(model, e.a.body);
  if (key == "point") return copy_vec3(e.a.point);
  if (key == "joint") return py::str(model.joints[static_cast<std::size_t>(e.joint)].name);
  if (key == "stiffness") return six_numbers ? py::object(copy6(e.stiffness6)) : py::object(py::float_(e.stiffness));
  if (key == "damping") return six_numbers ? py::object(copy6(e.damping6)) : py::object(py::float_(e.damping));
  if (key == "free_length") return py::float_(e.free_length);
  if (key == "preload") return py::float_(e.preload);
  if (key == "rest") return py::float_(e.rest);
  if (key == "lower") return e.lower == -kUnbounded ? py::object(py::none()) : py::object(py::float_(e.lower));
  if (key == "upper") return e.upper == kUnbounded ? py::object(py::none()) : py::object(py::float_(e.upper));
  if (key == "max_effort") return e.max_effort == kUnbounded ? py::object(py::none()) : py::object(py::float_(e.max_effort));
  if (key == "target") return py::str(e.target);
  if (key == "target_rate") return e.target_rate.empty() ? py::object(py::none()) : py::object(py::str(e.target_rate));
  if (key == "force" || key == "torque") {
    const auto& x = key == "force" ? e.force : e.torque;
    return py::make_tuple(x[0], x[1], x[2]);
  }
  no_such_key(model, e, key);
}

// Writes one parameter into `e` (a copy's element; validated by change_model).
void put_parameter(const Model& model, ForceElement& e, const std::string& key, py::handle value) {
  if (!has_key(e.type, key)) no_such_key(model, e, key);
  const std::string what = "force '" + e.name + "' " + key;
  const bool six_numbers = e.type == ForceElementType::Bushing;
  if (key == "a") e.a = body_point(model, value, what);
  else if (key == "b") e.b = body_point(model, value, what);
  else if (key == "body") e.a.body = body_or_ground(model, value);
  else if (key == "point") e.a.point = point_of(value, what);
  else if (key == "joint") e.joint = joint_argument(model, value);
  else if (key == "stiffness" && six_numbers) e.stiffness6 = six(value, what);
  else if (key == "damping" && six_numbers) e.damping6 = six(value, what);
  else if (key == "stiffness") e.stiffness = real(value, what);
  else if (key == "damping") e.damping = real(value, what);
  else if (key == "free_length") e.free_length = real(value, what);
  else if (key == "preload") e.preload = real(value, what);
  else if (key == "rest") e.rest = real(value, what);
  else if (key == "lower") e.lower = bound(value, -kUnbounded, what);
  else if (key == "upper") e.upper = bound(value, kUnbounded, what);
  else if (key == "max_effort") e.max_effort = bound(value, kUnbounded, what);
  else if (key == "target") e.target = expression(value, what);
  else if (key == "target_rate") e.target_rate = value.is_none() ? std::string() : expression(value, what);
  else if (key == "force") e.force = expressions3(value, what);
  else if (key == "torque") e.torque = expressions3(value, what);
  else no_such_key(model, e, key);
}

py::dict parameters_of(const Model& model, const ForceElement& e) {
  py::dict d;
  for (const std::string& key : keys_of(e.type)) d[py::str(key)] = get_parameter(model, e, key);
  return d;
}

// ---- views -------------------------------------------------------------------------

// A force element of a model, by name (valid while the model has an element of that name).
struct ForceElementView {
  ModelPtr model;
  std::string name;
  const ForceElement& element() const { return model->forces[static_cast<std::size_t>(force_index(*model, name))]; }
};

struct CouplingView {
  ModelPtr model;
  std::string name;
  const Coupling& coupling() const { return model->couplings[static_cast<std::size_t>(coupling_index(*model, name))]; }
};

void set_force_parameter(Model& model, const std::string& name, const std::string& key, py::handle value) {
  const int k = force_index(model, name);
  change_model(model, [&](Model& m) { put_parameter(model, m.forces[static_cast<std::size_t>(k)], key, value); });
}

py::object get_coupling_parameter(const Model& model, const Coupling& c, const std::string& key) {
  if (key == "a") return py::str(model.joints[static_cast<std::size_t>(c.a)].name);
  if (key == "b") return py::str(model.joints[static_cast<std::size_t>(c.b)].name);
  if (key == "ratio") return py::float_(c.ratio);
  if (key == "offset") return py::float_(c.offset);
  throw InvalidArgument("model '" + model.name + "': coupling '" + c.name + "' (" + coupling_type_name(c.type) +
                        ") has no parameter '" + key + "' (its parameters: a, b, ratio, offset)");
}

void set_coupling_parameter(Model& model, const std::string& name, const std::string& key, py::handle value) {
  const int k = coupling_index(model, name);
  get_coupling_parameter(model, model.couplings[static_cast<std::size_t>(k)], key);  // the key exists
  change_model(model, [&](Model& m) {
    Coupling& c = m.couplings[static_cast<std::size_t>(k)];
    const std::string what = "coupling '" + name + "' " + key;
    if (key == "a") c.a = joint_argument(model, value);
    else if (key == "b") c.b = joint_argument(model, value);
    else if (key == "ratio") c.ratio = real(value, what);
    else c.offset = real(value, what);
  });
}

py::dict element_dict(const Model& model, const ForceElement& e) {
  py::dict d;
  d["name"] = e.name;
  d["type"] = std::string(force_element_type_name(e.type));
  for (auto item : parameters_of(model, e)) d[item.first] = item.second;
  return d;
}

ForceElementView add_element(const ModelPtr& model, ForceElement e) {
  change_model(*model, [&](Model& m) { m.forces.push_back(e); });
  return {model, e.name};
}

// ---- evaluation --------------------------------------------------------------------

// force_elements at (q, v, t) on `data`, with the inputs checked (sizes, finite).
void evaluate(const Model& model, Data& data, py::handle q, py::handle v, double t) {
  InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
  if (!std::isfinite(t)) throw InvalidArgument("t must be finite, got " + number_text(t));
  without_gil([&] { force_elements(model, data, qv.map(), vv.map(), t); return 0; });
}

py::dict report(const Model& model, Data& data) {
  py::list elements;
  VecX generalized = VecX::Zero(model.nv);
  for (std::size_t e = 0; e < model.forces.size(); ++e) {
    const ForceElement& element = model.forces[e];
    const auto k = static_cast<Eigen::Index>(e);
    force_element_generalized_force(model, data, static_cast<int>(e), generalized);
    py::dict d;
    d["name"] = element.name;
    d["type"] = std::string(force_element_type_name(element.type));
    d["generalized_force"] = copy_vector(generalized);
    d["potential_energy"] = data.element_energy[k];
    d["value"] = data.element_value[k];
    if (element.type == ForceElementType::SpringDamper) {
      d["tension"] = data.element_value[k];
      d["length"] = data.element_length[k];
    }
    elements.append(d);
  }
  py::dict out;
  out["applied_forces"] = copy_vector(data.applied_force);
  out["force_elements"] = elements;
  out["potential_energy"] = force_element_potential_energy(data);
  return out;
}

}  // namespace

void bind_force_elements(py::module_& m) {
  // ---- views ----
  py::class_<ForceElementView> view(m, "ForceElement",
      "A force element of a Model (format 3, docs/force-elements.md), a live view by name: its attributes read the "
      "Model, and assigning one (element.stiffness = 3000) is Model.set_force_parameter (validated; the Model is "
      "unchanged when refused). Attributes not of the element's type raise AttributeError.");
  view.def_property_readonly("name", [](const ForceElementView& x) { x.element(); return x.name; })
      .def_property_readonly("type", [](const ForceElementView& x) {
        return std::string(force_element_type_name(x.element().type));
      }, "spring-damper, bushing, joint-spring-damper, joint-stop, joint-servo or applied")
      .def_property_readonly("index", [](const ForceElementView& x) { return force_index(*x.model, x.name); },
                             "its position in Model.forces (and in data.element_value, ...)")
      .def_property_readonly("keys", [](const ForceElementView& x) { return keys_of(x.element().type); },
                             "the parameters of its type")
      .def_property_readonly("parameters", [](const ForceElementView& x) { return parameters_of(*x.model, x.element()); },
                             "a dict of the parameters of its type (copies)")
      .def("to_dict", [](const ForceElementView& x) { return element_dict(*x.model, x.element()); },
           "name, type and the parameters (as Model.forces' entries read)")
      .def_property_readonly("model", [](const ForceElementView& x) { return x.model; })
      .def("__repr__", [](const ForceElementView& x) {
        const ForceElement& e = x.element();
        return "<mechdyn.ForceElement '" + e.name + "': " + force_element_type_name(e.type) + ">";
      });
  for (const std::string& key : all_keys()) {
    view.def_property(key.c_str(),
        [key](const ForceElementView& x) -> py::object {
          const ForceElement& e = x.element();
          if (!has_key(e.type, key))
            throw py::attribute_error("force '" + e.name + "' (" + force_element_type_name(e.type) +
                                      ") has no parameter '" + key + "'");
          return get_parameter(*x.model, e, key);
        },
        [key](const ForceElementView& x, py::handle value) {
          const ForceElement& e = x.element();
          if (!has_key(e.type, key))
            throw py::attribute_error("force '" + e.name + "' (" + force_element_type_name(e.type) +
                                      ") has no parameter '" + key + "'");
          set_force_parameter(*x.model, x.name, key, value);
        });
  }

  py::class_<CouplingView>(m, "Coupling",
      "A coupling of a Model (gear: q_b = ratio q_a + offset, a constraint row), a live view by name; assigning "
      "ratio, offset, a or b is Model.set_coupling_parameter.")
      .def_property_readonly("name", [](const CouplingView& x) { x.coupling(); return x.name; })
      .def_property_readonly("type", [](const CouplingView& x) { return std::string(coupling_type_name(x.coupling().type)); })
      .def_property_readonly("index", [](const CouplingView& x) { return coupling_index(*x.model, x.name); })
      .def_property_readonly("row", [](const CouplingView& x) {
        return x.model->coupling_row_index + coupling_index(*x.model, x.name);
      }, "its closure row (data.loop_multiplier[row] is its effort λ after a constrained computation)")
      .def_property("a", [](const CouplingView& x) { return get_coupling_parameter(*x.model, x.coupling(), "a"); },
                    [](const CouplingView& x, py::handle v) { set_coupling_parameter(*x.model, x.name, "a", v); })
      .def_property("b", [](const CouplingView& x) { return get_coupling_parameter(*x.model, x.coupling(), "b"); },
                    [](const CouplingView& x, py::handle v) { set_coupling_parameter(*x.model, x.name, "b", v); })
      .def_property("ratio", [](const CouplingView& x) { return get_coupling_parameter(*x.model, x.coupling(), "ratio"); },
                    [](const CouplingView& x, py::handle v) { set_coupling_parameter(*x.model, x.name, "ratio", v); })
      .def_property("offset", [](const CouplingView& x) { return get_coupling_parameter(*x.model, x.coupling(), "offset"); },
                    [](const CouplingView& x, py::handle v) { set_coupling_parameter(*x.model, x.name, "offset", v); })
      .def("to_dict", [](const CouplingView& x) {
        const Coupling& c = x.coupling();
        py::dict d;
        d["name"] = c.name;
        d["type"] = std::string(coupling_type_name(c.type));
        for (const char* key : {"a", "b", "ratio", "offset"}) d[key] = get_coupling_parameter(*x.model, c, key);
        return d;
      })
      .def("__repr__", [](const CouplingView& x) {
        const Coupling& c = x.coupling();
        return "<mechdyn.Coupling '" + c.name + "': " + coupling_type_name(c.type) + " " +
               x.model->joints[static_cast<std::size_t>(c.a)].name + " -> " +
               x.model->joints[static_cast<std::size_t>(c.b)].name + ">";
      });

  // ---- Model: read ----
  auto model = py::reinterpret_borrow<py::class_<Model, ModelPtr>>(m.attr("Model"));
  model.def_property_readonly("forces", [](const ModelPtr& x) {
        std::vector<ForceElementView> out;
        for (const ForceElement& e : x->forces) out.push_back({x, e.name});
        return out;
      }, "the force elements (format 3), a list of live ForceElement views in model order")
      .def_property_readonly("couplings", [](const ModelPtr& x) {
        std::vector<CouplingView> out;
        for (const Coupling& c : x->couplings) out.push_back({x, c.name});
        return out;
      }, "the couplings (format 3), a list of live Coupling views")
      .def_property_readonly("force_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const ForceElement& e : x.forces) n.push_back(e.name);
        return n;
      })
      .def_property_readonly("coupling_names", [](const Model& x) {
        std::vector<std::string> n;
        for (const Coupling& c : x.couplings) n.push_back(c.name);
        return n;
      })
      .def_property_readonly("coupling_row_index", [](const Model& x) { return x.coupling_row_index; },
                             "the first coupling row of the closure (after the loops' rows)")
      .def_property_readonly("armature", [](const Model& x) { return copy_vector(x.armature); },
                             "per velocity coordinate: its joint's armature (0 elsewhere), nv (a copy)")
      .def_property_readonly("format_version", &Model::format_version,
                             "the model-file version a writer states: 3 with force elements, couplings or armature")
      .def("force", [](const ModelPtr& x, const std::string& name) {
        force_index(*x, name);
        return ForceElementView{x, name};
      }, py::arg("name"), "the force element of that name (a live view)")
      .def("coupling", [](const ModelPtr& x, const std::string& name) {
        coupling_index(*x, name);
        return CouplingView{x, name};
      }, py::arg("name"), "the coupling of that name (a live view)");

  // ---- Model: change ----
  model.def("set_force_parameter", [](Model& x, const std::string& name, const std::string& key, py::handle value) {
        set_force_parameter(x, name, key, value);
      }, py::arg("name"), py::arg("key"), py::arg("value"),
      "Changes one parameter of a force element (a key of its type: stiffness, damping, free_length, preload, rest, "
      "lower, upper, max_effort, target, target_rate, force, torque, a, b, body, point, joint), validated as a model "
      "file is (ModelError, InvalidArgument; the Model unchanged then). A new time function (target, target_rate, "
      "force, torque) needs a new Data.")
      .def("set_coupling_parameter", [](Model& x, const std::string& name, const std::string& key, py::handle value) {
        set_coupling_parameter(x, name, key, value);
      }, py::arg("name"), py::arg("key"), py::arg("value"), "Changes a, b, ratio or offset of a coupling (validated).")
      .def("set_armature", [](Model& x, py::handle joint, double value) {
        const int j = joint_argument(x, joint);
        change_model(x, [&](Model& c) { c.joints[static_cast<std::size_t>(j)].armature = value; });
      }, py::arg("joint"), py::arg("armature"),
      "Sets a joint's armature (reflected drive inertia, kg m² or kg, ≥ 0, one-coordinate joints): added to M's "
      "diagonal. A Data made before stays valid.")
      .def("set_actuated", [](Model& x, py::handle joint, bool actuated) {
        const int j = joint_argument(x, joint);
        change_model(x, [&](Model& c) { c.joints[static_cast<std::size_t>(j)].actuated = actuated; });
      }, py::arg("joint"), py::arg("actuated"),
      "Marks a joint actuated or passive (the model file's `actuated: false`): a model with loops or couplings "
      "needs a passive joint per constraint row. A Data made before must be remade.")
      .def("remove_force", [](Model& x, const std::string& name) {
        const int k = force_index(x, name);
        change_model(x, [&](Model& c) { c.forces.erase(c.forces.begin() + k); });
      }, py::arg("name"), "Removes a force element (a Data made before must be remade).")
      .def("remove_coupling", [](Model& x, const std::string& name) {
        const int k = coupling_index(x, name);
        change_model(x, [&](Model& c) { c.couplings.erase(c.couplings.begin() + k); });
      }, py::arg("name"), "Removes a coupling (a Data made before must be remade).")
      .def("add_spring_damper", [](const ModelPtr& x, const std::string& name, py::handle a_body, py::handle a_point,
                                   py::handle b_body, py::handle b_point, double stiffness, double free_length,
                                   double damping, double preload) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::SpringDamper;
        e.a = {body_or_ground(*x, a_body), point_of(a_point, "a_point")};
        e.b = {body_or_ground(*x, b_body), point_of(b_point, "b_point")};
        e.stiffness = stiffness;
        e.free_length = free_length;
        e.damping = damping;
        e.preload = preload;
        return add_element(x, e);
      }, py::arg("name"), py::arg("a_body"), py::arg("a_point"), py::arg("b_body"), py::arg("b_point"),
      py::arg("stiffness"), py::arg("free_length"), py::arg("damping") = 0.0, py::arg("preload") = 0.0,
      "Adds a spring-damper between two body points (body: name, index, 'ground' or None; points body-fixed, from "
      "the body's frame origin in world directions at q = 0): T = k (L − L0) + c L̇ + T0. Returns its view.")
      .def("add_bushing", [](const ModelPtr& x, const std::string& name, py::handle a_body, py::handle a_point,
                             py::handle b_body, py::handle b_point, py::handle stiffness, py::handle damping) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::Bushing;
        e.a = {body_or_ground(*x, a_body), point_of(a_point, "a_point")};
        e.b = {body_or_ground(*x, b_body), point_of(b_point, "b_point")};
        e.stiffness6 = six(stiffness, "stiffness");
        if (!damping.is_none()) e.damping6 = six(damping, "damping");
        return add_element(x, e);
      }, py::arg("name"), py::arg("a_body"), py::arg("a_point"), py::arg("b_body"), py::arg("b_point"),
      py::arg("stiffness"), py::arg("damping") = py::none(),
      "Adds a linear 6-DoF bushing: stiffness and damping 6 numbers each (along, then about a's frame axes).")
      .def("add_joint_spring_damper", [](const ModelPtr& x, const std::string& name, py::handle joint, double stiffness,
                                         double damping, double rest) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::JointSpringDamper;
        e.joint = joint_argument(*x, joint);
        e.stiffness = stiffness;
        e.damping = damping;
        e.rest = rest;
        return add_element(x, e);
      }, py::arg("name"), py::arg("joint"), py::arg("stiffness"), py::arg("damping") = 0.0, py::arg("rest") = 0.0,
      "Adds a spring-damper on a one-coordinate joint: effort −k (q − rest) − c v.")
      .def("add_joint_stop", [](const ModelPtr& x, const std::string& name, py::handle joint, double stiffness,
                                py::handle lower, py::handle upper, double damping) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::JointStop;
        e.joint = joint_argument(*x, joint);
        e.stiffness = stiffness;
        e.lower = bound(lower, -kUnbounded, "lower");
        e.upper = bound(upper, kUnbounded, "upper");
        e.damping = damping;
        return add_element(x, e);
      }, py::arg("name"), py::arg("joint"), py::arg("stiffness"), py::arg("lower") = py::none(),
      py::arg("upper") = py::none(), py::arg("damping") = 0.0,
      "Adds end stops on a one-coordinate joint (at least one of lower, upper; None: no stop on that side).")
      .def("add_joint_servo", [](const ModelPtr& x, const std::string& name, py::handle joint, py::handle target,
                                 double stiffness, double damping, py::handle target_rate, py::handle max_effort) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::JointServo;
        e.joint = joint_argument(*x, joint);
        e.target = expression(target, "target");
        e.target_rate = target_rate.is_none() ? std::string() : expression(target_rate, "target_rate");
        e.stiffness = stiffness;
        e.damping = damping;
        e.max_effort = bound(max_effort, kUnbounded, "max_effort");
        return add_element(x, e);
      }, py::arg("name"), py::arg("joint"), py::arg("target"), py::arg("stiffness"), py::arg("damping") = 0.0,
      py::arg("target_rate") = py::none(), py::arg("max_effort") = py::none(),
      "Adds a position servo: kp (target(t) − q) + kd (target_rate(t) − v), clamped to ±max_effort; target and "
      "target_rate muParser expressions of t (or numbers); without target_rate its central difference.")
      .def("add_applied", [](const ModelPtr& x, const std::string& name, py::handle body, py::handle point,
                             py::handle force, py::handle torque) {
        ForceElement e;
        e.name = name;
        e.type = ForceElementType::Applied;
        e.a = {body_argument(*x, body), point_of(point, "point")};
        e.force = expressions3(force, "force");
        e.torque = expressions3(torque, "torque");
        return add_element(x, e);
      }, py::arg("name"), py::arg("body"), py::arg("point"), py::arg("force") = py::none(),
      py::arg("torque") = py::none(),
      "Adds an applied load on a body: force through the body point and a moment, 3 world components each "
      "(expressions of t or numbers).")
      .def("add_gear_coupling", [](const ModelPtr& x, const std::string& name, py::handle a, py::handle b,
                                   double ratio, double offset) {
        Coupling c;
        c.name = name;
        c.type = CouplingType::Gear;
        c.a = joint_argument(*x, a);
        c.b = joint_argument(*x, b);
        c.ratio = ratio;
        c.offset = offset;
        change_model(*x, [&](Model& changed) { changed.couplings.push_back(c); });
        return CouplingView{x, name};
      }, py::arg("name"), py::arg("a"), py::arg("b"), py::arg("ratio"), py::arg("offset") = 0.0,
      "Adds a gear coupling q_b = ratio q_a + offset (a constraint row: the model becomes a constrained mechanism).");

  // ---- evaluation ----
  m.def("force_elements", [](const Model& model, py::object data_object, py::handle q, py::handle v, double t) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    evaluate(model, data, q, v, t);
    return view_of(data.applied_force, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("t") = 0.0,
     "Every force element at (q, v, t): Q_f, a view of data.applied_force (nv); also writes data.element_value, "
     "element_energy, element_length, element_effort, element_wrench_a/_b, element_point_a/_b, external_wrench. "
     "SolverError for a spring-damper of zero length that would exert a force.");
  m.def("force_element_generalized_force", [](const Model& model, PyData& pd, py::handle element) {
    Data& data = data_for(model, pd);
    const int k = element_argument(model, element);
    VecX out = VecX::Zero(model.nv);
    force_element_generalized_force(model, data, k, out);
    return copy_vector(out);
  }, py::arg("model"), py::arg("data"), py::arg("element"),
     "One element's generalized force (nv, a new array) at the state of the last force_elements call on data; "
     "element: name or index.");
  m.def("force_element_potential_energy", [](const Model& model, PyData& pd) {
    return force_element_potential_energy(data_for(model, pd));
  }, py::arg("model"), py::arg("data"),
     "Σ of the elements' potential energies (J) at the last force_elements call (gravity's: potential_energy).");
  m.def("force_element_derivatives", [](const Model& model, PyData& pd, py::handle q, py::handle v, double t) {
    Data& data = data_for(model, pd);
    evaluate(model, data, q, v, t);
    MatX dq = MatX::Zero(model.nv, model.nv), dv = MatX::Zero(model.nv, model.nv);
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
    without_gil([&] { force_element_derivatives(model, data, qv.map(), vv.map(), dq, dv); return 0; });
    return py::make_tuple(py::cast(dq), py::cast(dv));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("t") = 0.0,
     "(∂Q_f/∂q, ∂Q_f/∂v) at (q, v, t), nv × nv new arrays (exact for every element type and joint type; ∂/∂q in "
     "the tangent space).");
  m.def("applied_forces", [](const ModelPtr& model, py::handle q, py::handle v, double t) {
    if (!model) throw InvalidArgument("applied_forces: model is None");
    Data data(*model);
    evaluate(*model, data, q, v, t);
    return copy_vector(data.applied_force);
  }, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("t") = 0.0,
     "Q_f, the generalized force of all force elements at (q, v, t): a new nv array (its own Data; `mechdyn eval "
     "--json`'s applied_forces).");
  m.def("force_element_report", [](const ModelPtr& model, py::handle q, py::handle v, double t) {
    if (!model) throw InvalidArgument("force_element_report: model is None");
    Data data(*model);
    evaluate(*model, data, q, v, t);
    return report(*model, data);
  }, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("t") = 0.0,
     "`mechdyn eval --json`'s force-element keys at (q, v, t): {'applied_forces': Q_f, 'force_elements': [{name, "
     "type, generalized_force, potential_energy, value, and for a spring-damper tension, length}], "
     "'potential_energy': their sum} (new arrays; its own Data).");
}

}  // namespace mechdyn::python
