// A screw in words, for reports: "force along [0, 1, 0] through [0.3, 0, 0]", "couple about
// [1, 0, 0]", "rotation about [0, 0, 1] through [0, 0, 0]", "translation along [...]",
// with the pitch when it is finite and not zero ("… pitch 0.02 m"). Directions are unit
// vectors, the point is the axis point nearest the world origin (screw/screw_axis.hpp);
// numbers with 6 significant digits, entries below 1e-12 (relative) printed as 0. A pitch
// counts as zero when |h| ≤ tolerance · L. Allocates its string.
#pragma once

#include <string>

#include "mechdyn/screw/screw_axis.hpp"

namespace mechdyn {

std::string describe_wrench(const Wrench& wrench, double length_scale = 1.0, double tolerance = kScrewTolerance);
std::string describe_twist(const Twist& twist, double length_scale = 1.0, double tolerance = kScrewTolerance);

}  // namespace mechdyn
