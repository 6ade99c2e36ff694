// Derivatives of inverse and forward dynamics (issue 15, item 2): mechdyn's analytical
// derivatives (dynamics/rnea_derivatives.hpp, dynamics/aba_derivatives.hpp) beside
//   - a centred finite difference of mechdyn's own RNEA / ABA (4 nv RNEA calls for ∂τ/∂q,
//     ∂τ/∂v; 6 nv ABA calls for ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ), step 1e-6;
//   - MuJoCo 2.2.2's finite differences, done the way its mjd_transitionFD does them
//     (centred, mj_integratePos for q, and the skip stages: q → mj_forwardSkip(mjSTAGE_NONE),
//     v → mjSTAGE_POS, τ → mjSTAGE_VEL; for inverse dynamics mj_inverseSkip with the same
//     stages for q and v). MuJoCo 2.2.2 has no derivative of qacc alone (mjd_inverseFD came
//     in 2.3); its one derivative entry point, mjd_transitionFD (A = ∂x_next/∂x of one
//     time step, centred), is timed too, as "mujoco_transition_fd", for reference.
// Pinocchio (computeRNEADerivatives, computeABADerivatives) is not in Debian and is not
// built here; the comparison with it is made independently of the project.
//
// Models: the five-axis tree, the 7-DoF Panda-like arm and the 30-body tree (bench_models.hpp;
// all revolute, so q ⊕ dq = q + dq for the mechdyn finite difference). Each call takes the
// next of 256 seeded random states. Before timing, the analytical derivatives are checked
// against MuJoCo's finite differences on every state (relative 1e-5, the accuracy of a
// centred difference with h = 1e-6); a disagreement ends the run with status 1.
// Benchmark names "<quantity>/<method>/<model>"; scripts/bench.sh prints the ratios.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_context.hpp"
#include "bench_models.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "peers/mujoco_peer.hpp"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

constexpr std::size_t kPoolSize = 256;
constexpr double kStep = 1e-6;       // both finite differences
constexpr double kTolerance = 1e-5;  // analytical vs MuJoCo's finite difference, relative

struct State {
  VecX q, v, a, tau;
  VecX mj_q, mj_v, mj_a, mj_tau;
};

struct Fixture {
  Model model;
  std::vector<State> pool;
  std::unique_ptr<MujocoPeer> mujoco;
};

/// Results of a finite-difference pass, mechdyn's coordinate order for mechdyn, MuJoCo's
/// for MuJoCo (columns: q, v, then τ for forward dynamics).
struct Jacobians {
  MatX dq, dv, dtau;
  explicit Jacobians(Eigen::Index nv) : dq(nv, nv), dv(nv, nv), dtau(nv, nv) {}
};

std::shared_ptr<Fixture> make_fixture(Model model, unsigned seed) {
  auto f = std::make_shared<Fixture>();
  f->model = std::move(model);
  if (f->model.nq != f->model.nv) throw std::runtime_error(f->model.name + ": the benchmark models are revolute only");
  f->mujoco = load_mujoco(f->model);
  std::mt19937 rng(seed);
  f->pool.resize(kPoolSize);
  for (State& s : f->pool) {
    s.q = testing::random_configuration(f->model, rng);
    s.v = testing::random_vector(f->model.nv, rng, 1.0);
    s.a = testing::random_vector(f->model.nv, rng, 1.0);
    s.tau = testing::random_vector(f->model.nv, rng, 5.0);
    s.mj_q = to_mujoco(s.q, f->mujoco->dof);
    s.mj_v = to_mujoco(s.v, f->mujoco->dof);
    s.mj_a = to_mujoco(s.a, f->mujoco->dof);
    s.mj_tau = to_mujoco(s.tau, f->mujoco->dof);
  }
  return f;
}

// ---- mechdyn: centred differences of its own RNEA and ABA ---------------------------
void mechdyn_id_fd(const Model& model, Data& data, const State& s, VecX& x, Jacobians& out) {
  const Eigen::Index nv = model.nv;
  for (Eigen::Index j = 0; j < nv; ++j) {
    x = s.q, x[j] += kStep;  // revolute: q ⊕ h e_j = q + h e_j
    out.dq.col(j) = rnea(model, data, x, s.v, s.a);
    x[j] = s.q[j] - kStep;
    out.dq.col(j) -= rnea(model, data, x, s.v, s.a);
    x = s.v, x[j] += kStep;
    out.dv.col(j) = rnea(model, data, s.q, x, s.a);
    x[j] = s.v[j] - kStep;
    out.dv.col(j) -= rnea(model, data, s.q, x, s.a);
  }
  out.dq /= 2 * kStep;
  out.dv /= 2 * kStep;
}

