// The rows of the cut joints (EC §2.3, eqs. 24–26): the row families, which each kind
// (src/model/cut_joint_kinds/<type>.hpp) calls in its order. See
// constraints/loop_rows.hpp for every row, its unit wrenches and its J̇ v.
//
// Reads: data.rotation, data.position (and with_bias: data.velocity,
// data.bias_acceleration). Writes: data.loop_residual, data.loop_row_wrench_a,
// data.loop_row_wrench_b (and with_bias: data.loop_bias). Cost O(rows). Allocates nothing.
#include "mechdyn/constraints/loop_rows.hpp"

#include "../model/cut_joint_dispatch.hpp"
#include "loop_stages.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void perpendicular_pair(const Vec3& n, Vec3& t1, Vec3& t2) {
  // The world axis least aligned with n, made perpendicular: deterministic and smooth enough.
  int k = 0;
  if (std::abs(n.y()) < std::abs(n[k])) k = 1;
  if (std::abs(n.z()) < std::abs(n[k])) k = 2;
  t1 = (Vec3::Unit(k) - n * n[k]).normalized();
  t2 = n.cross(t1);
}

namespace {

// The ground's cut frame is at rest at the identity; a body's reads the kinematics stage.
CutFrame cut_frame(const Data& data, int body, bool with_motion) {
  CutFrame out;
  if (body == kGround) return out;
  out.rotation = data.rotation[body];
  out.position = data.position[body];
  if (!with_motion) return out;
  out.omega = data.velocity[body].head<3>();
  out.velocity_origin = data.velocity[body].tail<3>();
  out.alpha = data.bias_acceleration[body].head<3>();
  out.acceleration_origin = data.bias_acceleration[body].tail<3>();
  return out;
}

using CutBody = CutFrame;

// d²/dt² (x · y) for direction x carried by body bx and y by body by.
double product_acceleration(const CutBody& bx, const Vec3& x, const CutBody& by, const Vec3& y) {
  return bx.direction_acceleration(x).dot(y) + 2.0 * bx.direction_rate(x).dot(by.direction_rate(y)) +
         x.dot(by.direction_acceleration(y));
}

// Force u at world point p plus torque w, as a spatial force about the world origin.
Vec6 wrench(const Vec3& w, const Vec3& u, const Vec3& p) { return make_vec6(w + p.cross(u), u); }

// Writes the rows of one cut joint, family by family, from `row` on.
class RowWriter {
 public:
  RowWriter(const CutFrame& a, const CutFrame& b, const Loop& loop, bool with_bias, double* residual,
            Vec6* wrench_a, Vec6* wrench_b, double* bias)
      : residual_(residual), wrench_a_(wrench_a), wrench_b_(wrench_b), bias_(bias), a_(a), b_(b),
        with_bias_(with_bias) {
    pa_ = a_.point(loop.a.point);
    pb_ = b_.point(loop.b.point);
    if (with_bias) {
      pa_rate_ = a_.point_velocity(pa_);
      pb_rate_ = b_.point_velocity(pb_);
    }
  }

  // p_a − p_b (3 rows).
  void position() {
    const Vec3 d = pa_ - pb_;
    Vec3 d_acceleration = Vec3::Zero();
    if (with_bias_) d_acceleration = a_.point_acceleration(pa_) - b_.point_acceleration(pb_);
    for (int c = 0; c < 3; ++c) {
      const Vec3 e = Vec3::Unit(c);
      write(d[c], wrench(Vec3::Zero(), e, pa_), -wrench(Vec3::Zero(), e, pb_), d_acceleration[c]);
    }
  }

  // x_b · y_a − offset (1 row), x carried by b, y by a: rate (ω_a − ω_b) · (y × x).
  void alignment(const Vec3& x_local_b, const Vec3& y_local_a, double offset) {
    const Vec3 x = b_.rotation * x_local_b, y = a_.rotation * y_local_a;
    const Vec6 w = make_vec6(y.cross(x), Vec3::Zero());
    write(x.dot(y) - offset, w, -w, with_bias_ ? product_acceleration(b_, x, a_, y) : 0.0);
  }

  // t1_b · n_a, t2_b · n_a for t1, t2 ⟂ n (2 rows): the axis n fixed in both bodies.
  void tilt(const Vec3& n) {
    Vec3 t1, t2;
    perpendicular_pair(n, t1, t2);
    alignment(t1, n, 0.0);
    alignment(t2, n, 0.0);
  }

