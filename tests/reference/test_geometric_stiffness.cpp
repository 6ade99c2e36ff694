// The geometric (axial-load) stiffness against closed forms: Euler buckling of a cantilever
// under a compressive tip load (K_G0), a cantilever hanging under gravity or standing on a
// frame that accelerates (K_G1, the linear axial force), and the first-order coefficients
// of the spinning and hanging beams as Rayleigh quotients of the exact clamped–free mode
// (ffr_geometric_stiffness, docs/flexible-bodies.md "Geometric stiffening").
//
// Exact first mode of the clamped–free beam, x = s/L, β = 1.8751040687:
//   φ(x) = cosh βx − cos βx − σ (sinh βx − sin βx),  σ = (sinh β − sin β)/(cosh β + cos β).
// First-order change of ω² under an axial force N(s): Δω² = ∫ N φ'² ds / ∫ ρA φ² ds, so
//   spin,  N = ρA Ω² (L² − s²)/2:  Δω² = K_Ω Ω²,    K_Ω = ∫ ½ (1 − x²) φ'² dx / ∫ φ² dx
//   hanging, N = ρA g (L − s):     Δω² = K_g g/L,   K_g = ∫ (1 − x) φ'² dx / ∫ φ² dx
// (φ' = dφ/dx), evaluated below by Simpson's rule on 20000 panels.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {
namespace {

const double kPi = 3.14159265358979323846;
constexpr double kE = 70e9, kRho = 2700.0, kArea = 1e-3, kI = 1e-11;

FlexibleBeam beam(int elements) {
  FlexibleBeam b;
  b.direction = Vec3(0, 0, -1);  // hanging down from the origin
  b.section_y = Vec3(1, 0, 0);
  b.length = 1.0;
  b.elements = elements;
  b.section = {kArea, kI, kI, 2 * kI};
  b.material = {kE, 26e9, kRho};
  return b;
}

// Rayleigh quotients of the exact first clamped–free mode with weights w(x).
double exact_coefficient(double (*weight)(double)) {
  const double b = 1.8751040687119178;
  const double sigma = (std::sinh(b) - std::sin(b)) / (std::cosh(b) + std::cos(b));
  const int panels = 20000;
  double numerator = 0, denominator = 0;
  for (int i = 0; i <= panels; ++i) {
    const double x = static_cast<double>(i) / panels;
    const double simpson = (i == 0 || i == panels) ? 1 : (i % 2 ? 4 : 2);
    const double phi = std::cosh(b * x) - std::cos(b * x) - sigma * (std::sinh(b * x) - std::sin(b * x));
    const double slope = b * (std::sinh(b * x) + std::sin(b * x) - sigma * (std::cosh(b * x) - std::cos(b * x)));
    numerator += simpson * weight(x) * slope * slope;
    denominator += simpson * phi * phi;
  }
  return numerator / denominator;
}

// First-order Δω² of the lowest mode φ of (K, M_ee): φᵀ K_G φ / φᵀ M φ.
double first_order_change(const FlexibleBody& body, const MatX& geometric) {
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(body.stiffness, body.elastic_mass);
  const VecX phi = solver.eigenvectors().col(0);
  return phi.dot(geometric * phi) / phi.dot(body.elastic_mass * phi);
}

// Catches: a wrong constant-force geometric stiffness (K_G0) or tip-tension sign. Euler:
// a cantilever buckles under the compressive tip load P_cr = π² E I / (4 L²); the FE value
// (smallest P with det(K − P K_G0) = 0) converges to it from above.
TEST(GeometricStiffness, EulerBucklingOfACantilever) {
  const double exact = kPi * kPi * kE * kI / 4.0;
  std::printf("cantilever buckling load: exact pi^2 EI/(4L^2) = %.6f N\n  elements  P_cr/exact - 1\n", exact);
  double previous = 1.0;
  for (int n : {1, 2, 4, 8}) {
    const FlexibleBody body = make_flexible_body(beam(n));
    FlexibleBodyData data(body);
    ffr_geometric_stiffness(body, data, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), -1.0);  // P = 1 N compression
    // (K + P K_G(1 N compression)) e = 0, i.e. −K_G e = (1/P) K e: the pencil (−K_G, K), K
    // positive definite, whose largest eigenvalue is 1/P_cr.
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(-data.geometric_stiffness, body.stiffness);
    const double load = 1.0 / solver.eigenvalues().maxCoeff();
    const double error = load / exact - 1.0;
    std::printf("  %8d  %.4e\n", n, error);
    EXPECT_GT(error, -1e-9) << n;
    EXPECT_LT(error, previous / 8) << n << " elements: converges (order 4)";
    previous = error;
  }
  EXPECT_LT(previous, 5e-6);
}

