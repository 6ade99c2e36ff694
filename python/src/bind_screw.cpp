// Python bindings: screw theory (docs/parallel-manipulators.md) — the axis, pitch and
// magnitude of a twist or wrench (screw/screw_axis.hpp), the scale-aware rank of a set of
// screws and its reciprocal system (screw/screw_system.hpp; screw-kinematics-3UPS-UPU-S
// §2.1–2.2, eqs. 1–2, 8, 13). Screws are Plücker 6-vectors, line part first: twists
// (ω; v), wrenches (f; m); a set of k screws is a 6 × k array (one screw per column).
#include <cmath>

#include "common.hpp"
#include "mechdyn/screw/screw_axis.hpp"
#include "mechdyn/screw/screw_system.hpp"

namespace mechdyn::python {

namespace {

using ScrewColumns = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// A 6 × k array of real numbers (k ≥ 1; a single 6-vector is one column).
ScrewColumns screw_columns(py::handle object, const char* name) {
  py::array a = py::module_::import("numpy").attr("asarray")(object);
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw InvalidArgument(std::string(name) + " must be an array of real numbers");
  auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  if (d.ndim() == 1 && d.shape(0) == 6) {
    ScrewColumns s(6, 1);
    for (int i = 0; i < 6; ++i) s(i, 0) = d.at(i);
    return s;
  }
  if (d.ndim() != 2 || d.shape(0) != 6 || d.shape(1) < 1)
    throw InvalidArgument(std::string(name) + " must be a 6-vector or a 6 × k array (one screw per column)");
  ScrewColumns s(6, d.shape(1));
  const auto r = d.unchecked<2>();
  for (py::ssize_t i = 0; i < 6; ++i)
    for (py::ssize_t j = 0; j < d.shape(1); ++j) s(i, j) = r(i, j);
  if (!s.allFinite()) throw InvalidArgument(std::string(name) + " has a coordinate that is not finite");
  return s;
}

ScrewScale scale_of(py::handle reference_point, double length) {
  ScrewScale scale;
  if (!reference_point.is_none()) scale.reference_point = owned_vector(reference_point, 3, "reference_point", "3");
  if (!(length > 0.0) || !std::isfinite(length)) throw InvalidArgument("length must be a positive finite number (m)");
  scale.length = length;
  return scale;
}

void check_tolerance(double tolerance) {
  if (!(tolerance > 0.0) || !(tolerance < 1.0)) throw InvalidArgument("tolerance must lie in (0, 1)");
}

}  // namespace

void bind_screw(py::module_& m) {
  m.def("screw_axis", [](py::handle screw, double tolerance, double length) {
    check_tolerance(tolerance);
    if (!(length > 0.0) || !std::isfinite(length)) throw InvalidArgument("length must be a positive finite number (m)");
    const Vec6 s = owned_vector(screw, 6, "screw", "6");
    if (!s.allFinite()) throw InvalidArgument("screw has a coordinate that is not finite");
    const ScrewAxis axis = screw_axis(s, tolerance, length);
    py::dict d;
    d["kind"] = axis.kind == ScrewPitch::Zero ? "zero" : axis.kind == ScrewPitch::Finite ? "finite" : "infinite";
    d["pitch"] = axis.pitch;
    d["magnitude"] = axis.magnitude;
    d["direction"] = copy_vec3(axis.direction);
    d["point"] = copy_vec3(axis.point);
    return d;
  }, py::arg("screw"), py::arg("tolerance") = kScrewTolerance, py::arg("length") = 1.0,
     "Axis of a screw (a; b), line part first (twist (ω; v) or wrench (f; m)): {'kind': 'zero' | 'finite' | "
     "'infinite', 'pitch' (a·b/|a|², inf for a pure translation or couple), 'magnitude', 'direction' (unit), "
     "'point' (the axis point nearest the origin)}. length: the characteristic length of the zero test.");

  m.def("screw_rank", [](py::handle screws, py::handle reference_point, double length, double tolerance) {
    check_tolerance(tolerance);
    const ScrewColumns s = screw_columns(screws, "screws");
    const ScrewScale scale = scale_of(reference_point, length);
    return screw_rank(s, scale, tolerance);
  }, py::arg("screws"), py::arg("reference_point") = py::none(), py::arg("length") = 1.0,
     py::arg("tolerance") = kScrewTolerance,
     "Rank of a set of screws (6 × k, one per column), decided on the screws moved to reference_point with their "
     "line part scaled by length (unit-consistent; docs/parallel-manipulators.md).");

  m.def("reciprocal_screws", [](py::handle screws, py::handle reference_point, double length, double tolerance) {
    check_tolerance(tolerance);
    const ScrewColumns s = screw_columns(screws, "screws");
    const ScrewScale scale = scale_of(reference_point, length);
    const ScrewBasis basis = reciprocal_screws(s, scale, tolerance);
    return copy_matrix(basis);
  }, py::arg("screws"), py::arg("reference_point") = py::none(), py::arg("length") = 1.0,
     py::arg("tolerance") = kScrewTolerance,
     "The reciprocal system of a set of screws (6 × k): a 6 × (6 − rank) array whose columns $_r satisfy "
     "$_iᵀ ℵ $_r = 0 for every input screw (ℵ swaps the two 3-vector halves), in reduced row-echelon form. "
     "Twists give wrenches and wrenches twists.");
}

}  // namespace mechdyn::python
