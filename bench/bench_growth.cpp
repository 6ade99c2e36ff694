// Growth from 5 to 1000 bodies (issue 29, item 4; docs/benchmarks.md, "Growth from 5 to
// 1000 bodies"): mechdyn's rnea, crba, aba, rnea_derivatives and aba_derivatives beside
// MuJoCo 2.2.2's counterparts on serial chains and balanced binary trees of
// n = 5, 10, 20, 50, 100, 200, 500, 1000 revolute bodies (bench_models.hpp).
//
// MuJoCo's counterparts are the calls bench/bench_peers.cpp times:
//   rnea              mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 1)
//   crba              mj_kinematics + mj_comPos + mj_crb + mj_fullM (the dense M, as crba's)
//   aba               mj_forward (no contacts; armature, damping, friction loss 0)
//   rnea_derivatives  its centred finite differences of inverse dynamics (4 nv calls)
//   aba_derivatives   its centred finite differences of forward dynamics (6 nv calls)
// (finite_differences.hpp says how each difference is taken: as mjd_transitionFD does.)
// MuJoCo's finite differences cost O(n) calls of an O(n)…O(n³) function: they are timed up
// to the first n where one call takes more than kMujocoFdCap (measured once, before the
// run), and not above; the context block says where each family stopped
// ("mujoco_fd_cap.<family>").
//
// Before anything is timed, on kCheckStates states of the pool at each n: M, RNEA and ABA
// against MuJoCo to tolerance(n) (relative to the largest entry, at least 1), and, where
// MuJoCo's differences are timed, the analytical derivatives against them (taken with
// kCheckStep) to derivative_tolerance(n). A disagreement ends the run with exit status 1.
//
// Each timed call takes the next state of a pool of seeded random states and runs from
// (q, v, a or τ) to the result, kinematics included; nothing is allocated in the loop.
// Benchmark names are "<algorithm>/<library>/<family>/<n>", library mechdyn or mujoco,
// family serial_chain or binary_tree; the counter "n" is the number of bodies.
// scripts/growth_table.py prints the table, the ratios and the fitted slopes.
//
// MuJoCo 2.2.2 parses MJCF with tinyxml2, which refuses elements nested more than 100
// deep (XML_ELEMENT_DEPTH_EXCEEDED): a chain of 100 bodies is too deep for one file.
// load_deep_mujoco writes the library's MJCF (mechdyn/io/mjcf.hpp, as load_mujoco does)
// cut every kBodiesPerFile nested bodies into a file of its own, each <include>d inside
// the body above it; MuJoCo pastes the pieces back into one tree before compiling it.
//
// Own flag (taken out before Google Benchmark reads the rest): --max_bodies=N builds only
// the models of at most N bodies (scripts/bench.sh --smoke: --max_bodies=20; CI: 100,
// filtered to n = 5 and 100).
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
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
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "peers/mujoco_calls.hpp"
#include "peers/mujoco_peer.hpp"
#include "random_model.hpp"

