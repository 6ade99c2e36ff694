// mechdyn against its peers, MuJoCo (required) and Simbody (when found), on the same
// models and the same states, in one run: the recursive algorithms, the explicit methods,
// the code `mechdyn codegen` writes, and the derivatives (issue 15 item 4).
//
// Every model is written for each peer from mechdyn's own numbers (mechdyn/io/mjcf.hpp,
// peers/simbody_peer.hpp) and, before anything is timed, checked over the whole state
// pool: M, h, inverse and forward dynamics of every mechdyn method and peer against
// MuJoCo to 1e-9 (relative to the largest entry, at least 1); the generated code against
// the library to 1e-9 (generated_code.hpp); the analytical derivatives against MuJoCo's
// centred finite differences to 1e-6 (taken with h = 1e-4 for the check, where their own
// error is smallest; the timed ones use h = 1e-6).
// A disagreement ends the run with exit status 1.
//
// Timing protocol (the issue's): each call takes the next of 256 seeded random states
// and runs from (q, v, a or τ) to the result, kinematics included.
//   mass_matrix       mechdyn explicit_mass_matrix | crba | generated M;
//                     MuJoCo mj_kinematics + mj_comPos + mj_crb + mj_fullM
//   bias_force        mechdyn explicit_bias_force | rnea(a = 0) | generated h;
//                     MuJoCo mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 0)
//   inverse_dynamics  mechdyn explicit_inverse_dynamics (the resultant iteration, O(n)) | rnea
//                     | explicit_inverse_dynamics_mass_matrix (M a + h: "mechdyn_explicit_m")
//                     | generated inverse dynamics;
//                     MuJoCo mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 1)
//   forward_dynamics  mechdyn explicit_forward_dynamics (M route or ABA by its rule) | aba
//                     | explicit_forward_dynamics_mass_matrix (M, h, LTDL: "mechdyn_explicit_m")
//                     | generated forward dynamics (unrolled branch-sparse LTDL);
//                     MuJoCo mj_forward (no contacts; armature, damping, friction loss 0)
//   id_derivatives    ∂τ/∂q, ∂τ/∂v: mechdyn rnea_derivatives ("mechdyn_analytical") | a
//                     centred difference of rnea ("mechdyn_finite_difference");
//                     MuJoCo's centred differences ("mujoco_finite_difference")
//   fd_derivatives    ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ: aba_derivatives | a centred difference of
//                     aba; MuJoCo's centred differences; and, for reference only, MuJoCo
//                     2.2.2's one derivative entry point mjd_transitionFD (A = ∂x_next/∂x of
//                     one time step, centred: "mujoco_transition_fd")
//   (finite_differences.hpp says how each finite difference is taken.)
// Simbody: setQ/setU, realize, calcM | calcResidualForceIgnoringConstraints |
// calcAcceleration (peers/simbody_peer.hpp). Pinocchio (computeRNEADerivatives,
// computeABADerivatives) is not in Debian and is not built here.
// Benchmark names are "<quantity>/<method>/<model>"; the generated rows carry the counter
// "ops" = multiplications + additions per call, counted exactly in the expression graph the
// C is printed from (CodegenCounts; kinematics included, sin/cos/divisions not). scripts/
// peer_table.py prints the medians of the repetitions and the ratios to the fastest peer.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench_context.hpp"
#include "bench_models.hpp"
#include "finite_differences.hpp"
#include "generated_models.hpp"
#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "peers/mujoco_calls.hpp"
#include "peers/mujoco_peer.hpp"
#include "random_model.hpp"
#ifdef MECHDYN_HAVE_SIMBODY
#include "peers/simbody_peer.hpp"
#endif

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;  // a power of two: the index wraps with a mask
constexpr double kTolerance = 1e-9;     // agreement required before timing
// Analytical derivatives vs MuJoCo's centred differences at kCheckStep (finite_differences.hpp):
// the worst found is 3.8e-7 (Panda-like arm), the differences' own error ~1e-7.
constexpr double kDerivativeTolerance = 1e-6;

