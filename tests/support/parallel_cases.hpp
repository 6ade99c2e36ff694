// The prescribed motions of the two parallel-manipulator case studies, with their exact
// derivatives (header-only; for the tests and the benchmark).
//  - Schoenflies 2UPS+2UPU (momentum-screw-schoenflies §4): the platform centre O_M at
//    x = 0.5 sin πt, y = 0.3 cos 2πt, z = 0.2 sin 3πt + 1 and the rotation θ = 0.2 sin πt
//    about z; first and second derivatives by hand (d/dt sin ωt = ω cos ωt, …).
//  - 3UPS-UPU-S (screw-kinematics §6.1): ω_x = 0.2 sin t, ω_y = 0.1 cos t, rates 0.2 cos t
//    and −0.1 sin t; the other twist components follow from the closure.
//  - Motion: a smooth motion of any body frame around a pose (the generality tests).
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include "mechdyn/parallel/body_motion.hpp"

namespace mechdyn::testing {

inline BodyMotionSample schoenflies_sample(double t) {
  const double pi = 3.14159265358979323846;
  BodyMotionSample s;
  s.time = t;
  s.position = Vec3(0.5 * std::sin(pi * t), 0.3 * std::cos(2 * pi * t), 0.2 * std::sin(3 * pi * t) + 1.0);
  s.velocity = Vec3(0.5 * pi * std::cos(pi * t), -0.6 * pi * std::sin(2 * pi * t), 0.6 * pi * std::cos(3 * pi * t));
  s.acceleration = Vec3(-0.5 * pi * pi * std::sin(pi * t), -1.2 * pi * pi * std::cos(2 * pi * t),
                        -1.8 * pi * pi * std::sin(3 * pi * t));
  const double theta = 0.2 * std::sin(pi * t), rate = 0.2 * pi * std::cos(pi * t);
  const double second = -0.2 * pi * pi * std::sin(pi * t);
  s.orientation = Quat(std::cos(theta / 2), 0.0, 0.0, std::sin(theta / 2));
  s.angular_velocity = Vec3(0.0, 0.0, rate);
  s.angular_acceleration = Vec3(0.0, 0.0, second);
  return s;
}

/// Samples t = 0, h, 2h, …, duration (count = round(duration / h) + 1).
inline std::vector<BodyMotionSample> schoenflies_trajectory(double duration = 6.0, double h = 1e-3) {
  std::vector<BodyMotionSample> out;
  const long count = std::lround(duration / h);
  for (long k = 0; k <= count; ++k) out.push_back(schoenflies_sample(static_cast<double>(k) * h));
  return out;
}

// A smooth motion of the body frame: origin p0 + Σ a_k sin(w_k t), angles (rx, ry, rz) =
// b sin(u t) about the fixed world axes (R = R_z R_y R_x), exact derivatives.
struct Motion {
  Vec3 origin, amplitude, frequency, angle_amplitude, angle_frequency;
  Mat3 base = Mat3::Identity();
  BodyMotionSample at(double t) const {
    BodyMotionSample s;
    s.time = t;
    Vec3 angle, rate, second;
    for (int k = 0; k < 3; ++k) {
      const double w = frequency[k], u = angle_frequency[k];
      s.position[k] = origin[k] + amplitude[k] * std::sin(w * t);
      s.velocity[k] = amplitude[k] * w * std::cos(w * t);
      s.acceleration[k] = -amplitude[k] * w * w * std::sin(w * t);
      angle[k] = angle_amplitude[k] * std::sin(u * t);
      rate[k] = angle_amplitude[k] * u * std::cos(u * t);
      second[k] = -angle_amplitude[k] * u * u * std::sin(u * t);
    }
    const Mat3 rz = Eigen::AngleAxisd(angle[2], Vec3::UnitZ()).toRotationMatrix();
    const Mat3 ry = Eigen::AngleAxisd(angle[1], Vec3::UnitY()).toRotationMatrix();
    const Mat3 rx = Eigen::AngleAxisd(angle[0], Vec3::UnitX()).toRotationMatrix();
    s.orientation = Quat(rz * ry * rx * base).normalized();
    const Vec3 ez = Vec3::UnitZ(), ey = rz * Vec3::UnitY(), ex = rz * ry * Vec3::UnitX();
    const Vec3 outer = rate[2] * ez + rate[1] * ey;
    s.angular_velocity = outer + rate[0] * ex;
    s.angular_acceleration = second[2] * ez + second[1] * ey + second[0] * ex + rate[1] * (rate[2] * ez).cross(ey) +
                             rate[0] * outer.cross(ex);
    return s;
  }
};

inline TwistPrescription three_ups_prescription() {
  TwistPrescription p;
  p.components = {true, true, false, false, false, false};  // ω_x, ω_y
  p.evaluate = [](double t, Vec6& values, Vec6& rates) {
    values.setZero();
    rates.setZero();
    values[0] = 0.2 * std::sin(t);
    values[1] = 0.1 * std::cos(t);
    rates[0] = 0.2 * std::cos(t);
    rates[1] = -0.1 * std::sin(t);
  };
  return p;
}

}  // namespace mechdyn::testing
