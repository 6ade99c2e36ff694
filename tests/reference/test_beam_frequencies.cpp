// Natural frequencies of a uniform beam against the closed forms of Euler–Bernoulli beam
// theory, and their convergence with 1, 2, 4, 8 elements: bending (clamped–free,
// pinned–pinned, free–free, clamped–clamped), axial and torsional (clamped–free); the
// rotary inertia of the section against Rayleigh's pinned–pinned closed form; and the
// free–free beam as one FFR body (floating frame + clamped elastic coordinates), whose
// frequencies must equal those of the free nodal model (a change of coordinates).
//
// Closed forms (L length, m = ρA, x = βL):
//   bending ω = x² √(E I / (m L⁴)): clamped–free cos x cosh x = −1 (x = 1.8751, 4.6941,
//   7.8548, 10.9955); free–free and clamped–clamped cos x cosh x = 1 (x = 4.7300, 7.8532,
//   10.9956, 14.1372); pinned–pinned x = kπ.
//   axial clamped–free ω = (2k − 1) π/(2L) √(E/ρ); torsion ω = (2k − 1) π/(2L) √(G J/(ρ I_p)).
// Consistent-mass elements are Rayleigh–Ritz: frequencies converge from above, bending
// (cubic) with order 4, axial and torsion (linear) with order 2 (Strang & Fix 1973, ch. 6).
// The table runs to 16 elements to show the asymptotic order (with 2 and 4 elements some
// cases are still pre-asymptotic: free–free is lucky at n = 2).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mechdyn/flexible/beam_assembly.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {
namespace {

const double kPi = 3.14159265358979323846;
constexpr double kE = 70e9, kG = 26e9, kRho = 2700.0;

// A very slender beam: I/A ≤ 2e-10 m², so the section's rotary inertia (present in the
// element) changes the bending frequencies by about ½ x² I/(A L²) ≤ 1.2e-8 of the
// Euler–Bernoulli value (x ≤ 11), below the discretisation errors compared here (with
// I/A = 2e-8 it biased the observed order at 16 elements to 4.6).
FlexibleBeam slender_beam(int elements) {
  FlexibleBeam b;
  b.length = 1.0;
  b.elements = elements;
  b.section = {1e-3, 1e-13, 2e-13, 2.5e-13};  // I_y ≠ I_z; J ≠ I_p
  b.material = {kE, kG, kRho};
  return b;
}

// Ascending natural frequencies (rad/s) of the DOFs `keep` of the pencil (K, M); modes
// below `zero` rad/s (rigid motions, whose computed ω² is round-off) left out.
std::vector<double> frequencies(const MatX& k, const MatX& m, const std::vector<int>& keep, double zero = 1e-2) {
  const int n = static_cast<int>(keep.size());
  MatX ks(n, n), ms(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) ks(r, c) = k(keep[r], keep[c]), ms(r, c) = m(keep[r], keep[c]);
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(ks, ms);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double w2 = solver.eigenvalues()(i);
    if (w2 > zero * zero) out.push_back(std::sqrt(w2));
  }
  return out;
}

// Nodal DOF indices of the free beam for `dofs` (0…5 of a node) at nodes [first, last].
std::vector<int> dofs_of(int first, int last, std::initializer_list<int> dofs, std::initializer_list<int> drop = {}) {
  std::vector<int> out;
  for (int node = first; node <= last; ++node)
    for (int d : dofs) {
      const int index = 6 * node + d;
      if (std::find(drop.begin(), drop.end(), index) == drop.end()) out.push_back(index);
    }
  return out;
}

struct Case {
  const char* name;
  std::vector<double> exact;  // rad/s
  double order;               // expected convergence order
  // The DOFs kept for n elements (boundary conditions applied by leaving DOFs out).
  std::vector<int> (*keep)(int n);
  int rigid = 0;  // rigid-body modes (free–free: translation and rotation in the plane)
};

double bending(double x, double second_moment) { return x * x * std::sqrt(kE * second_moment / (kRho * 1e-3)); }

