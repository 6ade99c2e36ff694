// Branch-sparse factorisation M = Lᵀ D L of the joint-space inertia matrix and its solve.
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008) §6.5, Table 6.3
// (LTDL factorisation) and §6.5 back-substitution (x = L⁻¹ D⁻¹ L⁻ᵀ b), with the
// expanded parent array λ = model.dof_parent. Because row k of M has non-zeros only in
// the columns of k's ancestors, M_ij (i, j ancestors of k) is the only fill-in, so the
// pattern of L equals the pattern of M's lower triangle. Cost O(Σ_k depth_k²) for the
// factor, O(Σ_k depth_k) for a solve.
//
// The factorisation works on the upper triangle (M is symmetric, data.hpp) so that its
// inner loops run down columns, contiguous in column-major storage; L is then
// mirrored below the diagonal.
// Reads: data.mass_matrix (both triangles: symmetric), model.dof_parent. Writes:
// data.mass_matrix_factor (D on the diagonal, L strictly below, unit diagonal implied,
// and Lᵀ strictly above, which the solve reads; entries outside the ancestor pattern
// are left as copied from M and never read).
// Allocates nothing, except data.mass_matrix_factor itself on the first factorisation in
// a Data made without DenseWorkspace::MassMatrixFactor (model/data.hpp); the public forms
// refuse a Data that holds no M (or no factor) with InvalidArgument.
#include "mechdyn/dynamics/sparse_cholesky.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "mechdyn/errors.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

void detail::factor_mass_matrix(const Model& model, Data& data) {
  data.reserve(model, DenseWorkspace::MassMatrixFactor);  // allocates only in a Data made without it
  MatX& h = data.mass_matrix_factor;
  h = data.mass_matrix;  // same size: no allocation
  const std::vector<int>& parent = model.dof_parent;
  // Singular to working precision: a pivot at round-off level of M's largest diagonal
  // entry (the same kind of threshold as ABA's D = Sᵀ I^A S). A body with zero inertia
  // about its own joint axis (EJ Table 3's rocker links) lands here.
  const double singular_below =
      1e3 * std::numeric_limits<double>::epsilon() * (model.nv > 0 ? data.mass_matrix.diagonal().maxCoeff() : 0.0);
  for (int k = model.nv - 1; k >= 0; --k) {
    const double pivot = h(k, k);
    if (!(pivot > singular_below) || !std::isfinite(pivot)) {
      const int body = model.dof_body[k];
      const Joint& joint = model.joints[body];
      throw SolverError("mass matrix is not positive definite: pivot " + std::to_string(pivot) +
                        " at velocity coordinate " + std::to_string(k) + " (coordinate " +
                        std::to_string(k - joint.v_index) + " of joint '" + joint.name + "', body '" +
                        model.bodies[body].name + "')");
    }
    // Table 6.3 on the upper triangle (H_ji for H_ij, M being symmetric): the inner
    // loop then walks down columns i and k, contiguous in column-major storage
    // wherever λ(j) = j − 1 (every chain), instead of striding across rows.
    // H_ij −= H_kj a for j = i, λ(i), … is taken in runs of consecutive indices
    // (λ(t) = t − 1, every chain), each a plain loop the compiler vectorises. The run
    // holding i is found once per run of i's, not once per i.
    int run_start = -1;  // first index of the run that holds i
    for (int i = parent[k]; i != -1; i = parent[i]) {
      const double a = h(i, k) / pivot;
      double* column_i = &h(0, i);
      const double* column_k = &h(0, k);
      if (run_start < 0 || i < run_start) {
        run_start = i;
        while (run_start > 0 && parent[run_start] == run_start - 1) --run_start;
      }
      for (int t = run_start; t <= i; ++t) column_i[t] -= column_k[t] * a;  // H_ij −= H_kj a
      for (int j = parent[run_start]; j != -1;) {                             // the runs above
        int start = j;
        while (start > 0 && parent[start] == start - 1) --start;
        for (int t = start; t <= j; ++t) column_i[t] -= column_k[t] * a;
        j = parent[start];
      }
      h(i, k) = a;  // L_ki (upper copy)
    }
  }
  // L strictly below the diagonal, as documented (the solve reads the upper copy).
  for (int k = 0; k < model.nv; ++k)
    for (int i = parent[k]; i != -1; i = parent[i]) h(k, i) = h(i, k);
}

void detail::add_mass_matrix_product(const Model& model, const Data& data, const double* a, double* out) {
  // M(j, i), j above i, is read from the upper triangle: column i, contiguous.
  const MatX& mass_matrix = data.mass_matrix;
  for (int i = 0; i < model.nv; ++i) {
    out[i] += mass_matrix(i, i) * a[i];
    for (int j = model.dof_parent[i]; j != -1; j = model.dof_parent[j]) {
      out[i] += mass_matrix(j, i) * a[j];
      out[j] += mass_matrix(j, i) * a[i];
    }
  }
}

void detail::solve_mass_matrix(const Model& model, const Data& data, double* x) {
  const MatX& l = data.mass_matrix_factor;
  const std::vector<int>& parent = model.dof_parent;
  // L_ij is read as its upper copy l(j, i): down column i, contiguous.
  // Lᵀ y = b (descendants first).
  for (int i = model.nv - 1; i >= 0; --i) {
    const double xi = x[i];
    for (int j = parent[i]; j != -1; j = parent[j]) x[j] -= l(j, i) * xi;
  }
  // D z = y.
  for (int i = 0; i < model.nv; ++i) x[i] /= l(i, i);
  // L x = z (ancestors first).
  for (int i = 0; i < model.nv; ++i) {
    double xi = x[i];
    for (int j = parent[i]; j != -1; j = parent[j]) xi -= l(j, i) * x[j];
    x[i] = xi;
  }
}

void add_mass_matrix_product(const Model& model, const Data& data, const Eigen::Ref<const VecX>& a,
                             Eigen::Ref<VecX> out) {
  check_data(model, data, "add_mass_matrix_product");
  check_holds(model, data, DenseWorkspace::MassMatrix, "add_mass_matrix_product", "M", "crba or explicit_mass_matrix");
  check_vector(a, model.nv, "a");
  if (out.size() != model.nv)
    throw InvalidArgument("add_mass_matrix_product: out has " + std::to_string(out.size()) +
                          " numbers, the model needs " + std::to_string(model.nv));
  if (out.innerStride() != 1) throw InvalidArgument("add_mass_matrix_product: out must be contiguous");
  detail::add_mass_matrix_product(model, data, a.data(), out.data());
}

void factor_mass_matrix(const Model& model, Data& data) {
  check_data(model, data, "factor_mass_matrix");
  check_holds(model, data, DenseWorkspace::MassMatrix, "factor_mass_matrix", "M", "crba or explicit_mass_matrix");
  detail::factor_mass_matrix(model, data);
}

void solve_mass_matrix(const Model& model, const Data& data, Eigen::Ref<VecX> x) {
  check_data(model, data, "solve_mass_matrix");
  if (x.size() != model.nv)
    throw InvalidArgument("right-hand side has " + std::to_string(x.size()) + " numbers, the model needs " +
                          std::to_string(model.nv));
  if (x.innerStride() != 1) throw InvalidArgument("solve_mass_matrix: the right-hand side must be contiguous");
  check_holds(model, data, DenseWorkspace::MassMatrixFactor, "solve_mass_matrix", "factor of M", "factor_mass_matrix");
  detail::solve_mass_matrix(model, data, x.data());
}

}  // namespace mechdyn
