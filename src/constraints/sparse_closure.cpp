// The constrained system of a closed chain in sparse form (J by rows, M on the ancestor
// pattern, T = M + c JᵀJ and J Jᵀ factorised with fixed patterns). See the header.
#include "mechdyn/constraints/sparse_closure.hpp"

#include <algorithm>
#include <string>

#include "../model/cut_joint_dispatch.hpp"
#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

using Triplet = Eigen::Triplet<double, int>;

// The AMD ordering of a symmetric pattern given by its (i, j) pairs (both triangles):
// new index of every old index.
std::vector<int> minimum_degree_ordering(int size, const std::vector<Triplet>& pairs) {
  std::vector<int> order(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) order[static_cast<std::size_t>(i)] = i;
  if (size == 0) return order;
  detail::SparseMatrixUpper full(size, size);
  full.setFromTriplets(pairs.begin(), pairs.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse;
  Eigen::AMDOrdering<int> amd;
  amd(full, inverse);  // Eigen's orderings return the inverse permutation (SimplicialCholesky.h)
  if (inverse.size() == 0) return order;
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> forward = inverse.inverse();
  for (int i = 0; i < size; ++i) order[static_cast<std::size_t>(i)] = forward.indices()[i];
  return order;
}

// The upper-triangle pattern of (order[i], order[j]) for the pairs, compressed.
void build_upper(int size, const std::vector<Triplet>& pairs, const std::vector<int>& order,
                 detail::SparseMatrixUpper& upper) {
  std::vector<Triplet> permuted;
  permuted.reserve(pairs.size());
  for (const Triplet& p : pairs) {
    const int i = order[static_cast<std::size_t>(p.row())], j = order[static_cast<std::size_t>(p.col())];
    permuted.emplace_back(std::min(i, j), std::max(i, j), 1.0);
  }
  upper.resize(size, size);
  upper.setFromTriplets(permuted.begin(), permuted.end());
  upper.makeCompressed();
}

// Index into upper.valuePtr() of entry (order[i], order[j]) (must be in the pattern).
int value_index(const detail::SparseMatrixUpper& upper, const std::vector<int>& order, int i, int j) {
  int r = order[static_cast<std::size_t>(i)], c = order[static_cast<std::size_t>(j)];
  if (r > c) std::swap(r, c);
  const int* first = upper.innerIndexPtr() + upper.outerIndexPtr()[c];
  const int* last = upper.innerIndexPtr() + upper.outerIndexPtr()[c + 1];
  const int* at = std::lower_bound(first, last, r);
  return static_cast<int>(at - upper.innerIndexPtr());
}

}  // namespace

void detail::PatternLdlt::solve_in_place(Eigen::Ref<VecX> x) const {
  const int n = static_cast<int>(m_matrix.cols());
  const int* start = m_matrix.outerIndexPtr();
  const int* row = m_matrix.innerIndexPtr();
  const double* value = m_matrix.valuePtr();
  for (int j = 0; j < n; ++j)  // L y = x (unit lower, column by column)
    for (int p = start[j]; p < start[j + 1]; ++p) x[row[p]] -= value[p] * x[j];
  for (int j = 0; j < n; ++j) x[j] /= m_diag[j];  // D z = y
  for (int j = n - 1; j >= 0; --j)                 // Lᵀ x = z
    for (int p = start[j]; p < start[j + 1]; ++p) x[j] -= value[p] * x[row[p]];
}