// Catches: a wrong consistent mass or stiffness in either bending plane (a plane using the
// other's I), wrong torsional inertia (ρ I_p) or constant (G J), an element that does not
// converge, or converges with the wrong order (e.g. a lumped or mis-integrated mass).
TEST(BeamFrequencies, ConvergeToClosedFormsWithTheExpectedOrder) {
  const double iz = 2e-13, iy = 1e-13;
  const double axial = std::sqrt(kE / kRho), torsion = std::sqrt(kG * 2.5e-13 / (kRho * 3e-13));
  const std::vector<Case> cases = {
      {"bending x-y clamped-free (E I_z)",
       {bending(1.8751040687, iz), bending(4.6940911330, iz), bending(7.8547574382, iz)}, 4.0,
       [](int n) { return dofs_of(1, n, {1, 5}); }},
      {"bending x-z clamped-free (E I_y)",
       {bending(1.8751040687, iy), bending(4.6940911330, iy), bending(7.8547574382, iy)}, 4.0,
       [](int n) { return dofs_of(1, n, {2, 4}); }},
      {"bending x-y pinned-pinned",
       {bending(kPi, iz), bending(2 * kPi, iz), bending(3 * kPi, iz)}, 4.0,
       [](int n) { return dofs_of(0, n, {1, 5}, {1, 6 * n + 1}); }},
      {"bending x-y free-free",
       {bending(4.7300407449, iz), bending(7.8532046241, iz), bending(10.9956078380, iz)}, 4.0,
       [](int n) { return dofs_of(0, n, {1, 5}); }, 2},
      {"bending x-y clamped-clamped",
       {bending(4.7300407449, iz), bending(7.8532046241, iz), bending(10.9956078380, iz)}, 4.0,
       [](int n) { return dofs_of(1, n - 1, {1, 5}); }},
      {"axial clamped-free", {0.5 * kPi * axial, 1.5 * kPi * axial, 2.5 * kPi * axial}, 2.0,
       [](int n) { return dofs_of(1, n, {0}); }},
      {"torsion clamped-free", {0.5 * kPi * torsion, 1.5 * kPi * torsion, 2.5 * kPi * torsion}, 2.0,
       [](int n) { return dofs_of(1, n, {3}); }},
  };
  for (const Case& c : cases) {
    std::printf("%s: relative error of omega_k (exact rad/s: %.6g %.6g %.6g)\n", c.name, c.exact[0], c.exact[1],
                c.exact[2]);
    std::printf("  elements   mode 1       mode 2       mode 3       order(mode 1)\n");
    double previous = 0.0;
    for (int n : {1, 2, 4, 8, 16}) {
      const FlexibleBeam beam = slender_beam(n);
      const BeamMatrices m = assemble_free_beam(beam);
      const std::vector<int> keep = c.keep(n);
      if (keep.empty()) {
        std::printf("  %8d   (no interior DOF)\n", n);
        continue;
      }
      const std::vector<double> w = frequencies(m.stiffness, m.mass, keep);
      // Rigid modes are left out by the zero threshold (1e-2 rad/s, far below ω₁ = 0.18):
      // the count must be right.
      EXPECT_EQ(w.size(), keep.size() - c.rigid) << c.name << " n=" << n;
      double errors[3] = {NAN, NAN, NAN};
      for (std::size_t k = 0; k < 3 && k < w.size(); ++k) {
        errors[k] = (w[k] - c.exact[k]) / c.exact[k];
        // Rayleigh–Ritz: from above (the Euler–Bernoulli value is above the rotary-inertia
        // one by < 2e-8, below every error here).
        EXPECT_GT(errors[k], -2e-8) << c.name << " n=" << n << " mode " << k + 1;
      }
      const double order = previous > 0 ? std::log2(previous / errors[0]) : NAN;
      std::printf("  %8d   %.4e   %.4e   %.4e   %.2f\n", n, errors[0], errors[1], errors[2], order);
      if (n == 8) {
        // 4 → 8 can still be pre-asymptotic (free–free: 3.76); 8 → 16 must show the order.
        EXPECT_GT(order, c.order - 0.5) << c.name;
        EXPECT_LT(errors[0], c.order > 3 ? 1e-4 : 2e-3) << c.name;
        EXPECT_LT(errors[2], c.order > 3 ? 5e-3 : 0.05) << c.name;
      }
      if (n == 16) EXPECT_NEAR(order, c.order, 0.15) << c.name;
      previous = errors[0];
    }
  }
}