namespace mechdyn::bench {
namespace {

constexpr int kSizes[] = {5, 10, 20, 50, 100, 200, 500, 1000};
// M, RNEA, ABA against MuJoCo: 1e-8, and 1e-7 on the 1000-body models. Both q̈ lose about
// cond(M)·ε, which grows fast along a chain: the worst found is ABA's q̈ at 6e-11 on the
// 100-chain, 6e-9 on the 500-chain, 3.2e-8 on the 1000-chain (binary trees: 1e-12 at most).
double tolerance(int n) { return n < 1000 ? 1e-8 : 1e-7; }
// The derivatives against MuJoCo's centred differences: 1e-6 up to 50 bodies (as
// bench_peers.cpp), 1e-5 above, where the differences' own error grows (1.2e-6 on the
// 100-chain; 7e-8 on the 50-chain).
double derivative_tolerance(int n) { return n <= 50 ? 1e-6 : 1e-5; }
constexpr int kCheckStates = 8;
constexpr double kMujocoFdCap = 0.05;  // s: one call of MuJoCo's finite differences above this is not timed

constexpr int kBodiesPerFile = 50;  // nested <body> elements per MJCF file (tinyxml2 allows 100 levels)

struct State {
  VecX q, v, a, tau;
  VecX mj_q, mj_v, mj_a, mj_tau;  // the same numbers in MuJoCo's coordinate order
};

struct Fixture {
  std::string family;
  int n = 0;
  Model model;
  std::vector<State> pool;  // size a power of two: the index wraps with a mask
  std::unique_ptr<MujocoPeer> mujoco;
  bool mujoco_fd = false;  // MuJoCo's finite differences timed at this n
};

/// Everything one timed call may write into, allocated before the loop.
struct Workspace {
  Data data;
  DerivativeData derivatives;
  Jacobians jacobians;
  MujocoScratch mujoco;
  std::vector<mjtNum> mj_dense, mj_result;
  explicit Workspace(const Model& m)
      : data(m),
        derivatives(m),
        jacobians(m.nv),
        mj_dense(static_cast<std::size_t>(m.nv) * static_cast<std::size_t>(m.nv)),
        mj_result(static_cast<std::size_t>(m.nv)) {}
};

// ---- MuJoCo's model of a deep tree ------------------------------------------------------
/// Moves every <body> element that opens at body depth kBodiesPerFile of `xml` (with its
/// subtree) into a file of its own in `directory`, root element <mujoco>, and puts an
/// <include> of it in its place; recursively, so no file nests more than kBodiesPerFile
/// bodies. The written file names are appended to `files`.
std::string split_mjcf(const std::string& xml, const std::string& directory, std::vector<std::string>& files) {
  std::string out;
  int depth = 0;            // <body> elements open at `at`
  std::size_t at = 0, copied = 0;
  while (true) {
    const std::size_t open = xml.find("<body", at), close = xml.find("</body>", at);
    if (open == std::string::npos && close == std::string::npos) break;
    if (close < open) {
      --depth;
      at = close + 7;
      continue;
    }
    const std::size_t end = xml.find('>', open);
    const bool self_closing = xml[end - 1] == '/';
    if (depth < kBodiesPerFile || self_closing) {
      if (!self_closing) ++depth;
      at = end + 1;
      continue;
    }
    std::size_t scan = end + 1;  // the matching </body>
    for (int level = 1; level > 0;) {
      const std::size_t o = xml.find("<body", scan), c = xml.find("</body>", scan);
      if (c == std::string::npos) throw std::runtime_error("unbalanced <body> in the written MJCF");
      if (o < c) {
        const std::size_t e = xml.find('>', o);
        if (xml[e - 1] != '/') ++level;
        scan = e + 1;
      } else {
        --level;
        scan = c + 7;
      }
    }
    const std::string name = "part_" + std::to_string(files.size()) + ".xml";
    files.push_back(name);
    const std::string inner = split_mjcf(xml.substr(open, scan - open), directory, files);
    std::ofstream(directory + "/" + name) << "<mujoco>\n" << inner << "\n</mujoco>\n";
    out += xml.substr(copied, open - copied) + "<include file=\"" + name + "\"/>";
    copied = at = scan;
  }
  return out + xml.substr(copied);
}

/// load_mujoco (peers/mujoco_peer.hpp) for trees of any depth: the MJCF split by
/// split_mjcf. Trees only (no loops). Throws std::runtime_error when MuJoCo rejects it.
std::unique_ptr<MujocoPeer> load_deep_mujoco(const Model& model) {
  char directory[] = "/tmp/mechdyn_growth_XXXXXX";
  if (mkdtemp(directory) == nullptr) throw std::runtime_error("cannot create a temporary directory");
  std::vector<std::string> files;
  const std::string main_file = std::string(directory) + "/model.xml";
  std::ofstream(main_file) << split_mjcf(write_mjcf(model), directory, files);
  auto peer = std::make_unique<MujocoPeer>();
  char error[1000] = "";
  peer->model = mj_loadXML(main_file.c_str(), nullptr, error, sizeof error);
  for (const std::string& name : files) std::remove((std::string(directory) + "/" + name).c_str());
  std::remove(main_file.c_str());
  rmdir(directory);
  if (peer->model == nullptr) throw std::runtime_error("MuJoCo rejects the MJCF of '" + model.name + "': " + error);
  peer->data = mj_makeData(peer->model);
  if (peer->model->nv != model.nv || peer->model->nq != model.nq)
    throw std::runtime_error("MuJoCo's coordinate counts differ from mechdyn's for '" + model.name + "'");
  for (int i = 0; i < model.nv; ++i) {  // as load_mujoco
    const int l = model.dof_body[static_cast<std::size_t>(i)];
    const int body = mj_name2id(peer->model, mjOBJ_BODY, model.bodies[static_cast<std::size_t>(l)].name.c_str());
    peer->dof.push_back(peer->model->body_dofadr[body] + (i - model.joints[static_cast<std::size_t>(l)].v_index));
  }
  return peer;
}

std::shared_ptr<Fixture> make_fixture(const std::string& family, int n, unsigned seed) {
  auto f = std::make_shared<Fixture>();
  f->family = family;
  f->n = n;
  f->model = family == "serial_chain" ? serial_chain(n) : binary_tree(n);
  const Model& m = f->model;
  f->mujoco = load_deep_mujoco(m);
  // 256 states up to 100 bodies (as bench_peers.cpp), 32 above (a 1000-body state is 64 kB).
  f->pool.resize(n <= 100 ? 256 : 32);
  std::mt19937 rng(seed);
  for (State& s : f->pool) {
    s.q = testing::random_configuration(m, rng);
    s.v = testing::random_vector(m.nv, rng, 1.0);
    s.a = testing::random_vector(m.nv, rng, 1.0);
    s.tau = testing::random_vector(m.nv, rng, 5.0);
    s.mj_q = to_mujoco(s.q, f->mujoco->dof);  // revolute only: nq = nv
    s.mj_v = to_mujoco(s.v, f->mujoco->dof);
    s.mj_a = to_mujoco(s.a, f->mujoco->dof);
    s.mj_tau = to_mujoco(s.tau, f->mujoco->dof);
  }
  return f;
}

// MuJoCo calls and the agreement measure: peers/mujoco_calls.hpp.

/// M, RNEA and ABA against MuJoCo on kCheckStates states of the pool.
Disagreement check_dynamics(const Fixture& f) {
  const Model& model = f.model;
  const MujocoPeer& mj = *f.mujoco;
  Data data(model);
  Disagreement d;
  std::vector<mjtNum> dense(static_cast<std::size_t>(model.nv) * static_cast<std::size_t>(model.nv));
  std::vector<mjtNum> result(static_cast<std::size_t>(model.nv));
  MatX mj_mass(model.nv, model.nv);
  for (int k = 0; k < kCheckStates; ++k) {
    const State& s = f.pool[static_cast<std::size_t>(k)];
    mj_mass_matrix(mj, s, dense.data());
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < model.nv; ++j)
        mj_mass(i, j) = dense[static_cast<std::size_t>(mj.dof[i]) * static_cast<std::size_t>(model.nv) +
                              static_cast<std::size_t>(mj.dof[j])];
    const MatX& m = crba(model, data, s.q);
    d.compare(Eigen::Map<const VecX>(m.data(), m.size()), Eigen::Map<const VecX>(mj_mass.data(), mj_mass.size()),
              "M crba");
    d.compare(rnea(model, data, s.q, s.v, s.a), from_mujoco(mj_inverse_dynamics(mj, s, result.data()), mj.dof),
              "tau rnea");
    d.compare(aba(model, data, s.q, s.v, s.tau), from_mujoco(mj_forward_dynamics(mj, s), mj.dof), "ddq aba");
  }
  return d;
}

/// The analytical derivatives against MuJoCo's centred differences at kCheckStep.
double check_derivatives(const Fixture& f) {
  Data data(f.model);
  DerivativeData work(f.model);
  Jacobians mj(f.model.nv);
  MujocoScratch w;
  const std::vector<int>& dof = f.mujoco->dof;
  double worst = 0.0;
  for (int k = 0; k < kCheckStates; ++k) {
    const State& s = f.pool[static_cast<std::size_t>(k)];
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

/// Seconds of one call of MuJoCo's forward-dynamics differences (the dearer of its two).
double mujoco_fd_seconds(const Fixture& f) {
  Jacobians out(f.model.nv);
  MujocoScratch w;
  const State& s = f.pool.front();
  mujoco_forward_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_tau, w, out);  // sizes the scratch
  const auto start = std::chrono::steady_clock::now();
  mujoco_forward_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_tau, w, out);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- registration ------------------------------------------------------------------
/// Registers "<algorithm>/<library>/<family>/<n>"; `run(fixture, workspace, state)`
/// returns a pointer to its result.
template <typename Run>
void register_case(const std::string& algorithm, const std::string& library, const std::shared_ptr<Fixture>& fixture,
                   Run run) {
  const std::string name = algorithm + "/" + library + "/" + fixture->family + "/" + std::to_string(fixture->n);
  benchmark::RegisterBenchmark(name.c_str(), [fixture, run](benchmark::State& state) {
    Workspace work(fixture->model);
    const std::size_t mask = fixture->pool.size() - 1;
    std::size_t next = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(run(*fixture, work, fixture->pool[next]));
      benchmark::ClobberMemory();
      next = (next + 1) & mask;
    }
    state.counters["n"] = fixture->n;
  })->Unit(benchmark::kMicrosecond);
}

using F = const Fixture&;
using W = Workspace&;

void register_cases(const std::shared_ptr<Fixture>& fixture) {
  register_case("rnea", "mechdyn", fixture,
                [](F f, W w, const State& s) { return rnea(f.model, w.data, s.q, s.v, s.a).data(); });
  register_case("rnea", "mujoco", fixture,
                [](F f, W w, const State& s) { return mj_inverse_dynamics(*f.mujoco, s, w.mj_result.data()); });
  register_case("crba", "mechdyn", fixture, [](F f, W w, const State& s) { return crba(f.model, w.data, s.q).data(); });
  register_case("crba", "mujoco", fixture,
                [](F f, W w, const State& s) { return mj_mass_matrix(*f.mujoco, s, w.mj_dense.data()); });
  register_case("aba", "mechdyn", fixture,
                [](F f, W w, const State& s) { return aba(f.model, w.data, s.q, s.v, s.tau).data(); });
  register_case("aba", "mujoco", fixture, [](F f, W, const State& s) { return mj_forward_dynamics(*f.mujoco, s); });
  register_case("rnea_derivatives", "mechdyn", fixture, [](F f, W w, const State& s) {
    rnea_derivatives(f.model, w.data, w.derivatives, s.q, s.v, s.a);
    return w.derivatives.dtau_dq.data();
  });
  register_case("aba_derivatives", "mechdyn", fixture, [](F f, W w, const State& s) {
    aba_derivatives(f.model, w.data, w.derivatives, s.q, s.v, s.tau);
    return w.derivatives.da_dq.data();
  });
  if (!fixture->mujoco_fd) return;
  register_case("rnea_derivatives", "mujoco", fixture, [](F f, W w, const State& s) {
    mujoco_inverse_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_a, w.mujoco, w.jacobians);
    return w.jacobians.dq.data();
  });
  register_case("aba_derivatives", "mujoco", fixture, [](F f, W w, const State& s) {
    mujoco_forward_dynamics_fd(*f.mujoco, s.mj_q, s.mj_v, s.mj_tau, w.mujoco, w.jacobians);
    return w.jacobians.dq.data();
  });
}

