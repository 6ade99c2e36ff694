// A uniform cantilever spinning at a constant rate Ω about a hub axis through its root
// (frame rotation prescribed): flap and lag frequencies against the exact solution of the
// rotating-beam equation, the Southwell form, and the linear-FFR trap without geometric
// stiffening.
//
// Beam along x from the hub axis z; flap = bending along z (out of the plane of rotation),
// lag = bending along y (in the plane). With N(s) = ρA Ω² (L² − s²)/2 the centrifugal
// tension, small vibrations obey (Euler–Bernoulli, rotary inertia and the lag–axial
// Coriolis coupling left out):
//   flap: E I w'''' − (N w')' = ρA ω² w
//   lag:  E I v'''' − (N v')' − ρA Ω² v = ρA ω² v      ⇒  ω_lag² = ω_flap²(Ω) − Ω²
// Exact reference: nondimensional x = s/L, λ² = Ω² ρA L⁴/(E I), μ² = ω² ρA L⁴/(E I);
//   w'''' − (λ²/2) [(1 − x²) w']' − μ² w = 0, w(0) = w'(0) = 0, w''(1) = w'''(1) = 0,
// solved by its power series (Frobenius; the coefficients are polynomials), whose
// recurrence is (k+4)(k+3)(k+2)(k+1) a_{k+4} = (λ²/2) [(k+2)(k+1) a_{k+2} − k(k+1) a_k] + μ² a_k,
// and a root search of the 2 x 2 boundary determinant in μ.
// Southwell: ω² = ω₀² + K Ω²; the first-order coefficient of the first mode is
// K₁ = ∫ ½ (1 − x²) φ'² dx / ∫ φ² dx = 1.19334 for the clamped–free mode φ (Rayleigh
// quotient, computed in tests/reference/test_geometric_stiffness.cpp; here the Frobenius
// solution's slope at λ = 0.05 is checked against it); lag: K₁ − 1.
//
// FFR model under test: M_ee ë + G ė + (K + K_G + K_Ω) e = f, with K_Ω = ∂Q_v/∂e and
// G = ∂Q_v/∂ė from the library's quadratic velocity vector at ω = Ω z, v = 0 (exact by
// differences: Q_v is linear in e and ė at fixed ω), and K_G from ffr_geometric_stiffness.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "mechdyn/flexible/beam_assembly.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {
namespace {

constexpr double kLength = 1.0, kE = 70e9, kRho = 2700.0, kArea = 1e-3, kI = 1e-11;
// Slender: I/A = 1e-8 m², rotary inertia ≤ 1e-7 of the frequencies; EA/(EI/L²) = 1e8, so the
// lag–axial Coriolis coupling changes ω_lag by ~ (Ω/ω_axial)² < 1e-9.
const double kOmega0Scale = std::sqrt(kE * kI / (kRho * kArea * std::pow(kLength, 4)));  // √(EI/(ρAL⁴))

FlexibleBeam spinning_beam(int elements, bool stiffening, int modes = 0) {
  FlexibleBeam b;
  b.length = kLength;
  b.elements = elements;
  b.section = {kArea, kI, kI, 2 * kI};
  b.material = {kE, 26e9, kRho};
  b.geometric_stiffening = stiffening;
  b.modes = modes;
  return b;
}

// ---- exact reference: Frobenius series -------------------------------------------------------
double boundary_determinant(double lambda2, double mu2) {
  const int terms = 160;
  double a[2][164] = {};
  a[0][2] = 1.0;  // solution A: w = x² + …
  a[1][3] = 1.0;  // solution B: w = x³ + …
  double second[2] = {0, 0}, third[2] = {0, 0};
  for (int sol = 0; sol < 2; ++sol) {
    for (int k = 0; k + 4 < terms; ++k)
      a[sol][k + 4] = (0.5 * lambda2 * ((k + 2.0) * (k + 1.0) * a[sol][k + 2] - k * (k + 1.0) * a[sol][k]) +
                       mu2 * a[sol][k]) /
                      ((k + 4.0) * (k + 3.0) * (k + 2.0) * (k + 1.0));
    for (int k = 2; k < terms; ++k) second[sol] += k * (k - 1.0) * a[sol][k];
    for (int k = 3; k < terms; ++k) third[sol] += k * (k - 1.0) * (k - 2.0) * a[sol][k];
  }
  return second[0] * third[1] - second[1] * third[0];
}

// The lowest `count` nondimensional flap frequencies μ at speed λ (bisection on a scan).
std::vector<double> exact_flap(double lambda, int count) {
  std::vector<double> roots;
  const double lambda2 = lambda * lambda;
  double previous_mu = 0.5, previous = boundary_determinant(lambda2, 0.25);
  for (double mu = 0.55; roots.size() < static_cast<std::size_t>(count); mu += 0.05) {
    const double value = boundary_determinant(lambda2, mu * mu);
    if ((value > 0) != (previous > 0)) {
      double lo = previous_mu, hi = mu, flo = previous;
      for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi), fmid = boundary_determinant(lambda2, mid * mid);
        if ((fmid > 0) == (flo > 0)) lo = mid, flo = fmid;
        else hi = mid;
      }
      roots.push_back(0.5 * (lo + hi));
    }
    previous_mu = mu, previous = value;
  }
  return roots;
}

