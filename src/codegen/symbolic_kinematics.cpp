// Symbolic joint kinematics in body coordinates (symbolic_kinematics.hpp).
//
// Sources: EC §2.1 eqs. (1)–(4) for revolute and prismatic joints; the other types as
// src/model/joint_kinds/*.hpp define them (docs/joints.md §1–3). Each kind states its
// relative pose as elementary motions (its `motions`, joint_kinds/common.hpp JointMotion:
// turn, slide, quaternion, shift, each in the frame the ones before leave), and this file
// builds every joint from them without a test of the joint type:
//   E = product of the turns' and quaternions' rotations, r = r₀ + the slides' n q and the
//   shift; a turn's or slide's column of S is its axis carried to the body by the turns
//   after it (a turn about the same axis leaves it), [n; 0] or [0; n]; a quaternion's
//   and a shift's columns are the rows of Q_l (world velocity components);
//   c = v_λ × S q̇ + Σ_{j<k} (s_j q̇_j) × (s_k q̇_k) over columns on different axes, or, with
//   world velocity components, [0; (u_λ + the shift's velocity) × ω]. Per type:
//   revolute     E = 1 + ñ sin φ + ñ²(1 − cos φ) (eq. 3), r = r₀;        S = [n; 0]
//   prismatic    E = 1, r = r₀ + n d (eq. 2);                              S = [0; n]
//   cylindrical  E as revolute, r = r₀ + n d;                              S = [n, 0; 0, n]
//   universal    E = E(n₁, q₁) E(n₂, q₂), r = r₀;                          S = [E₂ᵀ n₁, n₂; 0, 0]
//   spherical    E = E(quaternion), r = r₀;   v world components:        S = [Q_lᵀ; 0]
//   free         E = E(quaternion), r = r₀ + p;                            S = [0, Q_lᵀ; Q_lᵀ, 0]
//   fixed        E = 1, r = r₀
// and c = Ṡ q̇ + v × S q̇ as each kind's body_motion adds it. An axis ±e_k gives the
// principal rotation [c −s; s c] directly (its Rodrigues form would leave c + (1 − c) on
// the diagonal, which the graph does not fold to 1).
// Cost: O(n) graph nodes. Reads: the model. Writes: graph nodes only.
#include "symbolic_kinematics.hpp"

#include <string>
#include <utility>
#include <vector>

#include "../model/joint_dispatch.hpp"
#include "c_names.hpp"

namespace mechdyn::codegen {

namespace {

/// The rotation by `angle` about the constant unit axis n (EC eq. 3), named after the joint.
SMat3 axis_rotation(const Vec3& n, Expr angle, const std::string& name) {
  const Expr c = named(cos(angle), "c_" + name), s = named(sin(angle), "s_" + name);
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    if (n[i] == 0.0 && n[j] == 0.0 && (n[k] == 1.0 || n[k] == -1.0)) {  // n = ±e_k
      const Expr signed_s = n[k] * s;
      SMat3 r;
      r(k, k) = Expr(1.0);
      r(i, i) = c, r(j, j) = c;
      r(j, i) = signed_s, r(i, j) = -signed_s;
      return r;
    }
  }
  // Rodrigues, in the same arrangement as math/skew.hpp's axis_angle_rotation.
  const Expr t = named(1.0 - c, "t_" + name);
  const Expr tx = t * n.x(), ty = t * n.y(), tz = t * n.z();
  const Expr txy = tx * n.y(), txz = tx * n.z(), tyz = ty * n.z();
  const Expr sx = s * n.x(), sy = s * n.y(), sz = s * n.z();
  SMat3 r;
  r(0, 0) = c + tx * n.x(), r(0, 1) = txy - sz, r(0, 2) = txz + sy;
  r(1, 0) = txy + sz, r(1, 1) = c + ty * n.y(), r(1, 2) = tyz - sx;
  r(2, 0) = txz - sy, r(2, 1) = tyz + sx, r(2, 2) = c + tz * n.z();
  return r;
}

/// The rotation of the unit quaternion (w, x, y, z) at q (Eigen's toRotationMatrix form).
SMat3 quaternion_rotation(const Expr* q) {
  const Expr w = q[0], x = q[1], y = q[2], z = q[3];
  const Expr tx = 2.0 * x, ty = 2.0 * y, tz = 2.0 * z;
  const Expr twx = tx * w, twy = ty * w, twz = tz * w;
  const Expr txx = tx * x, txy = ty * x, txz = tz * x;
  const Expr tyy = ty * y, tyz = tz * y, tzz = tz * z;
  SMat3 r;
  r(0, 0) = 1.0 - (tyy + tzz), r(0, 1) = txy - twz, r(0, 2) = txz + twy;
  r(1, 0) = txy + twz, r(1, 1) = 1.0 - (txx + tzz), r(1, 2) = tyz - twx;
  r(2, 0) = txz - twy, r(2, 1) = tyz + twx, r(2, 2) = 1.0 - (txx + tyy);
  return r;
}

SVec3 row(const SMat3& m, int k) { return {{m(k, 0), m(k, 1), m(k, 2)}}; }

SSpatial angular_axis(const SVec3& n) { return {n, SVec3{}}; }
SSpatial linear_axis(const SVec3& n) { return {SVec3{}, n}; }

using joint_kinds::JointMotion;
using joint_kinds::JointMotions;

/// The joint's elementary motions (its kind's `motions`).
JointMotions motions_of(const Joint& joint) {
  return visit_joint_kind(joint.kind, [](auto kind) { return decltype(kind)::motions; });
}

/// Whether the joint's velocities are world components (a quaternion or a shift among its
/// motions): its columns are rows of Q_l, and c follows the moving origin (docs/joints.md §3).
bool world_components(const JointMotions& motions) {
  for (int j = 0; j < motions.count; ++j)
    if (motions.steps[j].kind == JointMotion::Quaternion || motions.steps[j].kind == JointMotion::Shift) return true;
  return false;
}

}  // namespace

