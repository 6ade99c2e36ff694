// Pitch, axis and magnitude of a screw. See the header.
#include "mechdyn/screw/screw_axis.hpp"

#include <cmath>
#include <limits>

#include "mechdyn/errors.hpp"

namespace mechdyn {

ScrewAxis screw_axis(const Vec6& plucker, double tolerance, double length_scale) {
  if (!plucker.allFinite()) throw InvalidArgument("screw_axis: the screw has a non-finite coordinate");
  if (!(length_scale > 0.0) || !std::isfinite(length_scale))
    throw InvalidArgument("screw_axis: the length scale must be positive and finite");
  const Vec3 line = plucker.head<3>(), moment = plucker.tail<3>();
  const double line_norm = line.norm(), moment_norm = moment.norm();
  const double scaled_norm = std::hypot(line_norm * length_scale, moment_norm);
  ScrewAxis out;
  if (scaled_norm == 0.0) return out;  // the zero screw
  if (line_norm * length_scale <= tolerance * scaled_norm) {
    out.kind = ScrewPitch::Infinite;
    out.pitch = std::numeric_limits<double>::infinity();
    out.magnitude = moment_norm;
    out.direction = moment / moment_norm;
    return out;
  }
  const double line_norm2 = line_norm * line_norm;
  out.kind = ScrewPitch::Finite;
  out.pitch = line.dot(moment) / line_norm2;  // h = a·b / |a|²
  out.magnitude = line_norm;
  out.direction = line / line_norm;
  out.point = line.cross(moment) / line_norm2;  // r = a × b / |a|²
  return out;
}

ScrewAxis screw_axis(const Twist& twist, double tolerance, double length_scale) {
  return screw_axis(twist.plucker, tolerance, length_scale);
}

ScrewAxis screw_axis(const Wrench& wrench, double tolerance, double length_scale) {
  return screw_axis(wrench.plucker, tolerance, length_scale);
}

}  // namespace mechdyn
