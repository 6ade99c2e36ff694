// Closure equations of cut joints (EC §2.3, eq. 24). See the header for the rows.
#include "mechdyn/constraints/loop_closure.hpp"

#include "loop_steps.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/math/skew.hpp"

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

struct Frame {  // pose of a loop's body (identity for ground)
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
};

Frame frame_of(const Data& data, int body) {
  Frame f;
  if (body != kGround) {
    f.rotation = data.rotation[body];
    f.position = data.position[body];
  }
  return f;
}

// Adds sign * (w ⋅ angular rate + u ⋅ velocity of the world point p) of `body` to row `row`:
// for every coordinate k on the chain ground → body, the rate of that row is
// w·ω_k + u·(v_O,k + ω_k × p), with the motion axis s_k = [ω_k; v_O,k].
void add_row(const Model& model, const Data& data, int body, double sign, const Vec3& w, const Vec3& u,
             const Vec3& p, Eigen::Ref<MatX> jacobian, int row) {
  for (int b = body; b != kGround; b = model.bodies[b].parent) {
    const Joint& joint = model.joints[b];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6& s = data.motion_axis[k];
      const Vec3 omega = s.head<3>();
      const Vec3 point_velocity = s.tail<3>() + omega.cross(p);
      jacobian(row, k) += sign * (w.dot(omega) + u.dot(point_velocity));
    }
  }
}

// Rows whose rate is (ω_a − ω_b) · w.
void add_angular_row(const Model& model, const Data& data, const Loop& loop, const Vec3& w, Eigen::Ref<MatX> j,
                     int row) {
  add_row(model, data, loop.a.body, 1.0, w, Vec3::Zero(), Vec3::Zero(), j, row);
  add_row(model, data, loop.b.body, -1.0, w, Vec3::Zero(), Vec3::Zero(), j, row);
}

}  // namespace

void loop_closure(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  forward_kinematics(model, data, q);
  detail::loop_closure_from_kinematics(model, data);
}

void detail::loop_closure_from_kinematics(const Model& model, Data& data) {
  data.loop_jacobian.setZero();
  auto& phi = data.loop_residual;
  auto& jac = data.loop_jacobian;
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int r = model.loop_row_index[i];
    const Frame fa = frame_of(data, loop.a.body), fb = frame_of(data, loop.b.body);
    const Vec3 pa = fa.position + fa.rotation * loop.a.point;
    const Vec3 pb = fb.position + fb.rotation * loop.b.point;
    const Vec3 d = pa - pb;
    auto position_rows = [&](int row0) {  // p_a − p_b, 3 rows: rate e_c·(v_a(p_a) − v_b(p_b))
      for (int c = 0; c < 3; ++c) {
        phi[row0 + c] = d[c];
        add_row(model, data, loop.a.body, 1.0, Vec3::Zero(), Vec3::Unit(c), pa, jac, row0 + c);
        add_row(model, data, loop.b.body, -1.0, Vec3::Zero(), Vec3::Unit(c), pb, jac, row0 + c);
      }
    };
    auto orientation_rows = [&](int row0) {  // e = ½ Σ a_i × b_i, ė = A ω_a + B ω_b
      Vec3 e = Vec3::Zero();
      Mat3 a_rate = Mat3::Zero(), b_rate = Mat3::Zero();
      for (int c = 0; c < 3; ++c) {
        const Vec3 ai = fa.rotation.col(c), bi = fb.rotation.col(c);
        e += 0.5 * ai.cross(bi);
        a_rate += 0.5 * skew(bi) * skew(ai);
        b_rate -= 0.5 * skew(ai) * skew(bi);
      }
      for (int c = 0; c < 3; ++c) {
        phi[row0 + c] = e[c];
        add_row(model, data, loop.a.body, 1.0, a_rate.row(c).transpose(), Vec3::Zero(), Vec3::Zero(), jac, row0 + c);
        add_row(model, data, loop.b.body, 1.0, b_rate.row(c).transpose(), Vec3::Zero(), Vec3::Zero(), jac, row0 + c);
      }
    };
    Vec3 t1, t2;
    perpendicular_pair(loop.axis, t1, t2);
    switch (loop.type) {
      case LoopType::Spherical:
        position_rows(r);
        break;
      case LoopType::Revolute: {
        position_rows(r);
        const Vec3 na = fa.rotation * loop.axis;
        const Vec3 tb[2] = {fb.rotation * t1, fb.rotation * t2};
        for (int c = 0; c < 2; ++c) {  // r = t_b · n_a, ṙ = (ω_a − ω_b) · (n_a × t_b)
          phi[r + 3 + c] = tb[c].dot(na);
          add_angular_row(model, data, loop, na.cross(tb[c]), jac, r + 3 + c);
        }
        break;
      }
      case LoopType::Prismatic:
      case LoopType::PlanarRevolute: {
        // r = t_a · (p_b − p_a) (prismatic) or t_a · (p_a − p_b) (planar);
        // ṙ = (ω_a × t_a)·δ + t_a·δ̇ = ω_a·(t_a × δ) + t_a·δ̇.
        const double sign = loop.type == LoopType::Prismatic ? -1.0 : 1.0;
        const Vec3 delta = sign * d;
        const Vec3 ta[2] = {fa.rotation * t1, fa.rotation * t2};
        for (int c = 0; c < 2; ++c) {
          phi[r + c] = ta[c].dot(delta);
          add_row(model, data, loop.a.body, 1.0, ta[c].cross(delta), sign * ta[c], pa, jac, r + c);
          add_row(model, data, loop.b.body, -1.0, Vec3::Zero(), sign * ta[c], pb, jac, r + c);
        }
        if (loop.type == LoopType::Prismatic) orientation_rows(r + 2);
        break;
      }
      case LoopType::Universal: {
        position_rows(r);
        const Vec3 a1 = fa.rotation * loop.axis, b2 = fb.rotation * loop.second_axis;
        phi[r + 3] = a1.dot(b2) - loop.axis.dot(loop.second_axis);
        add_angular_row(model, data, loop, a1.cross(b2), jac, r + 3);  // ṙ = (ω_a − ω_b)·(a × b)
        break;
      }
      case LoopType::Fixed:
        position_rows(r);
        orientation_rows(r + 3);
        break;
    }
  }
}

}  // namespace mechdyn