  // sign · t_a · (p_a − p_b) for t in {t1, t2} ⟂ the loop axis (2 rows).
  void offset(const Vec3& axis, double sign) {
    Vec3 t[2];
    perpendicular_pair(axis, t[0], t[1]);
    const Vec3 d = sign * (pa_ - pb_);
    Vec3 d_rate = Vec3::Zero(), d_acceleration = Vec3::Zero();
    if (with_bias_) {
      d_rate = sign * (pa_rate_ - pb_rate_);
      d_acceleration = sign * (a_.point_acceleration(pa_) - b_.point_acceleration(pb_));
    }
    for (const Vec3& local : t) {
      const Vec3 ta = a_.rotation * local;  // ṙ = ω_a·(t_a × δ) + t_a·δ̇
      const double bias = with_bias_ ? a_.direction_acceleration(ta).dot(d) + 2.0 * a_.direction_rate(ta).dot(d_rate) +
                                           ta.dot(d_acceleration)
                                     : 0.0;
      write(ta.dot(d), wrench(ta.cross(d), sign * ta, pa_), -wrench(Vec3::Zero(), sign * ta, pb_), bias);
    }
  }

  // e = ½ Σ_i a_i × b_i, a_i = Q_a e_i, b_i = Q_b e_i (3 rows): ė = A ω_a + B ω_b.
  void orientation() {
    Vec3 e = Vec3::Zero(), e_acceleration = Vec3::Zero();
    Mat3 a_rate = Mat3::Zero(), b_rate = Mat3::Zero();
    for (int c = 0; c < 3; ++c) {
      const Vec3 ai = a_.rotation.col(c), bi = b_.rotation.col(c);
      e += 0.5 * ai.cross(bi);
      a_rate += 0.5 * skew(bi) * skew(ai);
      b_rate -= 0.5 * skew(ai) * skew(bi);
      if (with_bias_)
        e_acceleration += 0.5 * (a_.direction_acceleration(ai).cross(bi) +
                                 2.0 * a_.direction_rate(ai).cross(b_.direction_rate(bi)) +
                                 ai.cross(b_.direction_acceleration(bi)));
    }
    for (int c = 0; c < 3; ++c)
      write(e[c], make_vec6(a_rate.row(c).transpose(), Vec3::Zero()), make_vec6(b_rate.row(c).transpose(), Vec3::Zero()),
            e_acceleration[c]);
  }

 private:
  void write(double residual, const Vec6& on_a, const Vec6& on_b, double bias) {
    residual_[row_] = residual;
    wrench_a_[row_] = on_a;
    wrench_b_[row_] = on_b;
    if (with_bias_) bias_[row_] = bias;
    ++row_;
  }

  double* residual_;
  Vec6* wrench_a_;
  Vec6* wrench_b_;
  double* bias_;
  const CutFrame& a_;
  const CutFrame& b_;
  bool with_bias_;
  int row_ = 0;
  Vec3 pa_, pb_, pa_rate_ = Vec3::Zero(), pb_rate_ = Vec3::Zero();
};

}  // namespace

void cut_joint_rows(const Loop& loop, const CutFrame& a, const CutFrame& b, bool with_bias, double* residual,
                    Vec6* wrench_a, Vec6* wrench_b, double* bias) {
  {
    RowWriter rows(a, b, loop, with_bias, residual, wrench_a, wrench_b, bias);
    // The kind's rows, in order (src/model/cut_joint_kinds/<type>.hpp).
    visit_cut_joint_kind(loop.type, [&](auto kind) { decltype(kind)::closure_rows(rows, loop); });
  }
}

void detail::evaluate_loop_rows(const Model& model, Data& data, bool with_bias) {
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int row = model.loop_row_index[i];
    const CutFrame a = cut_frame(data, loop.a.body, with_bias), b = cut_frame(data, loop.b.body, with_bias);
    cut_joint_rows(loop, a, b, with_bias, data.loop_residual.data() + row, data.loop_row_wrench_a.data() + row,
                   data.loop_row_wrench_b.data() + row, with_bias ? data.loop_bias.data() + row : nullptr);
  }
  // Couplings (force-elements.md): the row g = q_b − ratio q_a − offset, linear in q, so
  // J̇ v = 0; its generalized force Jᵀ λ acts on the two coordinates, not through a body
  // wrench pair (the unit wrenches are zero; J's row is set by loop_jacobian_from_rows).
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {
    const Coupling& coupling = model.couplings[c];
    const int row = model.coupling_row_index + static_cast<int>(c);
    const auto k = 2 * static_cast<Eigen::Index>(c);
    data.loop_residual[row] = visit_coupling_kind(coupling.type, [&](auto kind) {  // cut_joint_kinds/gear.hpp
      return decltype(kind)::residual(coupling, data.coupling_coordinates[k], data.coupling_coordinates[k + 1]);
    });
    data.loop_row_wrench_a[static_cast<std::size_t>(row)].setZero();
    data.loop_row_wrench_b[static_cast<std::size_t>(row)].setZero();
    if (with_bias) data.loop_bias[row] = 0.0;
  }
}

void loop_row_wrenches(const Model& model, Data& data) {
  check_data(model, data, "loop_row_wrenches");
  check_kinematics(data, 0, "loop_row_wrenches");
  detail::evaluate_loop_rows(model, data, false);
}

}  // namespace mechdyn
