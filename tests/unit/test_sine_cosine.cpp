// sine_cosine (math/sine_cosine.hpp) against libm's sin and cos: within 2 units in the last
// place over the ranges joint angles take and beyond, exact at the quadrant boundaries' usual
// test points, libm's own results for |x| ≥ 1e5, NaN and ±∞.
#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace mechdyn
