// mechdyn against its peers, MuJoCo (required) and Simbody (when found), on the same
// models and the same states, in one run.
//
// Every model is written for each peer from mechdyn's own numbers (mechdyn/io/mjcf.hpp,
// peers/simbody_peer.hpp) and, before anything is timed, checked to agree with mechdyn
// to 1e-9 (relative to the largest entry, at least 1) on M, h and forward dynamics
// over the whole state pool; a disagreement ends the run with exit status 1.
//
// Timing protocol (the issue's): each call takes the next of 256 seeded random states
// and runs from (q, v, a or τ) to the result, kinematics included.
//   mass_matrix       mechdyn explicit_mass_matrix | crba;
//                     MuJoCo mj_kinematics + mj_comPos + mj_crb + mj_fullM
//   bias_force        mechdyn explicit_bias_force | rnea(a = 0);
//                     MuJoCo mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 0)
//   inverse_dynamics  mechdyn explicit_inverse_dynamics (the resultant iteration, O(n)) | rnea
//                     | explicit_inverse_dynamics_mass_matrix (M a + h: "mechdyn_explicit_m");
//                     MuJoCo mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 1)
//   forward_dynamics  mechdyn explicit_forward_dynamics (M route or ABA by its rule) | aba
//                     | explicit_forward_dynamics_mass_matrix (M, h, LTDL: "mechdyn_explicit_m");
//                     MuJoCo mj_forward (no contacts; armature, damping, friction loss 0)
// Simbody: setQ/setU, realize, calcM | calcResidualForceIgnoringConstraints |
// calcAcceleration (peers/simbody_peer.hpp). Benchmark names are
// "<quantity>/<library>/<model>"; scripts/bench.sh prints the medians of the
// repetitions and the ratios mechdyn/MuJoCo.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_models.hpp"
#include "bench_context.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/explicit_bias.hpp"
#include "mechdyn/dynamics/explicit_forward_dynamics.hpp"
#include "mechdyn/dynamics/explicit_inverse_dynamics.hpp"
#include "mechdyn/dynamics/explicit_jsim.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "peers/mujoco_peer.hpp"
#include "random_model.hpp"
#ifdef MECHDYN_HAVE_SIMBODY
#include "peers/simbody_peer.hpp"
#endif

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;  // a power of two: the index wraps with a mask
constexpr double kTolerance = 1e-9;     // agreement required before timing

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
  std::string check;  // the agreement found, for the context block
};

std::shared_ptr<Fixture> make_fixture(Model model, unsigned seed) {
  auto fixture = std::make_shared<Fixture>();
  fixture->model = std::move(model);
  const Model& m = fixture->model;
  fixture->mujoco = load_mujoco(m);
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

// ---- MuJoCo calls, timed as the issue prescribes ---------------------------------
void mj_set(const MujocoPeer& p, const VecX& q, const VecX* v) {
  mju_copy(p.data->qpos, q.data(), p.model->nq);
  if (v != nullptr) mju_copy(p.data->qvel, v->data(), p.model->nv);
}
const mjtNum* mj_mass_matrix(const MujocoPeer& p, const State& s, mjtNum* dense) {
  mj_set(p, s.mj_q, nullptr);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_crb(p.model, p.data);
  mj_fullM(p.model, dense, p.data->qM);
  return dense;
}
const mjtNum* mj_bias(const MujocoPeer& p, const State& s) {
  mj_set(p, s.mj_q, &s.mj_v);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_comVel(p.model, p.data);
  mj_rne(p.model, p.data, 0, p.data->qfrc_bias);
  return p.data->qfrc_bias;
}
const mjtNum* mj_inverse_dynamics(const MujocoPeer& p, const State& s, mjtNum* result) {
  mj_set(p, s.mj_q, &s.mj_v);
  mju_copy(p.data->qacc, s.mj_a.data(), p.model->nv);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_comVel(p.model, p.data);
  mj_rne(p.model, p.data, 1, result);
  return result;
}
const mjtNum* mj_forward_dynamics(const MujocoPeer& p, const State& s) {
  mj_set(p, s.mj_q, &s.mj_v);
  mju_copy(p.data->qfrc_applied, s.mj_tau.data(), p.model->nv);
  mj_forward(p.model, p.data);
  return p.data->qacc;
}

// ---- agreement before timing -----------------------------------------------------
struct Disagreement {
  double worst = 0.0;  // largest |difference| / max(1, |reference|∞)
  std::string where;
  void compare(const VecX& value, const VecX& reference, const std::string& what) {
    const double scale = std::max(1.0, reference.cwiseAbs().maxCoeff());
    const double error = (value - reference).cwiseAbs().maxCoeff() / scale;
    if (!(error <= worst)) {
      worst = error;
      where = what;
    }
  }
};

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

// ---- registration ----------------------------------------------------------------
template <typename Run>
void register_case(const std::string& quantity, const std::string& library, const std::shared_ptr<Fixture>& fixture,
                   Run run) {
  const std::string name = quantity + "/" + library + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    Data data(fixture->model);
    std::size_t next = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(run(*fixture, data, fixture->pool[next]));
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = fixture->model.nv;
  })->Unit(benchmark::kNanosecond);
}