/// Takes --max_bodies=N out of argv; 1000 when absent.
int take_max_bodies(int& argc, char** argv) {
  int max_bodies = 1000;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const char* prefix = "--max_bodies=";
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0)
      max_bodies = std::stoi(argv[i] + std::strlen(prefix));
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  return max_bodies;
}

}  // namespace
}  // namespace mechdyn::bench

int main(int argc, char** argv) {
  using namespace mechdyn::bench;
  int max_bodies = 1000;
  try {
    max_bodies = take_max_bodies(argc, argv);
  } catch (const std::exception&) {
    std::cerr << "mechdyn_bench_growth: --max_bodies needs a whole number\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  benchmark::AddCustomContext("mechdyn.commit", MECHDYN_GIT_COMMIT);
  benchmark::AddCustomContext("mechdyn.cpu", mechdyn::bench::cpu_model_name());
  benchmark::AddCustomContext("mechdyn.build_type", MECHDYN_BUILD_TYPE);
  benchmark::AddCustomContext("mujoco.version", std::to_string(mj_version()));

  std::vector<std::shared_ptr<Fixture>> fixtures;
  bool agree = true;
  try {
    unsigned seed = 1;
    for (const std::string family : {"serial_chain", "binary_tree"}) {
      bool fd_capped = false;
      std::string cap = "timed at every n";
      for (int n : kSizes) {
        if (n > max_bodies) break;
        auto f = make_fixture(family, n, seed++);
        const std::string key = family + "_" + std::to_string(n);
        const Disagreement d = check_dynamics(*f);
        std::ostringstream line;
        line << "M, RNEA, ABA vs MuJoCo over " << kCheckStates << " states: worst relative " << d.worst << " ("
             << d.where << ")";
        if (!fd_capped) {
          const double seconds = mujoco_fd_seconds(*f);
          if (seconds > kMujocoFdCap) {
            fd_capped = true;
            std::ostringstream why;
            why << "timed up to the n below " << n << " (one call of its forward-dynamics differences at n = " << n
                << ": " << seconds * 1e3 << " ms > " << kMujocoFdCap * 1e3 << " ms)";
            cap = why.str();
          }
        }
        f->mujoco_fd = !fd_capped;
        if (f->mujoco_fd) {
          const double worst = check_derivatives(*f);
          line << "; derivatives vs MuJoCo's finite differences: worst relative " << worst;
          if (!(worst <= derivative_tolerance(n))) {
            std::cerr << "mechdyn_bench_growth: " << key << ": derivatives differ from MuJoCo's by " << worst
                      << " > " << derivative_tolerance(n) << "; nothing is timed\n";
            agree = false;
          }
        }
        benchmark::AddCustomContext("check." + key, line.str());
        if (!(d.worst <= tolerance(n))) {
          std::cerr << "mechdyn_bench_growth: " << key << ": " << line.str() << " exceeds " << tolerance(n)
                    << "; nothing is timed\n";
          agree = false;
        }
        fixtures.push_back(std::move(f));
      }
      benchmark::AddCustomContext("mujoco_fd_cap." + family, cap);
    }
  } catch (const std::exception& error) {
    std::cerr << "mechdyn_bench_growth: " << error.what() << "\n";
    return 1;
  }
  if (!agree) return 1;
  for (const auto& fixture : fixtures) register_cases(fixture);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
