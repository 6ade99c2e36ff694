// M⁻¹ times many right-hand sides by the articulated-body recursion, O(n) per right-hand
// side, for the derivatives of forward dynamics (aba_derivatives.cpp).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §7.3 (the articulated-body
// algorithm, Table 7.1) with v = 0 and g = 0, where it is a solve of M x = b; Carpentier &
// Mansard, RSS 2018, §IV (M⁻¹ from the articulated-body recursion, O(n²) for all of it).
// World coordinates (no transforms), one velocity coordinate at a time: a joint of m
// coordinates is m one-axis joints joined by massless bodies, since V_i = V_λ + Σ_k s_k v_k
// (docs/derivatives.md eq. D1), and λ(k) = model.dof_parent[k].
//   (D23)  from the leaves up, on each joint its last coordinate first:
//          U_k = I^A s_k,  D_k = s_kᵀ U_k,  I^A ← I^A − U_k U_kᵀ / D_k;
//          what is left after a joint's first coordinate joins the parent body's I^A
//          (which starts as the body's own spatial inertia I_i, world origin)
//   (D23') M = Lᵀ D L (sparse_cholesky.hpp: pivots from the last coordinate up) with
//          D_k the pivot and L_kj = s_jᵀ U_k / D_k for j above k: eliminating the
//          coordinates below k turns the composite inertia of M_jk = s_jᵀ I^c s_k into the
//          articulated one
//   (D24)  leaves first:  u_k = b_k − s_kᵀ P_k,  w_k = u_k / D_k,  P_λ(k) += P_k + U_k w_k
//   (D25)  root first:    x_k = w_k − (U_k / D_k)ᵀ A_λ(k),  A_k = A_λ(k) + s_k x_k
// P_k (a force) and A_k (a motion) are 6-vectors: 2 × (12 multiplications + 12 additions)
// per coordinate and right-hand side, against 2 × depth_k multiply-adds for the triangular
// factors — measured, the recursion is the faster from a mean depth of about 7
// (articulated_solve_pays).
// Right-hand sides go 4 at a time (Lanes: the columns' numbers side by side). When the
// coordinates are one path from the root (every chain), the sweeps go row by row over
// every block of 4 columns (independent work in every inner step), each block's P or A
// kept in scratch between visits and in registers through the four rows of a visit; the
// caller may store the right-hand sides transposed (SolveLayout::Rows: a block is then 4
// consecutive numbers), and M⁻¹ is worked on and right of each row's own column only (it
// is symmetric: the rest is copied). On trees each block goes down and up the tree on its
// own, P and A kept per coordinate. On x86-64 machines with AVX2 and FMA the same code compiled for them is
// chosen at run time (4 lanes in one register instead of two, multiply-adds fused); with
// AVX-512 a path's transposed storages go 8 right-hand sides a block (solve_path_wide:
// half the instructions; 50-chain aba_derivatives 27.5 → 24.1 µs, docs/benchmarks.md).
// Cost: O(n) per right-hand side, O(nv²) for M⁻¹ and for the nv-column products.
// Reads: Model, the stage (axes, centres of mass, world inertias), data.mass_matrix (the
// singular threshold). Writes: work.articulated_inertia, work.articulated_axes,
// work.articulated_block (scratch), data.mass_matrix_factor, the right-hand sides in
// place. Allocates nothing.
#include "articulated_solve.hpp"

#include <algorithm>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dynamics_stages.hpp"
#include "mechdyn/errors.hpp"

// Products and sums fused where the instruction set has it (the AVX2 variant below is built
// with FMA): one rounding fewer per multiply-add; the baseline build has no FMA, unchanged.
#pragma GCC optimize("fp-contract=fast")
// The 32-byte Lanes pass between functions that are all inlined (always_inline) into one of
// the two variants, never across a call boundary: GCC's note that such a return value
// would change the ABI without AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace mechdyn::detail {

