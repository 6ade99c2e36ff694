// sine_cosine (math/sine_cosine.hpp) against libm's sin and cos: within 2 units in the last
// place over the ranges joint angles take and beyond, exact at the quadrant boundaries' usual
// test points, libm's own results for |x| ≥ 1e5, NaN and ±∞.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "mechdyn/math/sine_cosine.hpp"

namespace mechdyn {
namespace {

// |a − b| in units of the last place of b (0 when equal).
double ulps(double a, double b) {
  if (a == b) return 0.0;
  const double magnitude = std::abs(b);
  const double unit = std::nextafter(magnitude, std::numeric_limits<double>::infinity()) - magnitude;
  return std::abs(a - b) / unit;
}

// Bugs caught: a wrong quadrant swap or sign, a Taylor coefficient off, π/2 split wrongly
// (errors growing with |x|), the 1 − z/2 rounding carried wrongly (cos near 0).
TEST(SineCosine, WithinTwoUlpOfLibm) {
  std::mt19937_64 rng(17);
  for (const double range : {1e-8, 0.5, 0.8, 3.2, 7.0, 50.0, 1e3, 99999.0}) {
    std::uniform_real_distribution<double> angle(-range, range);
    double worst_sine = 0.0, worst_cosine = 0.0;
    for (int k = 0; k < 200000; ++k) {
      const double x = angle(rng);
      double s = 0.0, c = 0.0;
      sine_cosine(x, s, c);
      worst_sine = std::max(worst_sine, ulps(s, std::sin(x)));
      worst_cosine = std::max(worst_cosine, ulps(c, std::cos(x)));
    }
    EXPECT_LE(worst_sine, 2.0) << "|x| < " << range;
    EXPECT_LE(worst_cosine, 2.0) << "|x| < " << range;
  }
}

TEST(SineCosine, QuadrantPointsAndEdges) {
  constexpr double kPi = 3.14159265358979323846;
  for (int k = -16; k <= 16; ++k) {  // multiples of π/4, both sides of every quadrant boundary
    for (const double x : {k * kPi / 4, std::nextafter(k * kPi / 4, 1e9), std::nextafter(k * kPi / 4, -1e9)}) {
      double s = 0.0, c = 0.0;
      sine_cosine(x, s, c);
      EXPECT_LE(ulps(s, std::sin(x)), 2.0) << x;
      EXPECT_LE(ulps(c, std::cos(x)), 2.0) << x;
    }
  }
  double s = 1.0, c = 0.0;
  sine_cosine(0.0, s, c);
  EXPECT_EQ(s, 0.0);
  EXPECT_EQ(c, 1.0);
  sine_cosine(1e-300, s, c);
  EXPECT_EQ(s, 1e-300);
  EXPECT_EQ(c, 1.0);
  for (const double x : {1e5, -1e5, 3.7e12, std::numeric_limits<double>::max()}) {  // libm's own
    sine_cosine(x, s, c);
    EXPECT_EQ(s, std::sin(x)) << x;
    EXPECT_EQ(c, std::cos(x)) << x;
  }
  for (const double x : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
    sine_cosine(x, s, c);
    EXPECT_TRUE(std::isnan(s)) << x;
    EXPECT_TRUE(std::isnan(c)) << x;
  }
}

// sine_cosine_pair does each lane's operations of sine_cosine in the same order, so it must
// agree bit for bit (an independent check of the packed quadrant logic: the swap mask, the
// two sign shifts, the lanes not crossed), on random angles, on the quadrant points, and
// when one lane leaves for libm. Bugs caught: lanes swapped, a swap mask from the wrong
// dword, (k + 1) & 2 for the cosine's sign taken as k & 2, a lane's libm case ignored.
TEST(SineCosine, PairEqualsTwoSingleCallsBitForBit) {
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); };
  const auto check = [&](double x0, double x1) {
    const double x[2] = {x0, x1};
    double s[2] = {9.0, 9.0}, c[2] = {9.0, 9.0}, s0 = 0.0, c0 = 0.0, s1 = 0.0, c1 = 0.0;
    sine_cosine_pair(x, s, c);
    sine_cosine(x0, s0, c0);
    sine_cosine(x1, s1, c1);
    EXPECT_TRUE(same(s[0], s0) && same(c[0], c0)) << "lane 0, x = " << x0 << " (lane 1: " << x1 << ")";
    EXPECT_TRUE(same(s[1], s1) && same(c[1], c1)) << "lane 1, x = " << x1 << " (lane 0: " << x0 << ")";
  };
  std::mt19937_64 rng(23);
  for (const double range : {1e-8, 0.8, 7.0, 1e3, 99999.0}) {
    std::uniform_real_distribution<double> angle(-range, range);
    for (int k = 0; k < 100000; ++k) check(angle(rng), angle(rng));
  }
  constexpr double kPi = 3.14159265358979323846;
  for (int a = -12; a <= 12; ++a)  // every pair of quadrants, both sides of the boundaries
    for (int b = -12; b <= 12; ++b)
      for (const double da : {0.0, 1e-9, -1e-9})
        check(a * kPi / 4 + da, b * kPi / 4 - da);
  for (const double odd : {1e5, -3.7e12, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
    check(0.3, odd);
    check(odd, -2.1);
  }
}

}  // namespace
}  // namespace mechdyn