void mechdyn_fd_fd(const Model& model, Data& data, const State& s, VecX& x, Jacobians& out) {
  const Eigen::Index nv = model.nv;
  for (Eigen::Index j = 0; j < nv; ++j) {
    x = s.q, x[j] += kStep;
    out.dq.col(j) = aba(model, data, x, s.v, s.tau);
    x[j] = s.q[j] - kStep;
    out.dq.col(j) -= aba(model, data, x, s.v, s.tau);
    x = s.v, x[j] += kStep;
    out.dv.col(j) = aba(model, data, s.q, x, s.tau);
    x[j] = s.v[j] - kStep;
    out.dv.col(j) -= aba(model, data, s.q, x, s.tau);
    x = s.tau, x[j] += kStep;
    out.dtau.col(j) = aba(model, data, s.q, s.v, x);
    x[j] = s.tau[j] - kStep;
    out.dtau.col(j) -= aba(model, data, s.q, s.v, x);
  }
  out.dq /= 2 * kStep;
  out.dv /= 2 * kStep;
  out.dtau /= 2 * kStep;
}

// ---- MuJoCo: centred differences the way mjd_transitionFD does them ----------------
/// Column j of `out` = (y(+) − y(−)) / 2h for the perturbation `perturb(sign)` and the
/// pipeline `run` restarted at `stage`; `y` is qacc or qfrc_inverse.
struct MujocoScratch {
  std::vector<mjtNum> qpos, plus, dq;
};

template <typename Run>
void mujoco_fd(const MujocoPeer& p, const State& s, bool inverse, MujocoScratch& w, Jacobians& out, Run run) {
  mjModel* m = p.model;
  mjData* d = p.data;
  const int nv = m->nv;
  mju_copy(d->qpos, s.mj_q.data(), m->nq);
  mju_copy(d->qvel, s.mj_v.data(), nv);
  if (inverse) mju_copy(d->qacc, s.mj_a.data(), nv);
  else mju_copy(d->qfrc_applied, s.mj_tau.data(), nv);
  run(mjSTAGE_NONE);  // the point of expansion, every stage
  const mjtNum* y = inverse ? d->qfrc_inverse : d->qacc;
  w.qpos.assign(d->qpos, d->qpos + m->nq);
  w.plus.resize(static_cast<std::size_t>(nv));
  w.dq.assign(static_cast<std::size_t>(nv), 0.0);
  const auto column = [&](MatX& target, int j) {
    for (int i = 0; i < nv; ++i) target(i, j) = (w.plus[static_cast<std::size_t>(i)] - y[i]) / (2 * kStep);
  };
  for (int j = 0; j < nv; ++j) {
    // q: tangent perturbation by mj_integratePos, everything recomputed
    for (const double sign : {1.0, -1.0}) {
      mju_copy(d->qpos, w.qpos.data(), m->nq);
      w.dq[static_cast<std::size_t>(j)] = sign * kStep;
      mj_integratePos(m, d->qpos, w.dq.data(), 1.0);
      run(mjSTAGE_NONE);
      if (sign > 0) w.plus.assign(y, y + nv);
    }
    w.dq[static_cast<std::size_t>(j)] = 0.0;
    mju_copy(d->qpos, w.qpos.data(), m->nq);
    column(out.dq, j);
    // v: positions kept
    run(mjSTAGE_NONE);  // positions back at the expansion point
    const mjtNum v0 = d->qvel[j];
    d->qvel[j] = v0 + kStep;
    run(mjSTAGE_POS);
    w.plus.assign(y, y + nv);
    d->qvel[j] = v0 - kStep;
    run(mjSTAGE_POS);
    column(out.dv, j);
    d->qvel[j] = v0;
    if (!inverse) {  // τ: positions and velocities kept
      run(mjSTAGE_POS);
      const mjtNum t0 = d->qfrc_applied[j];
      d->qfrc_applied[j] = t0 + kStep;
      run(mjSTAGE_VEL);
      w.plus.assign(y, y + nv);
      d->qfrc_applied[j] = t0 - kStep;
      run(mjSTAGE_VEL);
      column(out.dtau, j);
      d->qfrc_applied[j] = t0;
    }
  }
}

