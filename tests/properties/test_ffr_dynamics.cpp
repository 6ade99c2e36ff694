// The FFR equations of motion of one flexible body against its kinetic energy, computed
// here independently by quadrature over the beam (6 Gauss points per element, not the
// library's 4, and from the point kinematics, not from the invariants):
//   T = ½ ∫ ρA |v + ω × p̄(s) + ṗ̄(s)|² ds + ½ ∫ (ω + θ̇(s))ᵀ J_s (ω + θ̇(s)) ds
//       + ½ m_r |v + ω × c|² + ½ ωᵀ J_c ω
// (flexible/ffr_dynamics.hpp: the section model). Checks:
//  - the mass matrix is T's Hessian in y = [ω; v; ė] (entry by entry, by polarisation);
//  - M(e) symmetric positive definite for random e;
//  - M ẏ + Q_v equals Lagrange's d/dt ∂T/∂q̇ − ∂T/∂q by finite differences of T, with the
//    frame's orientation parameterised by a rotation vector (q = [φ; r; e]);
//  - gravity's generalized force is −∂V/∂q by finite differences of V = −g · ∫ ρ r dV;
//  - the rigid limit: with e = ė = 0 and no beam coupling the body is a rigid body.
// Each runs for the nodal body and for a modally reduced one.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <functional>
#include <random>

#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"
#include "mechdyn/math/rotation_vector.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn {
namespace {

FlexibleBeam test_beam(int modes) {
  FlexibleBeam b;
  b.direction = Vec3(1, 2, 2) / 3.0;
  b.section_y = Vec3(2, 1, -2) / 3.0;
  b.length = 0.9;
  b.elements = 3;
  // A stubby, non-square section: the rotary inertia terms are not negligible.
  b.section = {2e-3, 3e-6, 7e-6, 5e-6};
  b.material = {70e9, 26e9, 2700.0};
  b.modes = modes;
  return b;
}

const Vec3 kRigidCom(0.03, -0.02, 0.04);
const Mat3 kRigidInertia = (Mat3() << 3e-3, 1e-4, -2e-4, 1e-4, 4e-3, 3e-4, -2e-4, 3e-4, 5e-3).finished();
constexpr double kRigidMass = 0.8;

FlexibleBody make_test_body(int modes) { return make_flexible_body(test_beam(modes), kRigidMass, kRigidCom, kRigidInertia); }

// Independent kinetic energy by quadrature (body-frame velocities).
class KineticEnergy {
 public:
  explicit KineticEnergy(const FlexibleBody& body) : body_(body), kinematics_(body) {
    const FlexibleBeam& b = body.beam;
    const Mat3& c = body.section_axes;
    section_rotary_ = b.material.density * c * Vec3(b.section.polar(), b.section.iy, b.section.iz).asDiagonal() * c.transpose();
    const double x6[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                          0.2386191860831969, 0.6612093864662645, 0.9324695142031521};
    const double w6[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                          0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
    const double l = b.length / b.elements;
    for (int j = 0; j < b.elements; ++j)
      for (int g = 0; g < 6; ++g) {
        points_.push_back(make_beam_point(body, (j + 0.5 * (1 + x6[g])) * l * b.direction));
        weights_.push_back(0.5 * w6[g] * l);
      }
  }

  double operator()(const Vec3& w, const Vec3& v, const VecX& e, const VecX& e_rate) {
    const FlexibleBeam& b = body_.beam;
    const double rho_a = b.material.density * b.section.area;
    double t = 0.0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      beam_point_kinematics(body_, points_[i], e, kinematics_);
      const Vec3 position = kinematics_.position;
      beam_point_kinematics(body_, points_[i], e_rate, kinematics_);  // linear in e: N ė, N_θ ė
      const Vec3 relative = kinematics_.position - points_[i].arclength * b.direction;
      const Vec3 theta_rate = kinematics_.rotation_vector;
      const Vec3 velocity = v + w.cross(position) + relative;
      const Vec3 section = w + theta_rate;
      t += 0.5 * weights_[i] * (rho_a * velocity.squaredNorm() + section.dot(section_rotary_ * section));
    }
    const Vec3 rigid_velocity = v + w.cross(body_.rigid_com);
    t += 0.5 * body_.rigid_mass * rigid_velocity.squaredNorm() + 0.5 * w.dot(body_.rigid_inertia * w);
    return t;
  }

