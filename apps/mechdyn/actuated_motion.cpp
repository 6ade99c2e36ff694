// Prescribed motion and effort tables of the actuated coordinates. See actuated_motion.hpp.
// Quintic Hermite between rows k and k+1 (h = t_{k+1} − t_k, s = (t − t_k)/h): the basis of
// the polynomial with given value, first and second derivative at both ends,
//   H0 = 1 − 10s³ + 15s⁴ − 6s⁵,  H1 = s − 6s³ + 8s⁴ − 3s⁵,  H2 = ½(s² − 3s³ + 3s⁴ − s⁵),
//   H3 = 10s³ − 15s⁴ + 6s⁵,      H4 = −4s³ + 7s⁴ − 3s⁵,    H5 = ½(s³ − 2s⁴ + s⁵),
//   q(t) = H0 q_k + h H1 q̇_k + h² H2 q̈_k + H3 q_{k+1} + h H4 q̇_{k+1} + h² H5 q̈_{k+1},
// q̇ and q̈ the derivatives of the same polynomial (so the three stay consistent).
#include "actuated_motion.hpp"

#include <algorithm>
#include <cmath>

#include "common.hpp"

namespace mechdyn::cli {

namespace {

// The column whose name starts with `prefix` (exactly one); UsageError otherwise.
std::size_t column_with_prefix(const RunTable& table, const std::string& prefix, const std::string& path,
                               const std::string& what) {
  std::size_t found = table.columns.size();
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c].rfind(prefix, 0) != 0) continue;
    if (found != table.columns.size())
      throw UsageError(path + ": two columns start with '" + prefix + "' (" + table.columns[found] + ", " +
                       table.columns[c] + ")");
    found = c;
  }
  if (found == table.columns.size()) throw UsageError(path + ": no column '" + prefix + "…' (" + what + ")");
  return found;
}

}  // namespace

std::size_t table_interval(const RunTable& table, double t, const std::string& path) {
  const double first = table.at(0, 0), last = table.at(table.rows - 1, 0);
  const double slack = 1e-9 * std::max(1.0, std::abs(last));
  if (table.rows < 2 || t < first - slack || t > last + slack)
    throw UsageError(path + ": t = " + format_number(t) + " s lies outside the table's times (" + format_number(first) +
                     " .. " + format_number(last) + " s, at least two rows needed)");
  std::size_t low = 0, high = table.rows - 1;  // binary search: t_low <= t <= t_high
  while (high - low > 1) {
    const std::size_t middle = (low + high) / 2;
    (table.at(middle, 0) <= t ? low : high) = middle;
  }
  return low;
}

void PrescribedTable::require_times(double duration) const {
  table_interval(table_, 0.0, path_);
  table_interval(table_, duration, path_);
}

void EffortTable::require_times(double duration) const {
  table_interval(table_, 0.0, path_);
  table_interval(table_, duration, path_);
}

