// The system level of mechanisms with rigid and flexible bodies (flexible/flexible_system.hpp)
// against independent computations:
//  - M symmetric (bit for bit) and positive definite at random states;
//  - the undeformed system reproduces the rigid model (beam replaced by a rigid body of the
//    same mass, centre and inertia): the joints' block of M equals crba, the joints' rows of
//    h at ė = 0 equal rnea(q, v, 0) — including a child joint on the beam, off the axis;
//  - h satisfies Lagrange's equations h = Ṁ v − ∂T/∂q + ∂V/∂q, with T = ½ vᵀ M v and
//    V = V_gravity + ½ eᵀ K e, by central finite differences (geometric stiffening off,
//    no damping: the docs' caveat — K_G of inertial loads is not a potential's Hessian);
//  - cut joints on a beam: J v = dΦ/dt and J̇ v = d(J v)/dt along v by finite differences,
//    for every cut-joint type, the beam on side a and on side b;
//  - energy T + V is conserved by a free swing (RK4 on M v̇ = −h);
//  - evaluation allocates nothing.
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

using testing::allocations_during;

// A rigid link, a flexible beam on it (tilted joint axis, welded hub), a rigid hand on a
// revolute joint off the beam's axis, a tip marker. Soft (E = 2e8 Pa) so that the elastic
// terms are of the size of the rigid ones.
std::string arm_text(const char* stiffening = "false", const char* damping = "{mass: 0, stiffness: 0}",
                     double youngs = 2e8) {
  char text[2000];
  std::snprintf(text, sizeof text,
                "mechdyn: 2\nname: arm\ngravity: [0, 0, -9.81]\nbodies:\n"
                "  - name: link1\n    parent: ground\n    joint: {type: revolute, axis: [0, 1, 0]}\n"
                "    mass: 2.0\n    com: [0.2, 0, 0]\n    inertia: {diag: [1.0e-4, 0.02672, 0.02672]}\n"
                "  - name: beam\n    parent: link1\n    joint: {type: revolute, axis: [0, 0.6, 0.8], origin: [0.4, 0, 0]}\n"
                "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 0.8, elements: 2,\n"
                "               section: {circle: 0.01}, material: {youngs_modulus: %.17g, density: 2700, poisson_ratio: 0.3},\n"
                "               geometric_stiffening: %s, damping: %s}\n"
                "    mass: 0.2\n    com: [0.01, 0, 0]\n    inertia: {diag: [1.0e-5, 2.0e-5, 3.0e-5]}\n"
                "  - name: hand\n    parent: beam\n    joint: {type: revolute, axis: [1, 0, 0], origin: [0.5, 0.02, 0]}\n"
                "    mass: 0.3\n    com: [0.05, 0, 0.01]\n    inertia: {diag: [1.0e-4, 2.0e-4, 2.5e-4]}\n"
                "markers:\n  - {name: tip, body: beam, point: [0.8, 0, 0]}\n",
                youngs, stiffening, damping);
  return text;
}

Model load(const std::string& text) { return parse_model_string(text, "test.yaml"); }

struct System {
  explicit System(const Model& m) : model(m), system(make_flexible_system(model)), data(model, system) {}
  Model model;
  FlexibleSystem system;
  FlexibleSystemData data;

  const MatX& mass(const VecX& q) {
    flexible_kinematics(model, system, data, q);
    flexible_mass_matrix(model, system, data, q);
    return data.mass_matrix;
  }
  const VecX& bias(const VecX& q, const VecX& v) {
    flexible_kinematics(model, system, data, q, v);
    flexible_bias_force(model, system, data, q, v, VecX());
    return data.bias_force;
  }
  double kinetic(const VecX& q, const VecX& v) { return 0.5 * v.dot(mass(q) * v); }
  double potential(const VecX& q) {
    mass(q);
    const FlexibleEnergies e = flexible_energies(model, system, data, q, VecX::Zero(model.nv));
    return e.gravity + e.strain;
  }
};