 private:
  const FlexibleBody& body_;
  BeamPointKinematics kinematics_;
  Mat3 section_rotary_;
  std::vector<BeamPoint> points_;
  std::vector<double> weights_;
};

VecX random_vector(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(n);
  for (int i = 0; i < n; ++i) x(i) = scale * u(rng);
  return x;
}

class FfrDynamics : public ::testing::TestWithParam<int> {};  // modes (0: nodal)

// Catches: any block of M(e) that is not the kinetic energy's Hessian — a missing
// e-dependent term (the "small deformation" shortcut), a wrong sign of M_ωv, an F_kl
// index transposed, rotary inertia inconsistent between M_ee and the invariants.
// M_ij = T(e_i + e_j) − T(e_i) − T(e_j) (polarisation of the quadratic form T = ½ yᵀ M y).
TEST_P(FfrDynamics, MassMatrixIsTheKineticEnergyHessian) {
  const FlexibleBody body = make_test_body(GetParam());
  FlexibleBodyData data(body);
  KineticEnergy energy(body);
  std::mt19937 rng(11);
  const int ne = body.num_elastic, size = 6 + ne;
  const VecX e = random_vector(rng, ne, 0.05);
  ffr_mass_matrix(body, data, e);
  const auto t = [&](const VecX& y) {
    return energy(y.head<3>(), y.segment<3>(3), e, y.tail(ne));
  };
  MatX reference(size, size);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) {
      VecX a = VecX::Zero(size), b = VecX::Zero(size);
      a(i) = 1.0;
      b(j) = 1.0;
      reference(i, j) = t(a + b) - t(a) - t(b);
    }
  const double scale = reference.cwiseAbs().maxCoeff();
  EXPECT_LT((data.mass_matrix - reference).cwiseAbs().maxCoeff(), 1e-11 * scale)
      << "largest entry " << scale << "\nM - reference:\n" << (data.mass_matrix - reference);
}

// Catches: an asymmetric or indefinite mass matrix (the paper's eq. 30 claims asymmetry).
TEST_P(FfrDynamics, MassMatrixIsSymmetricPositiveDefinite) {
  const FlexibleBody body = make_test_body(GetParam());
  FlexibleBodyData data(body);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    ffr_mass_matrix(body, data, random_vector(rng, body.num_elastic, 0.1));
    const MatX& m = data.mass_matrix;
    EXPECT_EQ((m - m.transpose()).cwiseAbs().maxCoeff(), 0.0);
    Eigen::SelfAdjointEigenSolver<MatX> solver(m, Eigen::EigenvaluesOnly);
    EXPECT_GT(solver.eigenvalues()(0), 0.0) << "trial " << trial;
  }
}

// Generalized coordinates q = [φ; r; e]: R = exp(φ̃), ω_world = J(φ) φ̇,
// ω = Rᵀ J(φ) φ̇, v = Rᵀ ṙ (body components).
struct Velocities {
  Vec3 w, v;
  VecX e, e_rate;
};
Velocities body_velocities(const VecX& q, const VecX& qd) {
  const Mat3 r = rotation_vector_exp(q.head<3>());
  const int ne = static_cast<int>(q.size()) - 6;
  return {r.transpose() * (rotation_vector_jacobian(q.head<3>()) * qd.head<3>()), r.transpose() * qd.segment<3>(3),
          q.tail(ne), qd.tail(ne)};
}