namespace {

/// Four numbers side by side: four right-hand sides (GCC's vector extension: two SSE2
/// registers on the x86-64 baseline, one AVX register in the AVX2 build below). Aligned as
/// the VecX storage it is read from (16 bytes).
typedef double Lanes __attribute__((vector_size(32), aligned(16), may_alias));
constexpr int kLanes = 4;

/// What the solves read of coordinate k (work.articulated_axes), each number in all 4 lanes.
struct ArticulatedAxis {
  Lanes axis[6];          // s_k
  Lanes force[6];         // U_k = I^A_k s_k
  Lanes scaled_force[6];  // U_k / D_k
  Lanes inverse_pivot;    // 1 / D_k
};
static_assert(sizeof(ArticulatedAxis) == 19 * kLanes * sizeof(double), "articulated_axes: 19 × 4 numbers a coordinate");

/// One block's numbers at coordinate k on a tree (work.articulated_block).
struct BlockRow {
  Lanes scaled_effort;  // w_k, eq. (D24)
  Lanes force[6];       // P_k, eq. (D24)
  Lanes motion[6];      // A_k, eq. (D25)
};
static_assert(sizeof(BlockRow) == 13 * kLanes * sizeof(double), "articulated_block: 13 × 4 numbers a coordinate");

inline __attribute__((always_inline)) Lanes all_lanes(double x) { return Lanes{x, x, x, x}; }

inline __attribute__((always_inline)) Lanes dot(const Lanes* a, const Lanes& b0, const Lanes& b1, const Lanes& b2,
                                                const Lanes& b3, const Lanes& b4, const Lanes& b5) {
  return (a[0] * b0 + a[1] * b1) + (a[2] * b2 + a[3] * b3) + (a[4] * b4 + a[5] * b5);
}

/// Numbers of 4 right-hand sides at row k, read and written in place. Element (k, c) sits
/// at x + k·row_stride + c·column_stride: column-major (1, nv), or (nv, 1) for M⁻¹, whose
/// rows are its columns (M⁻¹ and 1 are symmetric), so that a block is 4 numbers in a row.
/// Columns past the last repeat it: the same numbers are then computed and written twice.
struct BlockColumns {
  double* at[kLanes];
  inline __attribute__((always_inline)) BlockColumns(double* x, int nv, int g, int k, std::ptrdiff_t row_stride,
                                                     std::ptrdiff_t column_stride) {
    for (int c = 0; c < kLanes; ++c)
      at[c] = x + k * row_stride + std::min(kLanes * g + c, nv - 1) * column_stride;
  }
  inline __attribute__((always_inline)) BlockColumns(double* x, int nv, int g, int k)
      : BlockColumns(x, nv, g, k, 1, nv) {}
  inline __attribute__((always_inline)) Lanes load() const { return Lanes{*at[0], *at[1], *at[2], *at[3]}; }
  inline __attribute__((always_inline)) void store(const Lanes& x) const {
    for (int c = 0; c < kLanes; ++c) *at[c] = x[c];
  }
};

/// 4 whole columns of a column-major matrix at one row: lanes `stride` (nv) apart.
struct StridedColumns {
  double* at;
  std::ptrdiff_t stride;
  inline __attribute__((always_inline)) Lanes load() const { return Lanes{at[0], at[stride], at[2 * stride], at[3 * stride]}; }
  inline __attribute__((always_inline)) void store(const Lanes& x) const {
    at[0] = x[0], at[stride] = x[1], at[2 * stride] = x[2], at[3 * stride] = x[3];
  }
};

/// 4 consecutive numbers of one row (M⁻¹ read by rows): one load, one store.
typedef double UnalignedLanes __attribute__((vector_size(32), aligned(8), may_alias));
struct ContiguousColumns {
  double* at;
  inline __attribute__((always_inline)) Lanes load() const { return *reinterpret_cast<const UnalignedLanes*>(at); }
  inline __attribute__((always_inline)) void store(const Lanes& x) const { *reinterpret_cast<UnalignedLanes*>(at) = x; }
};

/// Eq. (D24) at coordinate k for one block: w_k = (b_k − s_kᵀ P) / D_k in place of b_k, then
/// P ← P + U_k w_k (= P_{k−1} on a path).
template <class Columns>
inline __attribute__((always_inline)) void backward_step(const ArticulatedAxis& a, const Columns& columns, Lanes* force) {
  const Lanes scaled =
      (columns.load() - dot(a.axis, force[0], force[1], force[2], force[3], force[4], force[5])) * a.inverse_pivot;
  columns.store(scaled);
  for (int r = 0; r < 6; ++r) force[r] += a.force[r] * scaled;
}

/// Eq. (D25) at coordinate k for one block: x_k = w_k − (U_k / D_k)ᵀ A in place of w_k, then
/// A ← A + s_k x_k (= A_k).
template <class Columns>
inline __attribute__((always_inline)) void forward_step(const ArticulatedAxis& a, const Columns& columns, Lanes* motion) {
  const Lanes result =
      columns.load() - dot(a.scaled_force, motion[0], motion[1], motion[2], motion[3], motion[4], motion[5]);
  columns.store(result);
  for (int r = 0; r < 6; ++r) motion[r] += a.axis[r] * result;
}

/// Columns of row k, block g: along the row for M⁻¹, strided otherwise (whole blocks).
inline __attribute__((always_inline)) ContiguousColumns row_block(double* x, std::ptrdiff_t nv, int g, int k) {
  return ContiguousColumns{x + k * nv + kLanes * g};
}
inline __attribute__((always_inline)) StridedColumns column_block(double* x, std::ptrdiff_t nv, int g, int k) {
  return StridedColumns{x + k + kLanes * g * nv, nv};
}

/// Every column on one path (dof_parent[k] = k − 1), row by row over all blocks (D24, D25),
/// four rows a visit of a block. `Rows`: the
/// storage holds Xᵀ (a block is 4 numbers in a row); `Identity`: the right-hand sides are
/// those of 1, the blocks wholly left of the rows' own columns skipped going up (they hold
/// 0 there) and coming down (M⁻¹ is symmetric: those entries are copied from the others).
template <bool Rows, bool Identity>
inline __attribute__((always_inline)) void solve_path(const Model& model, DerivativeData& work, MatX& matrix) {
  const int nv = model.nv;
  const int groups = (nv + kLanes - 1) / kLanes, whole = nv / kLanes;
  const ArticulatedAxis* axes = reinterpret_cast<const ArticulatedAxis*>(work.articulated_axes.data());
  Lanes* state = reinterpret_cast<Lanes*>(work.articulated_block.data());  // 6 per block: P, then A
  double* x = matrix.data();
  const auto whole_block = [&](int g, int k) {
    if constexpr (Rows) return row_block(x, nv, g, k);
    else return column_block(x, nv, g, k);
  };
  const auto last_block = [&](int k) {
    return Rows ? BlockColumns(x, nv, whole, k, nv, 1) : BlockColumns(x, nv, whole, k, 1, nv);
  };
  const Lanes zero = all_lanes(0.0);
  for (int i = 0; i < 6 * groups; ++i) state[i] = zero;
  // P or A of a block goes through the rows in local variables: stores into x may alias the
  // scratch (Lanes is may_alias), so kept there it would be reloaded after every store.
  const auto visit = [&](Lanes* kept, auto&& rows) {
    Lanes local[6] = {kept[0], kept[1], kept[2], kept[3], kept[4], kept[5]};
    rows(local);
    for (int r = 0; r < 6; ++r) kept[r] = local[r];
  };
  constexpr int kRows = 4;  // rows a visit of a block (its P or A loaded and stored once for them)
  int k = nv - 1;
  const auto backward = [&](int rows) {  // eq. (D24), rows k, k − 1, …, k − rows + 1
    for (int g = Identity ? (k - rows + 1) / kLanes : 0; g < whole; ++g)
      visit(state + 6 * g, [&](Lanes* force) {
        for (int t = 0; t < rows; ++t) backward_step(axes[k - t], whole_block(g, k - t), force);
      });
    if (whole < groups)
      visit(state + 6 * whole, [&](Lanes* force) {
        for (int t = 0; t < rows; ++t) backward_step(axes[k - t], last_block(k - t), force);
      });
  };
  for (; k >= kRows - 1; k -= kRows) backward(kRows);
  for (; k >= 0; --k) backward(1);
  for (int i = 0; i < 6 * groups; ++i) state[i] = zero;
  k = 0;
  const auto forward = [&](int rows) {  // eq. (D25), rows k, k + 1, …, k + rows − 1
    for (int g = Identity ? k / kLanes : 0; g < whole; ++g)
      visit(state + 6 * g, [&](Lanes* motion) {
        for (int t = 0; t < rows; ++t) forward_step(axes[k + t], whole_block(g, k + t), motion);
      });
    if (whole < groups)
      visit(state + 6 * whole, [&](Lanes* motion) {
        for (int t = 0; t < rows; ++t) forward_step(axes[k + t], last_block(k + t), motion);
      });
  };
  for (; k + kRows <= nv; k += kRows) forward(kRows);
  for (; k < nv; ++k) forward(1);
  if (Identity)  // M⁻¹ is symmetric: the entries left of each row's own column from those right of it
    for (int c = 0; c < nv; ++c)
      for (int r = c + 1; r < nv; ++r) x[static_cast<std::ptrdiff_t>(r) * nv + c] = x[static_cast<std::ptrdiff_t>(c) * nv + r];
}

/// One block of 4 columns on a tree, down and up on its own (D24, D25); rows above
/// `last_row` hold 0.
inline __attribute__((always_inline)) void solve_tree_block(const Model& model, DerivativeData& work, double* x, int g,
                                                            int last_row, bool rows_layout) {
  const std::ptrdiff_t row_stride = rows_layout ? model.nv : 1, column_stride = rows_layout ? 1 : model.nv;
  const int nv = model.nv;
  const ArticulatedAxis* axes = reinterpret_cast<const ArticulatedAxis*>(work.articulated_axes.data());
  BlockRow* rows = reinterpret_cast<BlockRow*>(work.articulated_block.data());
  const int* parent = model.dof_parent.data();
  const Lanes zero = all_lanes(0.0);
  for (int k = 0; k <= last_row; ++k)
    for (int r = 0; r < 6; ++r) rows[k].force[r] = zero;
  for (int k = last_row; k >= 0; --k) {  // eq. (D24)
    const ArticulatedAxis& a = axes[k];
    const BlockColumns columns(x, nv, g, k, row_stride, column_stride);
    Lanes* force = rows[k].force;
    const Lanes scaled =
        (columns.load() - dot(a.axis, force[0], force[1], force[2], force[3], force[4], force[5])) * a.inverse_pivot;
    rows[k].scaled_effort = scaled;
    if (parent[k] != -1) {
      Lanes* up = rows[parent[k]].force;
      for (int r = 0; r < 6; ++r) up[r] += force[r] + a.force[r] * scaled;
    }
  }
  for (int k = 0; k < nv; ++k) {  // eq. (D25)
    const ArticulatedAxis& a = axes[k];
    const BlockColumns columns(x, nv, g, k, row_stride, column_stride);
    Lanes* motion = rows[k].motion;
    const Lanes* above = parent[k] == -1 ? nullptr : rows[parent[k]].motion;
    const Lanes scaled = k <= last_row ? rows[k].scaled_effort : zero;
    if (above == nullptr) {
      for (int r = 0; r < 6; ++r) motion[r] = a.axis[r] * scaled;
      columns.store(scaled);
    } else {
      const Lanes result = scaled - dot(a.scaled_force, above[0], above[1], above[2], above[3], above[4], above[5]);
      for (int r = 0; r < 6; ++r) motion[r] = above[r] + a.axis[r] * result;
      columns.store(result);
    }
  }
}

inline __attribute__((always_inline)) void solve_columns(const Model& model, DerivativeData& work, MatX& matrix,
                                                         SolveLayout layout) {
  if (work.single_path) {
    if (layout == SolveLayout::Identity) solve_path<true, true>(model, work, matrix);
    else if (layout == SolveLayout::Rows) solve_path<true, false>(model, work, matrix);
    else solve_path<false, false>(model, work, matrix);
    return;
  }
  const int nv = model.nv;
  const bool identity = layout == SolveLayout::Identity;
  for (int g = 0; g * kLanes < nv; ++g)
    solve_tree_block(model, work, matrix.data(), g, identity ? std::min(kLanes * g + kLanes, nv) - 1 : nv - 1,
                     layout != SolveLayout::Columns);
}

void solve_columns_baseline(const Model& model, DerivativeData& work, MatX& matrix, SolveLayout layout) {
  solve_columns(model, work, matrix, layout);
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__AVX2__)
#define MECHDYN_AVX2_VARIANT 1
__attribute__((target("avx2,fma"))) void solve_columns_avx2(const Model& model, DerivativeData& work, MatX& matrix,
                                                            SolveLayout layout) {
  solve_columns(model, work, matrix, layout);
}

// Everything to the variant's end compiled for AVX-512 (the lambdas too, which a target
// attribute on the enclosing function does not reach). GCC only: clang (the sanitizer
// builds, scripts/test-sanitizers.sh) does not take `#pragma GCC target` for the inlined
// broadcasts, so it keeps the AVX2 variant.
#if !defined(__clang__)
#define MECHDYN_AVX512_VARIANT 1
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512dq,avx2,fma")
/// Eight numbers side by side (one AVX-512 register): eight right-hand sides of one path,
/// in the storages whose blocks are consecutive numbers (SolveLayout::Rows, Identity).
typedef double Wide __attribute__((vector_size(64), aligned(16), may_alias));
typedef double UnalignedWide __attribute__((vector_size(64), aligned(8), may_alias));
constexpr int kWide = 8;

/// A number of coordinate k's (stored in 4 lanes), in all 8.
inline __attribute__((always_inline)) Wide wide(const Lanes& x) {
  return (Wide)_mm512_set1_pd(x[0]);  // one broadcast from memory
}

/// Eqs. (D24), (D25) on one path as solve_path, 8 right-hand sides a block (Rows or
/// Identity storage: a block is 8 consecutive numbers of a row; the last block's columns past
/// nv − 1 repeat it). Each block's P or A is kept in scratch between visits and in
/// registers through the four rows of a visit.
template <bool Identity>
inline __attribute__((always_inline)) void solve_path_wide(const Model& model, DerivativeData& work, MatX& matrix) {
  const int nv = model.nv;
  const int groups = (nv + kWide - 1) / kWide, whole = nv / kWide;
  const ArticulatedAxis* axes = reinterpret_cast<const ArticulatedAxis*>(work.articulated_axes.data());
  Wide* state = reinterpret_cast<Wide*>(work.articulated_block.data());  // 6 per block: P, then A
  double* x = matrix.data();
  const auto load = [&](int g, int k) __attribute__((always_inline)) {
    const double* row = x + static_cast<std::ptrdiff_t>(k) * nv;
    if (g < whole) return Wide(*reinterpret_cast<const UnalignedWide*>(row + kWide * g));
    Wide out;
    for (int c = 0; c < kWide; ++c) out[c] = row[std::min(kWide * g + c, nv - 1)];
    return out;
  };
  const auto store = [&](int g, int k, const Wide& value) __attribute__((always_inline)) {
    double* row = x + static_cast<std::ptrdiff_t>(k) * nv;
    if (g < whole) {
      *reinterpret_cast<UnalignedWide*>(row + kWide * g) = value;
      return;
    }
    for (int c = 0; c < kWide; ++c) row[std::min(kWide * g + c, nv - 1)] = value[c];
  };
  const auto dot6 = [](const Lanes* a, const Wide* b) __attribute__((always_inline)) {
    return (wide(a[0]) * b[0] + wide(a[1]) * b[1]) + (wide(a[2]) * b[2] + wide(a[3]) * b[3]) +
           (wide(a[4]) * b[4] + wide(a[5]) * b[5]);
  };
  const Wide zero = Wide{} * 0.0;
  constexpr int kRows = 4;  // rows a visit of a block (its P or A loaded and stored once for them)
  for (int i = 0; i < 6 * groups; ++i) state[i] = zero;
  int k = nv - 1;
  const auto backward = [&](int rows) __attribute__((always_inline)) {  // eq. (D24), rows k, …, k − rows + 1
    for (int g = Identity ? (k - rows + 1) / kWide : 0; g < groups; ++g) {
      Wide force[6] = {state[6 * g], state[6 * g + 1], state[6 * g + 2], state[6 * g + 3], state[6 * g + 4], state[6 * g + 5]};
      for (int t = 0; t < rows; ++t) {
        const ArticulatedAxis& a = axes[k - t];
        const Wide scaled = (load(g, k - t) - dot6(a.axis, force)) * wide(a.inverse_pivot);  // w_k
        for (int r = 0; r < 6; ++r) force[r] += wide(a.force[r]) * scaled;                 // P += U_k w_k
        store(g, k - t, scaled);
      }
      for (int r = 0; r < 6; ++r) state[6 * g + r] = force[r];
    }
  };
  for (; k >= kRows - 1; k -= kRows) backward(kRows);
  for (; k >= 0; --k) backward(1);
  for (int i = 0; i < 6 * groups; ++i) state[i] = zero;
  k = 0;
  const auto forward = [&](int rows) __attribute__((always_inline)) {  // eq. (D25), rows k, …, k + rows − 1
    for (int g = Identity ? k / kWide : 0; g < groups; ++g) {
      Wide motion[6] = {state[6 * g], state[6 * g + 1], state[6 * g + 2], state[6 * g + 3], state[6 * g + 4], state[6 * g + 5]};
      for (int t = 0; t < rows; ++t) {
        const ArticulatedAxis& a = axes[k + t];
        const Wide result = load(g, k + t) - dot6(a.scaled_force, motion);  // x_k
        for (int r = 0; r < 6; ++r) motion[r] += wide(a.axis[r]) * result;   // A_k = A_λ + s_k x_k
        store(g, k + t, result);
      }
      for (int r = 0; r < 6; ++r) state[6 * g + r] = motion[r];
    }
  };
  for (; k + kRows <= nv; k += kRows) forward(kRows);
  for (; k < nv; ++k) forward(1);
  if (Identity)  // M⁻¹ is symmetric: the entries left of each row's own column from those right of it
    for (int c = 0; c < nv; ++c)
      for (int r = c + 1; r < nv; ++r) x[static_cast<std::ptrdiff_t>(r) * nv + c] = x[static_cast<std::ptrdiff_t>(c) * nv + r];
}

/// On one path with AVX-512 (8 lanes a register; the tree and the column-major storage keep
/// the AVX2 build's 4 lanes).
__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))) void solve_columns_avx512(const Model& model,
                                                                                      DerivativeData& work,
                                                                                      MatX& matrix,
                                                                                      SolveLayout layout) {
  if (work.single_path && layout == SolveLayout::Identity) solve_path_wide<true>(model, work, matrix);
  else if (work.single_path && layout == SolveLayout::Rows) solve_path_wide<false>(model, work, matrix);
  else solve_columns(model, work, matrix, layout);
}
#pragma GCC pop_options
#endif  // !__clang__ (MECHDYN_AVX512_VARIANT)
#endif

}  // namespace

