// Validation of prescribed body-motion samples. See parallel/body_motion.hpp.
#include "mechdyn/parallel/body_motion.hpp"

#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {
std::string time_text(double t) {
  std::ostringstream out;
  out.precision(17);
  out << t;
  return out.str();
}
}  // namespace

const char* twist_component_name(int component) {
  static const char* names[6] = {"wx", "wy", "wz", "vx", "vy", "vz"};
  return component >= 0 && component < 6 ? names[component] : "?";
}

void check_body_motion_sample(BodyMotionSample& sample, const std::string& where) {
  if (!std::isfinite(sample.time)) throw InvalidArgument(where + ": the time is not finite");
  const std::string at = where + " (t = " + time_text(sample.time) + " s)";
  const Vec3* vectors[5] = {&sample.position, &sample.velocity, &sample.angular_velocity,
                            &sample.acceleration, &sample.angular_acceleration};
  const char* names[5] = {"position", "velocity", "angular velocity", "acceleration", "angular acceleration"};
  for (int i = 0; i < 5; ++i)
    if (!vectors[i]->allFinite()) throw InvalidArgument(at + ": the " + names[i] + " is not finite");
  if (!sample.orientation.coeffs().allFinite()) throw InvalidArgument(at + ": the quaternion is not finite");
  const double norm = sample.orientation.norm();
  if (!(std::abs(norm - 1.0) <= 1e-6)) {
    std::ostringstream message;
    message.precision(10);
    message << at << ": the quaternion has norm " << norm << "; it must be 1 within 1e-6";
    throw InvalidArgument(message.str());
  }
  sample.orientation.normalize();
}

}  // namespace mechdyn
