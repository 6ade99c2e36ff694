// Composite-rigid-body algorithm for M(q) in body coordinates, for models whose joints
// all have one coordinate or none (revolute, prismatic, fixed) and whose bodies are rigid
// (Model::crba_in_body_frames).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §6.2, Table 6.2 (the
// original, body-coordinate form), with every quantity of body i in its own natural frame
// (EC §2.1: parallel to its parent at q = 0) at its frame origin o_i, as RNEA does
// (rnea.cpp). The joint's relative pose alone (EC eqs. 2–3: Q = Q^{l̄}_l, x = r^{l̄}_l)
// carries body coordinates into the parent's:
//   X* [n; f] = [Q n + x × Q f; Q f]                        force, body → parent
//   X* I X:  h' = Q h + m x,                                inertia (m, h = m c, I about o)
//            I' = Q I Qᵀ + 2 (x·u) 1 − (x uᵀ + u xᵀ),  u = Q h + m x / 2
// (the parallel-axis theorem from o_i to o_λ(i): I_A = I_c + m (|c_A|² 1 − c_A c_Aᵀ) with
// c_A = c + x). Table 6.2 with the columns of M taken together at each body:
//   I^c_i = I_i                               (from_com in body coordinates)
//   for i = N … 1:
//     F_i = I^c_i S_i                          S_i = [n̄; 0] (turn) or [0; n̄] (slide)
//     for every k in the subtree of i:  M_ki = M_ik = S_iᵀ F_k     (F_k now in i's coordinates)
//     if λ(i) ≠ 0:  F_k = X*_i F_k for every k in the subtree,  I^c_λ(i) += X*_i I^c_i X_i
// Each body's joint kind is visited once, with its rotation written out (about ±e_K: the
// 2 × 2 block (A, B) = (K + 1, K + 2) alone, joint_kinds/common.hpp), and nothing needs the
// world pose: no composed rotation, no world inertia, no world axes. About ±e_K,
// S_iᵀ F = ±n_K and M_ii = I^c_KK need no product. Per pair (k, i) one X* F, where the
// world form (crba.cpp) pays a 6-vector dot but also a kinematics step and a world inertia
// per body. Taken two at a time (below) the pairs cost about what the dots cost; taken one
// at a time (~70 instructions against ~22) they lose where many subtrees are not numbered
// depth first, and such trees keep the world form (Model::crba_in_body_frames, model.cpp).
// One backward pass: body i's own inertia joins its composite when its children are done
// (complete_composite); the joint angles' cos, sin are taken before it, two at a time. The F_k
// are kept as six rows over k (data.composite_force_rows), so that where the subtree's
// coordinates are one run (depth-first numbering, Model::subtree_dof_end: chains, most
// robots) the pairs go two at a time through one SSE2 register.
// Three things the time depends on more than the operation count (issue 29; measured on
// the arm, docs/benchmarks.md): I_i about o_i is memoised in Data (data.body_inertia,
// body_inertia_at_origin.hpp: remade when the body's numbers change, ~15 % of the time when
// made every call); the joint angles' cos, sin are taken two per SSE2 register before the
// pass (sine_cosine_pair, ~7 %); and every load is as wide as the store that wrote it (a
// packed load over two scalar stores waits for them: absorb_turn's comment).
// Reads: model, q. Writes data.composite_inertia (scratch: the children's sums, lower triangle),
// data.composite_force_rows (F_k, left in its root body's coordinates), data.mass_matrix
// (both triangles), data.body_inertia(_source), data.joint_cosine/sine. The kinematics
// stage is not touched. Allocates nothing.
#include <type_traits>

#include "../kinematics/joint_trigonometry.hpp"
#include "../model/joint_dispatch.hpp"
#include "body_inertia_at_origin.hpp"
#include "dynamics_stages.hpp"

