// RNEA against Lagrange's equations evaluated independently in the test, and the power
// balance along forward dynamics (ABA).
//
// The Lagrangian L = T − V is built here from poses only (forward_kinematics(q): body
// rotations R_l and centres of mass c_l), never from data.velocity or any dynamics:
//   J_c,l(q) e_k = ∂c_l/∂q_k,  (J_ω,l(q) e_k)~ = (∂R_l/∂q_k) R_lᵀ   by central differences
//   T(q, q̇) = ½ Σ_l [ m_l |J_c,l q̇|² + (J_ω,l q̇)ᵀ R_l J_l R_lᵀ (J_ω,l q̇) ]
//   V(q) = −Σ_l m_l gᵀ c_l
// T is exactly quadratic in q̇, so p = ∂L/∂q̇ = ∂T/∂q̇ = Σ_l [m_l J_cᵀ J_c + J_ωᵀ R J Rᵀ J_ω] q̇
// is evaluated in closed form from the difference Jacobians; then
//   τ = d/dt p − ∂L/∂q
// with d/dt by central differences along a path with q(0) = q, q̇(0) = q̇, q̈(0) = a, and
// ∂/∂q_k by central differences. Only trees whose coordinates are additive (revolute,
// prismatic, universal; fixed joints carry none) are used, so q ± h e_k is a
// configuration and q̇ = dq/dt.
//
// Accuracy: the Jacobians carry truncation O(h²) ≈ 1e-10 and round-off ≈ 1e-11; the outer
// differences (step d) add O(d²) ≈ 1e-8 and amplify the round-off by 1/d ≈ 3e3. Achieved:
// a maximum relative error of about 1e-8 (printed by the test); the tolerance is 1e-5.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

constexpr double kJacobianStep = 1e-5;  // h: poses → velocities
constexpr double kOuterStep = 3e-4;     // d: ∂/∂q and d/dt

// A random tree (all branches) with additive coordinates only: spherical joints become
// universal joints (their random second axis is not parallel to the first) and free
// roots become prismatic joints.
Model additive_tree(unsigned seed, int bodies) {
  testing::RandomTreeOptions options;
  options.bodies = bodies;
  Model model = testing::random_tree(seed, options);
  for (Joint& joint : model.joints) {
    if (joint.type == JointType::Spherical) joint.type = JointType::Universal;
    if (joint.type == JointType::Free) joint.type = JointType::Prismatic;
  }
  finalize_model(model, model.name);
  return model;
}

Vec3 vee(const Mat3& m) {  // the vector of the skew-symmetric part
  return 0.5 * Vec3(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1));
}

// Everything T needs at one configuration, from poses only.
struct PoseJacobians {
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> com;      // J_c,l
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> angular;  // J_ω,l
  std::vector<Mat3> inertia;                                      // R_l J_l R_lᵀ
};

PoseJacobians pose_jacobians(const Model& model, const VecX& q) {
  const int n = model.num_bodies();
  PoseJacobians out;
  Data centre(model), plus(model), minus(model);
  forward_kinematics(model, centre, q);
  out.com.assign(n, Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, model.nv));
  out.angular.assign(n, Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, model.nv));
  for (int l = 0; l < n; ++l)
    out.inertia.push_back(centre.rotation[l] * model.bodies[l].inertia * centre.rotation[l].transpose());
  for (int k = 0; k < model.nv; ++k) {  // additive coordinates: nq = nv and q_k ↔ q̇_k
    VecX qp = q, qm = q;
    qp[k] += kJacobianStep;
    qm[k] -= kJacobianStep;
    forward_kinematics(model, plus, qp);
    forward_kinematics(model, minus, qm);
    for (int l = 0; l < n; ++l) {
      out.com[l].col(k) = (plus.com_position[l] - minus.com_position[l]) / (2 * kJacobianStep);
      out.angular[l].col(k) =
          vee((plus.rotation[l] - minus.rotation[l]) / (2 * kJacobianStep) * centre.rotation[l].transpose());
    }
  }
  return out;
}

double kinetic(const Model& model, const VecX& q, const VecX& qdot) {
  const PoseJacobians j = pose_jacobians(model, q);
  double twice = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Vec3 vc = j.com[l] * qdot, w = j.angular[l] * qdot;
    twice += model.bodies[l].mass * vc.squaredNorm() + w.dot(j.inertia[l] * w);
  }
  return 0.5 * twice;
}

VecX momentum(const Model& model, const VecX& q, const VecX& qdot) {  // p = ∂T/∂q̇
  const PoseJacobians j = pose_jacobians(model, q);
  VecX p = VecX::Zero(model.nv);
  for (int l = 0; l < model.num_bodies(); ++l) {
    p += model.bodies[l].mass * j.com[l].transpose() * (j.com[l] * qdot);
    p += j.angular[l].transpose() * (j.inertia[l] * (j.angular[l] * qdot));
  }
  return p;
}

double potential(const Model& model, const VecX& q) {
  Data data(model);
  forward_kinematics(model, data, q);
  double v = 0.0;
  for (int l = 0; l < model.num_bodies(); ++l) v -= model.bodies[l].mass * model.gravity.dot(data.com_position[l]);
  return v;
}