std::vector<Expr> configuration_inputs(const Model& model) {
  std::vector<CoordinateName> names, unused;
  for (const Joint& joint : model.joints) joint_coordinate_names(joint, names, unused);
  std::vector<Expr> q;
  for (int k = 0; k < model.nq; ++k) q.push_back(input("q", k, "q_" + c_identifier(names[static_cast<std::size_t>(k)].name)));
  return q;
}

std::vector<Expr> velocity_inputs(const Model& model, const std::string& array) {
  std::vector<CoordinateName> unused, names;
  for (const Joint& joint : model.joints) joint_coordinate_names(joint, unused, names);
  std::vector<Expr> v;
  for (int k = 0; k < model.nv; ++k)
    v.push_back(input(array, k, array + "_" + c_identifier(names[static_cast<std::size_t>(k)].name)));
  return v;
}

SymbolicTree symbolic_positions(const Model& model, const std::vector<Expr>& q) {
  const int n = model.num_bodies();
  SymbolicTree tree;
  tree.joints.resize(static_cast<std::size_t>(n));
  tree.world_rotation.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const Joint& joint = model.joints[static_cast<std::size_t>(i)];
    const Expr* qj = q.data() + joint.q_index;
    SymbolicJoint& s = tree.joints[static_cast<std::size_t>(i)];
    const std::string name = c_identifier(joint.name);
    s.nv = joint.nv;
    s.translation = SVec3::constant(joint.origin);
    s.rotation = SMat3::identity();
    const SVec3 n1 = SVec3::constant(joint.axis);
    const JointMotions motions = motions_of(joint);
    const int count = motions.count;
    int first_q[2] = {0, 0}, first_v[2] = {0, 0};  // each motion's first coordinate and velocity
    int turns = 0;
    for (int j = 0, at_q = 0, at_v = 0; j < count; ++j) {
      const JointMotion::Kind kind = motions.steps[j].kind;
      first_q[j] = at_q, first_v[j] = at_v;
      at_q += kind == JointMotion::Quaternion ? 4 : kind == JointMotion::Shift ? 3 : 1;
      at_v += kind == JointMotion::Quaternion || kind == JointMotion::Shift ? 3 : 1;
      turns += kind == JointMotion::Turn;
    }
    auto axis_of = [&](const JointMotion& m) { return m.axis == 1 ? joint.second_axis : joint.axis; };
    // Rotations, the last motion's first (E = E₁ E₂ …): E_j for every turn (eq. 3; named
    // "<joint>_1", "_2" when there are two) and quaternion.
    SMat3 rotation_of[2];
    bool turning[2] = {false, false};
    for (int j = count - 1; j >= 0; --j) {
      const JointMotion& m = motions.steps[j];
      if (m.kind == JointMotion::Turn) {
        int index = 0;  // among the turns
        for (int k = 0; k < j; ++k) index += motions.steps[k].kind == JointMotion::Turn;
        const std::string suffix = turns > 1 ? "_" + std::to_string(index + 1) : "";
        rotation_of[j] = axis_rotation(axis_of(m), qj[first_q[j]], name + suffix);
        turning[j] = true;
      } else if (m.kind == JointMotion::Quaternion) {
        rotation_of[j] = named(quaternion_rotation(qj + first_q[j]), "E_" + name);
        turning[j] = true;
      }
    }
    bool rotated = false;
    for (int j = 0; j < count; ++j)
      if (turning[j]) {
        s.rotation = rotated ? s.rotation * rotation_of[j] : rotation_of[j];
        rotated = true;
      }
    // Translations: r = r₀ + n q (a slide: eq. 2; the turns before it are about its own
    // axis, which they leave) + the shift.
    for (int j = 0; j < count; ++j) {
      const JointMotion& m = motions.steps[j];
      const Expr* qm = qj + first_q[j];
      if (m.kind == JointMotion::Slide)
        s.translation = s.translation + qm[0] * (m.axis == 1 ? SVec3::constant(joint.second_axis) : n1);
      else if (m.kind == JointMotion::Shift)
        s.translation = s.translation + SVec3{{qm[0], qm[1], qm[2]}};
    }
    // Columns of a turn or slide: its axis in the body, E_{j+1}ᵀ … n (the turns after it
    // about another axis carry it: universal's n₁ in the child is E₂ᵀ n₁).
    for (int j = 0; j < count; ++j) {
      const JointMotion& m = motions.steps[j];
      if (m.kind != JointMotion::Turn && m.kind != JointMotion::Slide) continue;
      SVec3 n = m.axis == 1 ? SVec3::constant(joint.second_axis) : n1;
      for (int k = j + 1; k < count; ++k)
        if (turning[k] && !(motions.steps[k].kind == JointMotion::Turn && motions.steps[k].axis == m.axis))
          n = transpose_times(rotation_of[k], n);
      s.axes[first_v[j]] = m.kind == JointMotion::Turn ? angular_axis(n) : linear_axis(n);
    }
    const int parent = model.bodies[static_cast<std::size_t>(i)].parent;
    SMat3& world = tree.world_rotation[static_cast<std::size_t>(i)];
    world = parent == kGround ? s.rotation : tree.world_rotation[static_cast<std::size_t>(parent)] * s.rotation;
    world = named(world, "Q_" + c_identifier(model.bodies[static_cast<std::size_t>(i)].name));  // EC eq. (4)
    // Columns of a quaternion or shift: world ω or v → body, the rows of Q_l.
    for (int j = 0; j < count; ++j) {
      const JointMotion::Kind kind = motions.steps[j].kind;
      if (kind == JointMotion::Quaternion)
        for (int k = 0; k < 3; ++k) s.axes[first_v[j] + k] = angular_axis(row(world, k));
      else if (kind == JointMotion::Shift)
        for (int k = 0; k < 3; ++k) s.axes[first_v[j] + k] = linear_axis(row(world, k));
    }
  }
  return tree;
}

