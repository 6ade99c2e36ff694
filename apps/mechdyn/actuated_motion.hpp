// Inputs of `mechdyn simulate` on models with flexible bodies that come as functions of
// time for the actuated coordinates (docs/flexible-bodies.md "Position-driven runs"):
//  - PrescribedPositions: the actuated coordinates' positions q_a(t) as muParser expressions
//    (scenario key `positions`), velocities and accelerations by Ridders' extrapolation
//    (motion_expressions.hpp ExpressionDerivatives);
//  - PrescribedTable: q_a, q̇_a, q̈_a from a CSV table (key `motion_table`), e.g. the output of
//    `mechdyn invdyn` or of a rigid `simulate --mode inverse` — per actuated coordinate c the
//    columns whose names start with `q_<c>_`, `v_<c>_`, `a_<c>_`; between rows the quintic
//    Hermite polynomial through the two rows' q, q̇, q̈ (exact for polynomials up to degree 5,
//    and q̇, q̈ are its derivatives: the motion stays consistent);
//  - EffortTable: efforts τ_a(t) from a CSV table (key `tau_table`), columns starting with
//    `effort_<c>_` or `tau_<c>_`, linear between rows.
// Times outside a table's range are refused (UsageError naming the file and the time).
// Evaluation allocates nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mechdyn/flexible/newmark.hpp"
#include "motion_expressions.hpp"
#include "run_csv.hpp"

namespace mechdyn::cli {

/// A source of the prescribed motion of the actuated coordinates.
class PrescribedSource {
 public:
  virtual ~PrescribedSource() = default;
  /// q_a, q̇_a, q̈_a at t into `out` (sized by the caller: one entry per actuated coordinate).
  virtual void sample(double t, PrescribedMotion& out) = 0;
  /// UsageError unless the source covers [0, duration] (a table's times); checked before a run.
  virtual void require_times(double duration) const { (void)duration; }
};

class PrescribedPositions final : public PrescribedSource {
 public:
  /// One expression per actuated coordinate (`count`); UsageError naming `element` otherwise.
  PrescribedPositions(const std::vector<std::string>& expressions, Eigen::Index count, const std::string& element);
  void sample(double t, PrescribedMotion& out) override;

 private:
  std::unique_ptr<TimeExpressions> expressions_;
  std::unique_ptr<ExpressionDerivatives> derivatives_;
};

class PrescribedTable final : public PrescribedSource {
 public:
  /// `names`: the actuated coordinates' names (velocity_labels: joint name, `_1`/`_2`).
  PrescribedTable(const std::string& path, const std::vector<std::string>& names);
  void sample(double t, PrescribedMotion& out) override;
  void require_times(double duration) const override;

 private:
  std::string path_;
  RunTable table_;
  std::vector<std::size_t> q_, v_, a_;  // column of each coordinate's q, q̇, q̈
};

class EffortTable {
 public:
  EffortTable(const std::string& path, const std::vector<std::string>& names);
  /// τ_a(t) into `values` (one per name).
  void sample(double t, Eigen::Ref<VecX> values) const;
  void require_times(double duration) const;

 private:
  std::string path_;
  RunTable table_;
  std::vector<std::size_t> column_;
};

/// The row interval [k, k+1] of `table` holding t (clamped to the last interval at its end
/// time); UsageError naming `path` when t lies outside the table's times.
std::size_t table_interval(const RunTable& table, double t, const std::string& path);

}  // namespace mechdyn::cli