// ---- the FFR model ---------------------------------------------------------------------------
struct Spectrum {
  std::vector<double> flap, lag;  // nondimensional μ = ω / √(EI/(ρAL⁴)), ascending
  double largest_growth = 0.0;    // largest real part of the eigenvalues (1/s): > 0 is unstable
};

// The lowest clamped bending frequency at rest, μ₀ (flap and lag coincide: square section).
double rest_frequency(const FlexibleBody& body) {
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(body.stiffness, body.elastic_mass);
  return std::sqrt(solver.eigenvalues()(0)) / kOmega0Scale;
}

// Eigenvalues of the linearised spinning beam (Ω > 0: at Ω = 0 flap and lag are degenerate
// and cannot be told apart); each mode classified as flap (z DOFs w, θy dominate), lag (y
// DOFs v, θz) or other (axial, torsion).
// With a hub of radius R the frame origin (the beam's root) circles the hub axis: in body
// components its velocity is v = ω × R x and its acceleration a_0 = ω × (ω × R x).
Spectrum spin(const FlexibleBody& body, double omega, double hub_radius = 0.0) {
  FlexibleBodyData data(body);
  const int ne = body.num_elastic;
  const Vec3 w(0, 0, omega), zero3 = Vec3::Zero(), root(hub_radius, 0, 0);
  const Vec3 v = w.cross(root), a0 = w.cross(w.cross(root));
  const VecX zero = VecX::Zero(ne);
  ffr_quadratic_velocity(body, data, zero, w, v, zero);
  const VecX base = data.quadratic_velocity.tail(ne);
  MatX centrifugal(ne, ne), gyroscopic(ne, ne);
  for (int j = 0; j < ne; ++j) {
    VecX unit = VecX::Zero(ne);
    unit(j) = 1.0;
    ffr_quadratic_velocity(body, data, unit, w, v, zero);
    centrifugal.col(j) = data.quadratic_velocity.tail(ne) - base;
    ffr_quadratic_velocity(body, data, zero, w, v, unit);
    gyroscopic.col(j) = data.quadratic_velocity.tail(ne) - base;
  }
  ffr_geometric_stiffness(body, data, w, a0, zero3);
  const MatX stiffness = body.stiffness + data.geometric_stiffness + centrifugal;
  const MatX mass_inverse = body.elastic_mass.inverse();
  MatX a = MatX::Zero(2 * ne, 2 * ne);
  a.topRightCorner(ne, ne) = MatX::Identity(ne, ne);
  a.bottomLeftCorner(ne, ne) = -mass_inverse * stiffness;
  a.bottomRightCorner(ne, ne) = -mass_inverse * gyroscopic;
  Eigen::EigenSolver<MatX> solver(a);
  Spectrum out;
  const bool modal = body.modal_basis.size() > 0;
  for (int i = 0; i < 2 * ne; ++i) {
    const std::complex<double> lambda = solver.eigenvalues()(i);
    out.largest_growth = std::max(out.largest_growth, lambda.real());
    if (lambda.imag() <= 1e-9) continue;  // one of each conjugate pair; real ones: unstable
    Eigen::VectorXcd shape = solver.eigenvectors().col(i).head(ne);
    if (modal) shape = body.modal_basis.cast<std::complex<double>>() * shape;
    double flap = 0, lag = 0, other = 0;
    for (int k = 0; k < shape.size(); ++k) {
      const int dof = k % 6;
      const double size = std::norm(shape(k)) * (dof >= 3 ? 1e-2 : 1.0);  // rotations weigh ~ (L/10)²
      (dof == 2 || dof == 4 ? flap : dof == 1 || dof == 5 ? lag : other) += size;
    }
    const double mu = lambda.imag() / kOmega0Scale;
    if (flap > lag && flap > other) out.flap.push_back(mu);
    else if (lag > flap && lag > other) out.lag.push_back(mu);
  }
  std::sort(out.flap.begin(), out.flap.end());
  std::sort(out.lag.begin(), out.lag.end());
  return out;
}

