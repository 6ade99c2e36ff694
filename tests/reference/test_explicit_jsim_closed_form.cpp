// Explicit M(q), h(q, q̇), inverse and forward dynamics against textbook closed forms.
//
// Every expected value below is derived in a comment from the Lagrangian
// L = T − V of the mechanism; nothing is copied from the code under test.
// Planar mechanisms: links along +x at q = 0, joint axes +z, gravity −y (explicit-jsim-
// tree-chains §7.1). e(θ) = (cos θ, sin θ), e⊥(θ) = (−sin θ, cos θ), e⊥(a)·e⊥(b) = cos(a − b).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

constexpr double kG = 9.81;  // |g|, gravity along −y

struct PlanarLink {
  double length;       // l_k: joint k → joint k+1
  double com;          // l_kI: joint k → centre of mass, along the link
  double mass;         // m_k
  double inertia_zz;   // I_k about the centre of mass, about z
};

// A planar serial chain of revolute-z joints; link k along +x at q = 0.
Model planar_chain(const std::vector<PlanarLink>& links) {
  Model model;
  model.name = "planar_chain";
  model.gravity = Vec3(0.0, -kG, 0.0);
  for (std::size_t k = 0; k < links.size(); ++k) {
    Body body;
    body.name = "link" + std::to_string(k + 1);
    body.parent = static_cast<int>(k) - 1;
    body.mass = links[k].mass;
    body.com = Vec3(links[k].com, 0.0, 0.0);
    // Out-of-plane moments are arbitrary (triangle inequality holds); only I_zz enters.
    body.inertia = Vec3(0.3 * links[k].inertia_zz, 0.8 * links[k].inertia_zz, links[k].inertia_zz).asDiagonal();
    Joint joint;
    joint.name = "joint" + std::to_string(k + 1);
    joint.type = JointType::Revolute;
    joint.axis = Vec3::UnitZ();
    joint.origin = k == 0 ? Vec3::Zero() : Vec3(links[k - 1].length, 0.0, 0.0);
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, "planar_chain");
  return model;
}