struct State {
  VecX q, v, a, tau, zero;
  VecX mj_q, mj_v, mj_a, mj_tau;  // the same numbers in MuJoCo's coordinate order
};

struct Fixture {
  Model model;
  std::vector<State> pool;
  std::unique_ptr<MujocoPeer> mujoco;
#ifdef MECHDYN_HAVE_SIMBODY
  std::unique_ptr<SimbodyPeer> simbody;
#endif
  const GeneratedFunctions* generated = nullptr;  // the generated C, when built for this model
  long generated_ops[4] = {0, 0, 0, 0};            // mul + add of generated M, h, ID, FD
};

/// Everything one timed call may write into, allocated before the loop.
struct Workspace {
  Data data;
  DerivativeData derivatives;
  Jacobians jacobians;
  MujocoScratch mujoco;
  VecX x, out;
  MatX dense;                    // Simbody's M
  std::vector<mjtNum> mj_dense;  // MuJoCo's M, or its transition matrix A
  std::vector<mjtNum> mj_result;
  explicit Workspace(const Model& m)
      : data(m),
        derivatives(m),
        jacobians(m.nv),
        x(m.nv),
        out(m.nv * m.nv),
        dense(m.nv, m.nv),
        mj_dense(static_cast<std::size_t>(4 * m.nv * m.nv)),
        mj_result(static_cast<std::size_t>(m.nv)) {}
};

std::shared_ptr<Fixture> make_fixture(Model model, unsigned seed) {
  auto fixture = std::make_shared<Fixture>();
  fixture->model = std::move(model);
  const Model& m = fixture->model;
  if (m.nq != m.nv) throw std::runtime_error(m.name + ": the peer benchmark's models are revolute/prismatic only");
  fixture->mujoco = load_mujoco(m);
  fixture->generated = generated_functions(m.name);
  if (fixture->generated != nullptr) {
    const GeneratedCode code = generate_code(m);  // the same counts the written C carries
    for (int k = 0; k < 4; ++k)
      fixture->generated_ops[k] = code.functions[static_cast<std::size_t>(k)].counts.multiplications +
                                  code.functions[static_cast<std::size_t>(k)].counts.additions;
  }
#ifdef MECHDYN_HAVE_SIMBODY
  if (SimbodyPeer::supports(m)) fixture->simbody = std::make_unique<SimbodyPeer>(m);
#endif
  std::mt19937 rng(seed);
  fixture->pool.resize(kPoolSize);
  for (State& s : fixture->pool) {
    s.q = testing::random_configuration(m, rng);
    s.v = testing::random_vector(m.nv, rng, 1.0);
    s.a = testing::random_vector(m.nv, rng, 1.0);
    s.tau = testing::random_vector(m.nv, rng, 5.0);
    s.zero = VecX::Zero(m.nv);
    s.mj_q = to_mujoco(s.q, fixture->mujoco->dof);  // revolute/prismatic only: nq = nv
    s.mj_v = to_mujoco(s.v, fixture->mujoco->dof);
    s.mj_a = to_mujoco(s.a, fixture->mujoco->dof);
    s.mj_tau = to_mujoco(s.tau, fixture->mujoco->dof);
  }
  return fixture;
}

// MuJoCo calls and the agreement measure: peers/mujoco_calls.hpp.

