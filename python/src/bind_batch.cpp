// Python bindings: many states per call (evaluation/batch.hpp; docs/python.md "Batches").
//
// numpy in, numpy out: the states are rows, Q of shape (K, nq), V, A, Tau of shape (K, nv).
// A C-ordered float64 (K, n) array is, in memory, the library's column-major n × K matrix:
// it is read in place (other arrays are converted once). Results are new arrays: (K, nv)
// for vectors, (K, nv, nv) for matrices — each state's nv × nv matrix stored column-major
// (the library's layout, no copy), indexed as usual: out[k, i, j] is row i, column j of
// state k. The evaluation runs with the GIL released, on a thread pool: `threads` (0: one
// per core) or a reusable mechdyn.BatchWorkspace(model, threads) passed as `workspace`
// (which saves making the per-thread Data and starting the threads at every call).
#include <memory>
#include <string>

#include "common.hpp"
#include "mechdyn/evaluation/batch.hpp"

namespace mechdyn::python {

namespace {

// A Python-side BatchWorkspace: the library's, with the Model it was made for (kept alive).
struct PyBatchWorkspace {
  PyBatchWorkspace(std::shared_ptr<Model> m, int threads)
      : model(std::move(m)), layout(data_layout_signature(*model)),
        workspace(std::make_unique<BatchWorkspace>(*model, threads)) {}
  std::shared_ptr<Model> model;
  std::size_t layout;
  std::unique_ptr<BatchWorkspace> workspace;
};

std::string shape_of(const py::array& a) {
  std::string shape = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape(i));
  if (a.ndim() == 1) shape += ",";
  return shape + ")";
}

// A read-only (K, size) array of states, mapped as the size × K matrix of the library.
class InputStates {
 public:
  // states < 0: any K (the first argument sets it).
  InputStates(py::handle object, Eigen::Index size, Eigen::Index states, const char* name, const char* what) {
    const std::string expected = std::string(name) + " must be a 2-D array of shape (K, " + what + ") = (" +
                                 (states < 0 ? std::string("K") : std::to_string(states)) + ", " +
                                 std::to_string(size) + "), one row per state, of real numbers";
    if (object.is_none()) throw InvalidArgument(expected + ", got None");
    py::array a;
    try {
      a = py::module_::import("numpy").attr("asarray")(object);
    } catch (py::error_already_set&) {
      throw InvalidArgument(expected + ", got a " + std::string(py::str(object.get_type().attr("__name__"))));
    }
    const char kind = a.dtype().kind();
    const std::string got = ", got an array of shape " + shape_of(a) + " and dtype " + std::string(py::str(a.dtype()));
    if ((kind != 'f' && kind != 'i' && kind != 'u') || a.ndim() != 2 || a.shape(1) != size ||
        (states >= 0 && a.shape(0) != states))
      throw InvalidArgument(expected + got);
    array_ = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);  // in place when it can be
    if (!array_) throw py::error_already_set();
    size_ = size;
    states_ = a.shape(0);
  }
  Eigen::Map<const MatX> map() const { return {array_.data(), size_, states_}; }
  Eigen::Index states() const { return states_; }

 private:
  py::array_t<double> array_;
  Eigen::Index size_ = 0, states_ = 0;
};

// A new (K, rows) array and the rows × K matrix on it.
struct OutputStates {
  OutputStates(Eigen::Index rows, Eigen::Index states) : array({states, rows}), map(array.mutable_data(), rows, states) {}
  py::array_t<double> array;
  Eigen::Map<MatX> map;
};

// A new (K, nv, nv) array, each state's matrix column-major, and the nv × (nv K) matrix on it.
struct OutputMatrices {
  OutputMatrices(Eigen::Index nv, Eigen::Index states)
      : array({states, nv, nv}, {static_cast<py::ssize_t>(sizeof(double) * nv * nv),
                                 static_cast<py::ssize_t>(sizeof(double)),
                                 static_cast<py::ssize_t>(sizeof(double) * nv)}),
        map(array.mutable_data(), nv, nv * states) {}
  py::array_t<double> array;
  Eigen::Map<MatX> map;
};

// The workspace of one call: `workspace` when given (checked against the model), else a new one.
class CallWorkspace {
 public:
  CallWorkspace(const Model& model, int threads, py::handle workspace) {
    if (threads < 0) throw InvalidArgument("threads must be ≥ 0 (0: one per core), got " + std::to_string(threads));
    if (workspace.is_none()) {
      owned_ = std::make_unique<BatchWorkspace>(model, threads);
      pointer_ = owned_.get();
      return;
    }
    PyBatchWorkspace& given = workspace.cast<PyBatchWorkspace&>();
    if (given.model.get() != &model)
      throw InvalidArgument("workspace was made for model '" + given.model->name + "', not for this model '" +
                            model.name + "': make one with mechdyn.BatchWorkspace(model)");
    if (given.layout != data_layout_signature(model))
      throw InvalidArgument("workspace was made for model '" + model.name +
                            "' before its force elements, couplings or their time functions changed: make a new one");
    if (threads != 0 && threads != given.workspace->threads())
      throw InvalidArgument("threads = " + std::to_string(threads) + " but the workspace has " +
                            std::to_string(given.workspace->threads()) + " (pass threads=0 with a workspace)");
    pointer_ = given.workspace.get();
  }
  BatchWorkspace& get() { return *pointer_; }