SparseClosureSystem::SparseClosureSystem(const Model& model) : nv_(model.nv), rows_(model.num_loop_rows) {
  const int nv = model.nv;
  // J's rows: the coordinates on the chains ground → a and ground → b of the cut joint.
  std::vector<int> chain(static_cast<std::size_t>(nv), 0);
  row_start_.push_back(0);
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const auto mark = [&](int body, int bit) {
      for (int b = body; b != kGround; b = model.bodies[b].parent) {
        const Joint& joint = model.joints[b];
        for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) chain[static_cast<std::size_t>(k)] |= bit;
      }
    };
    mark(loop.a.body, 1);
    mark(loop.b.body, 2);
    std::vector<int> support;
    for (int k = 0; k < nv; ++k)
      if (chain[static_cast<std::size_t>(k)] != 0) support.push_back(k);
    for (int r = 0; r < loop_rows(loop.type); ++r) {
      for (int k : support) {
        entry_dof_.push_back(k);
        entry_chain_.push_back(chain[static_cast<std::size_t>(k)]);
      }
      row_start_.push_back(static_cast<int>(entry_dof_.size()));
      row_loop_.push_back(static_cast<int>(i));
    }
    for (int k : support) chain[static_cast<std::size_t>(k)] = 0;
  }
  // Couplings: two constant entries per row (chain code 0: jacobian_from_rows keeps them).
  std::vector<std::pair<std::size_t, double>> constants;
  for (std::size_t c = 0; c < model.couplings.size(); ++c) {
    const Coupling& coupling = model.couplings[c];
    const int va = model.joints[static_cast<std::size_t>(coupling.a)].v_index;
    const int vb = model.joints[static_cast<std::size_t>(coupling.b)].v_index;
    const auto [ca, cb] = visit_coupling_kind(coupling.type, [&](auto kind) {  // cut_joint_kinds/gear.hpp
      return std::pair<double, double>{decltype(kind)::coefficient_a(coupling), decltype(kind)::coefficient_b(coupling)};
    });
    for (const auto& [dof, value] : {std::pair<int, double>{std::min(va, vb), va < vb ? ca : cb},
                                     std::pair<int, double>{std::max(va, vb), va < vb ? cb : ca}}) {
      constants.emplace_back(entry_dof_.size(), value);
      entry_dof_.push_back(dof);
      entry_chain_.push_back(0);
    }
    row_start_.push_back(static_cast<int>(entry_dof_.size()));
    row_loop_.push_back(static_cast<int>(model.loops.size() + c));
  }
  jacobian_values_ = VecX::Zero(static_cast<Eigen::Index>(entry_dof_.size()));
  for (const auto& [entry, value] : constants) jacobian_values_[static_cast<Eigen::Index>(entry)] = value;

  // M's ancestor pattern, coordinate by coordinate (Featherstone §6.5, λ = model.dof_parent).
  mass_start_.push_back(0);
  for (int k = 0; k < nv; ++k) {
    for (int j = k; j != -1; j = model.dof_parent[static_cast<std::size_t>(j)]) mass_column_.push_back(j);
    mass_start_.push_back(static_cast<int>(mass_column_.size()));
  }
  mass_values_ = VecX::Zero(static_cast<Eigen::Index>(mass_column_.size()));

  // T = M + c JᵀJ: the union of the two patterns, ordered by AMD.
  std::vector<Triplet> pairs;
  for (int k = 0; k < nv; ++k)
    for (int e = mass_start_[static_cast<std::size_t>(k)]; e < mass_start_[static_cast<std::size_t>(k) + 1]; ++e) {
      pairs.emplace_back(k, mass_column_[static_cast<std::size_t>(e)], 1.0);
      pairs.emplace_back(mass_column_[static_cast<std::size_t>(e)], k, 1.0);
    }
  for (Eigen::Index r = 0; r < rows_; ++r)
    for (int a = row_start_[static_cast<std::size_t>(r)]; a < row_start_[static_cast<std::size_t>(r) + 1]; ++a)
      for (int b = a; b < row_start_[static_cast<std::size_t>(r) + 1]; ++b) {
        pairs.emplace_back(entry_dof_[static_cast<std::size_t>(a)], entry_dof_[static_cast<std::size_t>(b)], 1.0);
        pairs.emplace_back(entry_dof_[static_cast<std::size_t>(b)], entry_dof_[static_cast<std::size_t>(a)], 1.0);
      }
  permutation_ = minimum_degree_ordering(nv, pairs);
  build_upper(nv, pairs, permutation_, augmented_);
  for (int k = 0; k < nv; ++k)
    for (int e = mass_start_[static_cast<std::size_t>(k)]; e < mass_start_[static_cast<std::size_t>(k) + 1]; ++e)
      augmented_mass_index_.push_back(value_index(augmented_, permutation_, k, mass_column_[static_cast<std::size_t>(e)]));
  augmented_pair_start_.push_back(0);
  for (Eigen::Index r = 0; r < rows_; ++r) {
    for (int a = row_start_[static_cast<std::size_t>(r)]; a < row_start_[static_cast<std::size_t>(r) + 1]; ++a)
      for (int b = a; b < row_start_[static_cast<std::size_t>(r) + 1]; ++b)
        augmented_pair_index_.push_back(value_index(augmented_, permutation_, entry_dof_[static_cast<std::size_t>(a)],
                                                    entry_dof_[static_cast<std::size_t>(b)]));
    augmented_pair_start_.push_back(static_cast<int>(augmented_pair_index_.size()));
  }
  if (nv > 0) augmented_factor_.analyze(augmented_);
  permuted_ = VecX::Zero(nv);
  pivots_ = VecX::Zero(rows_);

  // J Jᵀ: rows r1, r2 meet at every coordinate both touch.
  std::vector<std::vector<int>> entries_at(static_cast<std::size_t>(nv));
  for (std::size_t e = 0; e < entry_dof_.size(); ++e) entries_at[static_cast<std::size_t>(entry_dof_[e])].push_back(static_cast<int>(e));
  std::vector<int> entry_row(entry_dof_.size());
  for (Eigen::Index r = 0; r < rows_; ++r)
    for (int e = row_start_[static_cast<std::size_t>(r)]; e < row_start_[static_cast<std::size_t>(r) + 1]; ++e)
      entry_row[static_cast<std::size_t>(e)] = static_cast<int>(r);
  std::vector<Triplet> gram_pairs;
  for (Eigen::Index r = 0; r < rows_; ++r) gram_pairs.emplace_back(static_cast<int>(r), static_cast<int>(r), 1.0);
  for (const auto& list : entries_at)
    for (int a : list)
      for (int b : list) {
        const int ra = entry_row[static_cast<std::size_t>(a)], rb = entry_row[static_cast<std::size_t>(b)];
        if (ra <= rb) {
          gram_pairs.emplace_back(ra, rb, 1.0);
          gram_pairs.emplace_back(rb, ra, 1.0);
        }
      }
  const std::vector<int> gram_order = minimum_degree_ordering(static_cast<int>(rows_), gram_pairs);
  build_upper(static_cast<int>(rows_), gram_pairs, gram_order, gram_);
  for (const auto& list : entries_at)
    for (int a : list)
      for (int b : list) {
        const int ra = entry_row[static_cast<std::size_t>(a)], rb = entry_row[static_cast<std::size_t>(b)];
        if (ra < rb || (ra == rb && a <= b)) {  // each product J(ra,k) J(rb,k) once per unordered row pair
          if (ra == rb && a != b) continue;        // same row, different coordinate: not a product of one column
          gram_entry_a_.push_back(a);
          gram_entry_b_.push_back(b);
          gram_index_.push_back(value_index(gram_, gram_order, ra, rb));
        }
      }
  for (Eigen::Index r = 0; r < rows_; ++r)
    gram_diagonal_index_.push_back(value_index(gram_, gram_order, static_cast<int>(r), static_cast<int>(r)));
  if (rows_ > 0) gram_factor_.analyze(gram_);  // no loops: nothing to screen
}

