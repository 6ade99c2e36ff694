// The joint constraint forces and torques (friction/joint_load_decomposition.hpp)
// against an independent Newton–Euler free-body balance of every body.
//
// Independent reference: each body's com acceleration and angular-momentum rate come
// from Richardson-extrapolated central differences (orders 2 → 4 → 6) of forward-
// kinematics velocities along v(t) = v + t a (not from the Ṡ q̇ terms the library uses);
// the reaction of each joint is then rebuilt child-first from Newton–Euler,
//   f_l = m_l (a_cl − g) + Σ_children f_c,
//   τ_l = dL_l/dt + (c_l − o_l) × m_l (a_cl − g) + Σ_c [τ_c + (o_c − o_l) × f_c],
// and split with two explicit orthonormal constraint axes u̇, ü ⟂ n (EC §3.1, eqs.
// 28–35: τ_r = sqrt((u̇·τ)² + (ü·τ)²)), not with the n̄² projector of §3.2 the library
// uses. Tolerance 1e-10 relative to the load scale of the joint (the FD residual of
// order h⁶ ≈ 1e-12 and round-off ≈ 1e-13 lie below it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/friction/joint_load_decomposition.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct Rates {
  std::vector<Vec3> com_acceleration, momentum_rate;  // a_c, d/dt (J_world ω)
};

Rates central(const Model& model, const VecX& q, const VecX& v, const VecX& a, double h) {
  Data plus(model), minus(model);
  forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h), v + h * a);
  forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h), v - h * a);
  Rates out;
  for (int l = 0; l < model.num_bodies(); ++l) {
    auto com_velocity = [l](const Data& d) { return Vec3(d.velocity[l].tail<3>() + d.velocity[l].head<3>().cross(d.com_position[l])); };
    auto momentum = [l](const Data& d) { return Vec3(d.inertia_world[l] * d.velocity[l].head<3>()); };
    out.com_acceleration.push_back((com_velocity(plus) - com_velocity(minus)) / (2 * h));
    out.momentum_rate.push_back((momentum(plus) - momentum(minus)) / (2 * h));
  }
  return out;
}

// Richardson: R(h) = (4 D(h/2) − D(h)) / 3, then (16 R(h/2) − R(h)) / 15.
Rates richardson(const Model& model, const VecX& q, const VecX& v, const VecX& a, double h) {
  const Rates d1 = central(model, q, v, a, h), d2 = central(model, q, v, a, h / 2), d3 = central(model, q, v, a, h / 4);
  Rates out = d1;
  for (std::size_t l = 0; l < d1.com_acceleration.size(); ++l) {
    auto extrapolate = [](const Vec3& x1, const Vec3& x2, const Vec3& x3) {
      const Vec3 r1 = (4 * x2 - x1) / 3, r2 = (4 * x3 - x2) / 3;
      return Vec3((16 * r2 - r1) / 15);
    };
    out.com_acceleration[l] = extrapolate(d1.com_acceleration[l], d2.com_acceleration[l], d3.com_acceleration[l]);
    out.momentum_rate[l] = extrapolate(d1.momentum_rate[l], d2.momentum_rate[l], d3.momentum_rate[l]);
  }
  return out;
}

// Two orthonormal axes u̇, ü orthogonal to n (EC eq. 28: ü = ñ u̇).
void constraint_axes(const Vec3& n, Vec3& first, Vec3& second) {
  first = n.unitOrthogonal();
  second = n.cross(first);
}

// Catches: a decomposition taken about the wrong point or with the wrong axis (world vs
// body), force and torque parts swapped between revolute and prismatic, a radial part
// that keeps the axial component, reactions that fail the body's Newton–Euler balance,
// the multi-axis generalisation projecting on the wrong subspace.
TEST(JointLoadDecomposition, MatchesIndependentNewtonEulerBalance) {
  double worst = 0.0;
  int checked = 0;
  for (unsigned seed = 1; seed <= 25; ++seed) {
    const Model model = testing::random_tree(seed, {2 + static_cast<int>(seed % 12)});
    std::mt19937 rng(seed + 100);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model), kin(model), reference_data(model);
    joint_reactions(model, data, q, v, a);
    joint_load_decomposition(model, data);
    const VecX tau = rnea(model, reference_data, q, v, a);
    forward_kinematics(model, kin, q, v);
    const Rates rates = richardson(model, q, v, a, 0.02);

    const int n = model.num_bodies();
    std::vector<Vec3> f(n), t(n);
    for (int l = n - 1; l >= 0; --l) {  // children come after their parents
      const double m = model.bodies[l].mass;
      const Vec3& o = kin.position[l];
      const Vec3& c = kin.com_position[l];
      const Vec3 inertial = m * (rates.com_acceleration[l] - model.gravity);
      f[l] = inertial;
      t[l] = rates.momentum_rate[l] + (c - o).cross(inertial);
      for (const int child : model.children[l]) {
        f[l] += f[child];
        t[l] += t[child] + (kin.position[child] - o).cross(f[child]);
      }
    }
    for (int l = 0; l < n; ++l) {
      const Joint& joint = model.joints[l];
      const double scale = 1.0 + f[l].norm() + t[l].norm();
      double torque = 0.0, force = 0.0, axial = 0.0;
      Vec3 e1, e2;
      if (joint.type == JointType::Revolute) {
        const Vec3 axis = kin.motion_axis[joint.v_index].head<3>();
        constraint_axes(axis, e1, e2);
        torque = std::hypot(e1.dot(t[l]), e2.dot(t[l]));  // eqs. (29)–(35)
        force = std::hypot(e1.dot(f[l]), e2.dot(f[l]));
        axial = std::abs(axis.dot(f[l]));
        EXPECT_NEAR(axis.dot(t[l]), tau[joint.v_index], 1e-10 * scale) << "driving effort, seed " << seed;
      } else if (joint.type == JointType::Prismatic) {
        const Vec3 axis = kin.motion_axis[joint.v_index].tail<3>();
        constraint_axes(axis, e1, e2);
        force = std::hypot(e1.dot(f[l]), e2.dot(f[l]));
        torque = std::hypot(e1.dot(t[l]), e2.dot(t[l]));
        axial = std::abs(axis.dot(t[l]));
        EXPECT_NEAR(axis.dot(f[l]), tau[joint.v_index], 1e-10 * scale) << "driving effort, seed " << seed;
      } else if (joint.type == JointType::Universal) {
        const Vec3 n1 = kin.motion_axis[joint.v_index].head<3>(), n2 = kin.motion_axis[joint.v_index + 1].head<3>();
        Eigen::Matrix<double, 3, 2> axes;
        axes << n1, n2;
        const Vec3 rest = t[l] - axes * (axes.transpose() * axes).inverse() * axes.transpose() * t[l];
        torque = rest.norm();
        force = f[l].norm();
      } else if (joint.type == JointType::Spherical) {
        force = f[l].norm();
      } else if (joint.type == JointType::Fixed) {
        torque = t[l].norm();
        force = f[l].norm();
      }
      const double error = std::max({std::abs(torque - data.constraint_torque[l]),
                                     std::abs(force - data.constraint_force[l]),
                                     std::abs(axial - data.axial_load[l])}) / scale;
      worst = std::max(worst, error);
      ++checked;
      EXPECT_LT(error, 1e-10) << "seed " << seed << " joint " << joint.name << " (" << joint_type_name(joint.type) << ")";
    }
  }
  std::printf("[ info ] %d joints, worst relative error %.3g\n", checked, worst);
}