void mujoco_forward_fd(const MujocoPeer& p, const State& s, MujocoScratch& w, Jacobians& out) {
  mujoco_fd(p, s, false, w, out, [&](int stage) { mj_forwardSkip(p.model, p.data, stage, 1); });
}
void mujoco_inverse_fd(const MujocoPeer& p, const State& s, MujocoScratch& w, Jacobians& out) {
  mujoco_fd(p, s, true, w, out, [&](int stage) { mj_inverseSkip(p.model, p.data, stage, 1); });
}

// ---- agreement before timing ----------------------------------------------------------
double relative_difference(const MatX& analytical, const MatX& mujoco, const std::vector<int>& dof) {
  double scale = 1.0, worst = 0.0;
  for (Eigen::Index i = 0; i < analytical.rows(); ++i)
    for (Eigen::Index j = 0; j < analytical.cols(); ++j) scale = std::max(scale, std::abs(analytical(i, j)));
  for (Eigen::Index i = 0; i < analytical.rows(); ++i)
    for (Eigen::Index j = 0; j < analytical.cols(); ++j)
      worst = std::max(worst, std::abs(analytical(i, j) - mujoco(dof[static_cast<std::size_t>(i)],
                                                                    dof[static_cast<std::size_t>(j)])));
  return worst / scale;
}

double check_agreement(Fixture& f) {
  Data data(f.model);
  DerivativeData work(f.model);
  Jacobians mj(f.model.nv);
  MujocoScratch w;
  double worst = 0.0;
  for (const State& s : f.pool) {
    rnea_derivatives(f.model, data, work, s.q, s.v, s.a);
    mujoco_inverse_fd(*f.mujoco, s, w, mj);
    worst = std::max({worst, relative_difference(work.dtau_dq, mj.dq, f.mujoco->dof),
                      relative_difference(work.dtau_dv, mj.dv, f.mujoco->dof)});
    aba_derivatives(f.model, data, work, s.q, s.v, s.tau);
    mujoco_forward_fd(*f.mujoco, s, w, mj);
    worst = std::max({worst, relative_difference(work.da_dq, mj.dq, f.mujoco->dof),
                      relative_difference(work.da_dv, mj.dv, f.mujoco->dof),
                      relative_difference(work.da_dtau, mj.dtau, f.mujoco->dof)});
  }
  return worst;
}

// ---- registration -----------------------------------------------------------------------
template <typename Run>
void register_case(const std::string& quantity, const std::string& method, const std::shared_ptr<Fixture>& fixture,
                   Run run) {
  const std::string name = quantity + "/" + method + "/" + fixture->model.name;
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    Data data(fixture->model);
    DerivativeData work(fixture->model);
    Jacobians scratch(fixture->model.nv);
    MujocoScratch mj;
    VecX x(fixture->model.nv);
    std::size_t next = 0;
    for (auto _ : state) {
      run(*fixture, data, work, fixture->pool[next], x, scratch, mj);
      benchmark::ClobberMemory();
      next = (next + 1) & (kPoolSize - 1);
    }
    state.counters["nv"] = fixture->model.nv;
  })->Unit(benchmark::kNanosecond);
}