// Catches: any missing or wrong term of Q_v — centrifugal (ω × (ω × ū), the softening
// Σ Ω_kl S_kl e), Coriolis (2 ω × N ė, the gyroscopic Σ ω̃_kl S_kl ė), the Ṁ y terms
// (2 (tr V − V) ω), the rotary part ω × (J_r ω + J_θ ė), ω × v transport terms.
// Lagrange: d/dt ∂T/∂q̇ − ∂T/∂q = Bᵀ (M ẏ + Q_v), y = B(q) q̇, all by central differences.
TEST_P(FfrDynamics, QuadraticVelocityVectorSatisfiesLagrangesEquations) {
  const FlexibleBody body = make_test_body(GetParam());
  FlexibleBodyData data(body);
  KineticEnergy energy(body);
  std::mt19937 rng(23);
  const int ne = body.num_elastic, size = 6 + ne;
  for (int trial = 0; trial < 3; ++trial) {
    VecX q = random_vector(rng, size, 1.0);
    q.tail(ne) = random_vector(rng, ne, 0.05);
    VecX qd = random_vector(rng, size, 1.5);
    qd.tail(ne) = random_vector(rng, ne, 0.3);
    const VecX qdd = random_vector(rng, size, 2.0);

    const auto t = [&](const VecX& x, const VecX& xd) {
      const Velocities y = body_velocities(x, xd);
      return energy(y.w, y.v, y.e, y.e_rate);
    };
    const double h = 1e-3;  // T is quadratic in q̇: central differences are exact there
    const auto momentum = [&](const VecX& x, const VecX& xd) {
      VecX p(size);
      for (int i = 0; i < size; ++i) {
        VecX plus = xd, minus = xd;
        plus(i) += h, minus(i) -= h;
        p(i) = (t(x, plus) - t(x, minus)) / (2 * h);
      }
      return p;
    };
    const double tau = 1e-4, hq = 1e-5;
    const VecX p_plus = momentum(q + tau * qd + 0.5 * tau * tau * qdd, qd + tau * qdd);
    const VecX p_minus = momentum(q - tau * qd + 0.5 * tau * tau * qdd, qd - tau * qdd);
    VecX lagrange = (p_plus - p_minus) / (2 * tau);
    for (int i = 0; i < size; ++i) {
      VecX plus = q, minus = q;
      plus(i) += hq, minus(i) -= hq;
      lagrange(i) -= (t(plus, qd) - t(minus, qd)) / (2 * hq);
    }

    // The library: y, ẏ (ẏ by central differences of y along the same trajectory), M, Q_v.
    const auto y_of = [&](const VecX& x, const VecX& xd) {
      const Velocities b = body_velocities(x, xd);
      VecX y(size);
      y << b.w, b.v, b.e_rate;
      return y;
    };
    const VecX y = y_of(q, qd);
    const VecX y_rate = (y_of(q + tau * qd + 0.5 * tau * tau * qdd, qd + tau * qdd) -
                         y_of(q - tau * qd + 0.5 * tau * tau * qdd, qd - tau * qdd)) /
                        (2 * tau);
    const Velocities b = body_velocities(q, qd);
    ffr_mass_matrix(body, data, b.e);
    ffr_quadratic_velocity(body, data, b.e, b.w, b.v, b.e_rate);
    const VecX body_force = data.mass_matrix * y_rate + data.quadratic_velocity;
    // Bᵀ: ω = Rᵀ J φ̇ → the φ rows get Jᵀ R (moment); v = Rᵀ ṙ → R (force).
    const Mat3 r = rotation_vector_exp(q.head<3>());
    VecX generalized(size);
    generalized.head<3>() = rotation_vector_jacobian(q.head<3>()).transpose() * (r * body_force.head<3>());
    generalized.segment<3>(3) = r * body_force.segment<3>(3);
    generalized.tail(ne) = body_force.tail(ne);
    const double scale = lagrange.cwiseAbs().maxCoeff();
    EXPECT_LT((generalized - lagrange).cwiseAbs().maxCoeff(), 2e-6 * scale)
        << "trial " << trial << "\nlibrary:  " << generalized.transpose() << "\nLagrange: " << lagrange.transpose();

    // The same equations without the Q_v terms must NOT match (the test can fail).
    const VecX without = data.mass_matrix * y_rate;
    EXPECT_GT((without - body_force).cwiseAbs().maxCoeff(), 1e-3 * scale);
  }
}