// Catches: the spin's axial force wrong in K_G2 (coefficient, sign, the |ω × d| part): the
// first-order Southwell coefficient against the exact Rayleigh quotient (1.19334).
TEST(GeometricStiffness, SpinCoefficientIsTheRayleighQuotient) {
  const double exact = exact_coefficient([](double x) { return 0.5 * (1 - x * x); });
  EXPECT_NEAR(exact, 1.1933364, 1e-7);
  const FlexibleBody body = make_flexible_body(beam(8));
  FlexibleBodyData data(body);
  // Spin about an axis tilted 30° from the beam's normal: only |ω × d|² counts.
  const Vec3 w = 2.0 * (std::cos(kPi / 6) * Vec3(1, 0, 0) + std::sin(kPi / 6) * Vec3(0, 0, -1));
  ffr_geometric_stiffness(body, data, w, Vec3::Zero(), Vec3::Zero());
  const double omega_perp2 = w.cross(body.beam.direction).squaredNorm();
  EXPECT_NEAR(first_order_change(body, data.geometric_stiffness) / omega_perp2, exact, 2e-6 * exact);
}

// Catches: the gravity/acceleration part (K_G1) with the wrong sign (a hanging beam must
// stiffen, a standing one soften), gravity and frame acceleration not equivalent.
// Hanging: N = ρA g (L − s) > 0, Δω² = K_g g / L, K_g = 1.57088 (header).
TEST(GeometricStiffness, HangingBeamStiffensStandingBeamSoftens) {
  const double exact = exact_coefficient([](double x) { return 1 - x; });
  EXPECT_NEAR(exact, 1.5708782, 1e-6);
  const FlexibleBody body = make_flexible_body(beam(8));
  FlexibleBodyData data(body);
  const Vec3 g(0, 0, -9.81);  // the beam points down (direction −z): hanging
  ffr_geometric_stiffness(body, data, Vec3::Zero(), Vec3::Zero(), g);
  const double hanging = first_order_change(body, data.geometric_stiffness);
  EXPECT_NEAR(hanging / 9.81, exact, 2e-6 * exact);
  // The same load from the frame accelerating upward at g with no gravity (equivalence).
  ffr_geometric_stiffness(body, data, Vec3::Zero(), -g, Vec3::Zero());
  EXPECT_NEAR(first_order_change(body, data.geometric_stiffness), hanging, 1e-12 * hanging);
  // Standing on its root (gravity along +z toward the root): compression, softening.
  ffr_geometric_stiffness(body, data, Vec3::Zero(), Vec3::Zero(), -g);
  EXPECT_NEAR(first_order_change(body, data.geometric_stiffness), -hanging, 1e-12 * hanging);
  // Off: zero.
  FlexibleBeam off = beam(8);
  off.geometric_stiffening = false;
  const FlexibleBody linear = make_flexible_body(off);
  FlexibleBodyData linear_data(linear);
  ffr_geometric_stiffness(linear, linear_data, Vec3(1, 2, 3), Vec3(1, 1, 1), g, 5.0);
  EXPECT_EQ(linear_data.geometric_stiffness.cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace mechdyn
