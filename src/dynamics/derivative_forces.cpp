// The force and composite pass of the analytical derivatives of inverse dynamics
// (rnea_derivatives, aba_derivatives; docs/derivatives.md eqs. D1–D2, D11–D12').
//
// Source: Carpentier & Mansard, RSS 2018, §III–IV (the world-frame RNEA and the subtree
// composites of its derivative). On the kinematics stage, per body i with V_i = [ω; u],
// A^g_i = A_i + [0; −g], c its centre of mass and J_c its world inertia about c:
//   I_i = [[J, h̃], [−h̃, m]],  h = m c,  J = J_c + m (|c|² 1 − c cᵀ)     (about the world origin)
//   H_i = I_i V_i,  f_i = I_i A^g_i + V_i ×* H_i                                          (D2)
//   P_i = ω̃J + (ω̃J)ᵀ − (h uᵀ + u hᵀ) + 2 (u·h) 1,  stored as Q_i = P_i + H̃_n            (D11, D11'')
// summed over each subtree (F_i, I^c_i, H^c_i, Q^c_i), then per coordinate k of body i,
// s_k = [w; t]:
//   τ_k = s_kᵀ F_i,  f_k = I^c_i s_k,  u_k = [Q^c w + 2 H^c_f × t; 0],  s_k ×* F_i          (D12', D12)
// (B^c's vector is the linear momentum H^c_f, so u_k has no linear part: eq. D11).
// The per-body products and the per-coordinate rows do not depend on each other, so two
// bodies (two coordinates) run side by side in the two lanes of SSE2 registers
// (math/lane_pairs.hpp): each multiplication and addition is one packed instruction for
// both, each number loaded and stored once per body as scalar code would. The subtree sums
// run body by body (each waits for its children).
// Cost: per body ~230 multiplications and additions (half as many packed instructions),
// per coordinate ~130; the sums 34 additions per body (callgrind counts: docs/benchmarks.md).
// Reads: Model; the stage (com_position, inertia_world, velocity, acceleration,
// motion_axis). Writes in `work`: transmitted_force, tau, composite_inertia,
// composite_momentum, composite_coriolis_block (Q^c), composite_axis_rows (rows 0–14 each
// number in both lanes, rows 15–20 s_k ×* F_i in lane 0), and body_inertia, body_momentum
// when the general form runs (!every_rigid).
// Allocates nothing.
#include "../math/lane_pairs.hpp"
#include "derivative_stages.hpp"

