// BatchWorkspace (evaluation/batch.hpp) and the batch functions' input checks
// (batch_checks.hpp).
#include <cmath>
#include <string>

#include "batch_checks.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

BatchThreadWorkspace::BatchThreadWorkspace(const Model& model)
    : data(model),
      derivatives(model),
      integrator(model, [this, &model](double, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                       Eigen::Ref<VecX> a) {
        a = aba(model, data, q, v, Eigen::Map<const VecX>(step_tau, model.nv));
      }) {}

BatchWorkspace::BatchWorkspace(const Model& model, int threads) : pool_(threads) {
  per_thread_.reserve(static_cast<std::size_t>(pool_.size()));
  for (int t = 0; t < pool_.size(); ++t) per_thread_.push_back(std::make_unique<BatchThreadWorkspace>(model));
}

namespace batch_detail {

void check_workspace(const Model& model, BatchWorkspace& workspace, const char* function) {
  check_data(model, workspace.thread(0).data, function);
  check_derivative_data(model, workspace.thread(0).derivatives, function);
}

void check_input(const Eigen::Ref<const MatX>& matrix, Eigen::Index rows, Eigen::Index states, const char* name,
                 const char* function) {
  if (matrix.rows() != rows || matrix.cols() != states)
    throw InvalidArgument(std::string(function) + ": " + name + " is " + std::to_string(matrix.rows()) + " × " +
                          std::to_string(matrix.cols()) + ", expected " + std::to_string(rows) + " × " +
                          std::to_string(states) + " (one column per state)");
  // The fast test: x − x is 0 for every finite x and NaN otherwise, and a sum is a
  // vectorised reduction (allFinite() is a loop with a test per number). Then, only on
  // failure, find the state to name.
  const bool finite = matrix.outerStride() == rows
                          ? (Eigen::Map<const VecX>(matrix.data(), rows * states).array() -
                             Eigen::Map<const VecX>(matrix.data(), rows * states).array()).sum() == 0.0
                          : (matrix.array() - matrix.array()).sum() == 0.0;
  if (finite) return;
  for (Eigen::Index k = 0; k < states; ++k)
    for (Eigen::Index i = 0; i < rows; ++i)
      if (!std::isfinite(matrix(i, k)))
        throw InvalidArgument(std::string(function) + ": " + name + " of state " + std::to_string(k) +
                              " is not finite (coordinate " + std::to_string(i) + ")");
}

void check_output(const Eigen::Ref<const MatX>& matrix, Eigen::Index rows, Eigen::Index columns, const char* name,
                  const char* function) {
  if (matrix.rows() != rows || matrix.cols() != columns)
    throw InvalidArgument(std::string(function) + ": output " + name + " is " + std::to_string(matrix.rows()) +
                          " × " + std::to_string(matrix.cols()) + ", expected " + std::to_string(rows) + " × " +
                          std::to_string(columns));
}

}  // namespace batch_detail

}  // namespace mechdyn
