// Exponential map of rotation vectors, its left Jacobian and the Jacobian's rate
// (math/rotation_vector.hpp). Cost: a few dozen flops and one sin/cos pair per call.
#include "mechdyn/math/rotation_vector.hpp"

#include <cmath>

#include "mechdyn/math/skew.hpp"

namespace mechdyn {
namespace {

// c0 = sin a / a, c1 = (1 − cos a)/a², c2 = (a − sin a)/a³, g1 = c1'/a, g2 = c2'/a.
struct Coefficients {
  double c0, c1, c2, g1, g2;
  explicit Coefficients(double a) {
    const double a2 = a * a;
    if (a < 0.1) {
      // Taylor series through a⁸ (the next terms are below 1e-17 relative here).
      const double a4 = a2 * a2, a6 = a4 * a2, a8 = a4 * a4;
      c0 = 1.0 - a2 / 6.0 + a4 / 120.0 - a6 / 5040.0 + a8 / 362880.0;
      c1 = 0.5 - a2 / 24.0 + a4 / 720.0 - a6 / 40320.0 + a8 / 3628800.0;
      c2 = 1.0 / 6.0 - a2 / 120.0 + a4 / 5040.0 - a6 / 362880.0 + a8 / 39916800.0;
      g1 = -1.0 / 12.0 + a2 / 180.0 - a4 / 6720.0 + a6 / 453600.0 - a8 / 47900160.0;
      g2 = -1.0 / 60.0 + a2 / 1260.0 - a4 / 60480.0 + a6 / 4989600.0 - a8 / 622702080.0;
    } else {
      const double s = std::sin(a), c = std::cos(a);
      const double a3 = a2 * a, a4 = a2 * a2;
      c0 = s / a;
      c1 = (1.0 - c) / a2;
      c2 = (a - s) / a3;
      g1 = (a * s - 2.0 * (1.0 - c)) / a4;                 // c1'(a) / a
      g2 = ((1.0 - c) * a - 3.0 * (a - s)) / (a4 * a);     // c2'(a) / a
    }
  }
};

}  // namespace

Mat3 rotation_vector_exp(const Vec3& theta) {
  const Coefficients k(theta.norm());
  const Mat3 t = skew(theta);
  return Mat3::Identity() + k.c0 * t + k.c1 * t * t;
}

Mat3 rotation_vector_jacobian(const Vec3& theta) {
  const Coefficients k(theta.norm());
  const Mat3 t = skew(theta);
  return Mat3::Identity() + k.c1 * t + k.c2 * t * t;
}

Vec3 rotation_vector_jacobian_rate(const Vec3& theta, const Vec3& theta_rate) {
  const Coefficients k(theta.norm());
  const double along = theta.dot(theta_rate);  // a ȧ
  const Vec3 cross = theta.cross(theta_rate);
  return (k.g1 * along) * cross + (k.g2 * along) * theta.cross(cross) + k.c2 * theta_rate.cross(cross);
}

Vec3 rotation_vector_jacobian_derivative(const Vec3& theta, const Vec3& direction, const Vec3& x) {
  const Coefficients k(theta.norm());
  const double along = theta.dot(direction);  // a ∂a along ψ
  const Vec3 cross = theta.cross(x);
  return (k.g1 * along) * cross + k.c1 * direction.cross(x) + (k.g2 * along) * theta.cross(cross) +
         k.c2 * (direction.cross(cross) + theta.cross(direction.cross(x)));
}

}  // namespace mechdyn
