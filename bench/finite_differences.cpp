// Centred finite differences of mechdyn's RNEA / ABA and of MuJoCo (finite_differences.hpp).
#include "finite_differences.hpp"

#include <algorithm>
#include <cmath>

#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/rnea.hpp"

namespace mechdyn::bench {

namespace {
constexpr double kStep = kFiniteDifferenceStep;
}  // namespace

// ---- mechdyn: centred differences of its own RNEA and ABA ---------------------------
void mechdyn_inverse_dynamics_fd(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& a, VecX& x,
                                 Jacobians& out) {
  const Eigen::Index nv = model.nv;
  for (Eigen::Index j = 0; j < nv; ++j) {
    x = q, x[j] += kStep;  // revolute: q ⊕ h e_j = q + h e_j
    out.dq.col(j) = rnea(model, data, x, v, a);
    x[j] = q[j] - kStep;
    out.dq.col(j) -= rnea(model, data, x, v, a);
    x = v, x[j] += kStep;
    out.dv.col(j) = rnea(model, data, q, x, a);
    x[j] = v[j] - kStep;
    out.dv.col(j) -= rnea(model, data, q, x, a);
  }
  out.dq /= 2 * kStep;
  out.dv /= 2 * kStep;
}

void mechdyn_forward_dynamics_fd(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                                 VecX& x, Jacobians& out) {
  const Eigen::Index nv = model.nv;
  for (Eigen::Index j = 0; j < nv; ++j) {
    x = q, x[j] += kStep;
    out.dq.col(j) = aba(model, data, x, v, tau);
    x[j] = q[j] - kStep;
    out.dq.col(j) -= aba(model, data, x, v, tau);
    x = v, x[j] += kStep;
    out.dv.col(j) = aba(model, data, q, x, tau);
    x[j] = v[j] - kStep;
    out.dv.col(j) -= aba(model, data, q, x, tau);
    x = tau, x[j] += kStep;
    out.dtau.col(j) = aba(model, data, q, v, x);
    x[j] = tau[j] - kStep;
    out.dtau.col(j) -= aba(model, data, q, v, x);
  }
  out.dq /= 2 * kStep;
  out.dv /= 2 * kStep;
  out.dtau /= 2 * kStep;
}

// ---- MuJoCo: centred differences the way mjd_transitionFD does them ----------------
namespace {

/// Column j of `out` = (y(+) − y(−)) / 2h for each perturbation, the pipeline `run`
/// restarted at the stage that perturbation invalidates; `y` is qacc or qfrc_inverse.
template <typename Run>
void mujoco_fd(const MujocoPeer& p, const VecX& q, const VecX& v, const VecX& a_or_tau, bool inverse, MujocoScratch& w,
               Jacobians& out, double step, Run run) {
  mjModel* m = p.model;
  mjData* d = p.data;
  const int nv = m->nv;
  mju_copy(d->qpos, q.data(), m->nq);
  mju_copy(d->qvel, v.data(), nv);
  if (inverse) mju_copy(d->qacc, a_or_tau.data(), nv);
  else mju_copy(d->qfrc_applied, a_or_tau.data(), nv);
  run(mjSTAGE_NONE);  // the point of expansion, every stage
  const mjtNum* y = inverse ? d->qfrc_inverse : d->qacc;
  w.qpos.assign(d->qpos, d->qpos + m->nq);
  w.plus.resize(static_cast<std::size_t>(nv));
  w.dq.assign(static_cast<std::size_t>(nv), 0.0);
  const auto column = [&](MatX& target, int j) {
    for (int i = 0; i < nv; ++i) target(i, j) = (w.plus[static_cast<std::size_t>(i)] - y[i]) / (2 * step);
  };
  for (int j = 0; j < nv; ++j) {
    // q: tangent perturbation by mj_integratePos, everything recomputed
    for (const double sign : {1.0, -1.0}) {
      mju_copy(d->qpos, w.qpos.data(), m->nq);
      w.dq[static_cast<std::size_t>(j)] = sign * step;
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
    d->qvel[j] = v0 + step;
    run(mjSTAGE_POS);
    w.plus.assign(y, y + nv);
    d->qvel[j] = v0 - step;
    run(mjSTAGE_POS);
    column(out.dv, j);
    d->qvel[j] = v0;
    if (!inverse) {  // τ: positions and velocities kept
      run(mjSTAGE_POS);
      const mjtNum t0 = d->qfrc_applied[j];
      d->qfrc_applied[j] = t0 + step;
      run(mjSTAGE_VEL);
      w.plus.assign(y, y + nv);
      d->qfrc_applied[j] = t0 - step;
      run(mjSTAGE_VEL);
      column(out.dtau, j);
      d->qfrc_applied[j] = t0;
    }
  }
}

}  // namespace

void mujoco_inverse_dynamics_fd(const MujocoPeer& p, const VecX& q, const VecX& v, const VecX& a, MujocoScratch& w,
                                Jacobians& out, double step) {
  mujoco_fd(p, q, v, a, true, w, out, step, [&](int stage) { mj_inverseSkip(p.model, p.data, stage, 1); });
}

void mujoco_forward_dynamics_fd(const MujocoPeer& p, const VecX& q, const VecX& v, const VecX& tau, MujocoScratch& w,
                                Jacobians& out, double step) {
  mujoco_fd(p, q, v, tau, false, w, out, step, [&](int stage) { mj_forwardSkip(p.model, p.data, stage, 1); });
}

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

}  // namespace mechdyn::bench