double relative_error(const MatX& actual, const MatX& expected) {
  return (actual - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
}

const std::vector<VecX> kConfigurations3 = {
    VecX::Zero(3), (VecX(3) << 0.3, -1.1, 2.0).finished(), (VecX(3) << -2.4, 0.7, -0.4).finished(),
    (VecX(3) << 1.57, 3.0, -3.1).finished()};

// Planar 3R arm of explicit-jsim-tree-chains §7.1. Centres of mass
//   p1 = l1I e(θ1), p2 = l1 e(θ1) + l2I e(θ12), p3 = l1 e(θ1) + l2 e(θ12) + l3I e(θ123),
// θ12 = q1 + q2, θ123 = q1 + q2 + q3; ω_k = q̇1 + … + q̇k. Hence ∂p3/∂q1 = l1 e⊥(θ1) +
// l2 e⊥(θ12) + l3I e⊥(θ123), ∂p3/∂q2 = l2 e⊥(θ12) + l3I e⊥(θ123), ∂p3/∂q3 = l3I e⊥(θ123)
// (and alike for p2), and M = Σ_k m_k J_kᵀ J_k + I_k (∂ω_k/∂q)ᵀ(∂ω_k/∂q):
//   M11 = I1 + I2 + I3 + m1 l1I² + m2 (l1² + l2I² + 2 l1 l2I c2)
//         + m3 (l1² + l2² + l3I² + 2 l1 l2 c2 + 2 l1 l3I c23 + 2 l2 l3I c3)
//   M12 = I2 + I3 + m2 (l2I² + l1 l2I c2) + m3 (l2² + l3I² + l1 l2 c2 + l1 l3I c23 + 2 l2 l3I c3)
//   M13 = I3 + m3 (l3I² + l1 l3I c23 + l2 l3I c3)
//   M22 = I2 + I3 + m2 l2I² + m3 (l2² + l3I² + 2 l2 l3I c3)
//   M23 = I3 + m3 (l3I² + l2 l3I c3)
//   M33 = I3 + m3 l3I²
// with ck = cos qk, c23 = cos(q2 + q3). NOTE: the expressions printed in EJ §7.1 contain
// typos (l_{1I} for l1 and l_{2I}² for l2², C1 = cos q1 where cos q2 belongs, C12 where
// cos(q2 + q3) belongs, missing factors 2); the ones above are the textbook forms.
// Gravity V = g Σ m_k y_k gives g(q) = ∂V/∂q:
//   G1 = g [(m1 l1I + m2 l1 + m3 l1) c1 + (m2 l2I + m3 l2) c12 + m3 l3I c123]
//   G2 = g [(m2 l2I + m3 l2) c12 + m3 l3I c123],  G3 = g m3 l3I c123.
const std::vector<PlanarLink> kArm3 = {{0.7, 0.35, 2.0, 0.09}, {0.5, 0.22, 1.5, 0.04}, {0.3, 0.14, 0.8, 0.01}};

MatX arm3_mass_matrix(const VecX& q) {
  const double l1 = kArm3[0].length, a1 = kArm3[0].com, m1 = kArm3[0].mass, i1 = kArm3[0].inertia_zz;
  const double l2 = kArm3[1].length, a2 = kArm3[1].com, m2 = kArm3[1].mass, i2 = kArm3[1].inertia_zz;
  const double a3 = kArm3[2].com, m3 = kArm3[2].mass, i3 = kArm3[2].inertia_zz;
  const double c2 = std::cos(q[1]), c3 = std::cos(q[2]), c23 = std::cos(q[1] + q[2]);
  MatX m(3, 3);
  m(0, 0) = i1 + i2 + i3 + m1 * a1 * a1 + m2 * (l1 * l1 + a2 * a2 + 2 * l1 * a2 * c2) +
            m3 * (l1 * l1 + l2 * l2 + a3 * a3 + 2 * l1 * l2 * c2 + 2 * l1 * a3 * c23 + 2 * l2 * a3 * c3);
  m(0, 1) = i2 + i3 + m2 * (a2 * a2 + l1 * a2 * c2) +
            m3 * (l2 * l2 + a3 * a3 + l1 * l2 * c2 + l1 * a3 * c23 + 2 * l2 * a3 * c3);
  m(0, 2) = i3 + m3 * (a3 * a3 + l1 * a3 * c23 + l2 * a3 * c3);
  m(1, 1) = i2 + i3 + m2 * a2 * a2 + m3 * (l2 * l2 + a3 * a3 + 2 * l2 * a3 * c3);
  m(1, 2) = i3 + m3 * (a3 * a3 + l2 * a3 * c3);
  m(2, 2) = i3 + m3 * a3 * a3;
  m(1, 0) = m(0, 1);
  m(2, 0) = m(0, 2);
  m(2, 1) = m(1, 2);
  return m;
}

VecX arm3_gravity(const VecX& q) {
  const double l1 = kArm3[0].length, a1 = kArm3[0].com, m1 = kArm3[0].mass;
  const double l2 = kArm3[1].length, a2 = kArm3[1].com, m2 = kArm3[1].mass;
  const double a3 = kArm3[2].com, m3 = kArm3[2].mass;
  const double c1 = std::cos(q[0]), c12 = std::cos(q[0] + q[1]), c123 = std::cos(q[0] + q[1] + q[2]);
  VecX g(3);
  g[2] = kG * m3 * a3 * c123;
  g[1] = kG * (m2 * a2 + m3 * l2) * c12 + g[2];
  g[0] = kG * (m1 * a1 + m2 * l1 + m3 * l1) * c1 + g[1];
  return g;
}

// Catches: a wrong sign or point in r̃^{u} r̃^{k} of eq. (30), a missing subtree body in
// the aggregates, mixing up row and column joints, a wrong mirror of the lower triangle.
TEST(ExplicitJsimClosedForm, Planar3RArmMatchesTextbookMassMatrix) {
  const Model model = planar_chain(kArm3);
  Data data(model);
  for (const VecX& q : kConfigurations3) {
    const MatX expected = arm3_mass_matrix(q);
    EXPECT_LT(relative_error(explicit_mass_matrix(model, data, q), expected), 1e-13) << "q = " << q.transpose();
    EXPECT_LT(relative_error(explicit_mass_matrix_direct(model, data, q), expected), 1e-13)
        << "direct, q = " << q.transpose();
  }
}

// Catches: a gravity sign error, gravity moments taken about the wrong point, a
// subtree that misses its descendants' weight.
TEST(ExplicitJsimClosedForm, Planar3RArmMatchesTextbookGravity) {
  const Model model = planar_chain(kArm3);
  Data data(model);
  for (const VecX& q : kConfigurations3) {
    const VecX expected = arm3_gravity(q);
    const VecX& g = explicit_gravity_force(model, data, q);
    EXPECT_LT((g - expected).cwiseAbs().maxCoeff(), 1e-13 * expected.cwiseAbs().maxCoeff() + 1e-13)
        << "q = " << q.transpose();
    // h at rest is the gravity force.
    explicit_bias_force(model, data, q, VecX::Zero(3));
    EXPECT_LT((data.bias_force - expected).cwiseAbs().maxCoeff(), 1e-13 * expected.cwiseAbs().maxCoeff() + 1e-13);
  }
}

// Single pendulum (link along x, axis z, gravity −y): M = I + m l_I², and since M is
// constant, h has no velocity term: V = m g l_I sin q ⇒ h = g(q) = m g l_I cos q.
// Catches: a spurious centripetal term m ω² r projected on the axis (it is radial),
// a wrong sign of the gravity term.
TEST(ExplicitJsimClosedForm, SinglePendulum) {
  const PlanarLink link{1.0, 0.6, 1.3, 0.05};
  const Model model = planar_chain({link});
  Data data(model);
  for (const double angle : {0.0, 0.4, -1.2, 2.9}) {
    for (const double rate : {0.0, 1.7, -3.0}) {
      const VecX q = VecX::Constant(1, angle), v = VecX::Constant(1, rate);
      const double m_expected = link.inertia_zz + link.mass * link.com * link.com;
      const double h_expected = link.mass * kG * link.com * std::cos(angle);
      EXPECT_NEAR(explicit_mass_matrix(model, data, q)(0, 0), m_expected, 1e-14);
      EXPECT_NEAR(explicit_bias_force(model, data, q, v)[0], h_expected, 1e-13) << angle << " " << rate;
      EXPECT_NEAR(data.gravity_force[0], h_expected, 1e-13);
    }
  }
}

// Double pendulum. From the 3R derivation with link 3 removed:
//   M11 = I1 + I2 + m1 l1I² + m2 (l1² + l2I² + 2 l1 l2I c2), M12 = I2 + m2 (l2I² + l1 l2I c2),
//   M22 = I2 + m2 l2I².
// Christoffel symbols: only ∂M11/∂q2 = −2 m2 l1 l2I s2 and ∂M12/∂q2 = −m2 l1 l2I s2 are
// non-zero, so with h_i = Σ_jk (∂M_ij/∂q_k − ½ ∂M_jk/∂q_i) q̇_j q̇_k + G_i:
//   h1 = −m2 l1 l2I s2 (2 q̇1 q̇2 + q̇2²) + g [(m1 l1I + m2 l1) c1 + m2 l2I c12]
//   h2 =  m2 l1 l2I s2 q̇1²             + g m2 l2I c12
// Catches: a missing Coriolis factor 2, a wrong centripetal sign, Coriolis terms of the
// child's com acceleration projected about the wrong point.
TEST(ExplicitJsimClosedForm, DoublePendulumBiasAndDynamics) {
  const PlanarLink link1{0.9, 0.4, 1.8, 0.07}, link2{0.6, 0.35, 1.1, 0.03};
  const Model model = planar_chain({link1, link2});
  Data data(model);
  const double l1 = link1.length, a1 = link1.com, m1 = link1.mass, i1 = link1.inertia_zz;
  const double a2 = link2.com, m2 = link2.mass, i2 = link2.inertia_zz;
  const std::vector<std::array<double, 6>> cases = {  // q1, q2, q̇1, q̇2, q̈1, q̈2
      {0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, {0.3, 1.1, 2.0, -1.5, 0.4, 0.9}, {-2.0, -0.6, -0.7, 3.1, -1.2, 0.1},
      {1.2, 2.8, 4.0, 0.5, 0.0, -2.0}};
  for (const auto& c : cases) {
    const VecX q = (VecX(2) << c[0], c[1]).finished(), v = (VecX(2) << c[2], c[3]).finished();
    const VecX a = (VecX(2) << c[4], c[5]).finished();
    const double s2 = std::sin(c[1]), c2 = std::cos(c[1]), c1 = std::cos(c[0]), c12 = std::cos(c[0] + c[1]);
    MatX m_expected(2, 2);
    m_expected(0, 0) = i1 + i2 + m1 * a1 * a1 + m2 * (l1 * l1 + a2 * a2 + 2 * l1 * a2 * c2);
    m_expected(0, 1) = m_expected(1, 0) = i2 + m2 * (a2 * a2 + l1 * a2 * c2);
    m_expected(1, 1) = i2 + m2 * a2 * a2;
    VecX h_expected(2);
    h_expected[0] = -m2 * l1 * a2 * s2 * (2 * v[0] * v[1] + v[1] * v[1]) + kG * ((m1 * a1 + m2 * l1) * c1 + m2 * a2 * c12);
    h_expected[1] = m2 * l1 * a2 * s2 * v[0] * v[0] + kG * m2 * a2 * c12;
    const VecX tau_expected = m_expected * a + h_expected;
    const double scale = tau_expected.cwiseAbs().maxCoeff() + h_expected.cwiseAbs().maxCoeff();

    EXPECT_LT(relative_error(explicit_mass_matrix(model, data, q), m_expected), 1e-13);
    EXPECT_LT((explicit_bias_force(model, data, q, v) - h_expected).cwiseAbs().maxCoeff(), 1e-13 * scale);
    EXPECT_LT((explicit_inverse_dynamics(model, data, q, v, a) - tau_expected).cwiseAbs().maxCoeff(), 1e-13 * scale);
    EXPECT_LT((explicit_forward_dynamics(model, data, q, v, tau_expected) - a).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// Cart-pole: a prismatic cart along x (mass m_c) carrying a revolute-z pole whose centre
// of mass is at l_I along +y at θ = 0 (mass m_p, I about its com). Pole com
// (x − l_I sin θ, l_I cos θ), velocity (ẋ − l_I cos θ θ̇, −l_I sin θ θ̇), so
//   T = ½ (m_c + m_p) ẋ² − m_p l_I cos θ ẋ θ̇ + ½ (I + m_p l_I²) θ̇²,  V = m_p g l_I cos θ,
//   M = [[m_c + m_p, −m_p l_I cos θ], [−m_p l_I cos θ, I + m_p l_I²]],
//   h = [m_p l_I sin θ θ̇², −m_p g l_I sin θ].
// Catches: wrong P–R / R–P elements (eqs. (31), (34), sign of r̃^{k}), wrong P–P element
// (eq. (35)), a centripetal term missing from a prismatic row of h (eq. (22)).
TEST(ExplicitJsimClosedForm, CartPoleCoversPrismaticRows) {
  const double mc = 2.5, mp = 0.7, li = 0.45, ip = 0.02;
  Model model;
  model.name = "cart_pole";
  model.gravity = Vec3(0.0, -kG, 0.0);
  Body cart{"cart", kGround, mc, Vec3::Zero(), Vec3(0.1, 0.2, 0.25).asDiagonal()};
  Body pole{"pole", 0, mp, Vec3(0.0, li, 0.0), Vec3(ip, 0.3 * ip, ip).asDiagonal()};
  Joint slide;
  slide.name = "slide";
  slide.type = JointType::Prismatic;
  slide.axis = Vec3::UnitX();
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.axis = Vec3::UnitZ();
  hinge.origin = Vec3(0.0, 0.1, 0.0);  // the hinge sits 0.1 above the cart frame: does not enter M or h
  model.bodies = {cart, pole};
  model.joints = {slide, hinge};
  finalize_model(model, "cart_pole");
  Data data(model);
  for (const auto& [x, theta, xdot, thetadot] :
       std::vector<std::array<double, 4>>{{0.0, 0.0, 0.0, 0.0}, {0.5, 0.8, -1.0, 2.0}, {-1.3, -2.6, 0.4, -3.3}}) {
    const VecX q = (VecX(2) << x, theta).finished(), v = (VecX(2) << xdot, thetadot).finished();
    MatX m_expected(2, 2);
    m_expected << mc + mp, -mp * li * std::cos(theta), -mp * li * std::cos(theta), ip + mp * li * li;
    VecX h_expected(2);
    h_expected << mp * li * std::sin(theta) * thetadot * thetadot, -mp * kG * li * std::sin(theta);
    EXPECT_LT(relative_error(explicit_mass_matrix(model, data, q), m_expected), 1e-13);
    EXPECT_LT(relative_error(explicit_mass_matrix_direct(model, data, q), m_expected), 1e-13);
    EXPECT_LT((explicit_bias_force(model, data, q, v) - h_expected).cwiseAbs().maxCoeff(), 1e-13 * (1.0 + h_expected.norm()));
  }
}


// Planar RP ("polar") arm: a revolute-z joint at the origin carrying body 1 (mass m1,
// I1 about z, com at a1 along x), then a prismatic joint along body 1's x axis carrying
// body 2 (mass m2, I2), whose centre of mass sits at (r + b, e) in body 1's axes
// (r = q2, e ≠ 0 so the R–P cross term is non-zero). With R(θ) the planar rotation,
//   c2 = R(θ) (r + b, e),  ċ2 = ṙ R(θ)(1, 0) + θ̇ R(θ)(−e, r + b),
//   T = ½ (I1 + m1 a1² + I2 + m2 ((r + b)² + e²)) θ̇² − m2 e θ̇ ṙ + ½ m2 ṙ²,
//   V = g (m1 a1 sin θ + m2 ((r + b) sin θ + e cos θ)),
// so M = [[I1 + m1 a1² + I2 + m2 ((r + b)² + e²), −m2 e], [−m2 e, m2]] and
//   h1 = 2 m2 (r + b) ṙ θ̇ + g (m1 a1 cos θ + m2 ((r + b) cos θ − e sin θ)),
//   h2 = −m2 (r + b) θ̇² + g m2 sin θ.
// Catches: the P-row / R-column element (eq. (34), sign of r̃^{k}), a Coriolis term
// missing from a revolute row driven by a prismatic rate, the centripetal term of a
// prismatic row.
TEST(ExplicitJsimClosedForm, PolarArmCoversPrismaticChildOfRevolute) {
  const double m1 = 1.2, a1 = 0.3, i1 = 0.05, m2 = 0.8, b = 0.15, e = 0.07, i2 = 0.01;
  Model model;
  model.name = "polar_arm";
  model.gravity = Vec3(0.0, -kG, 0.0);
  model.bodies.push_back(Body{"boom", kGround, m1, Vec3(a1, 0.0, 0.0), Vec3(0.3 * i1, i1, i1).asDiagonal()});
  model.bodies.push_back(Body{"slider", 0, m2, Vec3(b, e, 0.0), Vec3(0.5 * i2, i2, i2).asDiagonal()});
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.axis = Vec3::UnitZ();
  Joint slide;
  slide.name = "slide";
  slide.type = JointType::Prismatic;
  slide.axis = Vec3::UnitX();
  model.joints = {hinge, slide};
  finalize_model(model, "polar_arm");
  Data data(model);
  for (const auto& [theta, r, thetadot, rdot] :
       std::vector<std::array<double, 4>>{{0.0, 0.0, 0.0, 0.0}, {0.7, 0.4, 1.5, -0.8}, {-2.2, -0.3, -2.5, 1.9}}) {
    const VecX q = (VecX(2) << theta, r).finished(), v = (VecX(2) << thetadot, rdot).finished();
    const double rb = r + b;
    MatX m_expected(2, 2);
    m_expected << i1 + m1 * a1 * a1 + i2 + m2 * (rb * rb + e * e), -m2 * e, -m2 * e, m2;
    VecX h_expected(2);
    h_expected << 2 * m2 * rb * rdot * thetadot +
                      kG * (m1 * a1 * std::cos(theta) + m2 * (rb * std::cos(theta) - e * std::sin(theta))),
        -m2 * rb * thetadot * thetadot + kG * m2 * std::sin(theta);
    EXPECT_LT(relative_error(explicit_mass_matrix(model, data, q), m_expected), 1e-13);
    EXPECT_LT(relative_error(explicit_mass_matrix_direct(model, data, q), m_expected), 1e-13);
    EXPECT_LT((explicit_bias_force(model, data, q, v) - h_expected).cwiseAbs().maxCoeff(), 1e-13 * (1.0 + h_expected.norm()));
  }
}

}  // namespace
}  // namespace mechdyn