VecX random_state(const Model& model, int seed, double elastic) {
  std::srand(static_cast<unsigned>(seed));
  VecX x = VecX::Random(model.nv);
  x.tail(model.nv - model.rigid_nv) *= elastic;
  return x;
}

// Catches: an asymmetric or indefinite M (the paper's eq. 30), a wrong B_i for a body on a beam.
TEST(FlexibleSystem, MassMatrixIsSymmetricPositiveDefinite) {
  System s(load(arm_text()));
  for (int seed = 1; seed <= 5; ++seed) {
    const VecX q = random_state(s.model, seed, 0.05);
    const MatX m = s.mass(q);
    EXPECT_EQ((m - m.transpose()).cwiseAbs().maxCoeff(), 0.0);
    Eigen::SelfAdjointEigenSolver<MatX> eigen(m);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 0.0);
  }
}

// The undeformed flexible system equals the rigid model with the beam as a rigid body.
// Catches: a wrong kinematic map of a joint on a beam, a wrong rigid-body inertia block, a
// wrong bias of the rigid coordinates (Coriolis, centrifugal, gravity).
TEST(FlexibleSystem, UndeformedSystemReproducesTheRigidModel) {
  const Model flexible = load(arm_text());
  Model rigid = flexible;
  // The beam as a rigid body: rod ρ A L on [0, L] along x with the section's rotary inertia
  // ρ L diag(I_p, I_y, I_z), plus the welded hub (0.2 kg at x = 0.01).
  const double r = 0.01, rho = 2700, length = 0.8, pi = std::acos(-1.0);
  const double area = pi * r * r, i = pi * r * r * r * r / 4, rod = rho * area * length, hub = 0.2;
  const double total = rod + hub, centre = (rod * length / 2 + hub * 0.01) / total;
  Mat3 inertia = Mat3::Zero();
  inertia.diagonal() << rho * length * 2 * i, rod * length * length / 12 + rho * length * i,
      rod * length * length / 12 + rho * length * i;
  const double rod_shift = length / 2 - centre, hub_shift = 0.01 - centre;
  inertia(1, 1) += rod * rod_shift * rod_shift + hub * hub_shift * hub_shift;
  inertia(2, 2) += rod * rod_shift * rod_shift + hub * hub_shift * hub_shift;
  inertia.diagonal() += Vec3(1.0e-5, 2.0e-5, 3.0e-5);
  Body& beam = rigid.bodies[1];
  beam.flexible.reset();
  beam.mass = total;
  beam.com = Vec3(centre, 0, 0);
  beam.inertia = inertia;
  rigid.markers.clear();
  finalize_model(rigid, "rigid");
  ASSERT_EQ(rigid.nv, 3);

  System s(flexible);
  Data data(rigid);
  for (int seed = 1; seed <= 3; ++seed) {
    VecX q = random_state(s.model, seed, 0.0), v = random_state(s.model, seed + 10, 0.0);
    const MatX m = s.mass(q);
    crba(rigid, data, q.head(3));
    EXPECT_LT((m.topLeftCorner(3, 3) - data.mass_matrix).cwiseAbs().maxCoeff(), 1e-13 * data.mass_matrix.norm());
    const VecX h = s.bias(q, v);
    rnea(rigid, data, q.head(3), v.head(3), VecX::Zero(3));
    EXPECT_LT((h.head(3) - data.tau).cwiseAbs().maxCoeff(), 1e-12 * (1 + data.tau.norm())) << h.head(3).transpose()
                                                                                            << " vs " << data.tau.transpose();
  }
}