void SparseClosureSystem::jacobian_from_rows(const Data& data) {
  for (Eigen::Index r = 0; r < rows_; ++r) {
    const Vec6& wa = data.loop_row_wrench_a[static_cast<std::size_t>(r)];
    const Vec6& wb = data.loop_row_wrench_b[static_cast<std::size_t>(r)];
    for (int e = row_start_[static_cast<std::size_t>(r)]; e < row_start_[static_cast<std::size_t>(r) + 1]; ++e) {
      const Vec6& s = data.motion_axis[static_cast<std::size_t>(entry_dof_[static_cast<std::size_t>(e)])];
      const int chain = entry_chain_[static_cast<std::size_t>(e)];
      if (chain == 0) continue;  // a coupling's constant entry
      double value = 0.0;  // EC eq. (24): s_kᵀ W_a on chain a, s_kᵀ W_b on chain b
      if (chain & 1) value += s.dot(wa);
      if (chain & 2) value += s.dot(wb);
      jacobian_values_[e] = value;
    }
  }
}

void SparseClosureSystem::mass_matrix_from_stage(const Model& model, Data& data) {
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[static_cast<std::size_t>(i)];
    data.composite_inertia[static_cast<std::size_t>(i)] = SpatialInertia::from_com(
        body.mass, data.com_position[static_cast<std::size_t>(i)], data.inertia_world[static_cast<std::size_t>(i)]);
  }
  for (int i = n - 1; i >= 0; --i) {  // Featherstone Table 6.2 in world coordinates (crba.cpp)
    const int parent = model.bodies[static_cast<std::size_t>(i)].parent;
    if (parent != kGround)
      data.composite_inertia[static_cast<std::size_t>(parent)] += data.composite_inertia[static_cast<std::size_t>(i)];
    const Joint& joint = model.joints[static_cast<std::size_t>(i)];
    for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
      const Vec6 force = data.composite_inertia[static_cast<std::size_t>(i)].apply(data.motion_axis[static_cast<std::size_t>(k)]);
      for (int e = mass_start_[static_cast<std::size_t>(k)]; e < mass_start_[static_cast<std::size_t>(k) + 1]; ++e)
        mass_values_[e] = data.motion_axis[static_cast<std::size_t>(mass_column_[static_cast<std::size_t>(e)])].dot(force);  // M_kj = S_jᵀ I^c_i S_k
      if (model.has_armature)  // + the drive's reflected inertia on the diagonal entry M_kk
        for (int e = mass_start_[static_cast<std::size_t>(k)]; e < mass_start_[static_cast<std::size_t>(k) + 1]; ++e)
          if (mass_column_[static_cast<std::size_t>(e)] == k) mass_values_[e] += model.armature[k];
    }
  }
}

