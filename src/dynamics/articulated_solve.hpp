// Private to src/dynamics: M⁻¹ applied to many right-hand sides by the articulated-body
// recursion, O(n) per right-hand side (src/dynamics/articulated_solve.cpp), for
// aba_derivatives (src/dynamics/aba_derivatives.cpp). Not installed.
#pragma once

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn::detail {

/// Whether aba_derivatives solves with the articulated-body recursion (O(nv) per right-hand
/// side) rather than the triangular factors (O(Σ depth) per right-hand side): when the
/// coordinates' mean depth makes the factors' sweeps the longer (docs/derivatives.md, "Cost").
bool articulated_solve_pays(const Model& model);

/// The articulated-body inertias seen by every axis and their U_k, D_k (eq. D23) into
/// work.articulated_axes, and M = Lᵀ D L from them into data.mass_matrix_factor (eq. D23').
/// Reads data.mass_matrix (the singular threshold), the stage's centres of mass, world
/// inertias and axes, and on one path (work.single_path) the axes by rows (6 × nv) that
/// aba_derivatives' mass-matrix pass leaves at the start of work.articulated_block. Throws
/// SolverError naming the coordinate when M is singular.
void articulated_axes(const Model& model, Data& data, DerivativeData& work);

/// out[j] = s_jᵀ x for j < count, from the axes by rows (`axis_rows`: 6 × nv, row r holding
/// component r of every s_j): a column of M or of L on one path.
void axis_rows_times(const double* axis_rows, int nv, const Vec6& x, int count, double* out);

/// x = M⁻¹ x in place for one vector (eqs. D24–D25).
void solve_articulated(const Model& model, DerivativeData& work, double* x);

/// How the nv × nv right-hand sides X are stored: Columns, column-major; Rows, as Xᵀ (row k
/// of X contiguous: 4 right-hand sides in one load); Identity, X = 1 (and M⁻¹ comes out
/// symmetric, so either way), whose rows below a column's own index are 0 and skipped.
enum class SolveLayout { Columns, Rows, Identity };

/// Which build of the sweeps runs: the best the machine has (x86-64 with AVX-512: 8
/// right-hand sides a register on one path; with AVX2 and FMA: 4), the AVX2 one (where the
/// machine has it, else the baseline's), or the baseline's (what every other machine runs);
/// chosen by the test that they agree.
enum class SolveVariant { Best, Avx2, Baseline };

/// X = M⁻¹ X in place for the nv columns of X (eqs. D24–D25), after articulated_axes.
void solve_articulated(const Model& model, DerivativeData& work, MatX& matrix, SolveLayout layout,
                       SolveVariant variant = SolveVariant::Best);

}  // namespace mechdyn::detail
