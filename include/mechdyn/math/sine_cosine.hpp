// sin x and cos x of one angle together, inline, for the joint angles of the evaluation
// paths (the kinematics stage, RNEA's relative poses, the explicit dynamics): a libm call
// costs ~9.5 ns per angle on the benchmark machine (7 sincos = 66 ns, a quarter of the
// arm's CRBA); this costs about a third of that and is as accurate to an ulp or two
// (tests/unit/test_sine_cosine.cpp measures the error against libm).
//
// The method (textbook: Cody & Waite, "Software Manual for the Elementary Functions",
// 1980, ch. 8; Muller, "Elementary Functions", 2016, §11.1):
//   k = nearest integer to x · 2/π,  r = x − k π/2 ∈ [−π/4, π/4]
// with π/2 = P1 + P2 + P3 (P1, P2 of 33 significant bits, so k P1 and k P2 are exact for
// |k| < 2^20 and x − k P1 is exact by Sterbenz's lemma), then with z = r²
//   sin r = r + r z (−1/3! + z/5! − … + z⁷/17!)      Taylor to r^17
//   cos r = 1 − z/2 + z² (1/4! − z/6! + … − z⁷/18!)  Taylor to r^18
// whose truncation errors at |r| = π/4 are below 1e-19 (|r|^19/19!, |r|^20/20!); the two
// polynomials share their degree, so they run side by side in one SSE2 register, by
// Estrin's scheme (three dependent multiply-adds, not eight). 1 − z/2
// is summed with its rounding error carried (the fdlibm way), so cos keeps full precision
// near r = 0. The quadrant k mod 4 swaps and negates: (sin, cos) x = (s, c), (c, −s),
// (−s, −c), (−c, s). |x| ≥ 1e5 (or not finite) goes to libm. One difference from libm that
// is not an ulp: sin(−0) comes out +0.
#pragma once

#include <Eigen/Core>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cmath>
#include <cstdint>
#include <cstring>

namespace mechdyn {

namespace detail {
/// libm's sin and cos, out of line so that the fast path of sine_cosine holds no call.
[[gnu::noinline, gnu::cold]] inline void libm_sine_cosine(double x, double& sine, double& cosine) {
  sine = std::sin(x);
  cosine = std::cos(x);
}
}  // namespace detail

/// sine = sin x, cosine = cos x (within 2 ulp of libm's; libm's own for |x| ≥ 1e5 or not finite).
[[gnu::always_inline]] inline void sine_cosine(double x, double& sine, double& cosine) {
  if (__builtin_expect(!(std::abs(x) < 1e5), 0)) {  // also NaN and ±∞: libm's results and errno
    detail::libm_sine_cosine(x, sine, cosine);
    return;
  }
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kPio2First = 0x1.921fb544p+0;             // π/2 = P1 + P2 + P3
  constexpr double kPio2Second = 0x1.0b4611a6p-34;
  constexpr double kPio2Third = 0x1.3198a2e037073p-69;
  constexpr double kShifter = 6755399441055744.0;  // 1.5 · 2^52: t + kShifter rounds t to an integer
  const double shifted = x * kTwoOverPi + kShifter;
  const double k = shifted - kShifter;  // nearest integer to 2x/π
  std::uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);  // its low bits are k's (two's complement)
  const double r = ((x - k * kPio2First) - k * kPio2Second) - k * kPio2Third;
  const double z = r * r;
  using Pair = Eigen::Array2d;  // (sin, cos) coefficients side by side
  // Estrin's scheme: P = (p0 + p1 z) + z² (p2 + p3 z) + z⁴ ((p4 + p5 z) + z² (p6 + p7 z)),
  // three dependent multiply-adds instead of Horner's eight.
  const double z2 = z * z;
  const Pair low = Pair(-1.0 / 6.0, 1.0 / 24.0) + Pair(1.0 / 120.0, -1.0 / 720.0) * z;                     // p0 + p1 z
  const Pair mid = Pair(-1.0 / 5040.0, 1.0 / 40320.0) + Pair(1.0 / 362880.0, -1.0 / 3628800.0) * z;       // p2 + p3 z
  const Pair high = Pair(-1.0 / 39916800.0, 1.0 / 479001600.0) + Pair(1.0 / 6227020800.0, -1.0 / 87178291200.0) * z;
  const Pair top = Pair(-1.0 / 1307674368000.0, 1.0 / 20922789888000.0) +
                   Pair(1.0 / 355687428096000.0, -1.0 / 6402373705728000.0) * z;  // p6 + p7 z
  const Pair poly = (low + mid * z2) + (high + top * z2) * (z2 * z2);
  const double s = r + (r * z) * poly[0];
  const double half = 0.5 * z;
  const double w = 1.0 - half;
  const double c = w + (((1.0 - w) - half) + (z * z) * poly[1]);
  const double values[2] = {s, c};
  const unsigned quadrant = static_cast<unsigned>(bits) & 3u;
  const double swapped_sine = values[quadrant & 1u], swapped_cosine = values[(quadrant & 1u) ^ 1u];
  const std::uint64_t sine_sign = static_cast<std::uint64_t>(quadrant & 2u) << 62;          // quadrants 2, 3
  const std::uint64_t cosine_sign = static_cast<std::uint64_t>((quadrant + 1u) & 2u) << 62;  // quadrants 1, 2
  std::uint64_t out;
  std::memcpy(&out, &swapped_sine, sizeof out);
  out ^= sine_sign;
  std::memcpy(&sine, &out, sizeof out);
  std::memcpy(&out, &swapped_cosine, sizeof out);
  out ^= cosine_sign;
  std::memcpy(&cosine, &out, sizeof out);
}

