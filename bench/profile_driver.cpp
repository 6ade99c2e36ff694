// The driver behind the instruction counts of docs/benchmarks.md ("Profile"): runs one
// algorithm `iterations` times on one seeded random state of a benchmark model, so that
// `valgrind --tool=callgrind` counts its instructions. The per-call count is
//   (Ir(iterations = N) − Ir(iterations = 0)) / N
// which removes start-up, model building and the state (scripts/profile.sh does this).
// Only public API, so that the same file measures any commit.
//
// Usage: mechdyn_profile <model> <algorithm> <iterations>
//   model:     five_axis_tree | panda_like_arm | branched_tree_30 | serial_chain_<n>
//   algorithm: rnea | crba | aba | joint_reactions | explicit_inverse_dynamics |
//              explicit_forward_dynamics | explicit_inverse_dynamics_mass_matrix |
//              explicit_forward_dynamics_mass_matrix | eval_sequence | eval_terms |
//              eval_terms_recursive | rnea_derivatives | aba_derivatives |
//              rnea_finite_difference | aba_finite_difference
//     explicit_*: what the commit's public function is (before e8e12bc both were the
//       M-based forms, which later commits keep as explicit_*_mass_matrix, available where
//       the header defines MECHDYN_HAS_EXPLICIT_MASS_MATRIX_FORMS).
//     *_derivatives, *_finite_difference: where the commit has dynamics/rnea_derivatives.hpp;
//       the finite differences: centred, 4 nv RNEA and 6 nv ABA calls, as
//       bench/finite_differences.cpp (repeated here: this driver also builds against older commits).
//     eval_sequence: the separate calls `mechdyn eval` made before compute_all_terms
//       (explicit M, h, τ, reactions, friction, forward dynamics, final poses), each with
//       its own kinematics; eval_terms: compute_all_terms(q, v, a, τ) where the commit
//       has it (evaluation/compute_all_terms.hpp), else eval_sequence.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "bench_models.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/joint_reactions.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/friction/inverse_dynamics_with_friction.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#if __has_include("mechdyn/evaluation/compute_all_terms.hpp")
#include "mechdyn/evaluation/compute_all_terms.hpp"
#define MECHDYN_HAS_COMPUTE_ALL_TERMS 1
#endif
#include "random_model.hpp"
#if __has_include("mechdyn/dynamics/rnea_derivatives.hpp")
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#define MECHDYN_HAS_DERIVATIVES 1
#endif