// Catches: the section's rotary inertia missing from bending, or put on the wrong
// rotation. Rayleigh beam, pinned–pinned (exact): ω_k² = E I k⁴ / (ρ A (1 + (I/A) k²)),
// k = jπ/L. A stubby section (I/A = 1e-3 m²) makes the rotary inertia a 0.5–4 % effect.
TEST(BeamFrequencies, RotaryInertiaMatchesRayleighBeamPinnedPinned) {
  FlexibleBeam beam = slender_beam(64);
  beam.section = {1e-3, 1e-6, 1e-6, 2e-6};
  const BeamMatrices m = assemble_free_beam(beam);
  const std::vector<double> w = frequencies(m.stiffness, m.mass, dofs_of(0, 64, {1, 5}, {1, 6 * 64 + 1}));
  for (int j = 1; j <= 3; ++j) {
    const double k = j * kPi, r2 = 1e-3;
    const double rayleigh = std::sqrt(kE * 1e-6 * std::pow(k, 4) / (kRho * 1e-3 * (1 + r2 * k * k)));
    const double euler_bernoulli = std::sqrt(kE * 1e-6 * std::pow(k, 4) / (kRho * 1e-3));
    EXPECT_NEAR(w[j - 1] / rayleigh, 1.0, 1e-6) << "mode " << j;  // 64 elements: discretisation < 4e-7
    EXPECT_GT(euler_bernoulli / rayleigh - 1.0, 4e-3) << "the case must be able to tell the two apart";
  }
}

// Catches: any error in the FFR inertia shape integrals at e = 0 (S̄, F_kl, S_kl, J_θ, the
// welded part) — the coupling of frame and elastic coordinates. The floating frame (6) +
// clamped elastic coordinates (6n) is a linear change of the free beam's 6(n+1) nodal
// coordinates (a rigid motion is exactly representable by the shape functions), so the
// FFR mass matrix at rest with stiffness diag(0, K) has the free–free frequencies of the
// nodal model exactly, and 6 rigid-body modes. The beam is oblique, carries a welded rigid
// part (added to node 1 of the nodal model), and the section is not square.
TEST(BeamFrequencies, FloatingFrameBodyHasTheFreeFreeFrequencies) {
  FlexibleBeam beam = slender_beam(4);
  beam.direction = Vec3(1, 2, 2) / 3.0;
  beam.section_y = Vec3(2, 1, -2) / 3.0;
  beam.section = {1e-3, 2e-8, 5e-8, 4e-8};
  const double rigid_mass = 0.7;
  const Vec3 rigid_com(0.02, -0.03, 0.05);
  const Mat3 rigid_inertia = Vec3(2e-3, 3e-3, 4e-3).asDiagonal();
  const FlexibleBody body = make_flexible_body(beam, rigid_mass, rigid_com, rigid_inertia);
  FlexibleBodyData data(body);
  ffr_mass_matrix(body, data, VecX::Zero(body.num_elastic));
  const int size = 6 + body.num_elastic;
  MatX k = MatX::Zero(size, size);
  k.bottomRightCorner(body.num_elastic, body.num_elastic) = body.stiffness;
  std::vector<int> all(size);
  for (int i = 0; i < size; ++i) all[i] = i;

  BeamMatrices nodal = assemble_free_beam(beam);
  // The welded part on node 1: v_c = u̇ + θ̇ × c, T = ½ m |u̇ − c̃ θ̇|² + ½ θ̇ᵀ J θ̇.
  Mat3 c;
  c << 0, -rigid_com.z(), rigid_com.y(), rigid_com.z(), 0, -rigid_com.x(), -rigid_com.y(), rigid_com.x(), 0;
  nodal.mass.block<3, 3>(0, 0) += rigid_mass * Mat3::Identity();
  nodal.mass.block<3, 3>(0, 3) += -rigid_mass * c;
  nodal.mass.block<3, 3>(3, 0) += rigid_mass * c;
  nodal.mass.block<3, 3>(3, 3) += rigid_inertia - rigid_mass * c * c;
  std::vector<int> nodes(nodal.mass.rows());
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) nodes[i] = i;

  const double zero = 1e-3;  // rad/s; the elastic frequencies are above 1
  const std::vector<double> ffr = frequencies(k, data.mass_matrix, all, zero);
  const std::vector<double> reference = frequencies(nodal.stiffness, nodal.mass, nodes, zero);
  ASSERT_EQ(ffr.size(), static_cast<std::size_t>(size - 6)) << "six rigid-body modes";
  ASSERT_EQ(reference.size(), ffr.size());
  for (std::size_t i = 0; i < ffr.size(); ++i) EXPECT_NEAR(ffr[i] / reference[i], 1.0, 1e-9) << "mode " << i;
}

}  // namespace
}  // namespace mechdyn