 private:
  std::unique_ptr<BatchWorkspace> owned_;
  BatchWorkspace* pointer_ = nullptr;
};

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<PyBatchWorkspace>(m, "BatchWorkspace",
                               "What the batch functions work in: one Data and DerivativeData per thread and the "
                               "thread pool (threads = 0: one per core). Reuse it across calls on one model.")
      .def(py::init([](std::shared_ptr<Model> model, int threads) {
             if (threads < 0)
               throw InvalidArgument("threads must be ≥ 0 (0: one per core), got " + std::to_string(threads));
             return std::make_unique<PyBatchWorkspace>(std::move(model), threads);
           }),
           py::arg("model"), py::arg("threads") = 0)
      .def_property_readonly("threads", [](const PyBatchWorkspace& w) { return w.workspace->threads(); },
                             "the number of threads (the caller included)");

  m.def("batch_rnea", [](const Model& model, py::handle q, py::handle v, py::handle a, int threads,
                         py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    InputStates vs(v, model.nv, qs.states(), "V", "nv"), as(a, model.nv, qs.states(), "A", "nv");
    CallWorkspace w(model, threads, workspace);
    OutputStates out(model.nv, qs.states());
    without_gil([&] { batch_rnea(model, w.get(), qs.map(), vs.map(), as.map(), out.map); return 0; });
    return out.array;
  }, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("A"), py::arg("threads") = 0,
     py::arg("workspace") = py::none(),
     "τ = RNEA(q, v, a) of K states: Q (K, nq), V and A (K, nv) → (K, nv); the GIL released, on `threads` "
     "threads (0: one per core) or the given BatchWorkspace.");

  m.def("batch_aba", [](const Model& model, py::handle q, py::handle v, py::handle tau, int threads,
                        py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    InputStates vs(v, model.nv, qs.states(), "V", "nv"), ts(tau, model.nv, qs.states(), "Tau", "nv");
    CallWorkspace w(model, threads, workspace);
    OutputStates out(model.nv, qs.states());
    without_gil([&] { batch_aba(model, w.get(), qs.map(), vs.map(), ts.map(), out.map); return 0; });
    return out.array;
  }, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("Tau"), py::arg("threads") = 0,
     py::arg("workspace") = py::none(),
     "q̈ = ABA(q, v, τ) of K states: Q (K, nq), V and Tau (K, nv) → (K, nv). Raises SolverError at a singular "
     "articulated inertia.");

  m.def("batch_crba", [](const Model& model, py::handle q, int threads, py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    CallWorkspace w(model, threads, workspace);
    OutputMatrices out(model.nv, qs.states());
    without_gil([&] { batch_crba(model, w.get(), qs.map(), out.map); return 0; });
    return out.array;
  }, py::arg("model"), py::arg("Q"), py::arg("threads") = 0, py::arg("workspace") = py::none(),
     "M(q) of K states by CRBA: Q (K, nq) → (K, nv, nv).");

  m.def("batch_rnea_derivatives", [](const Model& model, py::handle q, py::handle v, py::handle a, int threads,
                                     py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    InputStates vs(v, model.nv, qs.states(), "V", "nv"), as(a, model.nv, qs.states(), "A", "nv");
    CallWorkspace w(model, threads, workspace);
    OutputMatrices dq(model.nv, qs.states()), dv(model.nv, qs.states());
    without_gil([&] { batch_rnea_derivatives(model, w.get(), qs.map(), vs.map(), as.map(), dq.map, dv.map); return 0; });
    return py::make_tuple(dq.array, dv.array);
  }, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("A"), py::arg("threads") = 0,
     py::arg("workspace") = py::none(),
     "(∂τ/∂q, ∂τ/∂v) of K states, each (K, nv, nv): [k, i, j] the derivative of τ_i by coordinate j of state k "
     "(∂/∂q in the tangent space, as rnea_derivatives).");

  m.def("batch_aba_derivatives", [](const Model& model, py::handle q, py::handle v, py::handle tau, int threads,
                                    py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    InputStates vs(v, model.nv, qs.states(), "V", "nv"), ts(tau, model.nv, qs.states(), "Tau", "nv");
    CallWorkspace w(model, threads, workspace);
    OutputMatrices dq(model.nv, qs.states()), dv(model.nv, qs.states()), dtau(model.nv, qs.states());
    without_gil([&] {
      batch_aba_derivatives(model, w.get(), qs.map(), vs.map(), ts.map(), dq.map, dv.map, dtau.map);
      return 0;
    });
    return py::make_tuple(dq.array, dv.array, dtau.array);
  }, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("Tau"), py::arg("threads") = 0,
     py::arg("workspace") = py::none(),
     "(∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ = M⁻¹) of K states, each (K, nv, nv), as aba_derivatives.");

  m.def("batch_step", [](const Model& model, py::handle q, py::handle v, py::handle tau, double h, double t,
                         int threads, py::handle workspace) {
    InputStates qs(q, model.nq, -1, "Q", "nq");
    InputStates vs(v, model.nv, qs.states(), "V", "nv"), ts(tau, model.nv, qs.states(), "Tau", "nv");
    CallWorkspace w(model, threads, workspace);
    OutputStates q_next(model.nq, qs.states()), v_next(model.nv, qs.states());
    without_gil([&] {
      batch_step(model, w.get(), t, h, qs.map(), vs.map(), ts.map(), q_next.map, v_next.map);
      return 0;
    });
    return py::make_tuple(q_next.array, v_next.array);
  }, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("Tau"), py::arg("h"), py::arg("t") = 0.0,
     py::arg("threads") = 0, py::arg("workspace") = py::none(),
     "One classic RK4 step of size h from time t of K states under ABA, each state's efforts held over the step "
     "(the library's Rk4Integrator.step; quaternions renormalised): → (Q_next (K, nq), V_next (K, nv)). Raises "
     "SolverError when a state blows up.");
}

}  // namespace mechdyn::python