void axis_rows_times(const double* axis_rows, int nv, const Vec6& x, int count, double* __restrict out) {
  const double x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
  const double *__restrict r0 = axis_rows, *__restrict r1 = r0 + nv, *__restrict r2 = r1 + nv, *__restrict r3 = r2 + nv,
                           *__restrict r4 = r3 + nv, *__restrict r5 = r4 + nv;
  for (int j = 0; j < count; ++j)
    out[j] = ((r0[j] * x0 + r1[j] * x1) + (r2[j] * x2 + r3[j] * x3)) + (r4[j] * x4 + r5[j] * x5);
}

bool articulated_solve_pays(const Model& model) {
  // Per right-hand side: 2 Σ_k depth_k multiply-adds for the factors' two sweeps against
  // 24 nv for the recursion's (12 a coordinate and sweep), but the factors' sweeps run on
  // whole contiguous rows of 3 nv numbers; measured on chains (docs/benchmarks.md: the
  // 10-chain, mean depth 4.5, is faster by the factors, the 20-chain, 9.5, by the
  // recursion) the recursion wins from a mean depth of about 7.
  std::vector<long> depth(static_cast<std::size_t>(model.nv), 0);  // coordinates above k (λ(k) < k)
  long depth_sum = 0;
  for (int k = 0; k < model.nv; ++k) {
    const int parent = model.dof_parent[static_cast<std::size_t>(k)];
    depth[static_cast<std::size_t>(k)] = parent == -1 ? 0 : depth[static_cast<std::size_t>(parent)] + 1;
    depth_sum += depth[static_cast<std::size_t>(k)];
  }
  return model.nv > 0 && 2 * depth_sum >= 14L * model.nv;
}

