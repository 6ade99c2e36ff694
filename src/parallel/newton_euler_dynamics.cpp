// Newton–Euler inverse dynamics with every joint wrench unknown (MS Appendix A;
// screw-kinematics §5 eqs. 51–58). See the header.
#include "mechdyn/parallel/newton_euler_dynamics.hpp"

#include <algorithm>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/parallel/screw_gram.hpp"
#include "mechdyn/parallel/momentum_screw_dynamics.hpp"
#include "mechdyn/parallel/parallel_model.hpp"

namespace mechdyn {

namespace {

// A wrench [m_c; f] in the joint's centre coordinates → [m_c + c × f; f] about the world origin.
Vec6 about_origin(const Vec6& at_centre, const Vec3& centre) {
  Vec6 out = at_centre;
  out.head<3>() += centre.cross(at_centre.tail<3>());
  return out;
}

}  // namespace

NewtonEulerWorkspace::NewtonEulerWorkspace(const Model& model) {
  const int n = model.num_bodies();
  body_group.assign(static_cast<std::size_t>(n), -1);
  for (int b = 0; b < n; ++b) {
    const int parent = model.bodies[b].parent;
    if (model.joints[b].type == JointType::Fixed) body_group[b] = parent == kGround ? -1 : body_group[parent];
    else body_group[b] = groups++;
  }
  for (const Joint& joint : model.joints)
    if (joint.actuated)
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) actuated_dofs.push_back(k);
  std::sort(actuated_dofs.begin(), actuated_dofs.end());
  int column = static_cast<int>(actuated_dofs.size());
  auto group_of = [&](int body) { return body == kGround ? -1 : body_group[body]; };
  for (int b = 0; b < n; ++b) {
    const Joint& joint = model.joints[b];
    NewtonEulerJoint j;
    j.index = b;
    j.child_group = body_group[b];
    j.parent_group = group_of(model.bodies[b].parent);
    j.internal = joint.type == JointType::Fixed;
    j.freedoms = joint.nv;
    j.unknowns = j.internal ? 0 : 6 - joint.nv;
    j.first_unknown = column;
    column += j.unknowns;
    for (int k = 0; k < joint.nv; ++k) {
      const int dof = joint.v_index + k;
      const auto at = std::find(actuated_dofs.begin(), actuated_dofs.end(), dof);
      j.effort_unknowns.push_back(joint.actuated ? static_cast<int>(at - actuated_dofs.begin()) : -1);
    }
    joints.push_back(j);
  }
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    NewtonEulerJoint j;
    j.cut = true;
    j.index = static_cast<int>(i);
    j.child_group = group_of(loop.a.body);
    j.parent_group = group_of(loop.b.body);
    j.freedoms = cut_joint_facts(loop.type).freedoms;
    j.unknowns = 6 - j.freedoms;
    j.first_unknown = column;
    column += j.unknowns;
    j.effort_unknowns.assign(static_cast<std::size_t>(j.freedoms), -1);
    joints.push_back(j);
  }
  basis = MatX::Zero(6, column);
  system = MatX::Zero(6 * groups, column);
  right_hand_side = VecX::Zero(6 * groups);
  unknowns = VecX::Zero(column);
  solver.resize(6 * groups, column, static_cast<Eigen::Index>(actuated_dofs.size()));
  body_load.assign(static_cast<std::size_t>(n), Vec6::Zero());
  effort = VecX::Zero(model.nv);
  joint_wrench.assign(static_cast<std::size_t>(n) + model.loops.size(), Vec6::Zero());
}