SSpatial motion_to_body(const SymbolicJoint& joint, const SSpatial& m) {
  return {transpose_times(joint.rotation, m.top),
          transpose_times(joint.rotation, m.bottom - cross(joint.translation, m.top))};
}

SSpatial force_to_parent(const SymbolicJoint& joint, const SSpatial& f) {
  const SVec3 force = joint.rotation * f.bottom;
  return {joint.rotation * f.top + cross(joint.translation, force), force};
}

SSpatial velocity_product(const Joint& joint, const SymbolicJoint& state, const SSpatial& parent_velocity,
                          const Expr* qd) {
  SSpatial relative;  // S q̇
  for (int k = 0; k < state.nv; ++k) relative = relative + qd[k] * state.axes[k];
  if (state.nv == 0) return {};  // fixed: no columns
  const JointMotions motions = motions_of(joint);
  if (world_components(motions)) {
    // [0; ȯ × ω] with ȯ = u_λ (spherical) or u_λ + Q_lᵀ v (free: the shift moves the origin)
    bool shifts = false;
    for (int j = 0; j < motions.count; ++j) shifts = shifts || motions.steps[j].kind == JointMotion::Shift;
    return {SVec3{}, cross(shifts ? parent_velocity.bottom + relative.bottom : parent_velocity.bottom, relative.top)};
  }
  // v_λ × S q̇ + Σ_{j<k} (s_j q̇_j) × (s_k q̇_k): column j is carried by the turn k after it
  // (universal: (s₁ q̇₁) × (s₂ q̇₂)); two motions on one axis commute (cylindrical: 0).
  // Turns and slides have one coordinate each: motion j is column j.
  std::vector<std::pair<SSpatial, SSpatial>> pairs;
  for (int j = 0; j < motions.count; ++j)
    for (int k = j + 1; k < motions.count; ++k)
      if (motions.steps[k].kind == JointMotion::Turn && motions.steps[k].axis != motions.steps[j].axis)
        pairs.emplace_back(qd[j] * state.axes[j], qd[k] * state.axes[k]);
  // The pair terms are made before v_λ × S q̇ (node ids order the generated code: the order
  // GCC gave the former `cross_motion(v, S q̇) + cross_motion(first, second)`, whose operands
  // it evaluated right to left; now fixed whatever the compiler).
  std::vector<SSpatial> coupling;
  for (const auto& [first, second] : pairs) coupling.push_back(cross_motion(first, second));
  SSpatial out = cross_motion(parent_velocity, relative);
  for (const SSpatial& term : coupling) out = out + term;
  return out;
}

}  // namespace mechdyn::codegen