// Catches: no centrifugal stiffening (K_G missing or with the wrong axial force), a wrong
// centrifugal softening of lag (K_Ω), the stiffening not converging with few elements.
// Flap and lag frequencies against the exact rotating-beam solution at λ = 1…8, n = 1…8:
// the errors fall with n (Ritz: flap from above), and 8 elements are within 5e-5 (flap);
// lag's error is flap's amplified by μ_flap²/μ_lag² (ω_lag² = ω_flap² − Ω²).
TEST(SpinningBeam, FlapAndLagFrequenciesMatchTheRotatingBeamEquation) {
  std::printf("first flap / lag frequency mu = omega / sqrt(EI/(rho A L^4)) vs lambda = Omega / sqrt(EI/(rho A L^4))\n");
  std::printf("  lambda  exact flap  exact lag  | n=1 flap  lag      | n=2 flap  lag      | n=4 flap  lag      | n=8 flap  lag\n");
  for (double lambda : {1.0, 2.0, 4.0, 8.0}) {
    const double flap_exact = exact_flap(lambda, 1)[0];
    const double lag_exact = std::sqrt(flap_exact * flap_exact - lambda * lambda);
    const double amplification = flap_exact * flap_exact / (lag_exact * lag_exact);
    std::printf("  %6.1f  %10.5f  %9.5f ", lambda, flap_exact, lag_exact);
    double previous_flap = 1.0, previous_lag = 1.0;
    for (int n : {1, 2, 4, 8}) {
      const Spectrum s = spin(make_flexible_body(spinning_beam(n, true)), lambda * kOmega0Scale);
      ASSERT_FALSE(s.flap.empty());
      ASSERT_FALSE(s.lag.empty());
      std::printf(" | %8.5f  %8.5f", s.flap[0], s.lag[0]);
      const double flap_error = s.flap[0] / flap_exact - 1.0, lag_error = std::abs(s.lag[0] / lag_exact - 1.0);
      EXPECT_GT(flap_error, -1e-9) << "Ritz: from above; lambda " << lambda << ", n " << n;
      EXPECT_LT(flap_error, previous_flap / 4) << "flap converges; lambda " << lambda << ", n " << n;
      EXPECT_LT(lag_error, previous_lag / 4) << "lag converges; lambda " << lambda << ", n " << n;
      if (n == 8) {
        EXPECT_LT(flap_error, 5e-5) << "lambda " << lambda;
        EXPECT_LT(lag_error, 5e-5 * amplification) << "lambda " << lambda;
      }
      // Stable: the eigenvalues' real parts are round-off (ε ‖A‖ with axial ω² ~ 1e9 s⁻²).
      EXPECT_LT(s.largest_growth, 1e-4 * kOmega0Scale) << "stable with geometric stiffening";
      previous_flap = flap_error, previous_lag = lag_error;
    }
    std::printf("\n");
  }
}

// Catches: a stiffening coefficient off the known Southwell value. K = (μ² − μ₀²)/λ² at
// λ = 0.05 (first order): K₁ = 1.19334 for flap (Rayleigh quotient of the exact mode,
// printed in the header; also the limit of the Frobenius solution), K₁ − 1 for lag (the
// centrifugal softening Ω² of in-plane motion).
TEST(SpinningBeam, SouthwellCoefficients) {
  const double lambda = 0.05;
  const double exact0 = exact_flap(0.0, 2)[0], exact = exact_flap(lambda, 1)[0];
  const double southwell_exact = (exact * exact - exact0 * exact0) / (lambda * lambda);
  EXPECT_NEAR(southwell_exact, 1.19334, 2e-4) << "the Frobenius reference itself";
  std::printf("Southwell coefficient K (omega^2 = omega_0^2 + K Omega^2), first mode, lambda = %.2f\n", lambda);
  std::printf("  elements  flap K     lag K      (exact %.5f, %.5f)\n", southwell_exact, southwell_exact - 1);
  for (int n : {1, 2, 4, 8}) {
    const FlexibleBody body = make_flexible_body(spinning_beam(n, true));
    const double mu0 = rest_frequency(body);
    const Spectrum s = spin(body, lambda * kOmega0Scale);
    const double flap = (s.flap[0] * s.flap[0] - mu0 * mu0) / (lambda * lambda);
    const double lag = (s.lag[0] * s.lag[0] - mu0 * mu0) / (lambda * lambda);
    std::printf("  %8d  %.5f    %.5f\n", n, flap, lag);
    const double tolerance = n == 1 ? 0.05 : n == 2 ? 5e-3 : 1e-3;
    EXPECT_NEAR(flap, southwell_exact, tolerance) << n << " elements";
    EXPECT_NEAR(lag, southwell_exact - 1.0, tolerance) << n << " elements";
  }
}

