// Rank, redundant rows and mobility of the closure Jacobian. See the header.
#include "mechdyn/constraints/constraint_rank.hpp"

#include <Eigen/SVD>

#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

ConstraintRank constraint_rank(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, double tolerance) {
  check_data(model, data, "constraint_rank");
  check_state(model, q);
  loop_closure(model, data, q);
  const MatX& jac = data.loop_jacobian;
  ConstraintRank out;
  out.rows = static_cast<int>(jac.rows());
  out.mobility = model.nv;
  if (jac.rows() == 0 || jac.cols() == 0) return out;
  Eigen::JacobiSVD<MatX> svd(jac);
  out.singular_values = svd.singularValues();
  const double sigma_max = out.singular_values.size() > 0 ? out.singular_values[0] : 0.0;
  const double threshold = tolerance * std::max(sigma_max, 1e-300);
  for (Eigen::Index i = 0; i < out.singular_values.size(); ++i)
    if (out.singular_values[i] > threshold) ++out.rank;
  out.mobility = model.nv - out.rank;
  // Gram–Schmidt in row order (twice, for orthogonality in floating point).
  MatX basis(jac.cols(), 0);
  for (Eigen::Index r = 0; r < jac.rows(); ++r) {
    VecX row = jac.row(r).transpose();
    for (int pass = 0; pass < 2; ++pass)
      if (basis.cols() > 0) row -= basis * (basis.transpose() * row);
    const double norm = row.norm();
    if (norm <= threshold || basis.cols() >= out.rank) {
      out.redundant_rows.push_back(static_cast<int>(r));
    } else {
      basis.conservativeResize(Eigen::NoChange, basis.cols() + 1);
      basis.col(basis.cols() - 1) = row / norm;
    }
  }
  return out;
}

}  // namespace mechdyn