// Catches: gravity on the distributed mass wrong (moment arm S(e), elastic part S̄ᵀ g).
// V = −g_w · (m_total r + R (S(e) + m_r c)) with S(e) = ∫ ρA p̄ ds by quadrature here;
// Q = −∂V/∂q by central differences, compared with Bᵀ Q_gravity (g in body components).
TEST_P(FfrDynamics, GravityIsTheGradientOfThePotential) {
  const FlexibleBody body = make_test_body(GetParam());
  FlexibleBodyData data(body);
  BeamPointKinematics kinematics(body);
  std::mt19937 rng(7);
  const int ne = body.num_elastic, size = 6 + ne;
  const Vec3 g(0.3, -1.2, -9.81);
  const double rho_a = body.beam.material.density * body.beam.section.area;
  const double l = body.beam.length;
  const auto potential = [&](const VecX& q) {
    const Mat3 r = rotation_vector_exp(q.head<3>());
    // Simpson's rule on 600 panels of the first moment ∫ ρA p̄ ds (exact for the cubic field
    // up to the element joints: 600 panels are a multiple of 3 elements).
    const int panels = 600;
    Vec3 first = Vec3::Zero();
    for (int i = 0; i <= panels; ++i) {
      const double s = l * i / panels;
      const double weight = (i == 0 || i == panels) ? 1 : (i % 2 ? 4 : 2);
      beam_point_kinematics(body, make_beam_point(body, s * body.beam.direction), q.tail(ne), kinematics);
      first += weight * rho_a * kinematics.position;
    }
    first *= l / (3.0 * panels);
    return -g.dot(body.total_mass() * q.segment<3>(3) + r * (first + body.rigid_mass * body.rigid_com));
  };
  const VecX q = random_vector(rng, size, 0.5);
  VecX gradient(size);
  for (int i = 0; i < size; ++i) {
    VecX plus = q, minus = q;
    plus(i) += 1e-6, minus(i) -= 1e-6;
    gradient(i) = -(potential(plus) - potential(minus)) / 2e-6;
  }
  const Mat3 r = rotation_vector_exp(q.head<3>());
  ffr_gravity_force(body, data, q.tail(ne), r.transpose() * g);
  VecX generalized(size);
  generalized.head<3>() = rotation_vector_jacobian(q.head<3>()).transpose() * (r * data.gravity_force.head<3>());
  generalized.segment<3>(3) = r * data.gravity_force.segment<3>(3);
  generalized.tail(ne) = data.gravity_force.tail(ne);
  EXPECT_LT((generalized - gradient).cwiseAbs().maxCoeff(), 1e-7 * gradient.cwiseAbs().maxCoeff())
      << "\nlibrary:  " << generalized.transpose() << "\ngradient: " << gradient.transpose();
}

INSTANTIATE_TEST_SUITE_P(Coordinates, FfrDynamics, ::testing::Values(0, 5),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return info.param == 0 ? std::string("Nodal") : "Modes" + std::to_string(info.param);
                         });

// Catches: the rigid-body limit broken. At e = ė = 0 the frame rows of M are the spatial
// inertia of the undeformed beam plus the welded part about the frame origin, and Q_v's
// frame rows are the rigid body's v ×* (I v): [ω × h + v × p; ω × p].
TEST(FfrDynamicsRigidLimit, FrameRowsAreTheRigidBodyEquations) {
  const FlexibleBody body = make_test_body(0);
  FlexibleBodyData data(body);
  const int ne = body.num_elastic;
  const VecX zero = VecX::Zero(ne);
  const Vec3 w(0.4, -1.1, 0.7), v(0.3, 0.2, -0.5);
  ffr_mass_matrix(body, data, zero);
  ffr_quadratic_velocity(body, data, zero, w, v, zero);
  // Rigid spatial inertia about the origin: a thin rod of mass m from 0 to L d (com L/2 d,
  // I about the com m L²/12 (1 − d dᵀ)) plus the section's rotary inertia L J_s, plus the
  // welded part.
  const FlexibleBeam& b = body.beam;
  const double m = b.material.density * b.section.area * b.length, l = b.length;
  const Vec3 com_rod = 0.5 * l * b.direction;
  const Mat3 c = body.section_axes;
  const Mat3 rotary = l * b.material.density * c * Vec3(b.section.polar(), b.section.iy, b.section.iz).asDiagonal() * c.transpose();
  const Mat3 rod_com = m * l * l / 12.0 * (Mat3::Identity() - b.direction * b.direction.transpose()) + rotary;
  const auto about_origin = [](double mass, const Vec3& com, const Mat3& inertia) {
    return Mat3(inertia - mass * skew(com) * skew(com));
  };
  const double total = m + kRigidMass;
  const Vec3 moment = m * com_rod + kRigidMass * kRigidCom;
  const Mat3 inertia = about_origin(m, com_rod, rod_com) + about_origin(kRigidMass, kRigidCom, kRigidInertia);
  EXPECT_LT((data.mass_matrix.block<3, 3>(0, 0) - inertia).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((data.mass_matrix.block<3, 3>(0, 3) - skew(moment)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((data.mass_matrix.block<3, 3>(3, 3) - total * Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-12);
  const Vec3 h = inertia * w + skew(moment) * v;       // angular momentum about the origin
  const Vec3 p = total * v + skew(moment).transpose() * w;  // linear momentum
  EXPECT_LT((data.quadratic_velocity.head<3>() - (w.cross(h) + v.cross(p))).norm(), 1e-12);
  EXPECT_LT((data.quadratic_velocity.segment<3>(3) - w.cross(p)).norm(), 1e-12);
}

}  // namespace
}  // namespace mechdyn
