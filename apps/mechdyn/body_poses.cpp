// Each body's world pose as CSV columns: body_poses.hpp.
#include "body_poses.hpp"

#include <Eigen/Geometry>

#include <cmath>

#include "common.hpp"
#include "csv_output.hpp"

#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn::cli {

std::vector<std::string> body_pose_columns(const Model& model) {
  std::vector<std::string> columns;
  for (const Body& body : model.bodies) {
    for (const char* c : {"x_m", "y_m", "z_m", "qw", "qx", "qy", "qz"}) columns.push_back("pose_" + body.name + "_" + c);
  }
  return columns;
}

void body_poses(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, double* out) {
  forward_kinematics(model, data, q);
  for (int i = 0; i < model.num_bodies(); ++i) {
    Eigen::Quaterniond rotation(data.rotation[i]);
    rotation.normalize();
    if (rotation.w() < 0.0) rotation.coeffs() = -rotation.coeffs();  // one sign: qw ≥ 0
    double* p = out + 7 * i;
    for (int k = 0; k < 3; ++k) p[k] = data.position[i][k];
    p[3] = rotation.w(), p[4] = rotation.x(), p[5] = rotation.y(), p[6] = rotation.z();
  }
}

PoseOutput::PoseOutput(const Model& model, const std::string& path, std::ostream& standard_output) : model_(model) {
  if (path.empty()) return;
  csv_ = std::make_unique<CsvOutput>(path, standard_output);
  data_ = std::make_unique<Data>(model);
  values_.resize(7 * static_cast<std::size_t>(model.num_bodies()));
  std::vector<std::string> columns{"t_s"};
  for (std::string& c : body_pose_columns(model)) columns.push_back(std::move(c));
  csv_->stream() << csv_header_line(columns);
}

PoseOutput::~PoseOutput() = default;

void PoseOutput::write(double t, const Eigen::Ref<const VecX>& q) {
  if (!csv_) return;
  body_poses(model_, *data_, q, values_.data());
  row_ = format_number(t);
  for (double x : values_) {
    if (!std::isfinite(x)) throw SolverError("a body pose became non-finite at t = " + format_number(t) + " s");
    row_ += ',';
    row_ += format_number(x);
  }
  row_ += '\n';
  csv_->stream() << row_;
  csv_->check();
}

void PoseOutput::commit() {
  if (csv_) csv_->commit();
}

}  // namespace mechdyn::cli
