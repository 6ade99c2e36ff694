// Cut-joint wrenches and closed-chain joint reactions (EC eqs. 25–26; Algorithm 1,
// lines 12–13). See the header.
#include "mechdyn/constraints/cut_joint_forces.hpp"

#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {

namespace {

// Force u at world point p plus torque w, as a spatial force about the world origin.
Vec6 wrench(const Vec3& w, const Vec3& u, const Vec3& p) { return make_vec6(w + p.cross(u), u); }

}  // namespace

void loop_row_wrenches(const Model& model, Data& data) {
  // Mirrors the rows of loop_closure.cpp: a term sign·(w·ω + u·v(p)) of body k's chain
  // in row r is the unit wrench sign·(torque w, force u at p) on body k.
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int r = model.loop_row_index[i];
    const Mat3 ra = loop.a.body == kGround ? Mat3::Identity() : data.rotation[loop.a.body];
    const Mat3 rb = loop.b.body == kGround ? Mat3::Identity() : data.rotation[loop.b.body];
    const Vec3 oa = loop.a.body == kGround ? Vec3::Zero() : data.position[loop.a.body];
    const Vec3 ob = loop.b.body == kGround ? Vec3::Zero() : data.position[loop.b.body];
    const Vec3 pa = oa + ra * loop.a.point, pb = ob + rb * loop.b.point, d = pa - pb;
    auto& wa = data.loop_row_wrench_a;
    auto& wb = data.loop_row_wrench_b;
    const Vec3 zero = Vec3::Zero();
    auto position_rows = [&](int row0) {
      for (int c = 0; c < 3; ++c) {
        wa[row0 + c] = wrench(zero, Vec3::Unit(c), pa);
        wb[row0 + c] = -wrench(zero, Vec3::Unit(c), pb);
      }
    };
    auto angular_row = [&](int row, const Vec3& w) {  // rate (ω_a − ω_b) · w
      wa[row] = wrench(w, zero, zero);
      wb[row] = -wrench(w, zero, zero);
    };
    auto orientation_rows = [&](int row0) {  // ė = A ω_a + B ω_b
      Mat3 a_rate = Mat3::Zero(), b_rate = Mat3::Zero();
      for (int c = 0; c < 3; ++c) {
        const Vec3 ai = ra.col(c), bi = rb.col(c);
        a_rate += 0.5 * skew(bi) * skew(ai);
        b_rate -= 0.5 * skew(ai) * skew(bi);
      }
      for (int c = 0; c < 3; ++c) {
        wa[row0 + c] = wrench(a_rate.row(c).transpose(), zero, zero);
        wb[row0 + c] = wrench(b_rate.row(c).transpose(), zero, zero);
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
        const Vec3 na = ra * loop.axis;
        angular_row(r + 3, na.cross(rb * t1));
        angular_row(r + 4, na.cross(rb * t2));
        break;
      }
      case LoopType::Prismatic:
      case LoopType::PlanarRevolute: {
        const double sign = loop.type == LoopType::Prismatic ? -1.0 : 1.0;
        const Vec3 delta = sign * d;
        const Vec3 ta[2] = {ra * t1, ra * t2};
        for (int c = 0; c < 2; ++c) {
          wa[r + c] = wrench(ta[c].cross(delta), sign * ta[c], pa);
          wb[r + c] = -wrench(zero, sign * ta[c], pb);
        }
        if (loop.type == LoopType::Prismatic) orientation_rows(r + 2);
        break;
      }
      case LoopType::Universal:
        position_rows(r);
        angular_row(r + 3, (ra * loop.axis).cross(rb * loop.second_axis));
        break;
      case LoopType::Fixed:
        position_rows(r);
        orientation_rows(r + 3);
        break;
    }
  }
}

void cut_joint_wrenches(const Model& model, Data& data) {
  loop_row_wrenches(model, data);
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const int r0 = model.loop_row_index[i], rows = loop_rows(loop.type);
    Vec6 on_a = Vec6::Zero(), on_b = Vec6::Zero();
    for (int r = r0; r < r0 + rows; ++r) {  // l_cS = Σ_r λ_r W_r  (EC eqs. 25–26)
      on_a += data.loop_multiplier[r] * data.loop_row_wrench_a[r];
      on_b += data.loop_multiplier[r] * data.loop_row_wrench_b[r];
    }
    data.cut_wrench_a[i] = on_a;
    data.cut_wrench_b[i] = on_b;
    const Mat3 ra = loop.a.body == kGround ? Mat3::Identity() : data.rotation[loop.a.body];
    const Vec3 oa = loop.a.body == kGround ? Vec3::Zero() : data.position[loop.a.body];
    data.cut_point[i] = oa + ra * loop.a.point;
    data.cut_force[i] = on_a.tail<3>();
    data.cut_torque[i] = moment_about(on_a, data.cut_point[i]);
  }
}

void closed_chain_joint_reactions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                  const Eigen::Ref<const VecX>& v, const Eigen::Ref<const VecX>& a) {
  joint_reactions(model, data, q, v, a);  // tree: f_{uL}, τ_{uL} without the cut joints (EC eq. 17)
  const int n = model.num_bodies();
  for (int l = 0; l < n; ++l) data.cut_subtree_wrench[l] = data.external_wrench[l];  // external wrenches on l
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    if (loop.a.body != kGround) data.cut_subtree_wrench[loop.a.body] += data.cut_wrench_a[i];
    if (loop.b.body != kGround) data.cut_subtree_wrench[loop.b.body] += data.cut_wrench_b[i];
  }
  for (int l = n - 1; l >= 0; --l) {
    const int parent = model.bodies[l].parent;
    if (parent != kGround) data.cut_subtree_wrench[parent] += data.cut_subtree_wrench[l];
  }
  // reaction + gravity + cut and external wrenches = inertial rate of the subtree uL.
  for (int u = 0; u < n; ++u) {
    const Vec6 w = data.subtree_force[u] - data.cut_subtree_wrench[u];
    data.subtree_force[u] = w;
    data.reaction_force[u] = w.tail<3>();
    data.reaction_torque[u] = moment_about(w, data.position[u]);
    const Joint& joint = model.joints[u];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) data.tau[k] = data.motion_axis[k].dot(w);
  }
}

}  // namespace mechdyn
