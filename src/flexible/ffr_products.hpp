// Internal: the products S_kl x (k, l ∈ {x, y, z}) of the inertia shape integrals with a
// vector of elastic coordinates, shared by the FFR mass matrix and quadratic velocity
// vector (flexible/ffr_dynamics.hpp). 9 matrix–vector products of n_e x n_e (S_lk x as
// S_klᵀ x); no allocation.
#pragma once

#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn::detail {

/// out.col(3k + l) = S_kl x.
inline void shape_products(const FlexibleBody& body, const Eigen::Ref<const VecX>& x, MatX& out) {
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) {
      bool transposed = false;
      const MatX& s = body.product(k, l, transposed);
      if (transposed) out.col(3 * k + l).noalias() = s.transpose() * x;
      else out.col(3 * k + l).noalias() = s * x;
    }
  }
}

/// U = ∫ ρA ū ūᵀ ds = I_t + F e + (F e)ᵀ + [eᵀ S_kl e], given products.col(3k+l) = S_kl e.
inline Mat3 second_moment(const FlexibleBody& body, const Eigen::Ref<const VecX>& e, const MatX& products) {
  Mat3 u;
  for (int k = 0; k < 3; ++k)
    for (int l = k; l < 3; ++l)  // upper triangle, mirrored: U is exactly symmetric
      u(k, l) = u(l, k) = body.second_moment(k, l) + body.weighted_shape.row(3 * k + l).dot(e) +
                          body.weighted_shape.row(3 * l + k).dot(e) + e.dot(products.col(3 * k + l));
  return u;
}

}  // namespace mechdyn::detail
