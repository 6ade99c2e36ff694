// Forward kinematics against finite differences of the poses it computes.
// Catches: wrong motion axes (S), wrong Ṡ q̇ for any joint type, wrong composition order.
#include <gtest/gtest.h>

#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/math/skew.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

// World spatial velocity [ω; v_O] of each body from central differences of poses.
AlignedVector<Vec6> velocities_by_differences(const Model& model, const VecX& q, const VecX& v, double h) {
  Data plus(model), minus(model);
  forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h));
  forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h));
  AlignedVector<Vec6> out(model.num_bodies());
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Mat3 rdot = (plus.rotation[l] - minus.rotation[l]) / (2 * h);
    const Mat3 rmid = 0.5 * (plus.rotation[l] + minus.rotation[l]);
    const Mat3 w = rdot * rmid.transpose();  // ω̃ = Ṙ Rᵀ
    const Vec3 omega(0.5 * (w(2, 1) - w(1, 2)), 0.5 * (w(0, 2) - w(2, 0)), 0.5 * (w(1, 0) - w(0, 1)));
    const Vec3 origin_velocity = (plus.position[l] - minus.position[l]) / (2 * h);
    const Vec3 origin = 0.5 * (plus.position[l] + minus.position[l]);
    out[l] << omega, origin_velocity - omega.cross(origin);  // v_O = v(o) + ω × (0 − o)
  }
  return out;
}

TEST(ForwardKinematics, VelocitiesMatchFiniteDifferencesOnRandomTrees) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Model model = testing::random_tree(seed, {12});
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    Data data(model);
    forward_kinematics(model, data, q, v);
    const auto fd = velocities_by_differences(model, q, v, 1e-6);
    for (int l = 0; l < model.num_bodies(); ++l)
      EXPECT_LT((data.velocity[l] - fd[l]).norm(), 1e-6) << "seed " << seed << " body " << l;
  }
}

TEST(ForwardKinematics, AccelerationsMatchFiniteDifferencesOfVelocities) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Model model = testing::random_tree(seed, {12});
    std::mt19937 rng(seed + 100);
    const VecX q = testing::random_configuration(model, rng);
    const VecX v = testing::random_vector(model.nv, rng);
    const VecX a = testing::random_vector(model.nv, rng);
    Data data(model), plus(model), minus(model);
    forward_kinematics(model, data, q, v, a);
    const double h = 1e-6;
    forward_kinematics(model, plus, testing::integrate_configuration(model, q, v, h), v + h * a);
    forward_kinematics(model, minus, testing::integrate_configuration(model, q, v, -h), v - h * a);
    for (int l = 0; l < model.num_bodies(); ++l) {
      const Vec6 fd = (plus.velocity[l] - minus.velocity[l]) / (2 * h);
      EXPECT_LT((data.acceleration[l] - fd).norm(), 1e-5) << "seed " << seed << " body " << l;
    }
  }
}

TEST(ForwardKinematics, RevoluteRotationIsAxisInvariantRodrigues) {
  // Q n = n for the axis-invariant (EC eq. 3), and Q is a proper rotation.
  const Vec3 n = Vec3(1, 2, -0.5).normalized();
  const Mat3 q = axis_angle_rotation(n, 0.7);
  EXPECT_LT((q * n - n).norm(), 1e-15);
  EXPECT_LT((q.transpose() * q - Mat3::Identity()).norm(), 1e-14);
  EXPECT_NEAR(q.determinant(), 1.0, 1e-14);
  EXPECT_LT((q - Eigen::AngleAxisd(0.7, n).toRotationMatrix()).norm(), 1e-14);
}

}  // namespace
}  // namespace mechdyn
