// A point fixed on a body or in the world (loops, markers, force elements).
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

inline constexpr int kGround = -1;

/// A point fixed on a body (loops, markers, force elements), from the body frame origin,
/// in world directions at q = 0 (natural frames, model-format.md).
struct BodyPoint {
  int body = kGround;  // kGround: a point fixed in the world
  Vec3 point = Vec3::Zero();
};

}  // namespace mechdyn