// Lagrange's equations by central differences: h = Ṁ v − ∂T/∂q + ∂V/∂q (all coordinates here
// are angles or elastic, so q̇ = v). Catches: any missing or wrong velocity-product term of a
// frame on a deformed beam (b_p, b_θ, the carriers' ṡ), of Q_v, or of gravity on the beam.
TEST(FlexibleSystem, BiasSatisfiesLagrangesEquations) {
  System s(load(arm_text()));
  const double step = 1e-6;
  for (int seed = 1; seed <= 3; ++seed) {
    const VecX q = random_state(s.model, seed, 0.05), v = random_state(s.model, seed + 20, 2.0);
    const Eigen::Index n = s.model.nv;
    const MatX plus = s.mass(q + step * v), minus = s.mass(q - step * v);  // copies: mass() returns data's
    VecX expected = (plus - minus) / (2 * step) * v;                            // Ṁ v
    for (Eigen::Index j = 0; j < n; ++j) {
      VecX dq = VecX::Zero(n);
      dq[j] = step;
      expected[j] -= (s.kinetic(q + dq, v) - s.kinetic(q - dq, v)) / (2 * step);
      expected[j] += (s.potential(q + dq) - s.potential(q - dq)) / (2 * step);
    }
    const VecX h = s.bias(q, v);
    const double scale = expected.cwiseAbs().maxCoeff();
    EXPECT_LT((h - expected).cwiseAbs().maxCoeff(), 2e-7 * scale)
        << "h        " << h.transpose() << "\nLagrange " << expected.transpose();
  }
}

// A closed chain with a cut joint on the beam: crank (rigid), beam (flexible) on it, rocker
// from the ground; each cut-joint type, with the beam on side a and on side b.
// The axis keys each loop type takes (model-format.md).
const char* axes(const std::string& type) {
  if (type == "universal") return ", axes: [[0.6, 0, 0.8], [0, 1, 0]]";
  if (type == "spherical" || type == "fixed") return "";
  return ", axis: [0.6, 0, 0.8]";
}

std::string chain_text(const char* type, bool beam_on_a) {
  const char* beam_side = "{body: beam, point: [0.9, 0.01, 0]}";
  const char* rocker_side = "{body: rocker, point: [0.5, 0, 0.02]}";
  char text[2000];
  std::snprintf(text, sizeof text,
                "mechdyn: 2\nname: chain\ngravity: [0, 0, -9.81]\nbodies:\n"
                "  - name: crank\n    parent: ground\n    joint: {type: revolute, axis: [0, 0, 1]}\n"
                "    mass: 1.0\n    com: [0.1, 0, 0]\n    inertia: {diag: [1.0e-4, 1.0e-3, 1.0e-3]}\n"
                "  - name: beam\n    parent: crank\n    joint: {type: revolute, axis: [0, 0, 1], origin: [0.2, 0, 0]}\n"
                "    flexible: {type: beam, direction: [1, 0, 0], section_y: [0, 1, 0], length: 1.0, elements: 2,\n"
                "               section: {circle: 0.01}, material: {youngs_modulus: 2e8, density: 2700, poisson_ratio: 0.3}}\n"
                "  - name: rocker\n    parent: ground\n    joint: {type: universal, axes: [[0, 0, 1], [0, 1, 0]], origin: [1.0, 0.3, 0]}\n"
                "    mass: 0.5\n    com: [0.25, 0, 0]\n    inertia: {diag: [1.0e-4, 1.0e-2, 1.0e-2]}\n"
                "loops:\n  - {name: cut, type: %s, a: %s, b: %s%s}\n",
                type, beam_on_a ? beam_side : rocker_side, beam_on_a ? rocker_side : beam_side, axes(type));
  return text;
}