void articulated_axes(const Model& model, Data& data, DerivativeData& work) {
  const int n = model.num_bodies();
  const double singular_below =
      1e3 * std::numeric_limits<double>::epsilon() * (model.nv > 0 ? data.mass_matrix.diagonal().maxCoeff() : 0.0);
  for (int i = 0; i < n; ++i)  // I_i about the world origin
    work.articulated_inertia[i] =
        SpatialInertia::from_com(model.bodies[i].mass, data.com_position[i], data.inertia_world[i]).matrix();
  ArticulatedAxis* axes = reinterpret_cast<ArticulatedAxis*>(work.articulated_axes.data());
  MatX& factor = data.mass_matrix_factor;
  const double* axis_rows = work.articulated_block.data();  // on a path: S by rows (6 × nv), from the mass matrix's pass
  if (!work.single_path) factor = data.mass_matrix;  // entries outside the ancestor pattern as factor_mass_matrix leaves them
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = model.joints[i];
    Mat6& inertia = work.articulated_inertia[i];
    for (int k = joint.v_index + joint.nv - 1; k >= joint.v_index; --k) {  // eq. (D23)
      const Vec6& axis = data.motion_axis[k];
      const Vec6 force = inertia * axis;      // U_k
      const double pivot = axis.dot(force) + (model.has_armature ? model.armature[k] : 0.0);  // D_k (+ armature)
      if (!(pivot > singular_below) || !std::isfinite(pivot)) {
        factor_mass_matrix(model, data);  // names the coordinate, as every solve with M does
        throw SolverError("mass matrix is not positive definite: articulated pivot " + std::to_string(pivot) +
                          " at velocity coordinate " + std::to_string(k) + " (joint '" + joint.name + "')");
      }
      const Vec6 scaled = force / pivot;
      inertia.noalias() -= force * scaled.transpose();
      ArticulatedAxis& out = axes[k];
      for (int r = 0; r < 6; ++r) {
        out.axis[r] = all_lanes(axis[r]);
        out.force[r] = all_lanes(force[r]);
        out.scaled_force[r] = all_lanes(scaled[r]);
      }
      out.inverse_pivot = all_lanes(1.0 / pivot);
      factor(k, k) = pivot;
      if (work.single_path) {  // L_kj for every j < k: Sᵀ U_k / D_k, S = [s_0 … s_{k−1}] (eq. D23')
        axis_rows_times(axis_rows, model.nv, scaled, k, &factor(0, k));
      } else {
        for (int j = model.dof_parent[k]; j != -1; j = model.dof_parent[j])  // eq. (D23')
          factor(j, k) = factor(k, j) = data.motion_axis[j].dot(scaled);
      }
    }
    const int parent = model.bodies[i].parent;
    if (parent != kGround) work.articulated_inertia[parent] += inertia;
  }
  if (work.single_path)  // L strictly below the diagonal too, as factor_mass_matrix leaves it
    for (int j = 0; j < model.nv; ++j)
      for (int k = j + 1; k < model.nv; ++k) factor(k, j) = factor(j, k);
}

