// A direction of unit length from a user's vector: one rule for every reader and for the
// model's finalisation (docs/model-file.md, "Checks").
#pragma once

#include <cmath>
#include <limits>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

/// `direction / norm`, except that a direction already of unit length to rounding
/// (|norm − 1| ≤ 4 ε) is returned as given, bit for bit. Dividing a unit vector by its
/// rounded norm can move its last bits, and again at every write-and-read round trip:
/// normalisation must be idempotent for a model written and read back to be the same
/// model (seen under clang, where a YAML round trip came back one ulp off).
/// `norm` is `direction.norm()`, which the caller has checked to be non-zero.
inline Vec3 unit_direction(const Vec3& direction, double norm) {
  if (std::abs(norm - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon()) return direction;
  return direction / norm;
}

}  // namespace mechdyn