namespace mechdyn::detail {

namespace {

/// A symmetric 3x3 in lanes: its six distinct entries.
template <class T>
struct SymmetricOf {
  T xx, yy, zz, xy, xz, yz;
};

template <class T>
inline SymmetricOf<T> load_symmetric(const Mat3& first, const Mat3& second) {
  return {T(first(0, 0), second(0, 0)), T(first(1, 1), second(1, 1)), T(first(2, 2), second(2, 2)),
          T(first(0, 1), second(0, 1)), T(first(0, 2), second(0, 2)), T(first(1, 2), second(1, 2))};
}

template <class T>
inline void store_symmetric(const SymmetricOf<T>& s, Mat3& first, Mat3& second) {
  first(0, 0) = s.xx[0], first(1, 1) = s.yy[0], first(2, 2) = s.zz[0];
  first(0, 1) = first(1, 0) = s.xy[0], first(0, 2) = first(2, 0) = s.xz[0], first(1, 2) = first(2, 1) = s.yz[0];
  if constexpr (!kTwoItems<T>) return;
  second(0, 0) = s.xx[1], second(1, 1) = s.yy[1], second(2, 2) = s.zz[1];
  second(0, 1) = second(1, 0) = s.xy[1], second(0, 2) = second(2, 0) = s.xz[1], second(1, 2) = second(2, 1) = s.yz[1];
}

/// Q = P + H̃_n (eq. D11'') of bodies i0, i1 from the symmetric P and H_n: Q w = P w + H_n × w.
template <class T>
inline void store_block(const SymmetricOf<T>& p, const Vec3Of<T>& h, Mat3& first, Mat3& second) {
  const T q01 = p.xy - h.z, q10 = p.xy + h.z, q02 = p.xz + h.y, q20 = p.xz - h.y, q12 = p.yz - h.x, q21 = p.yz + h.x;
  first(0, 0) = p.xx[0], first(1, 1) = p.yy[0], first(2, 2) = p.zz[0];
  first(0, 1) = q01[0], first(1, 0) = q10[0], first(0, 2) = q02[0], first(2, 0) = q20[0], first(1, 2) = q12[0],
  first(2, 1) = q21[0];
  if constexpr (!kTwoItems<T>) return;
  second(0, 0) = p.xx[1], second(1, 1) = p.yy[1], second(2, 2) = p.zz[1];
  second(0, 1) = q01[1], second(1, 0) = q10[1], second(0, 2) = q02[1], second(2, 0) = q20[1], second(1, 2) = q12[1],
  second(2, 1) = q21[1];
}

/// Rows of a 3x3 in lanes.
template <class T>
struct MatrixOf {
  Vec3Of<T> x, y, z;
};

template <class T>
inline MatrixOf<T> load_matrix(const Mat3& first, const Mat3& second) {
  const auto row = [&](int r) { return Vec3Of<T>{T(first(r, 0), second(r, 0)), T(first(r, 1), second(r, 1)),
                                                  T(first(r, 2), second(r, 2))}; };
  return {row(0), row(1), row(2)};
}

template <class T>
inline Vec3Of<T> times(const MatrixOf<T>& m, const Vec3Of<T>& a) { return {dot(m.x, a), dot(m.y, a), dot(m.z, a)}; }

template <class T>
inline Vec3Of<T> times(const SymmetricOf<T>& s, const Vec3Of<T>& a) {
  return {s.xx * a.x + s.xy * a.y + s.xz * a.z, s.xy * a.x + s.yy * a.y + s.yz * a.z,
          s.xz * a.x + s.yz * a.y + s.zz * a.z};
}

/// I_i, H_i = I_i V_i, f_i = I_i A^g_i + V_i ×* H_i and P_i of bodies i0, i1 (eqs. D2, D11);
/// T = One: body i0 alone (i1 = i0, not read).
template <class T>
inline void body_products(const Model& model, const Data& data, DerivativeData& work, int i0, int i1,
                          const Vec6& base_acceleration) {
  using Vec3Lanes = Vec3Of<T>;
  using SymmetricLanes = SymmetricOf<T>;
  using Lanes = T;
  const Vec3Lanes base_angular{T::Constant(base_acceleration[0]), T::Constant(base_acceleration[1]),
                               T::Constant(base_acceleration[2])};  // A^g_0 = [0; −g]
  const Vec3Lanes base_linear{T::Constant(base_acceleration[3]), T::Constant(base_acceleration[4]),
                              T::Constant(base_acceleration[5])};
  const Lanes mass(model.bodies[i0].mass, model.bodies[i1].mass);
  const Vec3Lanes com = load_lanes<T>(data.com_position[i0].data(), data.com_position[i1].data());
  const SymmetricLanes about_com = load_symmetric<T>(data.inertia_world[i0], data.inertia_world[i1]);
  const Vec3Lanes omega = load_lanes<T>(data.velocity[i0].data(), data.velocity[i1].data());
  const Vec3Lanes u = load_lanes<T>(data.velocity[i0].data() + 3, data.velocity[i1].data() + 3);
  const Vec3Lanes spin = load_lanes<T>(data.acceleration[i0].data(), data.acceleration[i1].data()) + base_angular;  // A^g
  const Vec3Lanes linear = load_lanes<T>(data.acceleration[i0].data() + 3, data.acceleration[i1].data() + 3) + base_linear;

  const Vec3Lanes h = mass * com;  // first moment
  const Lanes hc = dot(h, com);    // J = J_c + (h·c) 1 − h cᵀ (parallel axes; symmetric)
  const SymmetricLanes j{about_com.xx + hc - h.x * com.x, about_com.yy + hc - h.y * com.y,
                         about_com.zz + hc - h.z * com.z, about_com.xy - h.x * com.y,
                         about_com.xz - h.x * com.z,      about_com.yz - h.y * com.z};
  const Vec3Lanes momentum_n = times(j, omega) + cross(h, u);  // H = I V
  const Vec3Lanes momentum_f = mass * u - cross(h, omega);
  const Vec3Lanes force_n = times(j, spin) + cross(h, linear) + cross(omega, momentum_n) + cross(u, momentum_f);
  const Vec3Lanes force_f = mass * linear - cross(h, spin) + cross(omega, momentum_f);  // I A^g + V ×* H

  // P = ω̃J + (ω̃J)ᵀ − (h uᵀ + u hᵀ) + 2 (u·h) 1: entry (a, b) = (ω × J_b)_a + (ω × J_a)_b − h_a u_b − u_a h_b
  const Vec3Lanes spin_x = cross(omega, Vec3Lanes{j.xx, j.xy, j.xz});  // ω × J's columns
  const Vec3Lanes spin_y = cross(omega, Vec3Lanes{j.xy, j.yy, j.yz});
  const Vec3Lanes spin_z = cross(omega, Vec3Lanes{j.xz, j.yz, j.zz});
  const Lanes uh = dot(u, h);
  const Lanes two(2.0, 2.0);
  const SymmetricLanes block{two * (spin_x.x - h.x * u.x + uh),        two * (spin_y.y - h.y * u.y + uh),
                             two * (spin_z.z - h.z * u.z + uh),        spin_y.x + spin_x.y - h.x * u.y - u.x * h.y,
                             spin_z.x + spin_x.z - h.x * u.z - u.x * h.z, spin_z.y + spin_y.z - h.y * u.z - u.y * h.z};

  SpatialInertia& first = work.composite_inertia[i0];  // I_i, then I^c_i after the sums
  SpatialInertia& second = work.composite_inertia[i1];
  first.mass = mass[0], second.mass = mass[1];
  store_lanes(h, first.first_moment.data(), second.first_moment.data());
  store_symmetric(j, first.rotational, second.rotational);
  store_lanes(momentum_n, work.composite_momentum[i0].data(), work.composite_momentum[i1].data());
  store_lanes(momentum_f, work.composite_momentum[i0].data() + 3, work.composite_momentum[i1].data() + 3);
  store_lanes(force_n, work.transmitted_force[i0].data(), work.transmitted_force[i1].data());
  store_lanes(force_f, work.transmitted_force[i0].data() + 3, work.transmitted_force[i1].data() + 3);
  store_block(block, momentum_n, work.composite_coriolis_block[i0], work.composite_coriolis_block[i1]);  // Q (D11'')
  if (!work.every_rigid) {  // read by the general form only (rnea_derivatives_general.cpp)
    work.body_inertia[i0] = first, work.body_inertia[i1] = second;
    work.body_momentum[i0] = work.composite_momentum[i0], work.body_momentum[i1] = work.composite_momentum[i1];
  }
}

/// τ_k, f_k = I^c s_k and u_k (eq. D12') of coordinates k0, k1 (T = One: k0 alone), the
/// rows stored with each number in both lanes.
template <class T>
inline void coordinate_rows(const Model& model, const Data& data, DerivativeData& work, int k0, int k1) {
  using Vec3Lanes = Vec3Of<T>;
  using Lanes = T;
  const int b0 = model.dof_body[static_cast<std::size_t>(k0)], b1 = model.dof_body[static_cast<std::size_t>(k1)];
  const SpatialInertia& first = work.composite_inertia[b0];
  const SpatialInertia& second = work.composite_inertia[b1];
  const Lanes mass(first.mass, second.mass);
  const Vec3Lanes h = load_lanes<T>(first.first_moment.data(), second.first_moment.data());
  const SymmetricOf<T> j = load_symmetric<T>(first.rotational, second.rotational);
  const MatrixOf<T> block = load_matrix<T>(work.composite_coriolis_block[b0], work.composite_coriolis_block[b1]);  // Q^c
  const double* momentum0 = work.composite_momentum[b0].data();
  const double* momentum1 = work.composite_momentum[b1].data();
  const double* force0 = work.transmitted_force[b0].data();
  const double* force1 = work.transmitted_force[b1].data();
  const double* axis0 = data.motion_axis[static_cast<std::size_t>(k0)].data();
  const double* axis1 = data.motion_axis[static_cast<std::size_t>(k1)].data();
  const Vec3Lanes w = load_lanes<T>(axis0, axis1), t = load_lanes<T>(axis0 + 3, axis1 + 3);

  const Lanes tau = dot(w, load_lanes<T>(force0, force1)) + dot(t, load_lanes<T>(force0 + 3, force1 + 3));  // s_kᵀ F
  work.tau[k0] = tau[0];
  if constexpr (kTwoItems<T>) work.tau[k1] = tau[1];
  const Vec3Lanes f_n = times(j, w) + cross(h, t), f_f = mass * t - cross(h, w);  // f_k = I^c s_k
  const Vec3Lanes u_n =
      times(block, w) + Lanes(2.0, 2.0) * cross(load_lanes<T>(momentum0 + 3, momentum1 + 3), t);  // u_k (D12', D11'')

  double* rows0 = work.composite_axis_rows[static_cast<std::size_t>(k0)].data();
  double* rows1 = work.composite_axis_rows[static_cast<std::size_t>(k1)].data();
  const auto twice = [&](const Vec3Lanes& a, int row) {
    store_twice(a.x, rows0 + 2 * row, rows1 + 2 * row);
    store_twice(a.y, rows0 + 2 * row + 2, rows1 + 2 * row + 2);
    store_twice(a.z, rows0 + 2 * row + 4, rows1 + 2 * row + 4);
  };
  twice(f_n, 0);
  twice(f_f, 3);
  twice(u_n, 6);
  twice(w, 9);
  twice(t, 12);
  // s_k ×* F_b = [w × F_n + t × F_f; w × F_f] (eq. D12), lane 0 of rows 15–20 (lane 1 stays 0)
  const Vec3Lanes force_n = load_lanes<T>(force0, force1), force_f = load_lanes<T>(force0 + 3, force1 + 3);
  const auto first_lane = [&](const Vec3Lanes& a, int row) {
    rows0[2 * row] = a.x[0], rows0[2 * row + 2] = a.y[0], rows0[2 * row + 4] = a.z[0];
    if constexpr (kTwoItems<T>) rows1[2 * row] = a.x[1], rows1[2 * row + 2] = a.y[1], rows1[2 * row + 4] = a.z[1];
  };
  first_lane(cross(w, force_n) + cross(t, force_f), 15);
  first_lane(cross(w, force_f), 18);
}

}  // namespace

__attribute__((flatten)) void forces_and_composites(const Model& model, const Data& data, DerivativeData& work,
                                                   const Vec6& base_acceleration) {
  const int n = model.num_bodies();
  int i = 0;
  for (; i + 1 < n; i += 2) body_products<Lanes>(model, data, work, i, i + 1, base_acceleration);
  if (i < n) body_products<One>(model, data, work, i, i, base_acceleration);
  for (i = n - 1; i >= 0; --i) {  // subtree sums, children first
    const int parent = model.bodies[i].parent;
    if (parent == kGround) continue;
    work.transmitted_force[parent] += work.transmitted_force[i];  // F_λ += F_i
    work.composite_inertia[parent] += work.composite_inertia[i];
    work.composite_momentum[parent] += work.composite_momentum[i];
    work.composite_coriolis_block[parent] += work.composite_coriolis_block[i];
  }
  int k = 0;
  for (; k + 1 < model.nv; k += 2) coordinate_rows<Lanes>(model, data, work, k, k + 1);
  if (k < model.nv) coordinate_rows<One>(model, data, work, k, k);
}

}  // namespace mechdyn::detail
