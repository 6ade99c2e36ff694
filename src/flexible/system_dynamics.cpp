// Mass matrix, generalized forces, bias and energies of a mechanism with flexible bodies
// (flexible/flexible_system.hpp).
//
// Source: papers/rigid-flexible-3RRRU-ffr.txt eqs. (10), (27)–(31), (40): the system's
// kinetic energy is Σ ½ y_iᵀ M_i y_i with y_i = B_i v, so
//   M = Σ B_iᵀ M_i B_i  (symmetric for any B_i; FFR eq. 30's "asymmetric" claim does not hold),
//   h = Σ B_iᵀ (M_i Ḃ_i v + Q_v,i) − Q,  Q = Σ B_iᵀ (Q_gravity,i + Q_elastic,i + Q_damping,i) + Q_f,
// Boltzmann–Hamel's form of Lagrange's equations with the body-frame velocities y_i (the
// per-body terms: flexible/ffr_dynamics.hpp; a rigid body's [ω; v] with its 6x6 spatial
// inertia I_i at the frame origin, Q_v = y ×* I y, Featherstone (2008) eq. 2.92).
// Q_f: the force elements (system_force_elements.cpp); the armature on M's diagonal.
// Geometric stiffness (docs/flexible-bodies.md "Geometric stiffening") per beam from the
// frame's ω and origin acceleration a_0 = v̇_b + ω × v_b, with v̇ from `acceleration` (the
// previous step's or an iterate's; empty: v̇ = 0) and the gravity g in body components.
// Cost O(Σ_i (6 + n_e,i) c_i²) for M (c_i = |body_columns[i]|), O(bodies · (6 + n_e) · nv) for h.
// Reads the kinematics in FlexibleSystemData; writes mass_matrix, applied_force,
// bias_force, body (FlexibleBodyData). Allocates nothing.
#include <cmath>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/math/spatial.hpp"

namespace mechdyn {
namespace {

void require_level(const FlexibleSystemData& data, int level, const char* what) {
  if (data.kinematics_level < level)
    throw InvalidArgument(std::string(what) + ": run flexible_kinematics first" + (level > 0 ? " with v" : ""));
}

// [R_iᵀ α; R_iᵀ (a_O + α × r_i)]: the body-coordinate acceleration of body i at v̇ = 0.
Vec6 body_bias_acceleration(const FlexibleSystemData& data, int i) {
  const Mat3& r = data.rotation[static_cast<std::size_t>(i)];
  const Vec6& a = data.bias_acceleration[static_cast<std::size_t>(i)];
  const Vec3 alpha = a.head<3>();
  return make_vec6(r.transpose() * alpha,
                   r.transpose() * (Vec3(a.tail<3>()) + alpha.cross(data.position[static_cast<std::size_t>(i)])));
}

}  // namespace

void flexible_mass_matrix(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                          const Eigen::Ref<const VecX>& q) {
  require_level(data, 0, "flexible_mass_matrix");
  MatX& m = data.mass_matrix;
  m.setZero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    // B_iᵀ M_i B_i on the columns body i depends on (FlexibleSystem::body_columns): B_c = B_i
    // restricted to them, then the c × c block scattered into M.
    const MatX& b = data.body_jacobian[static_cast<std::size_t>(i)];
    const std::vector<int>& columns = system.body_columns[static_cast<std::size_t>(i)];
    const Eigen::Index rows = b.rows(), width = static_cast<Eigen::Index>(columns.size());
    auto compact = data.compact_jacobian.topLeftCorner(rows, width);
    for (Eigen::Index c = 0; c < width; ++c) compact.col(c) = b.col(columns[static_cast<std::size_t>(c)]);
    auto product = data.compact_product.topLeftCorner(rows, width);
    const int f = system.flexible_of[static_cast<std::size_t>(i)];
    if (f < 0) {
      product.noalias() = system.rigid_inertia[static_cast<std::size_t>(i)] * compact;
    } else {
      const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
      FlexibleBodyData& body = data.body[static_cast<std::size_t>(f)];
      ffr_mass_matrix(flexible, body, q.segment(system.elastic_configuration_index(model, i), flexible.num_elastic));
      product.noalias() = body.mass_matrix * compact;
    }
    auto block = data.compact_block.topLeftCorner(width, width);
    block.noalias() = compact.transpose() * product;  // B_iᵀ M_i B_i
    for (Eigen::Index c = 0; c < width; ++c)
      for (Eigen::Index r = c; r < width; ++r)  // the lower triangle (mirrored below)
        m(columns[static_cast<std::size_t>(r)], columns[static_cast<std::size_t>(c)]) += block(r, c);
  }
  for (Eigen::Index c = 0; c < m.cols(); ++c)  // exactly symmetric: the lower triangle mirrored
    for (Eigen::Index r = 0; r < c; ++r) m(r, c) = m(c, r);
  if (model.has_armature) m.diagonal() += model.armature;  // the drives' reflected inertia (force-elements.md)
}

