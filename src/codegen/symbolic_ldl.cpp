// Symbolic branch-sparse factorisation M = Lᵀ D L and solve, for `mechdyn codegen`
// (symbolic_dynamics.hpp).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §6.5, Table 6.3 (LTDL)
// and its back-substitution, as dynamics/sparse_cholesky.cpp runs it, with the expanded
// parent array λ = model.dof_parent. Row k of M is non-zero only in the columns of k's
// ancestors, so the factor has M's pattern and the loops below visit only those entries;
// unrolled by the generator, entries of different branches are never touched:
//   for k = nv−1 … 0, for i = λ(k), λ(λ(k)), …:
//     a = H_ki / H_kk;  H_ij −= H_kj a  (j = i, λ(i), …);  H_ki = a
//   Lᵀ y = b (descendants first);  z = D⁻¹ y;  L x = z (ancestors first)
// Each pivot's reciprocal is formed once (one division per coordinate).
// Cost: O(Σ_k depth_k²) graph nodes for the factor, O(Σ_k depth_k) for a solve.
// Reads: the model's λ. Writes: graph nodes.
#include <string>

#include "symbolic_dynamics.hpp"

namespace mechdyn::codegen {

SymbolicFactor symbolic_factor(const Model& model, const std::vector<Expr>& mass_matrix) {
  const int nv = model.nv;
  const std::vector<int>& parent = model.dof_parent;
  SymbolicFactor out;
  out.factor = mass_matrix;
  out.inverse_pivot.resize(static_cast<std::size_t>(nv));
  out.pivot.resize(static_cast<std::size_t>(nv));
  auto h = [&](int row, int column) -> Expr& {
    return out.factor[static_cast<std::size_t>(row) * static_cast<std::size_t>(nv) + static_cast<std::size_t>(column)];
  };
  for (int k = nv - 1; k >= 0; --k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    out.pivot[kk] = named(h(k, k), "D_" + std::to_string(k));
    if (out.pivot[kk].is_constant() && !(current_graph().node(out.pivot[kk].id).value > 0.0)) {
      out.structurally_singular = k;  // no factor exists at any q
      return out;
    }
    out.inverse_pivot[kk] = named(1.0 / out.pivot[kk], "inverse_D_" + std::to_string(k));
    for (int i = parent[static_cast<std::size_t>(k)]; i != -1; i = parent[static_cast<std::size_t>(i)]) {
      const Expr a = named(h(k, i) * out.inverse_pivot[kk], "L_" + std::to_string(k) + "_" + std::to_string(i));
      for (int j = i; j != -1; j = parent[static_cast<std::size_t>(j)]) {
        h(i, j) = h(i, j) - h(k, j) * a;  // H_ij −= H_kj a (lower triangle, j ≤ i)
        h(j, i) = h(i, j);
      }
      h(k, i) = a;
    }
  }
  return out;
}

std::vector<Expr> symbolic_solve(const Model& model, const SymbolicFactor& factor, std::vector<Expr> x) {
  const int nv = model.nv;
  const std::vector<int>& parent = model.dof_parent;
  auto l = [&](int row, int column) {
    return factor.factor[static_cast<std::size_t>(row) * static_cast<std::size_t>(nv) + static_cast<std::size_t>(column)];
  };
  for (int i = nv - 1; i >= 0; --i)  // Lᵀ y = b
    for (int j = parent[static_cast<std::size_t>(i)]; j != -1; j = parent[static_cast<std::size_t>(j)])
      x[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>(j)] - l(i, j) * x[static_cast<std::size_t>(i)];
  for (int i = 0; i < nv; ++i)  // D z = y
    x[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)] * factor.inverse_pivot[static_cast<std::size_t>(i)];
  for (int i = 0; i < nv; ++i)  // L x = z
    for (int j = parent[static_cast<std::size_t>(i)]; j != -1; j = parent[static_cast<std::size_t>(j)])
      x[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)] - l(i, j) * x[static_cast<std::size_t>(j)];
  return x;
}

}  // namespace mechdyn::codegen
