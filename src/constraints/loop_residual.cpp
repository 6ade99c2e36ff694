// Closure residual without the Jacobian (the rows of loop_closure.cpp). See the header.
#include "mechdyn/constraints/loop_residual.hpp"

#include <algorithm>
#include <cmath>

#include "../model/cut_joint_dispatch.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// The row families of loop_rows.cpp, residuals only, keeping the largest |φ_r|.
class ResidualRows {
 public:
  ResidualRows(const Mat3& ra, const Mat3& rb, const Vec3& pa, const Vec3& pb, double& largest)
      : ra_(ra), rb_(rb), d_(pa - pb), largest_(largest) {}
  void position() {
    for (int c = 0; c < 3; ++c) keep(d_[c]);
  }
  void alignment(const Vec3& x_local_b, const Vec3& y_local_a, double offset) {
    keep((rb_ * x_local_b).dot(ra_ * y_local_a) - offset);
  }
  void tilt(const Vec3& n) {
    Vec3 t1, t2;
    perpendicular_pair(n, t1, t2);
    alignment(t1, n, 0.0);
    alignment(t2, n, 0.0);
  }
  void offset(const Vec3& n, double sign) {
    Vec3 t1, t2;
    perpendicular_pair(n, t1, t2);
    keep(sign * (ra_ * t1).dot(d_));
    keep(sign * (ra_ * t2).dot(d_));
  }
  void orientation() {  // e = ½ Σ a_i × b_i
    Vec3 e = Vec3::Zero();
    for (int c = 0; c < 3; ++c) e += 0.5 * Vec3(ra_.col(c)).cross(Vec3(rb_.col(c)));
    for (int c = 0; c < 3; ++c) keep(e[c]);
  }

 private:
  void keep(double x) { largest_ = std::max(largest_, std::abs(x)); }
  const Mat3& ra_;
  const Mat3& rb_;
  Vec3 d_;
  double& largest_;
};

}  // namespace

double loop_residual_norm(const Model& model, const Data& data) {
  check_data(model, data, "loop_residual_norm");
  check_kinematics(data, 0, "loop_residual_norm");
  double largest = 0.0;
  static const Mat3 identity = Mat3::Identity();
  static const Vec3 zero = Vec3::Zero();
  for (const Loop& loop : model.loops) {
    const Mat3& ra = loop.a.body == kGround ? identity : data.rotation[loop.a.body];
    const Mat3& rb = loop.b.body == kGround ? identity : data.rotation[loop.b.body];
    const Vec3& oa = loop.a.body == kGround ? zero : data.position[loop.a.body];
    const Vec3& ob = loop.b.body == kGround ? zero : data.position[loop.b.body];
    auto at = [](const Vec3& origin, const Mat3& rotation, const Vec3& point) {  // origin + R p (p = 0: a body origin)
      if (point.x() == 0.0 && point.y() == 0.0 && point.z() == 0.0) return origin;
      return Vec3(origin + rotation * point);
    };
    ResidualRows rows(ra, rb, at(oa, ra, loop.a.point), at(ob, rb, loop.b.point), largest);
    visit_cut_joint_kind(loop.type, [&](auto kind) { decltype(kind)::closure_rows(rows, loop); });
  }
  return largest;
}

}  // namespace mechdyn
