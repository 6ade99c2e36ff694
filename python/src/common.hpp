// Shared pieces of the Python bindings (docs/python.md): the Python-side Data (a Data
// bound to its Model), argument conversion with shape and dtype checks, zero-copy numpy
// views of Data's buffers, and the one-line error types.
//
// Conversion rule: an argument vector must be a 1-D array-like of real numbers (float or
// integer dtype) of the size the model needs; anything else raises mechdyn.InvalidArgument
// (a ValueError and a TypeError) naming the argument, before any C++ work runs. A
// C-contiguous float64 array is read in place (no copy); other inputs are converted once.
#pragma once

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::python {

namespace py = pybind11;

/// What a Data's layout is made from: the sizes (bodies, nq, nv, closure rows, loops), the
/// joints' actuated flags, and the force elements and couplings — their number, types and
/// time functions (a Data compiles the servo targets and applied loads when it is made,
/// model/data.hpp). A model changed from Python (bind_force_elements.cpp: elements added or
/// removed, a time function rewritten, a joint made passive) gets another signature; a
/// numeric parameter (stiffness, armature, ...) does not change it (the algorithms read
/// those from the Model at every call).
std::size_t data_layout_signature(const Model& model);

/// A Data together with the Model it was made for (kept alive by the shared pointer).
struct PyData {
  explicit PyData(std::shared_ptr<Model> m)
      : model(std::move(m)), data(*model), layout(data_layout_signature(*model)) {}
  std::shared_ptr<Model> model;
  Data data;
  std::size_t layout;  // data_layout_signature of the model when the Data was made
};

/// Throws InvalidArgument unless `data` was made for `model` (the same object) and the
/// model's layout has not changed since (force elements or couplings added or removed, a
/// time function rewritten: the C++ check_data compares the sizes of the bodies, joints
/// and closure rows only, not the per-element arrays or the compiled time functions).
inline Data& data_for(const Model& model, PyData& data) {
  if (data.model.get() != &model)
    throw InvalidArgument("data was made for model '" + data.model->name + "', not for this model '" + model.name +
                          "': make one with mechdyn.Data(model)");
  if (data.layout != data_layout_signature(model))
    throw InvalidArgument("data was made for model '" + model.name +
                          "' before its force elements, couplings or their time functions changed: make a new one "
                          "with mechdyn.Data(model)");
  return data.data;
}

/// A read-only input vector: the numpy array it comes from (kept alive) and a map on it.
class InputVector {
 public:
  InputVector(py::handle object, Eigen::Index size, const char* name, const char* what);
  Eigen::Map<const VecX> map() const { return {pointer_, size_}; }
  operator Eigen::Map<const VecX>() const { return map(); }

 private:
  py::array_t<double> array_;
  const double* pointer_ = nullptr;
  Eigen::Index size_ = 0;
};

/// An input 1-D vector copied into an owned VecX (for functions that write into it).
VecX owned_vector(py::handle object, Eigen::Index size, const char* name, const char* what);

/// Zero-copy numpy views of C++ storage, owned by `base` (the Python Data object).
py::array vector_view(VecX& v, py::handle base);
py::array matrix_view(MatX& m, py::handle base);  // column-major: Fortran-ordered strides
py::array vec3_list_view(std::vector<Vec3>& v, py::handle base);          // (n, 3)
py::array mat3_list_view(std::vector<Mat3>& v, py::handle base);          // (n, 3, 3)
py::array vec6_list_view(AlignedVector<Vec6>& v, py::handle base);        // (n, 6)

/// A view of a vector or matrix that lives inside the Data `base` (a returned reference).
inline py::array view_of(const VecX& v, py::handle base) { return vector_view(const_cast<VecX&>(v), base); }
inline py::array view_of(const MatX& m, py::handle base) { return matrix_view(const_cast<MatX&>(m), base); }

/// Runs `work` with the GIL released (the C++ computation; Python objects untouched).
template <class Work>
decltype(auto) without_gil(Work&& work) {
  py::gil_scoped_release release;
  return work();
}

/// The body index of a name (str) or an index (int), checked against the model.
int body_argument(const Model& model, py::handle body);

/// Copies (a new array the caller owns).
py::array_t<double> copy_vector(const Eigen::Ref<const VecX>& v);
py::array_t<double> copy_matrix(const Eigen::Ref<const MatX>& m);  // C order
py::array_t<double> copy_vec3(const Vec3& v);

/// Registers each part of the module (one file per area).
void bind_errors(py::module_& m);
void bind_model(py::module_& m);
void bind_kinematics(py::module_& m);
void bind_dynamics(py::module_& m);
void bind_friction(py::module_& m);
void bind_closed_chains(py::module_& m);
void bind_simulation(py::module_& m);
void bind_parallel(py::module_& m);
void bind_screw(py::module_& m);
void bind_analysis(py::module_& m);  // linearize, static_equilibrium, natural_frequencies (rigid and flexible)
void bind_codegen(py::module_& m);
void bind_force_elements(py::module_& m);
void bind_batch(py::module_& m);  // many states per call (evaluation/batch.hpp)

}  // namespace mechdyn::python