void register_cases(const std::shared_ptr<Fixture>& fixture) {
  using F = const Fixture&;
  register_case("mass_matrix", "mechdyn_explicit", fixture,
                [](F f, Data& d, const State& s) { return explicit_mass_matrix(f.model, d, s.q).data(); });
  register_case("mass_matrix", "mechdyn_recursive", fixture,
                [](F f, Data& d, const State& s) { return crba(f.model, d, s.q).data(); });
  auto dense = std::make_shared<std::vector<mjtNum>>(static_cast<std::size_t>(fixture->model.nv * fixture->model.nv));
  register_case("mass_matrix", "mujoco", fixture,
                [dense](F f, Data&, const State& s) { return mj_mass_matrix(*f.mujoco, s, dense->data()); });

  register_case("bias_force", "mechdyn_explicit", fixture,
                [](F f, Data& d, const State& s) { return explicit_bias_force(f.model, d, s.q, s.v).data(); });
  register_case("bias_force", "mechdyn_recursive", fixture,
                [](F f, Data& d, const State& s) { return rnea(f.model, d, s.q, s.v, s.zero).data(); });
  register_case("bias_force", "mujoco", fixture, [](F f, Data&, const State& s) { return mj_bias(*f.mujoco, s); });

  register_case("inverse_dynamics", "mechdyn_explicit", fixture, [](F f, Data& d, const State& s) {
    return explicit_inverse_dynamics(f.model, d, s.q, s.v, s.a).data();
  });
  register_case("inverse_dynamics", "mechdyn_explicit_m", fixture, [](F f, Data& d, const State& s) {
    return explicit_inverse_dynamics_mass_matrix(f.model, d, s.q, s.v, s.a).data();
  });
  register_case("inverse_dynamics", "mechdyn_recursive", fixture,
                [](F f, Data& d, const State& s) { return rnea(f.model, d, s.q, s.v, s.a).data(); });
  auto result = std::make_shared<std::vector<mjtNum>>(static_cast<std::size_t>(fixture->model.nv));
  register_case("inverse_dynamics", "mujoco", fixture,
                [result](F f, Data&, const State& s) { return mj_inverse_dynamics(*f.mujoco, s, result->data()); });

  register_case("forward_dynamics", "mechdyn_explicit", fixture, [](F f, Data& d, const State& s) {
    return explicit_forward_dynamics(f.model, d, s.q, s.v, s.tau).data();
  });
  register_case("forward_dynamics", "mechdyn_explicit_m", fixture, [](F f, Data& d, const State& s) {
    return explicit_forward_dynamics_mass_matrix(f.model, d, s.q, s.v, s.tau).data();
  });
  register_case("forward_dynamics", "mechdyn_recursive", fixture,
                [](F f, Data& d, const State& s) { return aba(f.model, d, s.q, s.v, s.tau).data(); });
  register_case("forward_dynamics", "mujoco", fixture,
                [](F f, Data&, const State& s) { return mj_forward_dynamics(*f.mujoco, s); });

#ifdef MECHDYN_HAVE_SIMBODY
  if (fixture->simbody) {
    // Simbody's calls write into the caller's vectors; one set per fixture.
    auto out = std::make_shared<std::pair<MatX, VecX>>(MatX(fixture->model.nv, fixture->model.nv),
                                                       VecX(fixture->model.nv));
    register_case("mass_matrix", "simbody", fixture, [out](F f, Data&, const State& s) {
      f.simbody->mass_matrix(s.q, out->first);
      return out->first.data();
    });
    register_case("bias_force", "simbody", fixture, [out](F f, Data&, const State& s) {
      f.simbody->bias_force(s.q, s.v, out->second);
      return out->second.data();
    });
    register_case("inverse_dynamics", "simbody", fixture, [out](F f, Data&, const State& s) {
      f.simbody->inverse_dynamics(s.q, s.v, s.a, out->second);
      return out->second.data();
    });
    register_case("forward_dynamics", "simbody", fixture, [out](F f, Data&, const State& s) {
      f.simbody->forward_dynamics(s.q, s.v, s.tau, out->second);
      return out->second.data();
    });
  }
#endif
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
  bool agree = true;
  for (const auto& fixture : fixtures) {
    const Disagreement d = check_agreement(*fixture);
    std::ostringstream line;
    line << "worst relative difference from MuJoCo over " << kPoolSize << " states: " << d.worst << " (" << d.where
         << ")";
    benchmark::AddCustomContext("check." + fixture->model.name, line.str());
    if (!(d.worst <= kTolerance)) {
      std::cerr << "mechdyn_bench_peers: " << fixture->model.name << ": " << line.str() << " exceeds " << kTolerance
                << "; nothing is timed\n";
      agree = false;
    }
  }
  if (!agree) return 1;
  for (const auto& fixture : fixtures) register_cases(fixture);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