namespace mechdyn {

namespace {

using Packed = Eigen::Array2d;  // two numbers in one SSE2 register

/// Revolute<K> with K ≥ 0 (about ±e_K): `value` and the axis K.
template <class J>
struct AboutPrincipalAxis : std::false_type {
  static constexpr int axis = 0;
};
template <int K>
struct AboutPrincipalAxis<joint_kinds::Revolute<K>> : std::bool_constant<(K >= 0)> {
  static constexpr int axis = K >= 0 ? K : 0;
};

template <class J>
constexpr bool kTurns = std::is_same_v<J, joint_kinds::Revolute<0>> || std::is_same_v<J, joint_kinds::Revolute<1>> ||
                        std::is_same_v<J, joint_kinds::Revolute<2>> || std::is_same_v<J, joint_kinds::Revolute<-1>>;

/// I ← Q I Qᵀ for kind J's relative rotation Q (symmetric I).
template <class J>
inline void rotate_inertia(const Mat3& rotation, Mat3& inertia) {
  if constexpr (std::is_base_of_v<joint_kinds::IdentityRotation, J>) {
    return;
  } else if constexpr (AboutPrincipalAxis<J>::value) {
    // Q = [c −s; s c] on rows/columns (A, B) = (K+1, K+2), Q_KK = 1 (common.hpp):
    //   (I_AA, I_AB, I_BB) → (c² a − 2cs b + s² d, cs (a − d) + (c² − s²) b, s² a + 2cs b + c² d),
    //   (I_AK, I_BK) → Q₂ (I_AK, I_BK), I_KK unchanged.
    constexpr int K = AboutPrincipalAxis<J>::axis, A = (K + 1) % 3, B = (K + 2) % 3;
    const double c = rotation(A, A), s = rotation(B, A);
    const double a = inertia(A, A), b = inertia(A, B), d = inertia(B, B);
    const double cc = c * c, ss = s * s, cs = c * s;
    const double twice = 2.0 * cs * b;
    inertia(A, A) = (cc * a + ss * d) - twice;
    inertia(B, B) = (ss * a + cc * d) + twice;
    inertia(A, B) = inertia(B, A) = cs * (a - d) + (cc - ss) * b;
    const double x = inertia(A, K), y = inertia(B, K);
    inertia(A, K) = inertia(K, A) = c * x - s * y;
    inertia(B, K) = inertia(K, B) = s * x + c * y;
  } else {
    inertia = rotation * inertia * rotation.transpose();
  }
}

/// F = I^c S for kind J's S in body coordinates: [I n̄; n̄ × h] (turn), [h × n̄; m n̄] (slide).
template <class J>
inline Vec6 composite_force(const Joint& joint, const SpatialInertia& inertia) {
  Vec6 out;
  if constexpr (AboutPrincipalAxis<J>::value) {
    constexpr int K = AboutPrincipalAxis<J>::axis, A = (K + 1) % 3, B = (K + 2) % 3;
    const double sign = joint.axis[K];
    const Vec3& h = inertia.first_moment;
    out.head<3>() = sign * inertia.rotational.col(K);
    out[3 + K] = 0.0;  // e_K × h = h_A e_B − h_B e_A
    out[3 + A] = -sign * h[B];
    out[3 + B] = sign * h[A];
  } else if constexpr (kTurns<J>) {
    out.head<3>().noalias() = inertia.rotational * joint.axis;
    out.tail<3>() = joint.axis.cross(inertia.first_moment);
  } else {
    out.head<3>() = inertia.first_moment.cross(joint.axis);
    out.tail<3>() = inertia.mass * joint.axis;
  }
  return out;
}

/// I^c_i = I_i + the children's X* I^c X, once the children are done: body i's own
/// inertia about o_i in body coordinates (from_com, memoised in data.body_inertia) is added
/// here, not in a pass of its own.
inline const SpatialInertia& complete_composite(const Model& model, Data& data, int i) {
  const SpatialInertia& own = detail::body_inertia_at_origin(model, data, i);
  SpatialInertia& composite = data.composite_inertia[i];
  if (model.children[i].empty()) {
    composite = own;
  } else {  // absorb_turn's children write the lower triangle only: mirror it
    Mat3& sum = composite.rotational;
    sum(0, 1) = sum(1, 0), sum(0, 2) = sum(2, 0), sum(1, 2) = sum(2, 1);
    composite += own;
  }
  return composite;
}

/// target = value (the first child of λ(i) done, the one with the highest index) or
/// target += value (the others).
inline void accumulate(double& target, double value, bool first) { target = first ? value : target + value; }

/// F_k for every velocity coordinate k as six rows over k (data.composite_force_rows): a
/// run of consecutive k is one packed load per component. Made once per call, with M's
/// entries, and handed to every body's step.
struct ForceRows {
  double* row[6];
  double* entries;         // data.mass_matrix, column-major
  std::ptrdiff_t stride;   // its leading dimension
  explicit ForceRows(Data& data) : entries(data.mass_matrix.data()), stride(data.mass_matrix.rows()) {
    for (int j = 0; j < 6; ++j) row[j] = data.composite_force_rows.row(j).data();
  }
  Vec6 load(std::ptrdiff_t k) const {
    Vec6 out;
    for (int j = 0; j < 6; ++j) out[j] = row[j][k];
    return out;
  }
  void store(std::ptrdiff_t k, const Vec6& value) const {
    for (int j = 0; j < 6; ++j) row[j][k] = value[j];
  }
};

/// One body's part of the backward pass (see the header), its joint of kind J.
template <class J>
MECHDYN_NOINLINE void absorb_body(const Model& model, Data& data, const ForceRows& forces, int i, const double* q) {
  const Joint& joint = model.joints[i];
  const int parent = model.bodies[i].parent;
  const SpatialInertia& composite = complete_composite(model, data, i);
  double* const entries = forces.entries;
  const std::ptrdiff_t stride = forces.stride;
  Mat3 rotation;  // Q^{l̄}_l, r^{l̄}_l (EC eqs. 2–3)
  Vec3 translation;
  J::relative_pose(joint, q + joint.q_index, rotation, translation);
  const std::ptrdiff_t column = joint.v_index;
  if constexpr (J::nv == 1) forces.store(column, composite_force<J>(joint, composite));  // F_i = I^c_i S_i
  for (const int b : model.subtree[i]) {  // M_ki = M_ik = S_iᵀ F_k, then F_k = X*_i F_k
    const Joint& below = model.joints[b];
    if (below.nv == 0) continue;
    const std::ptrdiff_t k = below.v_index;
    Vec6 force = forces.load(k);
    if constexpr (J::nv == 1) {
      double entry;
      J::project(joint, nullptr, force, &entry);
      entries[k + column * stride] = entry;
      entries[column + k * stride] = entry;
    }
    if (parent == kGround) continue;
    const Vec3 f = J::rotate(rotation, force.tail<3>());
    force.head<3>() = J::rotate(rotation, force.head<3>()) + translation.cross(f);
    force.tail<3>() = f;
    forces.store(k, force);
  }
  if (parent == kGround) return;
  SpatialInertia& target = data.composite_inertia[parent];  // I^c_λ(i) += X*_i I^c_i X_i
  Mat3 rotational = composite.rotational;
  rotate_inertia<J>(rotation, rotational);
  const Vec3 moment = J::rotate(rotation, composite.first_moment);     // Q h
  const Vec3 shifted = moment + (0.5 * composite.mass) * translation;  // u = Q h + m x / 2
  const double along = 2.0 * translation.dot(shifted);                 // 2 x·u
  const Mat3 outer = translation * shifted.transpose();                // x uᵀ
  rotational -= outer + outer.transpose();
  rotational.diagonal().array() += along;
  if (i == model.children[parent].back()) {  // the first child done
    target.mass = composite.mass;
    target.first_moment = moment + composite.mass * translation;  // Q h + m x
    target.rotational = rotational;
  } else {
    target.mass += composite.mass;
    target.first_moment += moment + composite.mass * translation;
    target.rotational += rotational;
  }
}

/// (row, column) of entry (r, c) of a symmetric 3 × 3 in its lower triangle.
template <int R, int C>
constexpr int kLower[2] = {R > C ? R : C, R > C ? C : R};

/// absorb_body written out for a revolute joint about ±e_K (most robots; the RX/RY/RZ of
/// RBDL and Pinocchio): S_iᵀ F = ±n_K, X*_i turns two components of each 3-vector, and the
/// inertia turns in its (A, B) block only; every number in registers from its load to its
/// store.
///
/// Loads are as wide as the stores that wrote them (a load that spans two stores still in
/// the store queue waits for them to reach the cache: on the benchmark machine that cost
/// more than the arithmetic it fed):
/// - I^c_i's numbers are read one at a time, as the children's steps stored them, and
///   I^c_i is then kept in registers (writing it out for a caller cost ~9 % on the arm).
///   The parent gets the lower triangle of X* I^c X only (10 stores, not 13).
/// - F_k moves in pairs (k, k + 1) counted from the end of the subtree's run (end − k
///   even), so that in a chain, where every run ends at nv, body i's packed load finds the
///   packed store of the child below it at the same pair. F_i comes from registers: alone
///   when the run's length is odd, else in the first pair beside F_{i+1} read on its own
///   (the child's run, one shorter, is odd: it stored F_{i+1} alone).
template <int K>
MECHDYN_NOINLINE void absorb_turn(const Model& model, Data& data, const ForceRows& forces, int i, double c,
                                  double s) {
  constexpr int A = (K + 1) % 3, B = (K + 2) % 3;
  const Joint& joint = model.joints[i];
  const int parent = model.bodies[i].parent;
  const bool root = parent == kGround;
  // I^c_i = I_i + Σ children (complete_composite, number by number; the children's sums
  // hold the lower triangle, kLower), kept in registers: data.composite_inertia is scratch.
  const SpatialInertia& own = detail::body_inertia_at_origin(model, data, i);
  double m = own.mass, ha = own.first_moment[A], hb = own.first_moment[B], hk = own.first_moment[K];
  double a = own.rotational(A, A), d = own.rotational(B, B), kk = own.rotational(K, K);
  double bb = own.rotational(A, B), ak = own.rotational(A, K), bk = own.rotational(B, K);
  if (!model.children[i].empty()) {
    const SpatialInertia& children = data.composite_inertia[i];
    const Mat3& R = children.rotational;
    m += children.mass, ha += children.first_moment[A], hb += children.first_moment[B];
    hk += children.first_moment[K];
    a += R(A, A), d += R(B, B), kk += R(K, K);
    bb += R(kLower<A, B>[0], kLower<A, B>[1]), ak += R(kLower<A, K>[0], kLower<A, K>[1]);
    bk += R(kLower<B, K>[0], kLower<B, K>[1]);
  }
  const double sign = joint.axis[K];
  double* const entries = forces.entries;
  const std::ptrdiff_t stride = forces.stride;
  const std::ptrdiff_t column = joint.v_index;
  // F_i = sign [I e_K; e_K × h], e_K × h = h_A e_B − h_B e_A; rows (n_A, n_B, n_K, f_A, f_B, f_K)
  const double own_force[6] = {sign * ak, sign * bk, sign * kk, -sign * hb, sign * ha, 0.0};
  const double t = sign * s;  // Q^{l̄}_l = [c −t; t c] on (A, B) (EC eq. 3, PrincipalRotation::make)
  const Vec3& x = joint.origin;
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  // For each k of the subtree: M_ki = M_ik = S_iᵀ F_k = sign n_K, then F_k = X*_i F_k =
  // [Q n + x × Q f; Q f]. Written once for a number and once for two (Packed: k, k + 1),
  // F given as (n_A, n_B, n_K, f_A, f_B, f_K).
  const auto step = [&](std::ptrdiff_t k, const auto (&F)[6]) {
    using V = std::decay_t<decltype(F[0])>;
    const auto store = [&](int j, const V& value) {
      if constexpr (std::is_same_v<V, double>) forces.row[j][k] = value;
      else Eigen::Map<Packed>(forces.row[j] + k) = value;
    };
    const V entry = sign * F[2];
    if constexpr (std::is_same_v<V, double>) {
      entries[k + column * stride] = entry;
      entries[column + k * stride] = entry;
    } else {
      Eigen::Map<Packed>(entries + k + column * stride) = entry;
      entries[column + k * stride] = entry[0];
      entries[column + (k + 1) * stride] = entry[1];
    }
    if (root) return;
    V f[3], w[3];  // Q f, Q n
    f[A] = c * F[3] - t * F[4], f[B] = t * F[3] + c * F[4], f[K] = F[5];
    w[A] = c * F[0] - t * F[1], w[B] = t * F[0] + c * F[1], w[K] = F[2];
    store(0, w[0] + (x1 * f[2] - x2 * f[1]));  // Q n + x × Q f
    store(1, w[1] + (x2 * f[0] - x0 * f[2]));
    store(2, w[2] + (x0 * f[1] - x1 * f[0]));
    store(3 + A, f[A]), store(3 + B, f[B]), store(3 + K, f[K]);  // f_K unchanged, but F_i's 0 is written here
  };                                                              // and the pair's loads find one wide store
  constexpr int kRow[6] = {A, B, K, 3 + A, 3 + B, 3 + K};  // F's order above → rows of forces
  const auto single = [&](std::ptrdiff_t k) {
    double F[6];
    for (int j = 0; j < 6; ++j) F[j] = forces.row[kRow[j]][k];
    step(k, F);
  };
  const auto pair = [&](std::ptrdiff_t k) {
    Packed F[6];
    for (int j = 0; j < 6; ++j) F[j] = Eigen::Map<const Packed>(forces.row[kRow[j]] + k);
    step(k, F);
  };
  const int end = model.subtree_dof_end[i];
  if (end >= 0) {  // the subtree's coordinates are column … end − 1
    std::ptrdiff_t k = column + 1;
    if ((end - column) % 2 == 0) {  // (F_i, F_{i+1})
      Packed F[6];
      for (int j = 0; j < 6; ++j) F[j] = Packed(own_force[j], forces.row[kRow[j]][k]);
      step(column, F);
      ++k;
    } else {
      step(column, own_force);
    }
    for (; k < end; k += 2) pair(k);  // end − k even: the pairs counted from the run's end
  } else {
    step(column, own_force);
    for (const int b : model.subtree[i]) {
      const Joint& below = model.joints[b];
      if (below.nv != 0 && b != i) single(below.v_index);
    }
  }
  entries[column + column * stride] = kk;  // M_ii = S_iᵀ I^c_i S_i = sign² I^c_KK
  if (root) return;
  // I^c_λ(i) += X*_i I^c_i X_i: turn (Q h, Q I Qᵀ on the (A, B) block), then shift by x.
  const double cc = c * c, tt = t * t, ct = c * t;
  const double twice = 2.0 * ct * bb;
  double turned[6];  // Q I Qᵀ: (AA, BB, KK, AB, AK, BK)
  turned[0] = (cc * a + tt * d) - twice;
  turned[1] = (tt * a + cc * d) + twice;
  turned[2] = kk;
  turned[3] = ct * (a - d) + (cc - tt) * bb;
  turned[4] = c * ak - t * bk;
  turned[5] = t * ak + c * bk;
  double moment[3];  // Q h
  moment[A] = c * ha - t * hb;
  moment[B] = t * ha + c * hb;
  moment[K] = hk;
  const double xs[3] = {x0, x1, x2};
  const double half = 0.5 * m;
  const double u[3] = {moment[0] + half * x0, moment[1] + half * x1, moment[2] + half * x2};  // u = Q h + m x / 2
  const double along = 2.0 * ((x0 * u[0] + x1 * u[1]) + x2 * u[2]);                          // 2 x·u
  // I' = Q I Qᵀ + 2 (x·u) 1 − (x uᵀ + u xᵀ), entry by entry (A, B, K as above)
  const double sum_aa = turned[0] + (along - 2.0 * xs[A] * u[A]);
  const double sum_bb = turned[1] + (along - 2.0 * xs[B] * u[B]);
  const double sum_kk = turned[2] + (along - 2.0 * xs[K] * u[K]);
  const double sum_ab = turned[3] - (xs[A] * u[B] + u[A] * xs[B]);
  const double sum_ak = turned[4] - (xs[A] * u[K] + u[A] * xs[K]);
  const double sum_bk = turned[5] - (xs[B] * u[K] + u[B] * xs[K]);
  SpatialInertia& target = data.composite_inertia[parent];
  Mat3& T = target.rotational;
  const bool first = i == model.children[parent].back();  // the first child done: = instead of +=
  accumulate(T(A, A), sum_aa, first), accumulate(T(B, B), sum_bb, first), accumulate(T(K, K), sum_kk, first);
  accumulate(T(kLower<A, B>[0], kLower<A, B>[1]), sum_ab, first);  // the lower triangle only
  accumulate(T(kLower<A, K>[0], kLower<A, K>[1]), sum_ak, first);
  accumulate(T(kLower<B, K>[0], kLower<B, K>[1]), sum_bk, first);
  accumulate(target.mass, m, first);
  Vec3& g = target.first_moment;  // + Q h + m x
  accumulate(g[0], moment[0] + m * x0, first);
  accumulate(g[1], moment[1] + m * x1, first);
  accumulate(g[2], moment[2] + m * x2, first);
}

}  // namespace

const MatX& detail::composite_rigid_body_in_body_frames(const Model& model, Data& data, const double* q) {
  data.reserve(model, DenseWorkspace::MassMatrix);  // allocates only in a Data made without it
  const int n = model.num_bodies();
  data.mass_matrix.setZero();  // entries of coordinates on different branches stay zero
  // cos φ, sin φ of every revolute joint first, two angles per SSE2 register
  // (sine_cosine_pair; other kinds take angle 0: cos 1, sin 0, unread).
  double* cosines = data.joint_cosine.data();
  double* sines = data.joint_sine.data();
  const auto angle = [&](int i) {
    const Joint& joint = model.joints[static_cast<std::size_t>(i)];
    return takes_caller_cosine_sine<kCallerCosineSineKinds>(joint.kind) ? q[joint.q_index] : 0.0;
  };
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    const double angles[2] = {angle(i), angle(i + 1)};
    sine_cosine_pair(angles, sines + i, cosines + i);
  }
  if (i < n) sine_cosine(angle(i), sines[i], cosines[i]);
  // One backward pass.
  const ForceRows forces(data);
  for (i = n - 1; i >= 0; --i) {
    visit_joint_kind(model.joints[i].kind, [&](auto kind) {
      using J = decltype(kind);
      if constexpr (AboutPrincipalAxis<J>::value)
        absorb_turn<AboutPrincipalAxis<J>::axis>(model, data, forces, i, cosines[i], sines[i]);
      else
        absorb_body<J>(model, data, forces, i, q);
    });
  }
  if (model.has_armature) data.mass_matrix.diagonal() += model.armature;  // drives' reflected inertia
  return data.mass_matrix;
}

}  // namespace mechdyn