namespace {

// What run_eval called before compute_all_terms (tree models: no loop closure).
double eval_sequence(const mechdyn::Model& model, mechdyn::Data& data, const mechdyn::VecX& q,
                     const mechdyn::VecX& v, const mechdyn::VecX& a, const mechdyn::VecX& tau) {
  using namespace mechdyn;
  double sink = explicit_mass_matrix(model, data, q)(0, 0);
  sink += explicit_bias_force(model, data, q, v)[0];
  sink += explicit_inverse_dynamics(model, data, q, v, a)[0];
  joint_reactions(model, data, q, v, a);
  sink += inverse_dynamics_with_friction(model, data, q, v, a, LuGreEvaluation::SteadyState)[0];
  sink += explicit_forward_dynamics(model, data, q, v, tau)[0];
  forward_kinematics(model, data, q);
  return sink + data.position[0][0];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mechdyn;
  if (argc != 4) {
    std::fprintf(stderr, "usage: mechdyn_profile <model> <algorithm> <iterations>\n");
    return 2;
  }
  const std::string model_name = argv[1], algorithm = argv[2];
  const long iterations = std::strtol(argv[3], nullptr, 10);
  Model model;
  if (model_name == "five_axis_tree") model = bench::five_axis_tree();
  else if (model_name == "panda_like_arm") model = bench::panda_like_arm();
  else if (model_name == "branched_tree_30") model = bench::branched_tree();
  else if (model_name.rfind("serial_chain_", 0) == 0) model = bench::serial_chain(std::atoi(model_name.c_str() + 13));
  else {
    std::fprintf(stderr, "unknown model '%s'\n", model_name.c_str());
    return 2;
  }
  Data data(model);
  std::mt19937 rng(12);
  const VecX q = testing::random_configuration(model, rng);
  const VecX v = testing::random_vector(model.nv, rng, 1.0);
  const VecX a = testing::random_vector(model.nv, rng, 1.0);
  double sink = 0.0;  // keeps the calls from being optimised away
  if (algorithm == "rnea") {
    for (long k = 0; k < iterations; ++k) sink += rnea(model, data, q, v, a)[0];
  } else if (algorithm == "crba") {
    for (long k = 0; k < iterations; ++k) sink += crba(model, data, q)(0, 0);
  } else if (algorithm == "aba") {
    for (long k = 0; k < iterations; ++k) sink += aba(model, data, q, v, a)[0];
  } else if (algorithm == "joint_reactions") {
    for (long k = 0; k < iterations; ++k) {
      joint_reactions(model, data, q, v, a);
      sink += data.tau[0];
    }
  } else if (algorithm == "explicit_inverse_dynamics") {
    for (long k = 0; k < iterations; ++k) sink += explicit_inverse_dynamics(model, data, q, v, a)[0];
  } else if (algorithm == "explicit_forward_dynamics") {
    for (long k = 0; k < iterations; ++k) sink += explicit_forward_dynamics(model, data, q, v, a)[0];
#ifdef MECHDYN_HAS_EXPLICIT_MASS_MATRIX_FORMS
  } else if (algorithm == "explicit_inverse_dynamics_mass_matrix") {
    for (long k = 0; k < iterations; ++k) sink += explicit_inverse_dynamics_mass_matrix(model, data, q, v, a)[0];
  } else if (algorithm == "explicit_forward_dynamics_mass_matrix") {
    for (long k = 0; k < iterations; ++k) sink += explicit_forward_dynamics_mass_matrix(model, data, q, v, a)[0];
#endif
  } else if (algorithm == "eval_sequence") {
    for (long k = 0; k < iterations; ++k) sink += eval_sequence(model, data, q, v, a, a);
  } else if (algorithm == "eval_terms" || algorithm == "eval_terms_recursive") {
#ifdef MECHDYN_HAS_COMPUTE_ALL_TERMS
    AllTermsOptions options;  // eval_terms_recursive: what `mechdyn eval --method recursive` asks for
    if (algorithm == "eval_terms_recursive") options.method = DynamicsMethod::Recursive;
    for (long k = 0; k < iterations; ++k) {
      compute_all_terms(model, data, q, v, &a, &a, options);
      sink += data.mass_matrix(0, 0) + data.bias_force[0] + data.tau[0] + data.tau_with_friction[0] + data.ddq[0] +
              data.position[0][0];
    }
#else
    for (long k = 0; k < iterations; ++k) sink += eval_sequence(model, data, q, v, a, a);
#endif
#ifdef MECHDYN_HAS_DERIVATIVES
  } else if (algorithm == "rnea_derivatives") {
    DerivativeData work(model);
    for (long k = 0; k < iterations; ++k) {
      rnea_derivatives(model, data, work, q, v, a);
      sink += work.dtau_dq(0, 0);
    }
  } else if (algorithm == "aba_derivatives") {
    DerivativeData work(model);
    for (long k = 0; k < iterations; ++k) {
      aba_derivatives(model, data, work, q, v, a);
      sink += work.da_dq(0, 0);
    }
  } else if (algorithm == "rnea_finite_difference" || algorithm == "aba_finite_difference") {
    const bool forward = algorithm == "aba_finite_difference";  // revolute models: q ⊕ h e_j = q + h e_j
    const double h = 1e-6;
    VecX x(model.nv);
    MatX dq(model.nv, model.nv), dv(model.nv, model.nv), dtau(model.nv, model.nv);
    const auto f = [&](const VecX& qq, const VecX& vv, const VecX& xx) -> const VecX& {
      return forward ? aba(model, data, qq, vv, xx) : rnea(model, data, qq, vv, xx);
    };
    for (long k = 0; k < iterations; ++k) {
      for (Eigen::Index j = 0; j < model.nv; ++j) {
        x = q, x[j] += h;
        dq.col(j) = f(x, v, a);
        x[j] = q[j] - h;
        dq.col(j) -= f(x, v, a);
        x = v, x[j] += h;
        dv.col(j) = f(q, x, a);
        x[j] = v[j] - h;
        dv.col(j) -= f(q, x, a);
        if (forward) {
          x = a, x[j] += h;
          dtau.col(j) = f(q, v, x);
          x[j] = a[j] - h;
          dtau.col(j) -= f(q, v, x);
        }
      }
      sink += dq(0, 0) / (2 * h) + dv(0, 0) / (2 * h) + dtau(0, 0);
    }
#endif
  } else {
    std::fprintf(stderr, "unknown algorithm '%s'\n", algorithm.c_str());
    return 2;
  }
  std::printf("%.17g\n", sink);
  return 0;
}
