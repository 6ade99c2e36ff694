// Body i's own spatial inertia about its frame origin o_i in body coordinates,
//   I_i = (m, h = m c, I_c + m (|c|² 1 − c cᵀ))          (SpatialInertia::from_com)
// kept in Data (data.body_inertia) from one call to the next, for the body-coordinate
// CRBA (crba_body_frames.cpp), whose per-body cost it was ~15 % of.
//
// Why a memo in Data and not a constant of the Model: a Model's bodies can be changed in
// place after finalize_model (Python set_body_mass, identification loops in C++), and a
// copy derived at finalize_model would then go stale silently while RNEA and ABA read the
// new numbers. So every call compares the body's mass, com and inertia, bit for bit, with
// the numbers the memo was made from (data.body_inertia_source) and remakes the memo when
// any differs: correct whatever the caller changed, and the comparison (7 packed XOR/OR)
// costs about a quarter of what from_com cost in time on the arm (~8 against ~30 ns for
// its seven bodies, docs/benchmarks.md). A fresh Data holds zeros on
// both sides, which is from_com of a body of zero mass and inertia. Allocates nothing.
// Not installed.
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::detail {

/// source = body's com, 0, inertia, mass (BodyInertiaSource's order).
inline void fill_inertia_source(const Body& body, BodyInertiaSource& source) {
  std::memcpy(source.bits, body.com.data(), 3 * sizeof(double));
  source.bits[3] = 0.0;
  std::memcpy(source.bits + 4, body.inertia.data(), 9 * sizeof(double));
  source.bits[13] = body.mass;
}

/// True when `body`'s mass, com and inertia are bit for bit those `source` holds.
inline bool same_inertial_numbers(const Body& body, const BodyInertiaSource& source) {
  const double* inertia = body.inertia.data();  // 9 numbers, column-major
#if defined(__SSE2__)
  const auto pair = [](const double* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  const auto one = [](const double* p) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)); };  // (p[0], 0)
  const auto kept = [&](int k) { return _mm_load_si128(reinterpret_cast<const __m128i*>(source.bits + k)); };
  // Each 8-byte number is loaded into its register directly (no pair built on the stack:
  // a 16-byte load of two 8-byte stores misses store-to-load forwarding, ~10 % of the arm's
  // CRBA when tried).
  __m128i differ = _mm_xor_si128(pair(body.com.data()), kept(0));
  differ = _mm_or_si128(differ, _mm_xor_si128(one(body.com.data() + 2), kept(2)));  // (c_z, 0)
  for (int k = 0; k < 8; k += 2) differ = _mm_or_si128(differ, _mm_xor_si128(pair(inertia + k), kept(4 + k)));
  differ = _mm_or_si128(differ, _mm_xor_si128(_mm_unpacklo_epi64(one(inertia + 8), one(&body.mass)), kept(12)));
  return _mm_movemask_epi8(_mm_cmpeq_epi8(differ, _mm_setzero_si128())) == 0xFFFF;
#else
  BodyInertiaSource now;
  fill_inertia_source(body, now);
  return std::memcmp(now.bits, source.bits, sizeof now.bits) == 0;
#endif
}

/// I_i about o_i, body coordinates: the memo when body i is unchanged since it was made,
/// else remade (from_com) and kept.
inline const SpatialInertia& body_inertia_at_origin(const Model& model, Data& data, int i) {
  const Body& body = model.bodies[static_cast<std::size_t>(i)];
  BodyInertiaSource& source = data.body_inertia_source[static_cast<std::size_t>(i)];
  SpatialInertia& memo = data.body_inertia[static_cast<std::size_t>(i)];
  if (__builtin_expect(!same_inertial_numbers(body, source), 0)) {
    fill_inertia_source(body, source);
    memo = SpatialInertia::from_com(body.mass, body.com, body.inertia);
  }
  return memo;
}

}  // namespace mechdyn::detail