/// Compares every library with MuJoCo on every pooled state; returns the worst error.
Disagreement check_agreement(Fixture& f) {
  const Model& model = f.model;
  const MujocoPeer& mj = *f.mujoco;
  Data data(model);
  Disagreement d;
  std::vector<mjtNum> dense(static_cast<std::size_t>(model.nv * model.nv));
  std::vector<mjtNum> result(static_cast<std::size_t>(model.nv));
  MatX mj_mass(model.nv, model.nv), other(model.nv, model.nv);
  VecX vector(model.nv);
  for (const State& s : f.pool) {
    mj_mass_matrix(mj, s, dense.data());
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < model.nv; ++j) mj_mass(i, j) = dense[static_cast<std::size_t>(mj.dof[i] * model.nv + mj.dof[j])];
    const Eigen::Map<const VecX> mj_mass_flat(mj_mass.data(), mj_mass.size());
    const VecX mj_h = from_mujoco(mj_bias(mj, s), mj.dof);
    const VecX mj_tau = from_mujoco(mj_inverse_dynamics(mj, s, result.data()), mj.dof);
    const VecX mj_ddq = from_mujoco(mj_forward_dynamics(mj, s), mj.dof);
    auto flat = [](const MatX& m) { return VecX(Eigen::Map<const VecX>(m.data(), m.size())); };
    d.compare(flat(explicit_mass_matrix(model, data, s.q)), mj_mass_flat, "M explicit");
    d.compare(flat(crba(model, data, s.q)), mj_mass_flat, "M crba");
    d.compare(explicit_bias_force(model, data, s.q, s.v), mj_h, "h explicit");
    d.compare(rnea(model, data, s.q, s.v, s.zero), mj_h, "h rnea");
    d.compare(explicit_inverse_dynamics(model, data, s.q, s.v, s.a), mj_tau, "tau explicit");
    d.compare(rnea(model, data, s.q, s.v, s.a), mj_tau, "tau rnea");
    d.compare(explicit_inverse_dynamics_mass_matrix(model, data, s.q, s.v, s.a), mj_tau, "tau explicit M a + h");
    d.compare(explicit_forward_dynamics(model, data, s.q, s.v, s.tau), mj_ddq, "ddq explicit");
    d.compare(explicit_forward_dynamics_mass_matrix(model, data, s.q, s.v, s.tau), mj_ddq, "ddq explicit M");
    d.compare(aba(model, data, s.q, s.v, s.tau), mj_ddq, "ddq aba");
    if (f.generated != nullptr) {  // the generated code against MuJoCo too, row-major M (symmetric)
      f.generated->mass_matrix(s.q.data(), other.data());
      d.compare(flat(other), mj_mass_flat, "M generated");
      f.generated->bias(s.q.data(), s.v.data(), vector.data());
      d.compare(vector, mj_h, "h generated");
      f.generated->inverse_dynamics(s.q.data(), s.v.data(), s.a.data(), vector.data());
      d.compare(vector, mj_tau, "tau generated");
      if (f.generated->forward_dynamics(s.q.data(), s.v.data(), s.tau.data(), vector.data()) != 0)
        vector.setConstant(std::numeric_limits<double>::quiet_NaN());
      d.compare(vector, mj_ddq, "ddq generated");
    }
#ifdef MECHDYN_HAVE_SIMBODY
    if (f.simbody) {
      f.simbody->mass_matrix(s.q, other);
      d.compare(flat(other), mj_mass_flat, "M simbody");
      f.simbody->bias_force(s.q, s.v, vector);
      d.compare(vector, mj_h, "h simbody");
      f.simbody->inverse_dynamics(s.q, s.v, s.a, vector);
      d.compare(vector, mj_tau, "tau simbody");
      f.simbody->forward_dynamics(s.q, s.v, s.tau, vector);
      d.compare(vector, mj_ddq, "ddq simbody");
    }
#endif
  }
  return d;
}

/// The generated code against the library (all five functions, reactions included):
/// the worst relative difference and where.
std::pair<double, std::string> check_generated(const Fixture& f) {
  GeneratedCheck check(f.model, *f.generated);
  for (const State& s : f.pool) check.add(s.q, s.v, s.a, s.tau);
  return {check.worst(), check.worst_quantity()};
}

