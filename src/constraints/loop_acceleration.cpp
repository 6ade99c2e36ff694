// J̇ v of the closure equations (EC eq. 24 differentiated). See the header.
#include "mechdyn/constraints/loop_acceleration.hpp"

#include "loop_steps.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

namespace mechdyn {

namespace {

// Pose and motion of a loop's body (ground: at rest, identity).
struct Motion {
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
  Vec3 omega = Vec3::Zero(), velocity_origin = Vec3::Zero();   // [ω; v_O]
  Vec3 alpha = Vec3::Zero(), acceleration_origin = Vec3::Zero();  // [α; a_O] (spatial)

  Vec3 point_velocity(const Vec3& p) const { return velocity_origin + omega.cross(p); }
  Vec3 point_acceleration(const Vec3& p) const {
    return acceleration_origin + alpha.cross(p) + omega.cross(point_velocity(p));
  }
  Vec3 direction_rate(const Vec3& d) const { return omega.cross(d); }
  Vec3 direction_acceleration(const Vec3& d) const { return alpha.cross(d) + omega.cross(omega.cross(d)); }
};

Motion motion_of(const Data& data, int body) {
  Motion m;
  if (body == kGround) return m;
  m.rotation = data.rotation[body];
  m.position = data.position[body];
  m.omega = data.velocity[body].head<3>();
  m.velocity_origin = data.velocity[body].tail<3>();
  m.alpha = data.acceleration[body].head<3>();
  m.acceleration_origin = data.acceleration[body].tail<3>();
  return m;
}

// d²/dt² (x · y) for x carried by body ma, y by body mb (world directions).
double product_acceleration(const Motion& ma, const Vec3& x, const Motion& mb, const Vec3& y) {
  return ma.direction_acceleration(x).dot(y) + 2.0 * ma.direction_rate(x).dot(mb.direction_rate(y)) +
         x.dot(mb.direction_acceleration(y));
}

}  // namespace

const VecX& loop_bias_acceleration(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const Eigen::Ref<const VecX>& v) {
  check_state(model, q, &v);
  data.constraint_rhs_nv.setZero();
  forward_kinematics(model, data, q, v, data.constraint_rhs_nv);  // a = 0: accelerations are Ṡ q̇ only
  return detail::loop_bias_from_kinematics(model, data);
}

const VecX& detail::loop_bias_from_kinematics(const Model& model, Data& data) {
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int r = model.loop_row_index[i];
    const Motion ma = motion_of(data, loop.a.body), mb = motion_of(data, loop.b.body);
    const Vec3 pa = ma.position + ma.rotation * loop.a.point;
    const Vec3 pb = mb.position + mb.rotation * loop.b.point;
    const Vec3 d = pa - pb, d_rate = ma.point_velocity(pa) - mb.point_velocity(pb);
    const Vec3 d_acc = ma.point_acceleration(pa) - mb.point_acceleration(pb);
    auto& out = data.loop_bias;
    auto position_rows = [&](int row0) { out.segment<3>(row0) = d_acc; };  // (p_a − p_b)¨
    auto orientation_rows = [&](int row0) {  // ë = ½ Σ (ä_i × b_i + 2 ȧ_i × ḃ_i + a_i × b̈_i)
      Vec3 e = Vec3::Zero();
      for (int c = 0; c < 3; ++c) {
        const Vec3 ai = ma.rotation.col(c), bi = mb.rotation.col(c);
        e += 0.5 * (ma.direction_acceleration(ai).cross(bi) + 2.0 * ma.direction_rate(ai).cross(mb.direction_rate(bi)) +
                    ai.cross(mb.direction_acceleration(bi)));
      }
      out.segment<3>(row0) = e;
    };
    Vec3 t1, t2;
    perpendicular_pair(loop.axis, t1, t2);
    switch (loop.type) {
      case LoopType::Spherical:
        position_rows(r);
        break;
      case LoopType::Revolute: {  // r = t_b · n_a
        position_rows(r);
        const Vec3 na = ma.rotation * loop.axis;
        out[r + 3] = product_acceleration(mb, mb.rotation * t1, ma, na);
        out[r + 4] = product_acceleration(mb, mb.rotation * t2, ma, na);
        break;
      }
      case LoopType::Prismatic:
      case LoopType::PlanarRevolute: {  // r = t_a · δ, δ = ±(p_a − p_b)
        const double sign = loop.type == LoopType::Prismatic ? -1.0 : 1.0;
        const Vec3 ta[2] = {ma.rotation * t1, ma.rotation * t2};
        for (int c = 0; c < 2; ++c)
          out[r + c] = sign * (ma.direction_acceleration(ta[c]).dot(d) + 2.0 * ma.direction_rate(ta[c]).dot(d_rate) +
                               ta[c].dot(d_acc));
        if (loop.type == LoopType::Prismatic) orientation_rows(r + 2);
        break;
      }
      case LoopType::Universal:  // r = (Q_a n1) · (Q_b n2) − n1 · n2
        position_rows(r);
        out[r + 3] = product_acceleration(ma, ma.rotation * loop.axis, mb, mb.rotation * loop.second_axis);
        break;
      case LoopType::Fixed:
        position_rows(r);
        orientation_rows(r + 3);
        break;
    }
  }
  return data.loop_bias;
}

}  // namespace mechdyn
