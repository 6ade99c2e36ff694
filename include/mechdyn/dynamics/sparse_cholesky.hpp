// Branch-sparse factorisation M = Lᵀ D L of the joint-space inertia matrix.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.5 (LTDL with the
// expanded parent array λ, model.dof_parent): fill-in never leaves the tree's
// ancestor pattern, so branches cost nothing. Cost O(Σ depth²).
//
// factor_mass_matrix reads data.mass_matrix and model.dof_parent and writes
// data.mass_matrix_factor (L, D); solve_mass_matrix reads data.mass_matrix_factor and
// overwrites its argument; add_mass_matrix_product reads data.mass_matrix. Allocates nothing.
#pragma once

#include "mechdyn/model/data.hpp"

namespace mechdyn {

/// out += M a with the ancestor pattern of data.mass_matrix (M_ij ≠ 0 only when one of
/// i, j is an ancestor of the other): O(Σ depth) products instead of nv². Reads
/// data.mass_matrix (its upper triangle). No allocation.
void add_mass_matrix_product(const Model& model, const Data& data, const Eigen::Ref<const VecX>& a,
                             Eigen::Ref<VecX> out);

/// Factors data.mass_matrix (symmetric, both triangles filled, as every mass-matrix
/// algorithm leaves it) into data.mass_matrix_factor. Throws SolverError naming
/// the velocity coordinate when M is not positive definite. No allocation.
void factor_mass_matrix(const Model& model, Data& data);

/// Solves M x = b in place with the factor (x holds b on entry). No allocation.
void solve_mass_matrix(const Model& model, const Data& data, Eigen::Ref<VecX> x);

}  // namespace mechdyn
