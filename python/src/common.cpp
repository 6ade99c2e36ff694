// Argument conversion, zero-copy views and the error types of the Python bindings.
// See common.hpp.
#include "common.hpp"

#include "mechdyn/simulation/integration_budget.hpp"

namespace mechdyn::python {

namespace {

std::string describe(py::handle object) {
  if (object.is_none()) return "None";
  if (py::isinstance<py::array>(object)) {
    auto a = py::reinterpret_borrow<py::array>(object);
    std::string shape = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape(i));
    if (a.ndim() == 1) shape += ",";
    return "an array of shape " + shape + ") and dtype " + std::string(py::str(a.dtype()));
  }
  return "a " + std::string(py::str(object.get_type().attr("__name__")));
}

py::array checked_array(py::handle object, Eigen::Index size, const char* name, const char* what) {
  const std::string expected = std::string(name) + " must be a 1-D array of " + what + " = " + std::to_string(size) +
                               " real numbers";
  if (object.is_none()) throw InvalidArgument(expected + ", got None");
  py::array a;
  try {
    a = py::module_::import("numpy").attr("asarray")(object);
  } catch (py::error_already_set&) {
    throw InvalidArgument(expected + ", got " + describe(object));
  }
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw InvalidArgument(expected + ", got " + describe(a));
  if (a.ndim() != 1 || a.shape(0) != size) throw InvalidArgument(expected + ", got " + describe(a));
  return a;
}

}  // namespace

InputVector::InputVector(py::handle object, Eigen::Index size, const char* name, const char* what) : size_(size) {
  // Fast path: a C-contiguous float64 vector of the right size is read in place.
  if (py::isinstance<py::array_t<double>>(object)) {
    auto a = py::reinterpret_borrow<py::array_t<double>>(object);
    if (a.ndim() == 1 && a.shape(0) == size && (a.flags() & py::array::c_style)) {
      array_ = a;
      pointer_ = array_.data();
      return;
    }
  }
  py::array a = checked_array(object, size, name, what);
  array_ = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!array_) throw py::error_already_set();
  pointer_ = array_.data();
}

VecX owned_vector(py::handle object, Eigen::Index size, const char* name, const char* what) {
  InputVector in(object, size, name, what);
  return in.map();
}

py::array vector_view(VecX& v, py::handle base) {
  return py::array(py::dtype::of<double>(), {v.size()}, {static_cast<py::ssize_t>(sizeof(double))}, v.data(), base);
}

py::array matrix_view(MatX& m, py::handle base) {
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  return py::array(py::dtype::of<double>(), {m.rows(), m.cols()}, {s, s * m.rows()}, m.data(), base);
}

py::array vec3_list_view(std::vector<Vec3>& v, py::handle base) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is three packed doubles");
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  return py::array(py::dtype::of<double>(), {static_cast<py::ssize_t>(v.size()), py::ssize_t{3}},
                   {static_cast<py::ssize_t>(sizeof(Vec3)), s}, v.empty() ? nullptr : v[0].data(), base);
}

py::array mat3_list_view(std::vector<Mat3>& v, py::handle base) {
  static_assert(sizeof(Mat3) == 9 * sizeof(double), "Mat3 is nine packed doubles");
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  // Column-major 3x3: element (r, c) at r + 3 c.
  return py::array(py::dtype::of<double>(), {static_cast<py::ssize_t>(v.size()), py::ssize_t{3}, py::ssize_t{3}},
                   {static_cast<py::ssize_t>(sizeof(Mat3)), s, 3 * s}, v.empty() ? nullptr : v[0].data(), base);
}

py::array vec6_list_view(AlignedVector<Vec6>& v, py::handle base) {
  static_assert(sizeof(Vec6) == 6 * sizeof(double), "Vec6 is six packed doubles");
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  return py::array(py::dtype::of<double>(), {static_cast<py::ssize_t>(v.size()), py::ssize_t{6}},
                   {static_cast<py::ssize_t>(sizeof(Vec6)), s}, v.empty() ? nullptr : v[0].data(), base);
}

py::array_t<double> copy_vector(const Eigen::Ref<const VecX>& v) {
  py::array_t<double> out(v.size());
  std::copy(v.data(), v.data() + v.size(), out.mutable_data());
  return out;
}

py::array_t<double> copy_matrix(const Eigen::Ref<const MatX>& m) {
  py::array_t<double> out({m.rows(), m.cols()});
  auto r = out.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) r(i, j) = m(i, j);
  return out;
}

py::array_t<double> copy_vec3(const Vec3& v) { return copy_vector(v); }

void bind_errors(py::module_& m) {
  // mechdyn.Error(Exception); ModelError and InvalidArgument are also ValueError
  // (InvalidArgument also TypeError: wrong dtypes); SolverError is also RuntimeError.
  auto make = [&](const char* name, py::object bases, const char* doc) {
    py::object type = py::reinterpret_steal<py::object>(
        PyErr_NewExceptionWithDoc((std::string("mechdyn.") + name).c_str(), doc, bases.ptr(), nullptr));
    if (!type) throw py::error_already_set();
    m.attr(name) = type;
    return type;
  };
  // Leaked on purpose: the types live as long as the interpreter (no decref after finalisation).
  static PyObject* error = make("Error", py::make_tuple(py::handle(PyExc_Exception)), "Base of all mechdyn errors.").release().ptr();
  static PyObject* model_error = make("ModelError", py::make_tuple(py::handle(error), py::handle(PyExc_ValueError)),
                                       "A model (file, string or built in code) that is malformed or physically invalid.").release().ptr();
  static PyObject* invalid_argument =
      make("InvalidArgument", py::make_tuple(py::handle(error), py::handle(PyExc_ValueError), py::handle(PyExc_TypeError)),
           "An argument that does not fit the model: wrong size, shape, dtype, non-finite, ...").release().ptr();
  static PyObject* solver_error = make("SolverError", py::make_tuple(py::handle(error), py::handle(PyExc_RuntimeError)),
                                        "A numerical method that failed: singular matrix, step-size underflow, budget.").release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SolverError& e) {
      PyErr_SetString(solver_error, e.what());
    } catch (const ModelError& e) {
      PyErr_SetString(model_error, e.what());
    } catch (const InvalidArgument& e) {
      PyErr_SetString(invalid_argument, e.what());
    } catch (const Error& e) {
      PyErr_SetString(error, e.what());
    }
  });
}

}  // namespace mechdyn::python

namespace mechdyn::python {

int body_argument(const Model& model, py::handle body) {
  if (py::isinstance<py::str>(body)) {
    const std::string name = body.cast<std::string>();
    auto index = model.body_index(name);
    if (!index) throw InvalidArgument("model '" + model.name + "' has no body '" + name + "'");
    return *index;
  }
  if (py::isinstance<py::int_>(body) && !py::isinstance<py::bool_>(body)) {
    const long long index = body.cast<long long>();
    if (index < 0 || index >= model.num_bodies())
      throw InvalidArgument("body index " + std::to_string(index) + " is outside 0.." +
                            std::to_string(model.num_bodies() - 1));
    return static_cast<int>(index);
  }
  throw InvalidArgument("body must be a body name (str) or index (int)");
}

}  // namespace mechdyn::python