/// The analytical derivatives against MuJoCo's centred finite differences; the worst
/// relative difference.
double check_derivatives(const Fixture& f) {
  Data data(f.model);
  DerivativeData work(f.model);
  Jacobians mj(f.model.nv);
  MujocoScratch w;
  const std::vector<int>& dof = f.mujoco->dof;
  double worst = 0.0;
  for (const State& s : f.pool) {
    rnea_derivatives(f.model, data, work, s.q, s.v, s.a);
    mujoco_inverse_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_a, w, mj, kCheckStep);
    worst = std::max({worst, relative_difference(work.dtau_dq, mj.dq, dof), relative_difference(work.dtau_dv, mj.dv, dof)});
    aba_derivatives(f.model, data, work, s.q, s.v, s.tau);
    mujoco_forward_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_tau, w, mj, kCheckStep);
    worst = std::max({worst, relative_difference(work.da_dq, mj.dq, dof), relative_difference(work.da_dv, mj.dv, dof),
                      relative_difference(work.da_dtau, mj.dtau, dof)});
  }
  return worst;
}

// ---- registration ----------------------------------------------------------------
/// Registers "<quantity>/<method>/<model>"; `run(fixture, workspace, state)` returns a
/// pointer to its result. `ops` > 0: the counter "ops" (multiplications + additions).
template <typename Run>
void register_case(const std::string& quantity, const std::string& method, const std::shared_ptr<Fixture>& fixture,
                   Run run, long ops = 0) {
  const std::string name = quantity + "/" + method + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run, ops](benchmark::State& state) {
    Workspace work(fixture->model);
    std::size_t next = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(run(*fixture, work, fixture->pool[next]));
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = fixture->model.nv;
    if (ops > 0) state.counters["ops"] = static_cast<double>(ops);
  })->Unit(benchmark::kNanosecond);
}

using F = const Fixture&;
using W = Workspace&;

void register_dynamics(const std::shared_ptr<Fixture>& fixture) {
  register_case("mass_matrix", "mechdyn_explicit", fixture,
                [](F f, W w, const State& s) { return explicit_mass_matrix(f.model, w.data, s.q).data(); });
  register_case("mass_matrix", "mechdyn_recursive", fixture,
                [](F f, W w, const State& s) { return crba(f.model, w.data, s.q).data(); });
  register_case("mass_matrix", "mujoco", fixture,
                [](F f, W w, const State& s) { return mj_mass_matrix(*f.mujoco, s, w.mj_dense.data()); });

  register_case("bias_force", "mechdyn_explicit", fixture,
                [](F f, W w, const State& s) { return explicit_bias_force(f.model, w.data, s.q, s.v).data(); });
  register_case("bias_force", "mechdyn_recursive", fixture,
                [](F f, W w, const State& s) { return rnea(f.model, w.data, s.q, s.v, s.zero).data(); });
  register_case("bias_force", "mujoco", fixture, [](F f, W, const State& s) { return mj_bias(*f.mujoco, s); });

  register_case("inverse_dynamics", "mechdyn_explicit", fixture, [](F f, W w, const State& s) {
    return explicit_inverse_dynamics(f.model, w.data, s.q, s.v, s.a).data();
  });
  register_case("inverse_dynamics", "mechdyn_explicit_m", fixture, [](F f, W w, const State& s) {
    return explicit_inverse_dynamics_mass_matrix(f.model, w.data, s.q, s.v, s.a).data();
  });
  register_case("inverse_dynamics", "mechdyn_recursive", fixture,
                [](F f, W w, const State& s) { return rnea(f.model, w.data, s.q, s.v, s.a).data(); });
  register_case("inverse_dynamics", "mujoco", fixture,
                [](F f, W w, const State& s) { return mj_inverse_dynamics(*f.mujoco, s, w.mj_result.data()); });

  register_case("forward_dynamics", "mechdyn_explicit", fixture, [](F f, W w, const State& s) {
    return explicit_forward_dynamics(f.model, w.data, s.q, s.v, s.tau).data();
  });
  register_case("forward_dynamics", "mechdyn_explicit_m", fixture, [](F f, W w, const State& s) {
    return explicit_forward_dynamics_mass_matrix(f.model, w.data, s.q, s.v, s.tau).data();
  });
  register_case("forward_dynamics", "mechdyn_recursive", fixture,
                [](F f, W w, const State& s) { return aba(f.model, w.data, s.q, s.v, s.tau).data(); });
  register_case("forward_dynamics", "mujoco", fixture,
                [](F f, W, const State& s) { return mj_forward_dynamics(*f.mujoco, s); });
}