void newton_euler_inverse_dynamics(const Model& model, const Data& data, const AlignedVector<Vec6>& external,
                                   NewtonEulerWorkspace& work, double rank_tolerance) {
  const int n = model.num_bodies();
  // Right-hand side: Σ_{b∈B} (dΓ_b/dt − $_g − $_e) per rigid body (eqs. 51, 53–55).
  work.right_hand_side.setZero();
  for (int b = 0; b < n; ++b) {
    const Body& body = model.bodies[b];
    work.body_load[b] = body_load(body.mass, data.com_position[b], data.inertia_world[b], model.gravity,
                                  data.velocity[b], data.acceleration[b], external[b]);
    if (work.body_group[b] >= 0) work.right_hand_side.segment<6>(6 * work.body_group[b]) += work.body_load[b];
  }
  // Columns: the unit wrenches of every joint's unknowns (efforts and constraint parts).
  work.system.setZero();
  LimbScrews freedoms, dual, constraint;
  ScrewGram gram;
  for (const NewtonEulerJoint& j : work.joints) {
    if (j.internal) continue;
    Vec3 centre;
    freedoms.setZero(6, j.freedoms);
    if (!j.cut) {  // motion axes moved to the joint's centre: (ω; v_O + ω × c)
      const Joint& joint = model.joints[j.index];
      centre = data.position[j.index];
      for (int k = 0; k < j.freedoms; ++k) {
        const Vec6& s = data.motion_axis[joint.v_index + k];
        freedoms.col(k) << s.head<3>(), s.tail<3>() + s.head<3>().cross(centre);
      }
    } else {
      const Loop& loop = model.loops[static_cast<std::size_t>(j.index)];
      const Mat3 ra = loop.a.body == kGround ? Mat3::Identity() : data.rotation[loop.a.body];
      const Mat3 rb = loop.b.body == kGround ? Mat3::Identity() : data.rotation[loop.b.body];
      centre = (loop.a.body == kGround ? Vec3::Zero() : data.position[loop.a.body]) + ra * loop.a.point;
      CutFreedom axes[4];  // the kind's freedoms (model/cut_joint.hpp): [n; 0] or [0; n] at the centre
      const int count = cut_joint_freedom_axes(loop, ra, rb, axes);
      for (int k = 0; k < count; ++k)
        if (axes[k].rotation) freedoms.col(k) << axes[k].direction, Vec3::Zero();
        else freedoms.col(k) << Vec3::Zero(), axes[k].direction;
    }
    dual.setZero(6, j.freedoms);
    constraint.setZero(6, 6 - j.freedoms);
    if (gram.factor(freedoms, 1e-7) < j.freedoms)
      throw SolverError(std::string("the freedoms of joint '") +
                        (j.cut ? model.loops[static_cast<std::size_t>(j.index)].name : model.joints[j.index].name) +
                        "' are dependent");
    gram.dual_basis(freedoms, dual);
    gram.reciprocal_basis(freedoms, constraint);
    auto place = [&](int col, const Vec6& at_centre) {
      const Vec6 w = about_origin(at_centre, centre);
      work.basis.col(col) = w;
      if (j.child_group >= 0) work.system.block<6, 1>(6 * j.child_group, col) += w;
      if (j.parent_group >= 0) work.system.block<6, 1>(6 * j.parent_group, col) -= w;
    };
    for (int k = 0; k < j.unknowns; ++k) place(j.first_unknown + k, constraint.col(k));
    for (int k = 0; k < j.freedoms; ++k)
      if (j.effort_unknowns[k] >= 0) place(j.effort_unknowns[k], dual.col(k));
  }
  if (!work.solver.solve(work.system, work.right_hand_side, work.unknowns, rank_tolerance))
    throw SolverError("the joint forces cannot balance every body (the Newton–Euler system loses row rank): a "
                      "singular configuration");
  work.effort.setZero();
  for (std::size_t c = 0; c < work.actuated_dofs.size(); ++c)
    work.effort[work.actuated_dofs[c]] = work.unknowns[static_cast<Eigen::Index>(c)];
  for (const NewtonEulerJoint& j : work.joints) {
    if (j.internal) continue;
    Vec6 wrench = Vec6::Zero();
    for (int k = j.first_unknown; k < j.first_unknown + j.unknowns; ++k) wrench += work.basis.col(k) * work.unknowns[k];
    for (int k = 0; k < j.freedoms; ++k)
      if (j.effort_unknowns[k] >= 0) wrench += work.basis.col(j.effort_unknowns[k]) * work.unknowns[j.effort_unknowns[k]];
    work.joint_wrench[static_cast<std::size_t>(j.cut ? n + j.index : j.index)] = wrench;
  }
  // Welds: T_l = F_l + Σ_children T_c − (cut wrenches received by l), bottom-up.
  for (int l = n - 1; l >= 0; --l) {
    if (!work.joints[static_cast<std::size_t>(l)].internal) continue;
    Vec6 transmitted = work.body_load[l];
    for (int child : model.children[l]) transmitted += work.joint_wrench[static_cast<std::size_t>(child)];
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      const Vec6& on_a = work.joint_wrench[static_cast<std::size_t>(n) + i];
      if (model.loops[i].a.body == l) transmitted -= on_a;
      if (model.loops[i].b.body == l) transmitted += on_a;
    }
    work.joint_wrench[static_cast<std::size_t>(l)] = transmitted;
  }
}

}  // namespace mechdyn