void flexible_mass_product(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                           const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& a) {
  require_level(data, 0, "flexible_mass_product");
  if (a.size() != model.nv) throw InvalidArgument("flexible_mass_product: a must hold nv numbers");
  VecX& out = data.mass_product;
  out.setZero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    const MatX& b = data.body_jacobian[static_cast<std::size_t>(i)];
    const Eigen::Index rows = b.rows();
    auto rate = data.body_acceleration.head(rows);
    rate.noalias() = b * a;  // B_i a
    auto force = data.body_vector.head(rows);
    const int f = system.flexible_of[static_cast<std::size_t>(i)];
    if (f < 0) {
      force.noalias() = system.rigid_inertia[static_cast<std::size_t>(i)] * rate;
    } else {
      const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
      FlexibleBodyData& body = data.body[static_cast<std::size_t>(f)];
      ffr_mass_matrix(flexible, body, q.segment(system.elastic_configuration_index(model, i), flexible.num_elastic));
      force.noalias() = body.mass_matrix * rate;
    }
    out.noalias() += b.transpose() * force;  // B_iᵀ M_i B_i a
  }
  if (model.has_armature) out += model.armature.cwiseProduct(a);
}

void flexible_applied_forces(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                             const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                             const Eigen::Ref<const VecX>& acceleration, double time) {
  require_level(data, v.size() > 0 ? 1 : 0, "flexible_applied_forces");
  if (acceleration.size() != 0 && acceleration.size() != model.nv)
    throw InvalidArgument("flexible_applied_forces: the acceleration must hold nv numbers or none");
  VecX& out = data.applied_force;
  out.setZero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    const MatX& b = data.body_jacobian[static_cast<std::size_t>(i)];
    const Vec3 gravity = data.rotation[static_cast<std::size_t>(i)].transpose() * model.gravity;  // body components
    const int f = system.flexible_of[static_cast<std::size_t>(i)];
    if (f < 0) {
      const Body& body = model.bodies[static_cast<std::size_t>(i)];
      const Vec3 weight = body.mass * gravity;
      out.noalias() += b.transpose() * make_vec6(body.com.cross(weight), weight);
      continue;
    }
    const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
    FlexibleBodyData& body = data.body[static_cast<std::size_t>(f)];
    const int ne = flexible.num_elastic;
    const auto e = q.segment(system.elastic_configuration_index(model, i), ne);
    const int vi = system.elastic_velocity_index(model, i);
    Vec3 omega = Vec3::Zero(), origin_acceleration = Vec3::Zero();
    if (v.size() > 0) {
      const Vec6 y = b.topRows<6>() * v;
      omega = y.head<3>();
      Vec6 rate = body_bias_acceleration(data, i);
      if (acceleration.size() > 0) rate.noalias() += b.topRows<6>() * acceleration;
      origin_acceleration = rate.tail<3>() + omega.cross(y.tail<3>());  // a_0 = v̇_b + ω × v_b
    }
    ffr_gravity_force(flexible, body, e, gravity);
    ffr_geometric_stiffness(flexible, body, omega, origin_acceleration, gravity);
    if (v.size() > 0) {
      ffr_elastic_forces(flexible, body, e, v.segment(vi, ne));
    } else {
      ffr_elastic_forces(flexible, body, e, data.body_vector.head(ne).setZero());
    }
    VecX& generalized = data.body_vector;
    generalized.head(6 + ne) = body.gravity_force;
    generalized.segment(6, ne) += body.elastic_force + body.damping_force;
    out.noalias() += b.transpose() * generalized.head(6 + ne);
  }
  if (model.forces.empty()) return;
  flexible_force_elements(model, system, data, q, v, time);  // Q_f (system_force_elements.cpp)
  out += data.element_force;
}