void register_generated(const std::shared_ptr<Fixture>& fixture) {
  if (fixture->generated == nullptr) return;
  const long* ops = fixture->generated_ops;
  register_case("mass_matrix", "mechdyn_generated", fixture, [](F f, W w, const State& s) {
    f.generated->mass_matrix(s.q.data(), w.out.data());
    return w.out.data();
  }, ops[0]);
  register_case("bias_force", "mechdyn_generated", fixture, [](F f, W w, const State& s) {
    f.generated->bias(s.q.data(), s.v.data(), w.out.data());
    return w.out.data();
  }, ops[1]);
  register_case("inverse_dynamics", "mechdyn_generated", fixture, [](F f, W w, const State& s) {
    f.generated->inverse_dynamics(s.q.data(), s.v.data(), s.a.data(), w.out.data());
    return w.out.data();
  }, ops[2]);
  register_case("forward_dynamics", "mechdyn_generated", fixture, [](F f, W w, const State& s) {
    benchmark::DoNotOptimize(f.generated->forward_dynamics(s.q.data(), s.v.data(), s.tau.data(), w.out.data()));
    return w.out.data();
  }, ops[3]);
}

void register_derivatives(const std::shared_ptr<Fixture>& fixture) {
  register_case("id_derivatives", "mechdyn_analytical", fixture, [](F f, W w, const State& s) {
    rnea_derivatives(f.model, w.data, w.derivatives, s.q, s.v, s.a);
    return w.derivatives.dtau_dq.data();
  });
  register_case("id_derivatives", "mechdyn_finite_difference", fixture, [](F f, W w, const State& s) {
    mechdyn_inverse_dynamics_fd(f.model, w.data, s.q, s.v, s.a, w.x, w.jacobians);
    return w.jacobians.dq.data();
  });
  register_case("id_derivatives", "mujoco_finite_difference", fixture, [](F f, W w, const State& s) {
    mujoco_inverse_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_a, w.mujoco, w.jacobians);
    return w.jacobians.dq.data();
  });
  register_case("fd_derivatives", "mechdyn_analytical", fixture, [](F f, W w, const State& s) {
    aba_derivatives(f.model, w.data, w.derivatives, s.q, s.v, s.tau);
    return w.derivatives.da_dq.data();
  });
  register_case("fd_derivatives", "mechdyn_finite_difference", fixture, [](F f, W w, const State& s) {
    mechdyn_forward_dynamics_fd(f.model, w.data, s.q, s.v, s.tau, w.x, w.jacobians);
    return w.jacobians.dq.data();
  });
  register_case("fd_derivatives", "mujoco_finite_difference", fixture, [](F f, W w, const State& s) {
    mujoco_forward_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_tau, w.mujoco, w.jacobians);
    return w.jacobians.dq.data();
  });
  register_case("fd_derivatives", "mujoco_transition_fd", fixture, [](F f, W w, const State& s) {
    const MujocoPeer& p = *f.mujoco;  // no actuators: A (2 nv x 2 nv) only
    mju_copy(p.data->qpos, s.mj_q.data(), p.model->nq);
    mju_copy(p.data->qvel, s.mj_v.data(), p.model->nv);
    mju_copy(p.data->qfrc_applied, s.mj_tau.data(), p.model->nv);
    mjd_transitionFD(p.model, p.data, kFiniteDifferenceStep, 1, w.mj_dense.data(), nullptr, nullptr, nullptr);
    return w.mj_dense.data();
  });
}

