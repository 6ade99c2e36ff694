// A screw in words. See the header.
#include "mechdyn/screw/screw_description.hpp"

#include <cmath>
#include <cstdio>

namespace mechdyn {

namespace {

std::string vector_text(const Vec3& x) {
  const double largest = x.cwiseAbs().maxCoeff();
  char buffer[160];
  auto clean = [&](double value) { return std::abs(value) <= 1e-12 * largest ? 0.0 : value; };
  std::snprintf(buffer, sizeof buffer, "[%.6g, %.6g, %.6g]", clean(x.x()), clean(x.y()), clean(x.z()));
  return buffer;
}

std::string describe(const ScrewAxis& axis, const char* line_word, const char* through_word, const char* free_word,
                     const char* pitch_unit, double length_scale, double tolerance) {
  switch (axis.kind) {
    case ScrewPitch::Zero:
      return "zero";
    case ScrewPitch::Infinite:
      return std::string(free_word) + " " + vector_text(axis.direction);
    case ScrewPitch::Finite:
      break;
  }
  std::string text =
      std::string(line_word) + " " + vector_text(axis.direction) + " " + through_word + " " + vector_text(axis.point);
  if (std::abs(axis.pitch) > tolerance * length_scale) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, ", pitch %.6g %s", axis.pitch, pitch_unit);
    text += buffer;
  }
  return text;
}

}  // namespace

std::string describe_wrench(const Wrench& wrench, double length_scale, double tolerance) {
  return describe(screw_axis(wrench, tolerance, length_scale), "force along", "through", "couple about", "m",
                  length_scale, tolerance);
}

std::string describe_twist(const Twist& twist, double length_scale, double tolerance) {
  return describe(screw_axis(twist, tolerance, length_scale), "rotation about", "through", "translation along", "m/rad",
                  length_scale, tolerance);
}

}  // namespace mechdyn