namespace mechdyn {
namespace {

// Free–free frequencies of one FFR body (frame + elastic coordinates, stiffness diag(0, K)).
std::vector<double> free_free(const FlexibleBody& body) {
  FlexibleBodyData data(body);
  ffr_mass_matrix(body, data, VecX::Zero(body.num_elastic));
  const int size = 6 + body.num_elastic;
  MatX k = MatX::Zero(size, size);
  k.bottomRightCorner(body.num_elastic, body.num_elastic) = body.stiffness;
  std::vector<int> all(size);
  for (int i = 0; i < size; ++i) all[i] = i;
  return frequencies(k, data.mass_matrix, all, 1e-3);
}

// Catches: a modal projection of the invariants that loses the frame–deformation coupling
// (S̄ Φ, F Φ, J_θ Φ). A body reduced to its k lowest CLAMPED modes and left free must still
// give the free–free frequencies of the full model (Ritz: from above, better with k); the
// clamped modes themselves are exact, Φᵀ K Φ = diag(ω²), Φᵀ M Φ = 1.
TEST(BeamFrequencies, ModalReductionKeepsTheLowestFrequencies) {
  FlexibleBeam beam = slender_beam(8);
  beam.direction = Vec3(1, 2, 2) / 3.0;
  beam.section_y = Vec3(2, 1, -2) / 3.0;
  beam.section = {1e-3, 2e-8, 5e-8, 4e-8};
  const std::vector<double> full = free_free(make_flexible_body(beam));
  std::printf("free-free FFR body, 8 elements: lowest frequencies (rad/s), full and reduced to k clamped modes\n");
  std::printf("  full        %9.4f %9.4f %9.4f %9.4f\n", full[0], full[1], full[2], full[3]);
  double previous_error = 1.0;
  for (int k : {4, 8, 16}) {
    beam.modes = k;
    const FlexibleBody body = make_flexible_body(beam);
    EXPECT_LT((body.elastic_mass - MatX::Identity(k, k)).cwiseAbs().maxCoeff(), 1e-10);
    MatX diagonal = MatX::Zero(k, k);
    for (int i = 0; i < k; ++i) diagonal(i, i) = body.modal_frequencies(i) * body.modal_frequencies(i);
    EXPECT_LT((body.stiffness - diagonal).cwiseAbs().maxCoeff(), 1e-9 * diagonal.maxCoeff());
    const std::vector<double> reduced = free_free(body);
    std::printf("  k = %2d      %9.4f %9.4f %9.4f %9.4f\n", k, reduced[0], reduced[1], reduced[2],
                reduced.size() > 3 ? reduced[3] : NAN);
    double error = 0.0;
    for (int i = 0; i < 2; ++i) {
      EXPECT_GE(reduced[i], full[i] * (1 - 1e-12)) << "Ritz from above, k " << k;
      error = std::max(error, reduced[i] / full[i] - 1);
    }
    EXPECT_LT(error, previous_error) << "better with more modes, k " << k;
    previous_error = error;
  }
  EXPECT_LT(previous_error, 1e-3);
}

}  // namespace
}  // namespace mechdyn
