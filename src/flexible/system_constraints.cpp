// Cut-joint constraints on deformed beams (flexible/flexible_system.hpp): Φ(q), J and J̇ v.
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt §3, eqs. (41)–(63) (the constraint equations
// at position, velocity and acceleration level; Baumgarte's stabilisation uses them as
// Φ̈ + 2α Φ̇ + β² Φ = 0, eq. 60); the rows of each cut-joint type are the rigid ones
// (constraints/loop_rows.hpp, cut_joint_rows) with a side on a beam replaced by the
// section frame at its loop point: rotation R_b Λ, the point on the deformed beam,
// spatial Jacobian J_b plus the section's elastic columns (system_section.hpp). A row's
// Jacobian is W_aᵀ J_a + W_bᵀ J_b with its unit wrenches W on the two sides. The couplings'
// rows (gears, force-elements.md) follow, as in constraints/loop_rows.cpp.
// Cost O(rows · nv). Reads the kinematics in FlexibleSystemData (level 1 for J̇ v). Writes
// loop_residual, loop_jacobian, loop_bias, loop_wrench_a/_b, point. Allocates nothing.
#include "../model/cut_joint_dispatch.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "system_section.hpp"

namespace mechdyn {
namespace {

// The cut frame of one side and its spatial Jacobian (zero for the ground).
CutFrame side(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, const BodyPoint& at,
              int point_index, const Eigen::Ref<const VecX>& q, const double* v, Mat6X& jacobian) {
  CutFrame out;
  if (at.body == kGround) {
    jacobian.setZero();
    return out;
  }
  const std::size_t b = static_cast<std::size_t>(at.body);
  if (point_index < 0) {
    out.rotation = data.rotation[b];
    out.position = data.position[b];
    jacobian = data.jacobian[b];
    if (v != nullptr) {
      out.omega = data.velocity[b].head<3>();
      out.velocity_origin = data.velocity[b].tail<3>();
      out.alpha = data.bias_acceleration[b].head<3>();
      out.acceleration_origin = data.bias_acceleration[b].tail<3>();
    }
    return out;
  }
  detail::SectionMotion section;
  detail::section_frame(model, system, data, at.body, point_index, q, v, jacobian, section);
  // A virtual rigid frame with the section's rotation that carries the loop point to the
  // point on the deformed beam: position + rotation · point = the deformed point.
  out.rotation = section.rotation;
  out.position = section.point - section.rotation * at.point;
  if (v != nullptr) {
    out.omega = section.velocity.head<3>();
    out.velocity_origin = section.velocity.tail<3>();
    out.alpha = section.acceleration.head<3>();
    out.acceleration_origin = section.acceleration.tail<3>();
  }
  return out;
}

}  // namespace

void flexible_loop_closure(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                           const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v) {
  if (data.kinematics_level < 0) throw InvalidArgument("flexible_loop_closure: run flexible_kinematics first");
  const bool with_bias = v.size() > 0;
  if (with_bias && data.kinematics_level < 1)
    throw InvalidArgument("flexible_loop_closure: J̇ v needs flexible_kinematics with v");
  const double* rates = with_bias ? v.data() : nullptr;
  for (std::size_t l = 0; l < model.loops.size(); ++l) {
    const Loop& loop = model.loops[l];
    const int row = model.loop_row_index[l];
    const CutFrame a = side(model, system, data, loop.a, system.loop_point_a[l], q, rates, data.side_jacobian_a);
    const CutFrame b = side(model, system, data, loop.b, system.loop_point_b[l], q, rates, data.side_jacobian_b);
    cut_joint_rows(loop, a, b, with_bias, data.loop_residual.data() + row, data.loop_wrench_a.data() + row,
                   data.loop_wrench_b.data() + row, data.loop_bias.data() + row);
    for (int r = row; r < row + loop_rows(loop.type); ++r) {
      const std::size_t k = static_cast<std::size_t>(r);
      data.loop_jacobian.row(r).noalias() = data.loop_wrench_a[k].transpose() * data.side_jacobian_a;
      data.loop_jacobian.row(r).noalias() += data.loop_wrench_b[k].transpose() * data.side_jacobian_b;
    }
  }
  // Couplings (force-elements.md): g = q_b − ratio q_a − offset on joints of one coordinate,
  // linear in q: J = e_bᵀ − ratio e_aᵀ, J̇ v = 0; no unit wrenches (Jᵀ λ acts on the coordinates).
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {
    const Coupling& coupling = model.couplings[c];
    const int row = model.coupling_row_index + static_cast<int>(c);
    const Joint& a = model.joints[static_cast<std::size_t>(coupling.a)];
    const Joint& b = model.joints[static_cast<std::size_t>(coupling.b)];
    data.loop_jacobian.row(row).setZero();
    visit_coupling_kind(coupling.type, [&](auto kind) {  // src/model/cut_joint_kinds/gear.hpp
      using Kind = decltype(kind);
      data.loop_residual[row] = Kind::residual(coupling, q[a.q_index], q[b.q_index]);
      data.loop_jacobian(row, b.v_index) += Kind::coefficient_b(coupling);
      data.loop_jacobian(row, a.v_index) += Kind::coefficient_a(coupling);
    });
    data.loop_wrench_a[static_cast<std::size_t>(row)].setZero();
    data.loop_wrench_b[static_cast<std::size_t>(row)].setZero();
    if (with_bias) data.loop_bias[row] = 0.0;
  }
}

}  // namespace mechdyn
