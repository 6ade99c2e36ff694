// Each body's world pose as CSV columns (docs/cli.md "--poses", docs/viewer.md): the
// layout that `simulate --poses FILE` writes and that `mechdyn view` embeds in its page.
//
//   t_s, then per body in file order: pose_<body>_x_m, _y_m, _z_m (the body frame origin,
//   world frame), pose_<body>_qw, _qx, _qy, _qz (the unit quaternion of R with
//   x_world = R x_body + position, the same R as eval's body_poses; qw ≥ 0)
//
// Computed by forward_kinematics (kinematics/forward_kinematics.hpp, EC §2.1 eqs. 4, 6)
// from q; costs one forward kinematics per row. Reads nothing from the run but q.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::cli {

/// The column names above (without t_s): 7 per body.
std::vector<std::string> body_pose_columns(const Model& model);

/// World poses of every body at q into `out` (7 numbers per body, the column order above).
/// Runs forward_kinematics on `data`.
void body_poses(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, double* out);

class CsvOutput;

/// `simulate --poses FILE`: one row of poses per CSV row of the run, written beside it
/// through CsvOutput (temporary file renamed by commit(); removed when the run fails).
class PoseOutput {
 public:
  /// `path` empty: disabled (write and commit do nothing).
  PoseOutput(const Model& model, const std::string& path, std::ostream& standard_output);
  ~PoseOutput();
  void write(double t, const Eigen::Ref<const VecX>& q);
  void commit();

 private:
  const Model& model_;
  std::unique_ptr<CsvOutput> csv_;
  std::unique_ptr<Data> data_;
  std::vector<double> values_;
  std::string row_;
};

}  // namespace mechdyn::cli