void SparseClosureSystem::jacobian_product(const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> y) const {
  for (Eigen::Index r = 0; r < rows_; ++r) {
    double sum = 0.0;
    for (int e = row_start_[static_cast<std::size_t>(r)]; e < row_start_[static_cast<std::size_t>(r) + 1]; ++e)
      sum += jacobian_values_[e] * x[entry_dof_[static_cast<std::size_t>(e)]];
    y[r] = sum;
  }
}

void SparseClosureSystem::add_jacobian_transpose_product(const Eigen::Ref<const VecX>& y, double scale,
                                                         Eigen::Ref<VecX> x) const {
  for (Eigen::Index r = 0; r < rows_; ++r) {
    const double s = scale * y[r];
    if (s == 0.0) continue;
    for (int e = row_start_[static_cast<std::size_t>(r)]; e < row_start_[static_cast<std::size_t>(r) + 1]; ++e)
      x[entry_dof_[static_cast<std::size_t>(e)]] += s * jacobian_values_[e];
  }
}

void SparseClosureSystem::mass_product(const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> y) const {
  y.setZero();
  for (Eigen::Index k = 0; k < nv_; ++k)
    for (int e = mass_start_[static_cast<std::size_t>(k)]; e < mass_start_[static_cast<std::size_t>(k) + 1]; ++e) {
      const int j = mass_column_[static_cast<std::size_t>(e)];
      const double m = mass_values_[e];
      y[k] += m * x[j];
      if (j != k) y[j] += m * x[k];
    }
}

double SparseClosureSystem::max_mass_diagonal() const {
  double best = 0.0;
  for (Eigen::Index k = 0; k < nv_; ++k) best = std::max(best, mass_values_[mass_start_[static_cast<std::size_t>(k)]]);
  return best;
}