// Catches: a cut side on a beam not following the deformed section (position, rotation), a
// wrong elastic column of the constraint Jacobian, a wrong J̇ v (b_p, b_θ, ω × terms).
TEST(FlexibleSystem, CutJointsOnBeamsHaveExactJacobianAndBias) {
  for (const char* type : {"spherical", "revolute", "universal", "fixed", "prismatic", "planar-revolute"}) {
    for (bool beam_on_a : {true, false}) {
      const std::string text = chain_text(type, beam_on_a);
      System s(load(text));
      const VecX q = random_state(s.model, 3, 0.05), v = random_state(s.model, 4, 2.0);
      const double step = 1e-6;
      auto closure = [&](const VecX& x, const VecX& rate) {
        flexible_kinematics(s.model, s.system, s.data, x, rate);
        flexible_loop_closure(s.model, s.system, s.data, x, rate);
      };
      const Eigen::Index rows = s.model.num_loop_rows;
      closure(q + step * v, v);
      const VecX phi_plus = s.data.loop_residual, jv_plus = s.data.loop_jacobian * v;
      closure(q - step * v, v);
      const VecX phi_minus = s.data.loop_residual, jv_minus = s.data.loop_jacobian * v;
      closure(q, v);
      const VecX jv = s.data.loop_jacobian * v;
      const VecX phi_rate = (phi_plus - phi_minus) / (2 * step), jv_rate = (jv_plus - jv_minus) / (2 * step);
      ASSERT_EQ(jv.size(), rows);
      EXPECT_LT((jv - phi_rate).cwiseAbs().maxCoeff(), 1e-7 * (1 + phi_rate.norm())) << type << " " << beam_on_a;
      EXPECT_LT((s.data.loop_bias - jv_rate).cwiseAbs().maxCoeff(), 1e-6 * (1 + jv_rate.norm()))
          << type << " " << beam_on_a << "\n" << s.data.loop_bias.transpose() << "\n" << jv_rate.transpose();
    }
  }
}

// A free swing of the arm from rest (all joints passive in effect: no efforts), RK4 on
// M v̇ = −h for 0.2 s: T + V constant. Catches: h inconsistent with M (any missing term
// does work), the strain or gravity energy of the beam.
TEST(FlexibleSystem, FreeSwingConservesEnergy) {
  System s(load(arm_text("false", "{mass: 0, stiffness: 0}", 5e7)));
  const Eigen::Index n = s.model.nv;
  VecX q = VecX::Zero(n), v = VecX::Zero(n);
  q[1] = 0.3;
  auto energy = [&](const VecX& x, const VecX& rate) {
    s.mass(x);
    flexible_kinematics(s.model, s.system, s.data, x, rate);
    const FlexibleEnergies e = flexible_energies(s.model, s.system, s.data, x, rate);
    return e.kinetic + e.gravity + e.strain;
  };
  auto acceleration = [&](const VecX& x, const VecX& rate) -> VecX {
    const VecX h = s.bias(x, rate);
    const MatX m = s.mass(x);
    return m.llt().solve(-h);
  };
  const double e0 = energy(q, v), dt = 2e-4;
  double largest_kinetic = 0.0;
  for (int k = 0; k < 1000; ++k) {
    const VecX a1 = acceleration(q, v), v1 = v;
    const VecX a2 = acceleration(q + 0.5 * dt * v1, v + 0.5 * dt * a1), v2 = v + 0.5 * dt * a1;
    const VecX a3 = acceleration(q + 0.5 * dt * v2, v + 0.5 * dt * a2), v3 = v + 0.5 * dt * a2;
    const VecX a4 = acceleration(q + dt * v3, v + dt * a3), v4 = v + dt * a3;
    q += dt / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    v += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    s.mass(q);
    largest_kinetic = std::max(largest_kinetic, 0.5 * v.dot(s.data.mass_matrix * v));
  }
  const double drift = std::abs(energy(q, v) - e0);
  std::printf("free swing: kinetic up to %.4f J, energy drift %.3e J\n", largest_kinetic, drift);
  EXPECT_GT(largest_kinetic, 0.5);  // it did swing
  EXPECT_LT(drift, 1e-7 * largest_kinetic);
}

// Catches: an Eigen temporary or a vector growth in the evaluation functions.
TEST(FlexibleSystem, EvaluationAllocatesNothing) {
  System s(load(chain_text("revolute", true)));
  const VecX q = random_state(s.model, 5, 0.05), v = random_state(s.model, 6, 1.0), a = random_state(s.model, 7, 1.0);
  const long seen = allocations_during([&] {
    flexible_kinematics(s.model, s.system, s.data, q, v);
    flexible_mass_matrix(s.model, s.system, s.data, q);
    flexible_bias_force(s.model, s.system, s.data, q, v, a);
    flexible_loop_closure(s.model, s.system, s.data, q, v);
  });
  EXPECT_LE(seen, 0);
}

}  // namespace
}  // namespace mechdyn