void solve_articulated(const Model& model, DerivativeData& work, double* x) {
  // One vector, lane 0 of the stored numbers; P_k and A_k per coordinate in the block scratch.
  const ArticulatedAxis* axes = reinterpret_cast<const ArticulatedAxis*>(work.articulated_axes.data());
  BlockRow* rows = reinterpret_cast<BlockRow*>(work.articulated_block.data());
  const int* parent = model.dof_parent.data();
  for (int k = 0; k < model.nv; ++k)
    for (int r = 0; r < 6; ++r) rows[k].force[r][0] = 0.0;
  for (int k = model.nv - 1; k >= 0; --k) {  // eq. (D24)
    const ArticulatedAxis& a = axes[k];
    double projected = 0.0;
    for (int r = 0; r < 6; ++r) projected += a.axis[r][0] * rows[k].force[r][0];
    const double scaled = (x[k] - projected) * a.inverse_pivot[0];
    x[k] = scaled;
    if (parent[k] != -1)
      for (int r = 0; r < 6; ++r) rows[parent[k]].force[r][0] += rows[k].force[r][0] + a.force[r][0] * scaled;
  }
  for (int k = 0; k < model.nv; ++k) {  // eq. (D25)
    const ArticulatedAxis& a = axes[k];
    double seen = 0.0;
    if (parent[k] != -1)
      for (int r = 0; r < 6; ++r) seen += a.scaled_force[r][0] * rows[parent[k]].motion[r][0];
    const double result = x[k] - seen;
    x[k] = result;
    for (int r = 0; r < 6; ++r)
      rows[k].motion[r][0] = (parent[k] == -1 ? 0.0 : rows[parent[k]].motion[r][0]) + a.axis[r][0] * result;
  }
}

void solve_articulated(const Model& model, DerivativeData& work, MatX& matrix, SolveLayout layout,
                       SolveVariant variant) {
  static_cast<void>(variant);  // one build only where there is no AVX2 variant
#ifdef MECHDYN_AVX2_VARIANT
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#ifdef MECHDYN_AVX512_VARIANT
  static const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                             __builtin_cpu_supports("avx512dq");
  if (avx512 && variant == SolveVariant::Best) {
    solve_columns_avx512(model, work, matrix, layout);
    return;
  }
#endif
  if (avx2 && variant != SolveVariant::Baseline) {
    solve_columns_avx2(model, work, matrix, layout);
    return;
  }
#endif
  solve_columns_baseline(model, work, matrix, layout);
}

}  // namespace mechdyn::detail
