// Revolute joints about a coordinate axis (n = ±e_k) take the specialised rotation
// products of src/model/joint_inline.hpp (4 multiplications per R x instead of 9). The
// general products are the reference: the same model with every such axis tilted by
// ±ε off e_k (two non-zero components, so the general path runs) gives results f(±ε);
// (f(ε) + f(−ε)) / 2 = f(0) + O(ε²), so with ε = 1e-6 the specialised f(0) must agree
// to ~1e-12. Catches a wrong sign of the sine, a wrong pair (i, j) for some k, a
// transposed product in forward kinematics, RNEA's transforms or the composed world
// rotation of spherical/free descendants.
#include <gtest/gtest.h>

#include <random>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"
#include "random_model.hpp"

namespace mechdyn {
namespace {

struct Results {
  VecX tau, ddq;
  MatX mass, explicit_mass;
  std::vector<Mat3> rotation;
  AlignedVector<Vec6> motion_axis;
};

Results evaluate(const Model& model, const VecX& q, const VecX& v, const VecX& a) {
  Data data(model);
  Results r;
  forward_kinematics(model, data, q);
  r.rotation = data.rotation;
  r.motion_axis = data.motion_axis;
  r.mass = crba(model, data, q);
  r.explicit_mass = explicit_mass_matrix(model, data, q);
  r.tau = rnea(model, data, q, v, a);
  r.ddq = aba(model, data, q, v, r.tau);
  return r;
}

// Every revolute joint turned about ±e_k (k and the sign cycling over the joints), or
// with `tilt` ≠ 0 about that axis tilted by `tilt` towards e_{k+1} (then normalised).
Model with_principal_axes(Model model, double tilt) {
  int count = 0;
  for (Joint& joint : model.joints) {
    if (joint.type != JointType::Revolute) continue;
    const int k = count % 3;
    const double sign = (count / 3) % 2 == 0 ? 1.0 : -1.0;
    Vec3 axis = Vec3::Zero();
    axis[k] = sign;
    axis[(k + 1) % 3] = tilt;
    joint.axis = axis.normalized();
    ++count;
  }
  finalize_model(model, "principal-axes test");
  return model;
}

double relative(const MatX& x, const MatX& y) { return (x - y).norm() / (1.0 + y.norm()); }

TEST(PrincipalAxes, SpecialisedProductsAgreeWithTheGeneralOnes) {
  constexpr double kTilt = 1e-6;
  int revolute_joints = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    testing::RandomTreeOptions options;
    options.bodies = 12;
    const Model base = testing::random_tree(seed, options);
    const Model principal = with_principal_axes(base, 0.0);
    int here = 0;
    for (const Joint& joint : principal.joints) here += joint.type == JointType::Revolute;
    if (here == 0) continue;
    revolute_joints += here;
    std::mt19937 rng(seed);
    const VecX q = testing::random_configuration(principal, rng);
    const VecX v = testing::random_vector(principal.nv, rng);
    const VecX a = testing::random_vector(principal.nv, rng);
    const Results exact = evaluate(principal, q, v, a);
    const Results plus = evaluate(with_principal_axes(base, kTilt), q, v, a);
    const Results minus = evaluate(with_principal_axes(base, -kTilt), q, v, a);
    constexpr double kTolerance = 1e-10;  // O(ε²) = 1e-12 plus round-off
    EXPECT_LT(relative(exact.tau, (plus.tau + minus.tau) / 2), kTolerance) << "seed " << seed;
    EXPECT_LT(relative(exact.mass, (plus.mass + minus.mass) / 2), kTolerance) << "seed " << seed;
    EXPECT_LT(relative(exact.explicit_mass, (plus.explicit_mass + minus.explicit_mass) / 2), kTolerance)
        << "seed " << seed;
    EXPECT_LT(relative(exact.ddq, (plus.ddq + minus.ddq) / 2), 1e-8) << "seed " << seed;  // × cond(M)
    for (int l = 0; l < principal.num_bodies(); ++l)
      EXPECT_LT(relative(exact.rotation[l], (plus.rotation[l] + minus.rotation[l]) / 2), kTolerance)
          << "seed " << seed << " body " << l;
    for (int k = 0; k < principal.nv; ++k)
      EXPECT_LT(relative(exact.motion_axis[k], (plus.motion_axis[k] + minus.motion_axis[k]) / 2), kTolerance)
          << "seed " << seed << " coordinate " << k;
    // The tilt must matter at first order, or the check above would prove nothing.
    EXPECT_GT(relative(plus.tau, minus.tau), 1e-8) << "seed " << seed;
  }
  EXPECT_GT(revolute_joints, 60);  // every k and both signs many times over
}

}  // namespace
}  // namespace mechdyn
