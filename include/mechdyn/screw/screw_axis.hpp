// Pitch, axis and magnitude of a twist or a wrench.
//
// A screw in Plücker coordinates (a; b) — twist (ω; v), wrench (f; m) — with a ≠ 0 lies on
// the line of direction u = a/|a| through the point nearest the reference point
//   r = a × b / |a|²,
// and has pitch h = a·b / |a|² and magnitude |a|, so that b = r × a + h a
// (screw-kinematics-3UPS-UPU-S §2.1 eqs. 1–2; Ball's screw; Murray, Li & Sastry (1994)
// §2.3.2 Prop. 2.9): a twist is a rotation |ω| about the axis plus a translation h|ω|
// along it, a wrench a force |f| along the axis plus a couple h|f| about it. When the line
// part vanishes (pure translation v, pure couple m) the pitch is infinite, the direction
// is b/|b|, the magnitude |b| and the axis has no position (point = 0).
// The line part counts as zero when |a|·L ≤ tolerance · |(a L, b)| (L a characteristic
// length: it makes the test independent of the units, docs/parallel-manipulators.md).
// Cost O(1); allocates nothing.
#pragma once

#include "mechdyn/screw/twist_wrench.hpp"

namespace mechdyn {

/// Relative tolerance of every rank and zero decision on screws (docs/parallel-manipulators.md).
inline constexpr double kScrewTolerance = 1e-9;

enum class ScrewPitch {
  Zero,      // the zero screw: no axis
  Finite,    // a rotation (twist) or a force (wrench), possibly with a finite pitch
  Infinite,  // a pure translation (twist) or a pure couple (wrench)
};

struct ScrewAxis {
  ScrewPitch kind = ScrewPitch::Zero;
  double pitch = 0.0;             // h = a·b/|a|² (twist m/rad, wrench m); +∞ for Infinite, 0 for Zero
  double magnitude = 0.0;         // |ω| or |f| (Finite); |v| or |m| (Infinite); 0 (Zero)
  Vec3 direction = Vec3::Zero();  // unit direction of the axis (Finite, Infinite)
  Vec3 point = Vec3::Zero();      // point of the axis nearest the reference point (Finite only)
};

/// Axis, pitch and magnitude of a twist.
ScrewAxis screw_axis(const Twist& twist, double tolerance = kScrewTolerance, double length_scale = 1.0);
/// Axis, pitch and magnitude of a wrench.
ScrewAxis screw_axis(const Wrench& wrench, double tolerance = kScrewTolerance, double length_scale = 1.0);
/// The same from Plücker coordinates with the line part first.
ScrewAxis screw_axis(const Vec6& plucker, double tolerance = kScrewTolerance, double length_scale = 1.0);

}  // namespace mechdyn