#ifdef MECHDYN_HAVE_SIMBODY
void register_simbody(const std::shared_ptr<Fixture>& fixture) {
  if (!fixture->simbody) return;
  register_case("mass_matrix", "simbody", fixture, [](F f, W w, const State& s) {
    f.simbody->mass_matrix(s.q, w.dense);
    return w.dense.data();
  });
  register_case("bias_force", "simbody", fixture, [](F f, W w, const State& s) {
    f.simbody->bias_force(s.q, s.v, w.x);
    return w.x.data();
  });
  register_case("inverse_dynamics", "simbody", fixture, [](F f, W w, const State& s) {
    f.simbody->inverse_dynamics(s.q, s.v, s.a, w.x);
    return w.x.data();
  });
  register_case("forward_dynamics", "simbody", fixture, [](F f, W w, const State& s) {
    f.simbody->forward_dynamics(s.q, s.v, s.tau, w.x);
    return w.x.data();
  });
}
#endif

void register_cases(const std::shared_ptr<Fixture>& fixture) {
  register_dynamics(fixture);
  register_generated(fixture);
#ifdef MECHDYN_HAVE_SIMBODY
  register_simbody(fixture);
#endif
  register_derivatives(fixture);
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::vector<std::shared_ptr<Fixture>> fixtures;
  try {
    unsigned seed = 1;
    fixtures.push_back(make_fixture(five_axis_tree(), seed++));
    fixtures.push_back(make_fixture(panda_like_arm(), seed++));
    fixtures.push_back(make_fixture(branched_tree(), seed++));
    for (int n : {5, 10, 20, 50}) fixtures.push_back(make_fixture(serial_chain(n), seed++));
  } catch (const std::exception& error) {
    std::cerr << "mechdyn_bench_peers: " << error.what() << "\n";
    return 1;
  }

  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mujoco.version", std::to_string(mj_version()));
#ifdef MECHDYN_HAVE_SIMBODY
  benchmark::AddCustomContext("simbody", "built through its API");
#else
  benchmark::AddCustomContext("simbody", "not found at configure time: not timed");
#endif
  benchmark::AddCustomContext("pinocchio", "not in Debian: not built; its column can only be filled outside the project");
  bool agree = true;
  const auto refuse = [&](const std::string& model, const std::string& line, double tolerance) {
    std::cerr << "mechdyn_bench_peers: " << model << ": " << line << " exceeds " << tolerance << "; nothing is timed\n";
    agree = false;
  };
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture->model.name;
    const Disagreement d = check_agreement(*fixture);
    std::ostringstream line;
    line << "worst relative difference from MuJoCo over " << kPoolSize << " states: " << d.worst << " (" << d.where
         << ")";
    benchmark::AddCustomContext("check." + name, line.str());
    if (!(d.worst <= kTolerance)) refuse(name, line.str(), kTolerance);
    if (fixture->generated != nullptr) {
      const auto [worst, where] = check_generated(*fixture);
      std::ostringstream generated;
      generated << "generated code vs the library over " << kPoolSize << " states: " << worst << " (" << where << ")";
      benchmark::AddCustomContext("check_generated." + name, generated.str());
      if (!(worst <= kTolerance)) refuse(name, generated.str(), kTolerance);
    }
    const double derivatives = check_derivatives(*fixture);
    std::ostringstream derivative_line;
    derivative_line << "analytical derivatives vs MuJoCo finite differences over " << kPoolSize
                    << " states: worst relative " << derivatives;
    benchmark::AddCustomContext("check_derivatives." + name, derivative_line.str());
    if (!(derivatives <= kDerivativeTolerance)) refuse(name, derivative_line.str(), kDerivativeTolerance);
  }
  if (!agree) return 1;
  for (const auto& fixture : fixtures) register_cases(fixture);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