void register_cases(const std::shared_ptr<Fixture>& fixture) {
  using F = const Fixture&;
  register_case("inverse_dynamics", "mechdyn_rnea", fixture, [](F f, Data& d, DerivativeData&, const State& s, VecX&, Jacobians&,
                                                                 MujocoScratch&) {
    benchmark::DoNotOptimize(rnea(f.model, d, s.q, s.v, s.a).data());
  });
  register_case("id_derivatives", "mechdyn_analytical", fixture,
                [](F f, Data& d, DerivativeData& w2, const State& s, VecX&, Jacobians&, MujocoScratch&) {
                  rnea_derivatives(f.model, d, w2, s.q, s.v, s.a);
                  benchmark::DoNotOptimize(w2.dtau_dq.data());
                });
  register_case("id_derivatives", "mechdyn_finite_difference", fixture,
                [](F f, Data& d, DerivativeData&, const State& s, VecX& x, Jacobians& j, MujocoScratch&) {
                  mechdyn_id_fd(f.model, d, s, x, j);
                  benchmark::DoNotOptimize(j.dq.data());
                });
  register_case("id_derivatives", "mujoco_finite_difference", fixture,
                [](F f, Data&, DerivativeData&, const State& s, VecX&, Jacobians& j, MujocoScratch& w) {
                  mujoco_inverse_fd(*f.mujoco, s, w, j);
                  benchmark::DoNotOptimize(j.dq.data());
                });
  register_case("forward_dynamics", "mechdyn_aba", fixture, [](F f, Data& d, DerivativeData&, const State& s, VecX&, Jacobians&,
                                                                MujocoScratch&) {
    benchmark::DoNotOptimize(aba(f.model, d, s.q, s.v, s.tau).data());
  });
  register_case("fd_derivatives", "mechdyn_analytical", fixture,
                [](F f, Data& d, DerivativeData& w2, const State& s, VecX&, Jacobians&, MujocoScratch&) {
                  aba_derivatives(f.model, d, w2, s.q, s.v, s.tau);
                  benchmark::DoNotOptimize(w2.da_dq.data());
                });
  register_case("fd_derivatives", "mechdyn_finite_difference", fixture,
                [](F f, Data& d, DerivativeData&, const State& s, VecX& x, Jacobians& j, MujocoScratch&) {
                  mechdyn_fd_fd(f.model, d, s, x, j);
                  benchmark::DoNotOptimize(j.dq.data());
                });
  register_case("fd_derivatives", "mujoco_finite_difference", fixture,
                [](F f, Data&, DerivativeData&, const State& s, VecX&, Jacobians& j, MujocoScratch& w) {
                  mujoco_forward_fd(*f.mujoco, s, w, j);
                  benchmark::DoNotOptimize(j.dq.data());
                });
  const int nx = 2 * fixture->model.nv;  // no actuators: A only
  auto transition = std::make_shared<std::vector<mjtNum>>(static_cast<std::size_t>(nx * nx));
  register_case("fd_derivatives", "mujoco_transition_fd", fixture,
                [transition](F f, Data&, DerivativeData&, const State& s, VecX&, Jacobians&, MujocoScratch&) {
                  const MujocoPeer& p = *f.mujoco;
                  mju_copy(p.data->qpos, s.mj_q.data(), p.model->nq);
                  mju_copy(p.data->qvel, s.mj_v.data(), p.model->nv);
                  mju_copy(p.data->qfrc_applied, s.mj_tau.data(), p.model->nv);
                  mjd_transitionFD(p.model, p.data, kStep, 1, transition->data(), nullptr, nullptr, nullptr);
                  benchmark::DoNotOptimize(transition->data());
                });
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::vector<std::shared_ptr<Fixture>> fixtures;
  try {
    fixtures.push_back(make_fixture(five_axis_tree(), 1));
    fixtures.push_back(make_fixture(panda_like_arm(), 2));
    fixtures.push_back(make_fixture(branched_tree(), 3));
  } catch (const std::exception& error) {
    std::cerr << "mechdyn_bench_derivatives: " << error.what() << "\n";
    return 1;
  }
  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mujoco.version", std::to_string(mj_version()));
  benchmark::AddCustomContext("pinocchio", "not in Debian: not built; compared independently of the project");
  bool agree = true;
  for (const auto& fixture : fixtures) {
    const double worst = check_agreement(*fixture);
    std::ostringstream line;
    line << "analytical vs MuJoCo finite differences over " << kPoolSize << " states: worst relative " << worst;
    benchmark::AddCustomContext("check." + fixture->model.name, line.str());
    if (!(worst <= kTolerance)) {
      std::cerr << "mechdyn_bench_derivatives: " << fixture->model.name << ": " << line.str() << " exceeds "
                << kTolerance << "; nothing is timed\n";
      agree = false;
    }
  }
  if (!agree) return 1;
  for (const auto& fixture : fixtures) register_cases(fixture);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
