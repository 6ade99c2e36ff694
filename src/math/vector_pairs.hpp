// Two 3-vectors carried side by side for SSE2: a `VectorPair` holds (x, y) with row k =
// (x_k, y_k), so each row is one 128-bit register of two doubles. The products a pair
// meets with one shared operand — a rotation, a cross product with one vector — then cost
// the instructions of one 3-vector product (packed multiplies on the rows instead of
// scalar ones on each vector). Used by the resultant iteration of
// explicit_inverse_dynamics.cpp, whose quantities come in pairs (ϕ̇, ϕ̈), (ṙ, r̈),
// (ω̄, ω̄̇), (c̄, τ̄); measured there with callgrind (docs/benchmarks.md, "Explicit
// methods"). A lane holding a value nobody reads costs nothing: it rides along with the
// one that is read. Not installed.
#pragma once

#include "mechdyn/math/types.hpp"

namespace mechdyn {

using VectorPair = Eigen::Matrix<double, 3, 2, Eigen::RowMajor>;

/// The pair stored in a Vec6 of an aligned Data array (rows (x_k, y_k), k = 0, 1, 2).
inline Eigen::Map<VectorPair, Eigen::Aligned16> pair_at(Vec6& storage) {
  return Eigen::Map<VectorPair, Eigen::Aligned16>(storage.data());
}

/// (x × r, y × r) for the pair (x, y).
inline VectorPair cross_pair(const VectorPair& p, const Vec3& r) {
  VectorPair out;
  out.row(0) = p.row(1) * r.z() - p.row(2) * r.y();
  out.row(1) = p.row(2) * r.x() - p.row(0) * r.z();
  out.row(2) = p.row(0) * r.y() - p.row(1) * r.x();
  return out;
}

/// (w × x, w × y) for the pair (x, y).
inline VectorPair cross_left_pair(const Vec3& w, const VectorPair& p) {
  VectorPair out;
  out.row(0) = w.y() * p.row(2) - w.z() * p.row(1);
  out.row(1) = w.z() * p.row(0) - w.x() * p.row(2);
  out.row(2) = w.x() * p.row(1) - w.y() * p.row(0);
  return out;
}

/// (M x, M y) for a 3x3 M.
inline VectorPair product_pair(const Mat3& m, const VectorPair& p) {
  VectorPair out;
  for (int i = 0; i < 3; ++i) out.row(i) = m(i, 0) * p.row(0) + m(i, 1) * p.row(1) + m(i, 2) * p.row(2);
  return out;
}

/// (Mᵀ x, Mᵀ y) for a 3x3 M.
inline VectorPair product_transpose_pair(const Mat3& m, const VectorPair& p) {
  VectorPair out;
  for (int i = 0; i < 3; ++i) out.row(i) = m(0, i) * p.row(0) + m(1, i) * p.row(1) + m(2, i) * p.row(2);
  return out;
}

/// (Rᵀ x, Rᵀ y) for the rotation by (c, s) = (cos φ, sin φ) about e_K: rows I = K + 1 and
/// L = K + 2 (mod 3) mix, row K stays (4 packed multiplications).
template <int K>
inline VectorPair rotate_transpose_pair(double c, double s, const VectorPair& p) {
  constexpr int I = (K + 1) % 3, L = (K + 2) % 3;
  VectorPair out;
  out.row(I) = c * p.row(I) + s * p.row(L);
  out.row(L) = c * p.row(L) - s * p.row(I);
  out.row(K) = p.row(K);
  return out;
}

}  // namespace mechdyn
