// Symbolic joint kinematics in body coordinates (symbolic_kinematics.hpp).
//
// Sources: EC §2.1 eqs. (1)–(4) for revolute and prismatic joints; the other types as
// src/model/joint_kinds/*.hpp define them (docs/joints.md §1–3):
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

#include "c_names.hpp"
#include "mechdyn/errors.hpp"

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
    switch (joint.type) {
      case JointType::Revolute:
        s.rotation = axis_rotation(joint.axis, qj[0], name);  // eq. (3)
        s.axes[0] = angular_axis(n1);
        break;
      case JointType::Prismatic:
        s.translation = s.translation + qj[0] * n1;  // eq. (2)
        s.axes[0] = linear_axis(n1);
        break;
      case JointType::Cylindrical:
        s.rotation = axis_rotation(joint.axis, qj[0], name);
        s.translation = s.translation + qj[1] * n1;
        s.axes[0] = angular_axis(n1);
        s.axes[1] = linear_axis(n1);
        break;
      case JointType::Universal: {
        const SMat3 second = axis_rotation(joint.second_axis, qj[1], name + "_2");
        s.rotation = axis_rotation(joint.axis, qj[0], name + "_1") * second;
        s.axes[0] = angular_axis(transpose_times(second, n1));  // n₁ in the child: E₂ᵀ n₁
        s.axes[1] = angular_axis(SVec3::constant(joint.second_axis));
        break;
      }
      case JointType::Spherical:
        s.rotation = named(quaternion_rotation(qj), "E_" + name);
        break;
      case JointType::Free:
        s.rotation = named(quaternion_rotation(qj + 3), "E_" + name);
        s.translation = s.translation + SVec3{{qj[0], qj[1], qj[2]}};
        break;
      case JointType::Fixed:
        break;
      default:
        throw ModelError("joint '" + joint.name + "': codegen cannot express joint type '" +
                         joint_type_name(joint.type) + "'");
    }
    const int parent = model.bodies[static_cast<std::size_t>(i)].parent;
    SMat3& world = tree.world_rotation[static_cast<std::size_t>(i)];
    world = parent == kGround ? s.rotation : tree.world_rotation[static_cast<std::size_t>(parent)] * s.rotation;
    world = named(world, "Q_" + c_identifier(model.bodies[static_cast<std::size_t>(i)].name));  // EC eq. (4)
    if (joint.type == JointType::Spherical) {  // world ω → body: the rows of Q_l
      for (int k = 0; k < 3; ++k) s.axes[k] = angular_axis(row(world, k));
    } else if (joint.type == JointType::Free) {
      for (int k = 0; k < 3; ++k) {
        s.axes[k] = linear_axis(row(world, k));
        s.axes[3 + k] = angular_axis(row(world, k));
      }
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
  switch (joint.type) {
    case JointType::Universal: {  // v_λ × S q̇ + (s₁ q̇₁) × (s₂ q̇₂)
      const SSpatial first = qd[0] * state.axes[0], second = qd[1] * state.axes[1];
      return cross_motion(parent_velocity, relative) + cross_motion(first, second);
    }
    case JointType::Spherical:  // [0; u_λ × ω]
      return {SVec3{}, cross(parent_velocity.bottom, relative.top)};
    case JointType::Free:  // [0; (u_λ + Q_lᵀ v) × ω]
      return {SVec3{}, cross(parent_velocity.bottom + relative.bottom, relative.top)};
    case JointType::Fixed:
      return {};
    default:  // revolute, prismatic, cylindrical: S constant in the body, c = v_λ × S q̇
      return cross_motion(parent_velocity, relative);
  }
}

}  // namespace mechdyn::codegen
