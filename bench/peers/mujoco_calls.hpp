// MuJoCo 2.2.2's counterparts of mechdyn's algorithms, called the way the benchmarks time
// them (docs/benchmarks.md, "Method"): the state set, then only the stages the quantity
// needs. Shared by bench_peers.cpp and bench_growth.cpp. `State` is a benchmark's pooled
// state with MuJoCo's coordinate order in mj_q, mj_v, mj_a, mj_tau (to_mujoco).
// Also the agreement measure both use before timing.
#pragma once

#include <algorithm>
#include <string>

#include "mujoco_peer.hpp"

namespace mechdyn::bench {

inline void mj_set(const MujocoPeer& p, const VecX& q, const VecX* v) {
  mju_copy(p.data->qpos, q.data(), p.model->nq);
  if (v != nullptr) mju_copy(p.data->qvel, v->data(), p.model->nv);
}

/// M (dense, MuJoCo's order) by mj_crb after the position stages.
template <class State>
const mjtNum* mj_mass_matrix(const MujocoPeer& p, const State& s, mjtNum* dense) {
  mj_set(p, s.mj_q, nullptr);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_crb(p.model, p.data);
  mj_fullM(p.model, dense, p.data->qM);
  return dense;
}

/// h(q, v) = C v + g by mj_rne without accelerations.
template <class State>
const mjtNum* mj_bias(const MujocoPeer& p, const State& s) {
  mj_set(p, s.mj_q, &s.mj_v);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_comVel(p.model, p.data);
  mj_rne(p.model, p.data, 0, p.data->qfrc_bias);
  return p.data->qfrc_bias;
}

/// τ = M a + h by mj_rne with the accelerations.
template <class State>
const mjtNum* mj_inverse_dynamics(const MujocoPeer& p, const State& s, mjtNum* result) {
  mj_set(p, s.mj_q, &s.mj_v);
  mju_copy(p.data->qacc, s.mj_a.data(), p.model->nv);
  mj_kinematics(p.model, p.data);
  mj_comPos(p.model, p.data);
  mj_comVel(p.model, p.data);
  mj_rne(p.model, p.data, 1, result);
  return result;
}

/// q̈ by mj_forward with the efforts as qfrc_applied.
template <class State>
const mjtNum* mj_forward_dynamics(const MujocoPeer& p, const State& s) {
  mj_set(p, s.mj_q, &s.mj_v);
  mju_copy(p.data->qfrc_applied, s.mj_tau.data(), p.model->nv);
  mj_forward(p.model, p.data);
  return p.data->qacc;
}

/// The largest |value − reference|∞ / max(1, |reference|∞) seen, and where.
struct Disagreement {
  double worst = 0.0;
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

}  // namespace mechdyn::bench