/// sine_cosine of two angles at once, each lane of one SSE2 register an angle: the
/// reduction, the two polynomials and the quadrant's swap and signs run packed (about
/// half the instructions of two calls). Every lane does exactly the operations of
/// sine_cosine, in the same order, so the results are bit for bit sine_cosine's
/// (tests/unit/test_sine_cosine.cpp checks that); when either |x| ≥ 1e5 or is not finite
/// both go through sine_cosine.
[[gnu::always_inline]] inline void sine_cosine_pair(const double* x, double* sine, double* cosine) {
#if defined(__SSE2__)
  if (__builtin_expect(!(std::abs(x[0]) < 1e5 && std::abs(x[1]) < 1e5), 0)) {
    sine_cosine(x[0], sine[0], cosine[0]);
    sine_cosine(x[1], sine[1], cosine[1]);
    return;
  }
  // SSE2 intrinsics, not Eigen::Array2d: a constant is then one 16-byte load, not a load
  // and a broadcast.
  using P = __m128d;
  const auto k2 = [](double value) { return _mm_set1_pd(value); };
  const auto mul = [](P a, P b) { return _mm_mul_pd(a, b); };
  const auto add = [](P a, P b) { return _mm_add_pd(a, b); };
  const auto sub = [](P a, P b) { return _mm_sub_pd(a, b); };
  const auto linear = [&](double p, double q, P z) { return add(k2(p), mul(k2(q), z)); };  // p + q z
  const P angle = _mm_set_pd(x[1], x[0]);  // two 8-byte loads: the caller may have just stored them one by one
  // the constants of sine_cosine
  const P shifted = add(mul(angle, k2(0.63661977236758134308)), k2(6755399441055744.0));
  const P k = sub(shifted, k2(6755399441055744.0));
  const P r = sub(sub(sub(angle, mul(k, k2(0x1.921fb544p+0))), mul(k, k2(0x1.0b4611a6p-34))),
                  mul(k, k2(0x1.3198a2e037073p-69)));
  const P z = mul(r, r);
  const P z2 = mul(z, z);
  const P z4 = mul(z2, z2);
  // sine_cosine's Estrin scheme, the sine's coefficients for both lanes, then the cosine's
  const P sine_poly = add(add(linear(-1.0 / 6.0, 1.0 / 120.0, z), mul(linear(-1.0 / 5040.0, 1.0 / 362880.0, z), z2)),
                          mul(add(linear(-1.0 / 39916800.0, 1.0 / 6227020800.0, z),
                                  mul(linear(-1.0 / 1307674368000.0, 1.0 / 355687428096000.0, z), z2)),
                              z4));
  const P cosine_poly =
      add(add(linear(1.0 / 24.0, -1.0 / 720.0, z), mul(linear(1.0 / 40320.0, -1.0 / 3628800.0, z), z2)),
          mul(add(linear(1.0 / 479001600.0, -1.0 / 87178291200.0, z),
                  mul(linear(1.0 / 20922789888000.0, -1.0 / 6402373705728000.0, z), z2)),
              z4));
  const P s = add(r, mul(mul(r, z), sine_poly));
  const P half = mul(k2(0.5), z);
  const P w = sub(k2(1.0), half);
  const P c = add(w, add(sub(sub(k2(1.0), w), half), mul(z2, cosine_poly)));
  // Quadrant k mod 4 from shifted's low bits, per lane: odd swaps sin and cos; 2, 3 negate
  // the sine; 1, 2 negate the cosine (sine_cosine's table).
  const __m128i bits = _mm_castpd_si128(shifted);
  const __m128i one = _mm_set1_epi64x(1), two = _mm_set1_epi64x(2);
  const __m128i odd = _mm_cmpeq_epi32(_mm_shuffle_epi32(_mm_and_si128(bits, one), _MM_SHUFFLE(2, 2, 0, 0)),
                                      _mm_set1_epi32(1));  // all ones where k is odd
  const __m128i sine_sign = _mm_slli_epi64(_mm_and_si128(bits, two), 62);
  const __m128i cosine_sign = _mm_slli_epi64(_mm_and_si128(_mm_add_epi64(bits, one), two), 62);
  const P swap = _mm_castsi128_pd(odd);
  const P swapped_sine = _mm_or_pd(_mm_and_pd(swap, c), _mm_andnot_pd(swap, s));
  const P swapped_cosine = _mm_or_pd(_mm_and_pd(swap, s), _mm_andnot_pd(swap, c));
  _mm_storeu_pd(sine, _mm_xor_pd(swapped_sine, _mm_castsi128_pd(sine_sign)));
  _mm_storeu_pd(cosine, _mm_xor_pd(swapped_cosine, _mm_castsi128_pd(cosine_sign)));
#else
  sine_cosine(x[0], sine[0], cosine[0]);
  sine_cosine(x[1], sine[1], cosine[1]);
#endif
}

}  // namespace mechdyn