// A horizontal link on a vertical revolute axis z carrying its weight at rest: com at
// d = (L, 0, 0), g = (0, 0, −g). By hand: f = (0, 0, m g), τ = −d × (m g_vec) = (0, −m g L, 0)
// ⇒ τ_r = m g L, f_r = 0, f_m = m g and τ_n = R_p (f_r + τ_r / R_b) + R_n f_m
//   = R_p m g L / R_b + R_n m g.
// Catches: the revolute normal-load formula with R_p and R_n swapped, τ_r / R_b missing,
// the axial force counted in f_r.
TEST(JointLoadDecomposition, RevoluteNormalLoadByHand) {
  const double m = 2.5, L = 0.4, g = 9.81, Rp = 0.01, Rb = 0.02, Rn = 0.015;
  Model model;
  model.gravity = Vec3(0, 0, -g);
  model.bodies.push_back(Body{"arm", kGround, m, Vec3(L, 0, 0), Vec3(0.01, 0.05, 0.05).asDiagonal()});
  Joint joint;
  joint.name = "J";
  joint.type = JointType::Revolute;
  joint.axis = Vec3::UnitZ();
  JointFriction friction;
  friction.coulomb = 0.1;
  friction.load = FrictionLoad{Rp, Rb, Rn};
  joint.friction = friction;
  model.joints.push_back(joint);
  finalize_model(model, "revolute_load");
  Data data(model);
  const VecX zero = VecX::Zero(1);
  joint_reactions(model, data, zero, zero, zero);
  joint_load_decomposition(model, data);
  EXPECT_NEAR(data.constraint_torque[0], m * g * L, 1e-12);
  EXPECT_NEAR(data.constraint_force[0], 0.0, 1e-12);
  EXPECT_NEAR(data.axial_load[0], m * g, 1e-12);
  EXPECT_NEAR(data.normal_load[0], Rp * m * g * L / Rb + Rn * m * g, 1e-12);
}

// A slider on a horizontal prismatic axis x, its com off the axis by e in y, at rest,
// g = (0, 0, −g). By hand: f = (0, 0, m g) (transverse, f_p = m g); τ = −c × m g_vec with
// c = (0, e, 0): c × (0, 0, −m g) = (−e m g, 0, 0) ⇒ τ = (e m g, 0, 0), all about the axis:
// τ_m = e m g, τ_p = 0. f_n = f_p + τ_p / R_b + τ_m / R_n = m g + e m g / R_n.
// Catches: the prismatic formula using R_p, τ_m divided by R_b, f and τ roles swapped.
TEST(JointLoadDecomposition, PrismaticNormalLoadByHand) {
  const double m = 3.0, e = 0.05, g = 9.81, Rb = 0.04, Rn = 0.02;
  Model model;
  model.gravity = Vec3(0, 0, -g);
  model.bodies.push_back(Body{"slider", kGround, m, Vec3(0, e, 0), Vec3(0.01, 0.01, 0.01).asDiagonal()});
  Joint joint;
  joint.name = "P";
  joint.type = JointType::Prismatic;
  joint.axis = Vec3::UnitX();
  JointFriction friction;
  friction.coulomb = 0.2;
  friction.load = FrictionLoad{0.0, Rb, Rn};
  joint.friction = friction;
  model.joints.push_back(joint);
  finalize_model(model, "prismatic_load");
  Data data(model);
  const VecX zero = VecX::Zero(1);
  joint_reactions(model, data, zero, zero, zero);
  joint_load_decomposition(model, data);
  EXPECT_NEAR(data.constraint_force[0], m * g, 1e-12);
  EXPECT_NEAR(data.constraint_torque[0], 0.0, 1e-12);
  EXPECT_NEAR(data.axial_load[0], e * m * g, 1e-12);
  EXPECT_NEAR(data.normal_load[0], m * g + e * m * g / Rn, 1e-12);
}

}  // namespace
}  // namespace mechdyn