// Catches: the frame's own motion (v = ω × R x, a_0) left out of Q_v or K_G. A hub of
// radius R adds the axial force ρA Ω² R (L − s), so the first-order coefficient becomes
// K₁ + (R/L) K_R with K_R = ∫ (1 − x) φ'² dx / ∫ φ² dx = 1.5708782 (the hanging-beam quotient,
// tests/reference/test_geometric_stiffness.cpp): 1.97878 for R = L/2; lag: one less.
TEST(SpinningBeam, HubRadiusAddsItsSouthwellTerm) {
  const double lambda = 0.05, radius = 0.5 * kLength;
  const double exact = 1.1933364 + 0.5 * 1.5708782;
  const FlexibleBody body = make_flexible_body(spinning_beam(8, true));
  const double mu0 = rest_frequency(body);
  const Spectrum s = spin(body, lambda * kOmega0Scale, radius);
  const double flap = (s.flap[0] * s.flap[0] - mu0 * mu0) / (lambda * lambda);
  const double lag = (s.lag[0] * s.lag[0] - mu0 * mu0) / (lambda * lambda);
  std::printf("hub radius L/2, 8 elements: flap K %.5f, lag K %.5f (first order %.5f, %.5f)\n", flap, lag, exact,
              exact - 1);
  EXPECT_NEAR(flap, exact, 1e-3);
  EXPECT_NEAR(lag, exact - 1.0, 1e-3);
}

// The alternative the library does NOT use (docs/flexible-bodies.md "Geometric
// stiffening"): the axial force of each element from its axial strain. In the steady spin,
// linear axial elements give the exact nodal stretch (a 1D bar), so each element's force is
// the exact mean of N(s) = ρA Ω² (L² − s²)/2 over the element, constant along it.
MatX strain_based_geometric_stiffness(const FlexibleBody& body, double omega) {
  const FlexibleBeam& b = body.beam;
  const int n = b.elements;
  const double l = body.element_length, rho_a = b.material.density * b.section.area;
  MatX full = MatX::Zero(6 * (n + 1), 6 * (n + 1));
  const Mat12 r = beam_element_rotation(body.section_axes);
  for (int j = 0; j < n; ++j) {
    const double s0 = j * l;
    const double mean = 0.5 * rho_a * omega * omega * (b.length * b.length - (s0 * s0 + s0 * l + l * l / 3.0));
    full.block<12, 12>(6 * j, 6 * j) += r * beam_element_geometric_stiffness(b.section, l, s0, mean, 0, 0) * r.transpose();
  }
  return full.bottomRightCorner(6 * n, 6 * n);
}

