// Operation counts of the explicit joint-space inertia matrix against the claim of
// explicit-jsim-tree-chains (EJ) §6, Table 1 and Fig. 3, for serial chains of
// n = 1 … 50 revolute joints (EJ's worst case), beside measured time.
//
// EJ §6 counts the literal evaluation of eqs. (30)–(37) over the lower triangle:
//   multiplications 3.5n³ + 16n² + 12.5n,   additions 3.5n³ + 10n² + 6.5n,
// with EJ's unit costs: 3x3 matrix · vector 9 mul 6 add, skew · vector (cross
// product) 6 mul 3 add, skew · skew 12 mul 3 add. Counted here with the same unit
// costs, from the loop structure of mechdyn's two implementations (kinematics
// excluded, as in EJ: "only the computational complexity of calculating inertia
// matrix"):
//   literal (explicit_mass_matrix_direct): for every lower-triangle element (u, k)
//     and every l ∈ uL, eq. (30) as written there, projected per body:
//       r_u = c_l − o_u, r_k = c_l − o_k          6 add
//       J_l n_k                                     9 mul 6 add
//       r̃_u (r̃_k n_k), scaled by m_l               12 + 3 mul, 6 add
//       difference, n_uᵀ ·, accumulate              3 mul, 3 + 2 + 1 add
//     = 27 mul, 24 add per (u, k, l); there are (n³ + 3n² + 2n)/6 such triples.
//   aggregated (explicit_mass_matrix): per body the spatial inertia about the world
//     origin (m c: 3 mul; J − m c̃c̃: 12 + 9 mul, 9 add), per non-root body its
//     addition into the parent (13 add), per coordinate S_u s_i (24 mul, 18 add), per
//     lower-triangle element one 6-vector dot product (6 mul, 5 add).
// Times are the public functions (kinematics included): the fastest of 9 batches of
// at least 2 ms each (a minimum, because on a shared machine load only adds time).
// A second table counts the operations of the code `mechdyn codegen` writes for the
// same chains (M, inverse and forward dynamics; kinematics included).
// Usage: mechdyn_op_count [max_n]   (default 50); prints two markdown tables.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "bench_models.hpp"
#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "random_model.hpp"

namespace {

struct Count {
  double multiplications = 0.0;
  double additions = 0.0;
};

Count paper(double n) {  // EJ §6, Table 1, "the proposed method", total
  return {3.5 * n * n * n + 16.0 * n * n + 12.5 * n, 3.5 * n * n * n + 10.0 * n * n + 6.5 * n};
}

Count literal(double n) {  // mechdyn's explicit_mass_matrix_direct, serial chain of n
  const double triples = (n * n * n + 3.0 * n * n + 2.0 * n) / 6.0;
  return {27.0 * triples, 24.0 * triples};
}

Count aggregated(double n) {  // mechdyn's explicit_mass_matrix, serial chain of n
  const double elements = n * (n + 1.0) / 2.0;
  return {24.0 * n + 24.0 * n + 6.0 * elements, 9.0 * n + 13.0 * (n - 1.0) + 18.0 * n + 5.0 * elements};
}

/// The fastest of 9 batches, in ns per call of `run` (each call on the next state).
template <typename Run>
double fastest_ns(const std::vector<mechdyn::VecX>& pool, Run run) {
  using clock = std::chrono::steady_clock;
  int calls = 1;
  for (;;) {  // calls per batch: at least ~2 ms
    const auto start = clock::now();
    for (int c = 0; c < calls; ++c) run(pool[static_cast<std::size_t>(c) % pool.size()]);
    if (clock::now() - start > std::chrono::milliseconds(2)) break;
    calls *= 2;
  }
  double fastest = std::numeric_limits<double>::infinity();
  for (int b = 0; b < 9; ++b) {
    const auto start = clock::now();
    for (int c = 0; c < calls; ++c) run(pool[static_cast<std::size_t>(c) % pool.size()]);
    fastest = std::min(fastest, std::chrono::duration<double, std::nano>(clock::now() - start).count() / calls);
  }
  return fastest;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mechdyn;
  const int max_n = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
  std::printf("| n | EJ §6 mul | EJ §6 add | literal mul | literal add | aggregated mul | aggregated add | "
              "literal ns | aggregated ns | crba ns | aggregated/crba |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  double worst_ratio = 0.0;
  for (int n = 1; n <= max_n; ++n) {
    const Model model = bench::serial_chain(n);
    Data data(model);
    std::mt19937 rng(static_cast<unsigned>(n));
    std::vector<VecX> pool;
    for (int s = 0; s < 64; ++s) pool.push_back(testing::random_configuration(model, rng));
    double sink = 0.0;
    const double direct_ns = fastest_ns(pool, [&](const VecX& q) { sink += explicit_mass_matrix_direct(model, data, q)(0, 0); });
    const double aggregated_ns = fastest_ns(pool, [&](const VecX& q) { sink += explicit_mass_matrix(model, data, q)(0, 0); });
    const double crba_ns = fastest_ns(pool, [&](const VecX& q) { sink += crba(model, data, q)(0, 0); });
    if (sink == 0.12345) std::printf("\n");  // keeps the calls observable
    const Count p = paper(n), l = literal(n), a = aggregated(n);
    worst_ratio = std::max(worst_ratio, aggregated_ns / crba_ns);
    std::printf("| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f |\n", n, p.multiplications,
                p.additions, l.multiplications, l.additions, a.multiplications, a.additions, direct_ns, aggregated_ns,
                crba_ns, aggregated_ns / crba_ns);
  }
  std::printf("\nworst explicit_mass_matrix / crba over n = 1..%d: %.2f (target ≤ 1.5)\n", max_n, worst_ratio);

  // The code `mechdyn codegen` writes for the same chains (docs/codegen.md): operations
  // counted in the generated text, kinematics (sin, cos, rotations) included, unlike EJ's.
  std::printf("\n| n | EJ §6 mul | EJ §6 add | generated M mul | generated M add | sin + cos | "
              "generated inverse dynamics mul | add | generated forward dynamics mul | add | div |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const int n : {1, 2, 5, 7, 10, 20, 50}) {
    if (n > max_n) break;
    const GeneratedCode code = generate_code(bench::serial_chain(n));
    const CodegenCounts &m = code.functions[0].counts, &id = code.functions[2].counts, &fd = code.functions[3].counts;
    const Count p = paper(n);
    std::printf("| %d | %.0f | %.0f | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", n, p.multiplications, p.additions,
                m.multiplications, m.additions, m.sines + m.cosines, id.multiplications, id.additions,
                fd.multiplications, fd.additions, fd.divisions);
  }
  return 0;
}