double SparseClosureSystem::max_jacobian_column_norm2() const {
  permuted_.setZero();  // scratch: (JᵀJ)_kk per coordinate
  for (std::size_t e = 0; e < entry_dof_.size(); ++e)
    permuted_[entry_dof_[e]] += jacobian_values_[static_cast<Eigen::Index>(e)] * jacobian_values_[static_cast<Eigen::Index>(e)];
  return nv_ > 0 ? permuted_.maxCoeff() : 0.0;
}

void SparseClosureSystem::factor_augmented(double c) {
  double* value = augmented_.valuePtr();
  std::fill(value, value + augmented_.nonZeros(), 0.0);
  for (std::size_t e = 0; e < augmented_mass_index_.size(); ++e)
    value[augmented_mass_index_[e]] += mass_values_[static_cast<Eigen::Index>(e)];  // M
  for (Eigen::Index r = 0; r < rows_; ++r) {  // + c Σ_r J_rᵀ J_r
    int pair = augmented_pair_start_[static_cast<std::size_t>(r)];
    const int first = row_start_[static_cast<std::size_t>(r)], last = row_start_[static_cast<std::size_t>(r) + 1];
    for (int a = first; a < last; ++a) {
      const double ja = c * jacobian_values_[a];
      for (int b = a; b < last; ++b) value[augmented_pair_index_[static_cast<std::size_t>(pair++)]] += ja * jacobian_values_[b];
    }
  }
  augmented_factor_.refactor(augmented_);
  if (augmented_factor_.info() != Eigen::Success || !(augmented_factor_.diagonal().minCoeff() > 0.0))
    throw SolverError("augmented constrained system M + c JᵀJ is not positive definite (a body without mass or "
                      "inertia on a free direction, or a non-finite state)");
}

void SparseClosureSystem::scatter_permuted(const Eigen::Ref<const VecX>& x) const {
  for (Eigen::Index k = 0; k < nv_; ++k) permuted_[permutation_[static_cast<std::size_t>(k)]] = x[k];
}

void SparseClosureSystem::solve_augmented(Eigen::Ref<VecX> x) const {
  scatter_permuted(x);
  augmented_factor_.solve_in_place(permuted_);
  for (Eigen::Index k = 0; k < nv_; ++k) x[k] = permuted_[permutation_[static_cast<std::size_t>(k)]];
}

double SparseClosureSystem::gram_pivot_ratio() {
  if (rows_ == 0) return 1.0;
  double* value = gram_.valuePtr();
  std::fill(value, value + gram_.nonZeros(), 0.0);
  for (std::size_t t = 0; t < gram_index_.size(); ++t)
    value[gram_index_[t]] += jacobian_values_[gram_entry_a_[t]] * jacobian_values_[gram_entry_b_[t]];
  double largest = 0.0;
  for (int d : gram_diagonal_index_) largest = std::max(largest, value[d]);
  if (!(largest > 0.0)) return 0.0;
  for (int d : gram_diagonal_index_) value[d] += 1e-14 * largest;  // ε I: a redundant row gives a pivot ≈ ε, not 0
  gram_factor_.refactor(gram_);
  if (gram_factor_.info() != Eigen::Success) return 0.0;
  const VecX& pivots = gram_factor_.diagonal();
  return pivots.minCoeff() / pivots.maxCoeff();
}

double SparseClosureSystem::gram_pivot_ratio_skipping(int skip) const {
  if (rows_ == 0) return 1.0;
  const VecX& pivots = gram_factor_.diagonal();
  pivots_ = pivots;
  const int k = std::min(std::max(skip, 0), static_cast<int>(rows_) - 1);
  std::nth_element(pivots_.data(), pivots_.data() + k, pivots_.data() + rows_);
  const double largest = pivots.maxCoeff();
  return largest > 0.0 ? pivots_[k] / largest : 0.0;
}

int SparseClosureSystem::gram_small_pivots(double relative) const {
  if (rows_ == 0) return 0;
  const VecX& pivots = gram_factor_.diagonal();
  const double threshold = relative * pivots.maxCoeff();
  return static_cast<int>((pivots.array() <= threshold).count());
}

}  // namespace mechdyn