PrescribedPositions::PrescribedPositions(const std::vector<std::string>& expressions, Eigen::Index count,
                                         const std::string& element) {
  if (static_cast<Eigen::Index>(expressions.size()) != count)
    throw UsageError(element + " has " + std::to_string(expressions.size()) + " expressions, the model has " +
                     std::to_string(count) + " actuated coordinates (one each, in coordinate order)");
  try {
    expressions_ = std::make_unique<TimeExpressions>(expressions, element);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  derivatives_ = std::make_unique<ExpressionDerivatives>(*expressions_, element);
}

void PrescribedPositions::sample(double t, PrescribedMotion& out) {
  derivatives_->evaluate(t, true);
  out.position = derivatives_->value;
  out.velocity = derivatives_->first;
  out.acceleration = derivatives_->second;
}

PrescribedTable::PrescribedTable(const std::string& path, const std::vector<std::string>& names)
    : path_(path), table_(read_run_csv(path)) {
  for (const std::string& name : names) {
    q_.push_back(column_with_prefix(table_, "q_" + name + "_", path, "the position of '" + name + "'"));
    v_.push_back(column_with_prefix(table_, "v_" + name + "_", path, "the velocity of '" + name + "'"));
    a_.push_back(column_with_prefix(table_, "a_" + name + "_", path, "the acceleration of '" + name + "'"));
  }
  for (std::size_t r = 1; r < table_.rows; ++r)
    if (!(table_.at(r, 0) > table_.at(r - 1, 0)))
      throw UsageError(path + ": line " + std::to_string(r + 2) + ": times must increase strictly");
}

void PrescribedTable::sample(double t, PrescribedMotion& out) {
  const std::size_t k = table_interval(table_, t, path_);
  const double h = table_.at(k + 1, 0) - table_.at(k, 0);
  const double s = std::clamp((t - table_.at(k, 0)) / h, 0.0, 1.0);
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s, s5 = s4 * s;
  // basis (H0 … H5) and its first and second derivatives in s
  const double b[6] = {1 - 10 * s3 + 15 * s4 - 6 * s5, s - 6 * s3 + 8 * s4 - 3 * s5,
                       0.5 * (s2 - 3 * s3 + 3 * s4 - s5), 10 * s3 - 15 * s4 + 6 * s5,
                       -4 * s3 + 7 * s4 - 3 * s5, 0.5 * (s3 - 2 * s4 + s5)};
  const double d1[6] = {-30 * s2 + 60 * s3 - 30 * s4, 1 - 18 * s2 + 32 * s3 - 15 * s4,
                        0.5 * (2 * s - 9 * s2 + 12 * s3 - 5 * s4), 30 * s2 - 60 * s3 + 30 * s4,
                        -12 * s2 + 28 * s3 - 15 * s4, 0.5 * (3 * s2 - 8 * s3 + 5 * s4)};
  const double d2[6] = {-60 * s + 180 * s2 - 120 * s3, -36 * s + 96 * s2 - 60 * s3,
                        0.5 * (2 - 18 * s + 36 * s2 - 20 * s3), 60 * s - 180 * s2 + 120 * s3,
                        -24 * s + 84 * s2 - 60 * s3, 0.5 * (6 * s - 24 * s2 + 20 * s3)};
  for (std::size_t c = 0; c < q_.size(); ++c) {
    const double y[6] = {table_.at(k, q_[c]),         h * table_.at(k, v_[c]),     h * h * table_.at(k, a_[c]),
                         table_.at(k + 1, q_[c]), h * table_.at(k + 1, v_[c]), h * h * table_.at(k + 1, a_[c])};
    double q = 0.0, v = 0.0, a = 0.0;
    for (int i = 0; i < 6; ++i) q += b[i] * y[i], v += d1[i] * y[i], a += d2[i] * y[i];
    const Eigen::Index e = static_cast<Eigen::Index>(c);
    out.position[e] = q;
    out.velocity[e] = v / h;
    out.acceleration[e] = a / (h * h);
  }
}

EffortTable::EffortTable(const std::string& path, const std::vector<std::string>& names)
    : path_(path), table_(read_run_csv(path)) {
  for (const std::string& name : names) {
    bool effort = false, tau = false;
    for (const std::string& c : table_.columns) {
      effort = effort || c.rfind("effort_" + name + "_", 0) == 0;
      tau = tau || c.rfind("tau_" + name + "_", 0) == 0;
    }
    const std::string prefix = effort || !tau ? "effort_" + name + "_" : "tau_" + name + "_";
    column_.push_back(column_with_prefix(table_, prefix, path, "the effort of '" + name + "' (effort_… or tau_…)"));
  }
  for (std::size_t r = 1; r < table_.rows; ++r)
    if (!(table_.at(r, 0) > table_.at(r - 1, 0)))
      throw UsageError(path + ": line " + std::to_string(r + 2) + ": times must increase strictly");
}

void EffortTable::sample(double t, Eigen::Ref<VecX> values) const {
  const std::size_t k = table_interval(table_, t, path_);
  const double s = std::clamp((t - table_.at(k, 0)) / (table_.at(k + 1, 0) - table_.at(k, 0)), 0.0, 1.0);
  for (std::size_t c = 0; c < column_.size(); ++c)
    values[static_cast<Eigen::Index>(c)] = (1.0 - s) * table_.at(k, column_[c]) + s * table_.at(k + 1, column_[c]);
}

}  // namespace mechdyn::cli
