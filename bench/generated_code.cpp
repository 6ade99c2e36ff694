// GeneratedCheck (generated_code.hpp): the generated functions against crba, rnea, aba
// and joint_reactions at the same state. A forward dynamics that reports a non-positive
// pivot counts as an infinite difference.
#include "generated_code.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"

namespace mechdyn::bench {

GeneratedCheck::GeneratedCheck(const Model& model, const GeneratedFunctions& functions)
    : model_(model),
      functions_(functions),
      data_(model),
      out_(model.nv * model.nv),
      zero_(VecX::Zero(model.nv)),
      force_(3 * model.num_bodies()),
      torque_(3 * model.num_bodies()) {}

void GeneratedCheck::note(const double* value, const double* reference, Eigen::Index size, const char* quantity) {
  double scale = 1.0, difference = 0.0;
  for (Eigen::Index k = 0; k < size; ++k) scale = std::max(scale, std::abs(reference[k]));
  for (Eigen::Index k = 0; k < size; ++k) difference = std::max(difference, std::abs(value[k] - reference[k]));
  if (!(difference / scale <= worst_)) {  // NaN is the worst
    worst_ = std::isnan(difference) ? std::numeric_limits<double>::infinity() : difference / scale;
    quantity_ = quantity;
  }
}

void GeneratedCheck::add(const VecX& q, const VecX& v, const VecX& a, const VecX& tau) {
  const Eigen::Index nv = model_.nv;
  functions_.mass_matrix(q.data(), out_.data());  // row-major of a symmetric matrix
  note(out_.data(), crba(model_, data_, q).data(), nv * nv, "mass matrix");
  functions_.bias(q.data(), v.data(), out_.data());
  note(out_.data(), rnea(model_, data_, q, v, zero_).data(), nv, "bias");
  functions_.inverse_dynamics(q.data(), v.data(), a.data(), out_.data());
  note(out_.data(), rnea(model_, data_, q, v, a).data(), nv, "inverse dynamics");
  if (functions_.forward_dynamics(q.data(), v.data(), tau.data(), out_.data()) != 0) {
    worst_ = std::numeric_limits<double>::infinity();
    quantity_ = "forward dynamics (pivot not positive)";
  } else {
    note(out_.data(), aba(model_, data_, q, v, tau).data(), nv, "forward dynamics");
  }
  functions_.joint_reactions(q.data(), v.data(), a.data(), force_.data(), torque_.data());
  joint_reactions(model_, data_, q, v, a);
  for (int i = 0; i < model_.num_bodies(); ++i) {
    note(force_.data() + 3 * i, data_.reaction_force[static_cast<std::size_t>(i)].data(), 3, "reaction force");
    note(torque_.data() + 3 * i, data_.reaction_torque[static_cast<std::size_t>(i)].data(), 3, "reaction torque");
  }
}

}  // namespace mechdyn::bench