// τ = d/dt ∂L/∂q̇ − ∂L/∂q at (q, q̇, q̈ = a).
VecX lagrange_efforts(const Model& model, const VecX& q, const VecX& qdot, const VecX& a) {
  const double d = kOuterStep;
  const VecX p_plus = momentum(model, q + d * qdot + 0.5 * d * d * a, qdot + d * a);
  const VecX p_minus = momentum(model, q - d * qdot + 0.5 * d * d * a, qdot - d * a);
  VecX tau = (p_plus - p_minus) / (2 * d);  // d/dt ∂L/∂q̇
  for (int k = 0; k < model.nv; ++k) {
    VecX qp = q, qm = q;
    qp[k] += d;
    qm[k] -= d;
    const double lagrangian_plus = kinetic(model, qp, qdot) - potential(model, qp);
    const double lagrangian_minus = kinetic(model, qm, qdot) - potential(model, qm);
    tau[k] -= (lagrangian_plus - lagrangian_minus) / (2 * d);  // − ∂L/∂q_k
  }
  return tau;
}

// Catches: any term of RNEA missing or wrong against first principles — the gravity
// sign or its placement ([0; −g] vs [−g; 0]), the Coriolis/centripetal forces v ×* I v,
// the joint rates Ṡ q̇ of universal joints (second axis moving with the child), the
// parallel-axis transfer of the inertias — none of which cross-algorithm identities
// (RNEA vs CRBA vs ABA) can see if they share a wrong convention.
TEST(Lagrangian, RneaMatchesLagrangeEquationsOnAdditiveTrees) {
  double worst = 0.0;
  int checked = 0;
  int joints_of_type[6] = {0, 0, 0, 0, 0, 0};
  for (unsigned seed = 1; seed <= 16; ++seed) {
    const int bodies = 1 + static_cast<int>(seed % 10);
    const Model model = additive_tree(seed, bodies);
    for (const Joint& joint : model.joints) ++joints_of_type[static_cast<int>(joint.type)];
    if (model.nv == 0) continue;
    std::mt19937 rng(seed + 40);
    const VecX q = testing::random_configuration(model, rng);
    const VecX qdot = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model);
    const VecX tau = rnea(model, data, q, qdot, a);
    const VecX expected = lagrange_efforts(model, q, qdot, a);
    const double error = (tau - expected).norm() / expected.norm();
    worst = std::max(worst, error);
    ++checked;
    EXPECT_LT(error, 1e-5) << "seed " << seed << ", " << bodies << " bodies\n rnea  " << tau.transpose()
                           << "\n lagr. " << expected.transpose();
  }
  EXPECT_GE(checked, 12);
  for (JointType type : {JointType::Revolute, JointType::Prismatic, JointType::Universal})
    EXPECT_GT(joints_of_type[static_cast<int>(type)], 3) << joint_type_name(type) << " joints not exercised";
  std::printf("RNEA vs Lagrange (%d trees): max relative error %.3e\n", checked, worst);
}

// One classic RK4 step of q̈ = ABA(q, q̇, τ) (additive coordinates), step dt (may be < 0).
void rk4_step(const Model& model, Data& data, VecX& q, VecX& qdot, const VecX& tau, double dt) {
  const auto acceleration = [&](const VecX& x, const VecX& xdot) -> VecX { return aba(model, data, x, xdot, tau); };
  const VecX k1q = qdot, k1v = acceleration(q, qdot);
  const VecX k2q = qdot + 0.5 * dt * k1v, k2v = acceleration(q + 0.5 * dt * k1q, k2q);
  const VecX k3q = qdot + 0.5 * dt * k2v, k3v = acceleration(q + 0.5 * dt * k2q, k3q);
  const VecX k4q = qdot + dt * k3v, k4v = acceleration(q + dt * k3q, k4q);
  q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
  qdot += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
}

// Catches: ABA accelerations that are not those of the mechanism whose energy is T —
// e.g. a wrong articulated bias p^A, gravity entering ABA with the wrong sign — through
// the power balance dT/dt = q̇ᵀ (τ − g(q)), g(q) = RNEA(q, 0, 0), with T from poses only
// and dT/dt by a fourth-order central difference in time along the RK4 trajectory
// (step 1e-3: RK4's local error ≈ 1e-15; the plain second-order difference left
// truncation errors up to 4e-5 relative on these trees, the fourth-order one removes them).
TEST(Lagrangian, PowerBalanceAlongForwardDynamics) {
  double worst = 0.0;
  for (unsigned seed = 21; seed <= 32; ++seed) {
    const int bodies = 2 + static_cast<int>(seed % 8);
    const Model model = additive_tree(seed, bodies);
    if (model.nv == 0) continue;
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX qdot = testing::random_vector(model.nv, rng);
    const VecX tau = testing::random_vector(model.nv, rng, 5.0);
    Data data(model);
    const VecX gravity = rnea(model, data, q, VecX::Zero(model.nv), VecX::Zero(model.nv));
    const double power = qdot.dot(tau - gravity);
    // States at t = ±dt, ±2 dt by RK4 steps of ±dt; T by the pose-only Lagrangian.
    const double dt = 1e-3;
    double energy[5];  // T(−2dt), T(−dt), T(0), T(dt), T(2dt)
    for (int direction : {-1, 1}) {
      VecX x = q, xdot = qdot;
      for (int step = 1; step <= 2; ++step) {
        rk4_step(model, data, x, xdot, tau, direction * dt);
        energy[2 + direction * step] = kinetic(model, x, xdot);
      }
    }
    // Fourth-order central difference: dT/dt = [8 (T(dt) − T(−dt)) − (T(2dt) − T(−2dt))] / (12 dt) + O(dt⁴).
    const double energy_rate = (8 * (energy[3] - energy[1]) - (energy[4] - energy[0])) / (12 * dt);
    const double scale = std::abs(qdot.dot(tau)) + std::abs(qdot.dot(gravity));
    const double error = std::abs(energy_rate - power) / scale;
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-5) << "seed " << seed << ": dT/dt " << energy_rate << ", q̇ᵀ(τ − g) " << power;
  }
  std::printf("power balance: max relative error %.3e\n", worst);
}

}  // namespace
}  // namespace mechdyn