// Catches: a geometric stiffness whose axial force is not the inertial load distribution
// (e.g. a constant or strain-based force), which misses the Southwell coefficient with few
// elements. First-order coefficient K = φᵀ K_G φ / (Ω² φᵀ M φ) of the lowest mode φ with
// the library's K_G (N(s) from the inertial loads, exact quadratic) and with the strain-based
// alternative, against K₁ = 1.1933364 (the Rayleigh quotient of the exact mode, header).
TEST(SpinningBeam, AxialForceFromTheInertialLoadsBeatsTheElementStrain) {
  const double omega = 1.0, exact = 1.1933364;
  std::printf("Southwell coefficient of the first mode from phi' K_G phi: axial force from\n");
  std::printf("  elements  inertial loads (library)  element strain (alternative)   exact %.7f\n", exact);
  for (int n : {1, 2, 4, 8}) {
    const FlexibleBody body = make_flexible_body(spinning_beam(n, true));
    FlexibleBodyData data(body);
    ffr_geometric_stiffness(body, data, Vec3(0, 0, omega), Vec3::Zero(), Vec3::Zero());
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(body.stiffness, body.elastic_mass);
    const VecX phi = solver.eigenvectors().col(0);
    const double scale = omega * omega * phi.dot(body.elastic_mass * phi);  // Ω² φᵀ M φ
    const double inertial = phi.dot(data.geometric_stiffness * phi) / scale;
    const double strain = phi.dot(strain_based_geometric_stiffness(body, omega) * phi) / scale;
    std::printf("  %8d  %.7f                 %.7f\n", n, inertial, strain);
    EXPECT_LT(std::abs(inertial - exact), std::abs(strain - exact)) << n << " elements";
    EXPECT_LT(std::abs(inertial - exact), n == 1 ? 0.02 : 2e-4) << n << " elements";
    if (n == 1) EXPECT_GT(strain - exact, 0.3) << "the strain-based force is far off with one element";
  }
}

// Catches: geometric stiffening left on when the file says false, or the linear FFR not
// showing its known trap (Kane, Ryan & Banerjee 1987): without K_G, flap does not stiffen
// at all (ω_flap = ω₀) and lag softens, ω_lag² = ω₀² − Ω², until it diverges (a real
// positive eigenvalue) above Ω = ω₀.
TEST(SpinningBeam, WithoutGeometricStiffeningTheLinearFfrSoftensAndGoesUnstable) {
  const FlexibleBody body = make_flexible_body(spinning_beam(4, false));
  const double mu0 = rest_frequency(body);
  std::printf("linear FFR without geometric stiffening (4 elements): mu0 = %.5f\n", mu0);
  std::printf("  Omega/omega0  flap mu   lag mu    (mu0^2 - lambda^2)^0.5  growth rate / sqrt(EI/(rho A L^4))\n");
  for (double ratio : {0.5, 0.9, 0.99, 1.01, 1.5}) {
    const double lambda = ratio * mu0;
    const Spectrum s = spin(body, lambda * kOmega0Scale);
    ASSERT_FALSE(s.flap.empty());
    const double growth = s.largest_growth / kOmega0Scale;
    if (ratio < 1.0)
      std::printf("  %12.2f  %8.5f  %8.5f  %8.5f                %.3e\n", ratio, s.flap[0], s.lag[0],
                  std::sqrt(mu0 * mu0 - lambda * lambda), growth);
    else
      std::printf("  %12.2f  %8.5f  (diverges)                        %.3e\n", ratio, s.flap[0], growth);
    EXPECT_NEAR(s.flap[0], mu0, 1e-6 * mu0) << "flap does not stiffen";
    if (ratio < 1.0) {
      EXPECT_NEAR(s.lag[0], std::sqrt(mu0 * mu0 - lambda * lambda), 1e-4 * mu0) << "lag softens, ratio " << ratio;
      EXPECT_LT(growth, 1e-4);
    } else {
      EXPECT_GT(growth, 0.05 * mu0 * std::sqrt(ratio * ratio - 1.0)) << "diverges above omega0, ratio " << ratio;
    }
  }
}

// Catches: a modal reduction whose projected K_G or centrifugal terms are wrong. The
// spinning beam reduced to its 10 lowest clamped modes (of 8 elements) keeps the full
// model's first flap and lag frequencies.
TEST(SpinningBeam, ModalReductionKeepsTheLowestFrequencies) {
  const double lambda = 4.0;
  const Spectrum full = spin(make_flexible_body(spinning_beam(8, true)), lambda * kOmega0Scale);
  const Spectrum reduced = spin(make_flexible_body(spinning_beam(8, true, 10)), lambda * kOmega0Scale);
  std::printf("lambda %.1f: full (48 coordinates) flap %.6f lag %.6f; 10 modes flap %.6f lag %.6f\n", lambda,
              full.flap[0], full.lag[0], reduced.flap[0], reduced.lag[0]);
  EXPECT_NEAR(reduced.flap[0] / full.flap[0], 1.0, 1e-3);
  EXPECT_NEAR(reduced.lag[0] / full.lag[0], 1.0, 1e-3);
  EXPECT_GE(reduced.flap[0], full.flap[0] * (1 - 1e-12)) << "a subspace (Ritz) estimate is from above";
}

}  // namespace
}  // namespace mechdyn