void flexible_bias_force(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data,
                         const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                         const Eigen::Ref<const VecX>& acceleration, double time) {
  require_level(data, 1, "flexible_bias_force");
  flexible_applied_forces(model, system, data, q, v, acceleration, time);
  VecX& h = data.bias_force;
  h = -data.applied_force;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const MatX& b = data.body_jacobian[static_cast<std::size_t>(i)];
    const Vec6 y = b.topRows<6>() * v;  // [ω; v] of the frame, body components
    const Vec6 rate = body_bias_acceleration(data, i);
    const int f = system.flexible_of[static_cast<std::size_t>(i)];
    if (f < 0) {
      const Mat6& inertia = system.rigid_inertia[static_cast<std::size_t>(i)];
      const Vec6 force = inertia * rate + cross_force(y, inertia * y);  // I Ḃ v + y ×* I y
      h.noalias() += b.transpose() * force;
      continue;
    }
    const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
    FlexibleBodyData& body = data.body[static_cast<std::size_t>(f)];
    const int ne = flexible.num_elastic;
    const auto e = q.segment(system.elastic_configuration_index(model, i), ne);
    const auto rate_e = v.segment(system.elastic_velocity_index(model, i), ne);
    ffr_mass_matrix(flexible, body, e);
    ffr_quadratic_velocity(flexible, body, e, y.head<3>(), y.tail<3>(), rate_e);
    VecX& force = data.body_vector;
    force.head(6 + ne).noalias() = body.mass_matrix.leftCols<6>() * rate;  // M_i Ḃ_i v (no elastic part)
    force.head(6 + ne) += body.quadratic_velocity;
    h.noalias() += b.transpose() * force.head(6 + ne);
  }
}

FlexibleEnergies flexible_energies(const Model& model, const FlexibleSystem& system, const FlexibleSystemData& data,
                                   const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v) {
  FlexibleEnergies out;
  out.kinetic = 0.5 * v.dot(data.mass_matrix * v);
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& body = model.bodies[static_cast<std::size_t>(i)];
    const Mat3& r = data.rotation[static_cast<std::size_t>(i)];
    const Vec3& origin = data.position[static_cast<std::size_t>(i)];
    const int f = system.flexible_of[static_cast<std::size_t>(i)];
    if (f < 0) {
      out.gravity -= body.mass * model.gravity.dot(origin + r * body.com);
      continue;
    }
    const FlexibleBody& flexible = system.bodies[static_cast<std::size_t>(f)];
    const auto e = q.segment(system.elastic_configuration_index(model, i), flexible.num_elastic);
    const Vec3 moment = flexible.first_moment + flexible.first_moment_shape * e + flexible.rigid_mass * flexible.rigid_com;
    out.gravity -= model.gravity.dot(flexible.total_mass() * origin + r * moment);
    out.strain += ffr_strain_energy(flexible, e);
  }
  out.elements = data.element_energy.sum();
  return out;
}

}  // namespace mechdyn
